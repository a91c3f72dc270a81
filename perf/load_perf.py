"""The load section: many clients at once on a real server, for a fixed time.

    python -m perf.run load [--records 10000] [--clients 16] [--seconds 30] [--stores KINDS]

The synthetic catalog is built into a validated store folder (untimed;
``perf.served_store``: once in a run, shared with the query, pages and startup sections). Then, for
each kind of store ``--stores`` names (``perf.serving.serving_store``), ours and the engine
it is in front of, one after the other:

- ours: ``benchgraph serve`` as a user starts it (its default threads and query
  processes, its time and row limits): ``--store oxigraph:DIR`` of that folder, the record
  files built into memory, or ``--store sparql:URL`` of a real ``oxigraph serve`` the catalog
  was pushed into (untimed);
- the baseline: Oxigraph's own HTTP server (pip ``oxigraph``): ``oxigraph serve-read-only``
  over the folder's generation (the same RocksDB data behind the same SPARQL Protocol), or
  the ``oxigraph serve`` behind ``sparql:``; a memory store has none.

Each gets the same load: ``--clients`` threads, each on its own kept-alive connection, for
``--seconds``, each sending ``GET /sparql`` requests in its own fixed random order over the
mix: every named query with its parameters (the text our store runs, VALUES included), and
ad-hoc SPARQL a person types in the editor (a class count, a label search, a two-hop path, a
node's statements, an ASK, a DESCRIBE). Reported per server: requests per second, latency at
p50, p99 and max, and errors (any answer but a 200, or a broken connection), which must be 0
on ours; and ours against its baseline.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perf.common import Headline, PerfError, SectionReport, table
from perf.common import progress as say
from perf.query_perf import Asked, asked_queries, first_value, named_queries, parameters_of
from perf.served_store import served_store
from perf.serving import STORE_LABELS, Client, Served, serving_store

NAME = "load"
HELP = "requests/s, p50/p99 and errors of 16 clients on a real server, against Oxigraph's own"
TARGET_ERRORS = 0
_PREFIXES = ("PREFIX bench: <https://w3id.org/benchgraph/ontology#>\n"
             "PREFIX dcterms: <http://purl.org/dc/terms/>\n"
             "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--clients", type=int, default=16, metavar="N",
                        help="concurrent clients (default 16)")
    parser.add_argument("--seconds", type=float, default=30.0, metavar="S",
                        help="how long each server is loaded (default 30)")


@dataclass
class Tally:
    """What the clients of one run saw: each answer's latency, and what went wrong."""

    latencies: list[float] = field(default_factory=list)
    """Seconds of every request answered with a 200."""
    errors: Counter[str] = field(default_factory=Counter)
    """How many of each kind of error: ``HTTP 503``, ``ConnectionResetError``."""
    first_errors: dict[str, str] = field(default_factory=dict)
    """Each kind of error's first occurrence: the request's name and what the answer said."""
    by_name: dict[str, list[float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, name: str, seconds: float, error: str | None, said: str = "") -> None:
        with self.lock:
            if error is None:
                self.latencies.append(seconds)
                self.by_name.setdefault(name, []).append(seconds)
            else:
                self.errors[error] += 1
                self.first_errors.setdefault(error, f"{name}: {said}" if said else name)


# -- the section ----------------------------------------------------------------------------

def run(args: argparse.Namespace, catalog: Path, workdir: Path) -> SectionReport:
    from graph.settings import Settings

    store, _built, _reused = served_store(catalog, workdir)
    generation = _generation(store)
    mix = request_mix(generation, Settings().base)
    say(f"load: {len(mix)} kinds of request, {args.clients} clients, {args.seconds:g} s each")
    figures: dict[str, Any] = {"clients": args.clients, "seconds": args.seconds,
                               "mix": [asked.name for asked in mix], "servers": {},
                               "pairs": {}}
    for kind in args.stores:
        with serving_store(kind, catalog, store, workdir) as (served, engine):
            ours = f"benchgraph serve --store {STORE_LABELS[kind]}"
            figures["servers"][ours] = _loaded(ours, served, mix, args)
            alone = ENGINES.get(kind)
            if engine is not None and alone is not None:
                figures["servers"][alone] = _loaded(alone, engine, mix, args)
        figures["pairs"][kind] = [ours, alone]
    return _report(figures)


ENGINES = {"oxigraph": "oxigraph serve-read-only", "sparql": "oxigraph serve (behind sparql:)"}
"""The engine each kind of store is in front of, loaded alike as its baseline (a memory
store has none with a server of its own)."""


def _loaded(name: str, served: Served, mix: Sequence[Asked], args: argparse.Namespace
            ) -> dict[str, Any]:
    say(f"load: {name} at {served.url}, ready in {served.ready_seconds:.2f} s")
    tally, elapsed = send_mix(served, mix, args.clients, args.seconds)
    figures = _figures(tally, elapsed)
    say(f"load: {name}: {figures['requests_per_second']:.1f} req/s, "
        f"{sum(tally.errors.values())} errors")
    return figures


def pairs_of(data: dict[str, Any]) -> dict[str, tuple[str, str | None]]:
    """Each kind of store measured: its server's name in ``"servers"``, and its engine's
    (None: none). A run from before ``--stores`` measured the store folder alone."""
    if "pairs" not in data:
        return {"oxigraph": ("benchgraph serve", "oxigraph serve-read-only")}
    return {kind: (ours, alone) for kind, (ours, alone) in data["pairs"].items()}


def headline(data: dict[str, Any]) -> Headline:
    """Requests/s under the clients on each kind of store, and on the engine it is in front
    of, and the errors of ours (``perf.run compare``)."""
    servers, figures = data["servers"], {}
    for kind, (ours, alone) in pairs_of(data).items():
        engine = "-" if alone is None else f"{servers[alone]['requests_per_second']:.1f}"
        figures[f"requests/s at {data['clients']} clients (ours / its engine), "
                f"{STORE_LABELS[kind]}"] = \
            f"{servers[ours]['requests_per_second']:.1f} / {engine}"
        figures[f"errors (ours), {STORE_LABELS[kind]}"] = f"{sum(servers[ours]['errors'].values())}"
    return figures


def _generation(store: Path) -> Path:
    from graph.store.disk import read_manifest

    return store / read_manifest(store).generation


def request_mix(generation: Path, base: str) -> list[Asked]:
    """Every named query with parameters from the catalog, and the ad-hoc queries."""
    import pyoxigraph as ox

    data = ox.Store.read_only(str(generation))
    parameters = parameters_of(data)
    node = "<" + first_value(data, _PREFIXES + "SELECT ?v WHERE { ?v bench:catalogued true } "
                             "ORDER BY ?v LIMIT 1") + ">"
    del data  # the servers open the folder themselves
    select = "application/sparql-results+json"
    ad_hoc = {
        "count by class": "SELECT ?class (COUNT(?s) AS ?n) WHERE { ?s a ?class } "
                          "GROUP BY ?class ORDER BY DESC(?n)",
        "label search": "SELECT ?b ?label WHERE { ?b a bench:Benchmark ; rdfs:label ?label "
                        "FILTER(CONTAINS(LCASE(?label), \"med\")) } ORDER BY ?label LIMIT 50",
        "two hops": "SELECT ?b ?org ?other WHERE { ?b bench:publisher ?org . "
                    "?other bench:publisher ?org } LIMIT 200",
        "a node's statements": f"SELECT ?p ?o WHERE {{ {node} ?p ?o }}",
        "ask": "ASK { ?b bench:catalogued true }",
    }
    mix = asked_queries(named_queries(""), parameters, base)
    mix += [Asked(name, _PREFIXES + text, select, {}) for name, text in ad_hoc.items()]
    mix.append(Asked("describe", f"DESCRIBE {node}", "text/turtle", {}))
    return mix


def send_mix(served: Served, mix: Sequence[Asked], clients: int, seconds: float
          ) -> tuple[Tally, float]:
    """``clients`` threads sending the mix for ``seconds``; the tally and the time taken
    until the last of them finished its last request."""
    tally = Tally()
    deadline = time.perf_counter() + seconds

    def client(number: int) -> None:
        order = list(mix)
        random.Random(number).shuffle(order)
        connection = Client(served.url, timeout=120.0)
        try:
            index = 0
            while time.perf_counter() < deadline:
                asked = order[index % len(order)]
                index += 1
                started = time.perf_counter()
                said = ""
                try:
                    status, body = connection.sparql(served.sparql_path, asked.text,
                                                     asked.accept)
                    error = None if status == 200 else f"HTTP {status}"
                    said = "" if status == 200 else error_message(body)
                except OSError as failure:
                    error, said = type(failure).__name__, str(failure)
                tally.add(asked.name, time.perf_counter() - started, error, said)
        finally:
            connection.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally, time.perf_counter() - started


def error_lines(server: str, figures: dict[str, Any]) -> list[str]:
    """A line for each kind of error the clients of ``server`` met (its ``errors`` and
    ``first_errors``): how many, and the first request that met it with what it said."""
    return [f"{server}: {count} x {error}, the first on {figures['first_errors'][error]}"
            for error, count in sorted(figures["errors"].items())]


def error_message(body: bytes, limit: int = 300) -> str:
    """What an error answer says: our JSON error's message, or an engine's text, on one line
    and cut at ``limit`` characters."""
    text = body.decode("utf-8", "replace")
    try:
        text = json.loads(text)["error"]["message"]
    except (ValueError, KeyError, TypeError):
        pass
    return " ".join(str(text).split())[:limit]


def _percentile(values: Sequence[float], percent: int) -> float:
    ordered = sorted(values)
    if len(ordered) < 2:
        return ordered[0] if ordered else float("nan")
    return statistics.quantiles(ordered, n=100, method="inclusive")[percent - 1]


def _figures(tally: Tally, elapsed: float) -> dict[str, Any]:
    answered = len(tally.latencies)
    if not answered:
        raise PerfError(f"no request was answered: {dict(tally.errors)}")
    return {"requests": answered, "elapsed_seconds": round(elapsed, 2),
            "requests_per_second": answered / elapsed,
            "p50_ms": _percentile(tally.latencies, 50) * 1000,
            "p99_ms": _percentile(tally.latencies, 99) * 1000,
            "max_ms": max(tally.latencies) * 1000,
            "errors": dict(tally.errors),
            "first_errors": dict(tally.first_errors),
            "p50_ms_by_request": {name: round(statistics.median(values) * 1000, 2)
                                  for name, values in sorted(tally.by_name.items())}}


def _report(figures: dict[str, Any]) -> SectionReport:
    rows = []
    for name, figure in figures["servers"].items():
        errors = sum(figure["errors"].values())
        rows.append([name, f"{figure['requests']:,}", f"{figure['requests_per_second']:.1f}",
                     f"{figure['p50_ms']:.1f}", f"{figure['p99_ms']:.1f}",
                     f"{figure['max_ms']:.0f}", str(errors)])
    ratios, errors = {}, {}
    for kind, (ours, alone) in pairs_of(figures).items():
        errors[kind] = sum(figures["servers"][ours]["errors"].values())
        if alone is not None:
            ratios[kind] = (figures["servers"][ours]["requests_per_second"]
                            / figures["servers"][alone]["requests_per_second"])
    figures["throughput_ratio"] = ratios
    figures["met"] = all(count == TARGET_ERRORS for count in errors.values())
    lines = [table(["server", "requests", "req/s", "p50 ms", "p99 ms", "max ms", "errors"],
                   rows), "",
             f"{figures['clients']} clients for {figures['seconds']:g} s each, a mix of "
             f"{len(figures['mix'])} requests (every named query, and ad-hoc SPARQL), GET "
             "/sparql (an engine's own query path) on kept-alive connections, the same catalog"]
    lines += [f"{STORE_LABELS[kind]}: "
              + (f"{ratios[kind]:.2f}x its engine's requests/s; " if kind in ratios else "")
              + f"errors {errors[kind]} (target {TARGET_ERRORS}: "
              + f"{'met' if errors[kind] == TARGET_ERRORS else 'MISSED'})"
              for kind in errors]
    for name, figure in figures["servers"].items():
        lines += error_lines(name, figure)
    return SectionReport(NAME, "\n".join(lines), figures)
