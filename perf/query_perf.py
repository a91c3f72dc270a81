"""The query section: every named query through the served graph, against pyoxigraph alone.

    python -m perf.run query [--records 10000] [--rounds 3] [--queries a,b] [--query-timeout S]
                             [--stores memory,oxigraph,sparql]
    python -m perf.query_perf [same options]          # the query section alone

The catalog is put in a validated store folder (``perf.served_store``, what ``benchgraph build
--store oxigraph:DIR`` does) and pushed into a real ``oxigraph serve`` (``perf.serving.
pushed_engine``, what ``benchgraph push --validate`` does), both untimed and both shared with
the later sections of the run (pages, startup, load). Then one child process (``python -m
perf.query_perf measure ...``) times each named query six ways, each store against its
floor:

- floor: the store folder's merge (its default graph) loaded into an in-memory pyoxigraph
  ``Store``, the query run directly with ``Store.query`` (parameters in the same VALUES block
  the store writes), every solution (or triple) read;
- memory: ``GET /sparql`` on a real ``benchgraph serve`` of the catalog (a memory store;
  one server process) over one kept-alive connection, the whole body read (JSON results,
  Turtle for CONSTRUCT): what a SPARQL client pays;
- disk floor: pyoxigraph directly on the store folder (``Store.read_only``), as the floor;
- disk: ``GET /sparql`` on ``benchgraph serve --store oxigraph:DIR`` of that folder;
- engine: ``GET /query`` on the ``oxigraph serve`` the catalog was pushed into, the query
  with our prefixes and base as its prologue (the engine's default graph holds the merge the
  push wrote), as the floor;
- remote: ``GET /sparql`` on ``benchgraph serve --store sparql:URL`` of that engine.

``--stores`` leaves out the pairs of the kinds not named (the suite's option): at 100,000
records the memory store's server takes minutes and 15 GB to start. The store folder and its
floor are always built: the queries' parameters are picked from it.

Each query runs once untimed on each engine, then ``--rounds`` times; medians are reported.
The target (issue 9): the endpoint within max(2x, +10 ms) of the engine alone, every query:
the memory store against the floor, the store folder against pyoxigraph on the same folder
(RocksDB answers these queries 2-5x slower than memory, whoever asks), the sparql: store
against the Oxigraph server it reads. A floor runs in a
forked copy of this process when it is untimed, so that a runaway can be stopped inside
Rust; the endpoints have the store's own time limit.
"""

import argparse
import json
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack, closing
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from perf.common import Headline, PerfError, SectionReport, run_phase, run_phase_command, table
from perf.common import progress as say
from perf.served_store import served_store
from perf.serving import (
    OXIGRAPH_QUERY_PATH,
    Client,
    Served,
    files_made,
    pushed_engine,
    said,
    serving_benchgraph,
)

NAME = "query"
HELP = "every named query through each store's endpoint, against the engine alone"
MODULE = "perf.query_perf"
TARGET_RATIO = 2.0
TARGET_SLACK = 0.010
"""Seconds of overhead the target allows a query however fast the floor is (issue 9)."""
ENGINES = ("floor", "memory", "disk floor", "disk", "engine", "remote")
PAIRS = (("memory", "floor"), ("disk", "disk floor"), ("remote", "engine"))
"""Each endpoint, and the engine alone it is held to."""
STORES = {"memory": "memory", "disk": "oxigraph", "remote": "sparql"}
"""Each endpoint's kind of store, as ``--stores`` names it (``perf.common.STORE_KINDS``)."""


LOADS = {"store": "store folder built (shared)", "floor": "floor loaded",
         "push": "pushed into oxigraph serve (shared)",
         "memory": "serve ready (memory, building it)",
         "disk": "serve ready (oxigraph:DIR)", "remote": "serve ready (sparql:)",
         "files": "its search index and dumps made from the engine after"}
"""What each untimed step of the measurement did, by its key in ``load_seconds``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--query-timeout", type=float, default=120.0, metavar="S",
                        help="stop one run of one query after S seconds (default 120)")


# -- the section (parent process) ------------------------------------------------------------

def run(args: argparse.Namespace, catalog: Path, workdir: Path) -> SectionReport:
    store, built, _reused = served_store(catalog, workdir)
    loads = {"store": round(built.seconds, 2)}
    push_peak = None
    with ExitStack() as stack:
        engine = ""
        if "sparql" in args.stores:
            pushed = stack.enter_context(pushed_engine(catalog, workdir))
            engine, loads["push"], push_peak = pushed.engine.url, pushed.seconds, pushed.peak_mb
        say(f"query: timing the named queries on {catalog.name}")
        measured = run_phase("measure", [str(catalog), str(workdir), str(store), engine,
                                         str(args.rounds), args.queries,
                                         str(args.query_timeout), ",".join(args.stores)],
                             workdir, module=MODULE)
    detail = measured.detail
    detail["load_seconds"] = {**loads, **detail["load_seconds"]}
    detail["push_peak_mb"] = push_peak
    return _report(detail, measured.peak_rss_bytes / 2**20)


def headline(data: dict[str, Any]) -> Headline:
    """Each named query's median through each store's endpoint against the engine it is in
    front of (``PAIRS``; ``perf.run compare``)."""
    ratios = data["ratios"]
    stores = " / ".join(STORES[served] for served, _ in PAIRS)
    return {f"{name}, x the engine alone ({stores})":
            " / ".join(_ratio(ratios.get(f"{a}/{b}", {}).get(name)) for a, b in PAIRS)
            for name in data["queries"]}


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"  # "-": a run from before the pair


def target(floor: float) -> float:
    """The most a query may take through the endpoint, given the floor's time."""
    return max(TARGET_RATIO * floor, floor + TARGET_SLACK)


def chosen_pairs(stores: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs (``PAIRS``) whose endpoint is of a kind in ``stores``."""
    return [pair for pair in PAIRS if STORES[pair[0]] in stores]


def _engines(pairs: Sequence[tuple[str, str]]) -> list[str]:
    return [engine for engine in ENGINES if any(engine in pair for pair in pairs)]


def _report(detail: dict[str, Any], peak_mb: float) -> SectionReport:
    pairs = chosen_pairs(detail.get("stores", STORES.values()))
    engines = _engines(pairs)
    rows, ratios = [], {pair: {} for pair in pairs}  # type: ignore[var-annotated]
    met = dict.fromkeys(pairs, 0)
    for name, figures in detail["queries"].items():
        failed = figures.get("failed", {})
        medians = {engine: _median(figures[engine]) for engine in engines
                   if engine not in failed}
        verdicts = []
        for pair in pairs:
            if pair[0] in failed or pair[1] in failed:
                verdicts += ["-", "-", "failed"]
                continue
            served, alone = medians[pair[0]][0], medians[pair[1]][0]
            ratios[pair][name] = served / max(alone, 1e-6)
            ok = served <= target(alone)
            met[pair] += ok
            verdicts += [f"{ratios[pair][name]:,.2f}x", f"{1000 * (served - alone):+,.1f}",
                         "met" if ok else "MISSED"]
        rows.append([name, str(figures["rows"]), *(_cell(figures, e) for e in engines),
                     *verdicts])
    headers = ["query (median of rounds)", "rows", *(f"{e} s" for e in engines),
               *(heading for served, alone in pairs
                 for heading in (f"{served}/{alone}", "+ms", "target"))]
    lines = [table(headers, rows), "",
             f"{detail['records']:,} records, {detail['quads']:,} quads, "
             f"{detail['triples']:,} distinct triples; untimed: "
             + ", ".join(f"{LOADS[step]} in {seconds:.1f} s"
                         for step, seconds in detail["load_seconds"].items())
             + f"; peak {peak_mb:,.0f} MB (this process)"
             + (f", {detail['push_peak_mb']:,.0f} MB (benchgraph push --validate)"
                if detail.get("push_peak_mb") else ""),
             f"parameters: {json.dumps(detail['parameters'], ensure_ascii=False)}"]
    lines += [f"failed: {name} on {engine}: {reason}"
              for name, figures in detail["queries"].items()
              for engine, reason in figures.get("failed", {}).items()]
    for pair in pairs:
        values = ratios[pair].values()
        median = f"{statistics.median(values):.2f}x" if values else "-"
        lines.append(f"{pair[0]} endpoint within max({TARGET_RATIO:g}x, +10 ms) of {pair[1]}: "
                     f"{met[pair]} of {len(values)} queries; median ratio {median}")
    data = {"target_ratio": TARGET_RATIO, "target_slack_s": TARGET_SLACK,
            "ratios": {f"{a}/{b}": {k: round(v, 3) for k, v in ratios[(a, b)].items()}
                       for a, b in pairs}, **detail}
    return SectionReport("query", "\n".join(lines), data)


def _median(runs: list[float | None]) -> tuple[float, bool]:
    """The median of the runs, and whether some run hit the timeout (None)."""
    timed_out = any(run is None for run in runs)
    values = [run if run is not None else float("inf") for run in runs]
    return statistics.median(values), timed_out


def _cell(figures: dict[str, Any], engine: str) -> str:
    """One query's median on one engine as the table shows it."""
    if engine in figures.get("failed", {}):
        return "failed"
    return _shown(*_median(figures[engine]))


def _shown(seconds: float, timed_out: bool) -> str:
    return "timeout" if seconds == float("inf") else f"{'>' if timed_out else ''}{seconds:.4f}"


# -- the measurement (child process) ---------------------------------------------------------

def _timed(work: Callable[[], object]) -> float | None:
    """Seconds ``work`` took in this process; None when a limit of the store (its time, its
    memory, its share of long queries) stopped it."""
    from graph.store.process.stops import QueryStopped

    started = time.perf_counter()
    try:
        work()
    except QueryStopped:
        return None
    return time.perf_counter() - started


def _timed_apart(work: Callable[[], object], timeout: float) -> float | None:
    """Seconds ``work`` took in a forked copy of this process, or None when it ran past
    ``timeout`` and the copy was killed: pyoxigraph computes in Rust, where no signal handler
    of this process runs, so only another process can be stopped."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the copy: time the work, report, and never return into the caller
        code = 1
        try:
            os.close(read_end)
            started = time.perf_counter()
            work()
            os.write(write_end, repr(time.perf_counter() - started).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    deadline = time.perf_counter() + timeout
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.perf_counter() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return None
            time.sleep(0.002)
        report = os.read(read_end, 64).decode()
    finally:
        os.close(read_end)
    if os.waitstatus_to_exitcode(status) != 0 or not report:
        raise PerfError("a query failed in the forked process (run it alone to see why)")
    return float(report)


def _asker(client: Client, query: str, accept: str, path: str = "/sparql") -> bytes:
    """The body of ``GET path`` for ``query``; a limit of the store (a 503) is a
    QueryStopped."""
    status, body = client.sparql(path, query, accept)
    if status == 503:
        from graph.store.process.stops import QueryStopped

        raise QueryStopped(f"the endpoint stopped the query at a limit: {said(body)}")
    if status != 200:
        raise PerfError(f"the endpoint answered {status}: {said(body)}")
    return body


def phase_measure(args: Sequence[str]) -> dict[str, Any]:
    """ARGS: catalog folder, work folder, store folder, the URL of the ``oxigraph serve`` the
    catalog was pushed into (empty: none), rounds, comma-separated query names (empty: all),
    timeout, comma-separated kinds of store (``--stores``)."""
    import pyoxigraph as ox

    from graph.settings import Settings
    from graph.store.disk import read_manifest

    folder, work, store_folder, engine_url = (Path(args[0]), Path(args[1]), Path(args[2]),
                                              args[3])
    rounds, wanted, timeout, stores = int(args[4]), args[5], float(args[6]), args[7].split(",")
    settings = Settings()
    started = time.perf_counter()
    manifest = read_manifest(store_folder)
    disk_floor = ox.Store.read_only(str(store_folder / manifest.generation))
    loads: dict[str, float] = {}
    floor = None
    if "memory" in stores:
        clock = time.perf_counter()
        floor = ox.Store()
        floor.bulk_load(disk_floor.dump(format=ox.RdfFormat.N_TRIPLES,
                                        from_graph=ox.DefaultGraph()),
                        format=ox.RdfFormat.N_TRIPLES)
        loads["floor"] = time.perf_counter() - clock
    environment = {"BENCHGRAPH_QUERY_TIMEOUT": str(timeout), "BENCHGRAPH_ROW_LIMIT": "0"}
    with ExitStack() as serving:
        arguments = {"memory": [str(folder)], "disk": ["--store", f"oxigraph:{store_folder}"]}
        engines: dict[str, Any] = {}
        if engine_url:
            engines["engine"] = Served(engine_url, OXIGRAPH_QUERY_PATH, 0.0, 0.0)
            query_url = f"{engine_url}{OXIGRAPH_QUERY_PATH.lstrip('/')}"
            arguments["remote"] = ["--store", f"sparql:{query_url}"]
        for kind, options in arguments.items():
            if STORES[kind] in stores:
                engines[kind] = serving.enter_context(serving_benchgraph(
                    options, work, environment=environment))
                loads[kind] = engines[kind].ready_seconds
        if "remote" in engines:  # its maker reads the engine: not while queries are timed
            loads["files"] = files_made(engines["remote"])
        clients = {kind: serving.enter_context(closing(Client(server.url, timeout + 30)))
                   for kind, server in engines.items()}
        parameters = parameters_of(disk_floor)
        results = _measure(named_queries(wanted), parameters, {"floor": floor,
                           "disk floor": disk_floor}, clients, _engines(chosen_pairs(stores)),
                           rounds, timeout, settings)
    return {"seconds": time.perf_counter() - started, "records": _records(folder),
            "quads": manifest.quads, "triples": manifest.triples, "stores": stores,
            "load_seconds": loads, "parameters": parameters, "queries": results}


def named_queries(wanted: str) -> list[str]:
    """The named queries to time: those in the comma-separated ``wanted``, or all."""
    from graph.sparql.named import load_named_queries

    known = list(load_named_queries())
    names = [name for name in wanted.split(",") if name] or known
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise PerfError(f"unknown queries: {', '.join(unknown)}")
    return names


@dataclass(frozen=True)
class Asked:
    """A named query as a client sends it: its text with the parameters in a VALUES block
    (what the store runs), the media type to ask for, and the parameters themselves."""

    name: str
    text: str
    accept: str
    values: dict[str, str]


def asked_queries(names: Sequence[str], parameters: dict[str, str], base: str) -> list[Asked]:
    """Each named query in ``names``, its required parameters given by type from
    ``parameters`` (``parameters_of``)."""
    from graph.sparql.admission import admit_bound
    from graph.sparql.named import load_named_queries
    from graph.sparql.parameters import bind_parameters

    queries, asked = load_named_queries(), []
    for name in names:
        query = queries[name]
        values = {p.name: parameters[p.type] for p in query.parameters if p.required}
        admitted = admit_bound(query.text, bind_parameters(query, values, base), name, 1 << 20)
        form, text = admitted.form, admitted.text
        accept = "text/turtle" if form in ("CONSTRUCT", "DESCRIBE") else \
            "application/sparql-results+json"
        asked.append(Asked(name, text, accept, values))
    return asked


def _measure(names: Sequence[str], parameters: dict[str, str], floors: dict[str, Any],
             clients: dict[str, Client], engines: Sequence[str], rounds: int, timeout: float,
             settings: Any) -> dict[str, Any]:
    """Each query's times on each of ``engines``: one untimed run, then ``rounds`` timed
    ones. ``floors`` are the pyoxigraph stores, by engine; ``clients`` the endpoints'."""
    from graph.namespace import PREFIXES
    from graph.store.remote.engine import prologue  # the one the sparql: store sends

    ours = prologue(settings.base)
    results: dict[str, Any] = {}
    for asked in asked_queries(names, parameters, settings.base):
        name, text, accept = asked.name, asked.text, asked.accept
        work_of: dict[str, Callable[[], object]] = {
            **{engine: partial(_drain, store, text, settings.base, PREFIXES)
               for engine, store in floors.items() if store is not None},
            **{kind: partial(_asker, client, text, accept)
               for kind, client in clients.items() if kind != "engine"},
        }
        if "engine" in clients:
            work_of["engine"] = partial(_asker, clients["engine"], ours + text, accept,
                                        OXIGRAPH_QUERY_PATH)
        times: dict[str, list[float | None]] = {engine: [] for engine in engines}
        failed: dict[str, str] = {}
        for engine in engines:
            try:
                first = (_timed_apart(work_of[engine], timeout) if "floor" in engine
                         else _timed(work_of[engine]))
                if first is None:  # the untimed warm-up, and a guard
                    times[engine] = [None]
                    continue
                for _ in range(rounds):
                    times[engine].append(_timed(work_of[engine]))
                    if times[engine][-1] is None:
                        break
            except PerfError as error:  # one query on one endpoint: the others still run
                times[engine], failed[engine] = [], str(error)
        results[name] = {"rows": _size(work_of["disk floor"]()), **times,
                         **({"failed": failed} if failed else {})}
        print(f"{name}: " + ", ".join(f"{e} {_cell(results[name], e)}" for e in engines),
              file=sys.stderr, flush=True)
    return results


def _records(folder: Path) -> int:
    return sum(1 for path in folder.rglob("*") if path.is_file() and not path.name.startswith("."))


def _size(answer: object) -> int:
    """Rows or triples of an answer ``_drain`` read; 1 for an ASK."""
    return 1 if isinstance(answer, bool) else len(answer)  # type: ignore[arg-type]


def _drain(store: Any, text: str, base: str, prefixes: dict[str, str]) -> object:
    """The query run directly on pyoxigraph, every solution (or triple) read."""
    import pyoxigraph as ox

    answer = store.query(text, prefixes=prefixes, base_iri=base)
    return bool(answer) if isinstance(answer, ox.QueryBoolean) else [tuple(x) for x in answer]


def parameters_of(store: Any) -> dict[str, str]:
    """A value for each parameter type, picked from the catalog so the queries find things:
    the benchmark with the most lineage links, the organisation that publishes most, a date
    in the middle of the records' freshness dates."""
    prefixes = ("PREFIX bench: <https://w3id.org/benchgraph/ontology#> "
                "PREFIX dcterms: <http://purl.org/dc/terms/> "
                "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> ")
    benchmark = first_value(store, prefixes + "SELECT ?v WHERE { ?b bench:variant"
                            "|bench:successor|bench:predecessor ?o ; dcterms:identifier ?v } "
                            "GROUP BY ?v ORDER BY DESC(COUNT(*)) ?v LIMIT 1")
    maker = first_value(store, prefixes + "SELECT ?v WHERE { ?b bench:publisher ?o . "
                        "?o rdfs:label ?v } GROUP BY ?v ORDER BY DESC(COUNT(*)) ?v LIMIT 1")
    dates = sorted(str(s["d"].value) for s in store.query(
        prefixes + "SELECT ?d WHERE { ?r bench:researched ?d }"))
    return {"id": benchmark, "string": maker, "date": dates[len(dates) // 2] if dates else
            "2026-01-01", "iri": "bench:Gated", "integer": "2"}


def first_value(store: Any, query: str) -> str:
    """The value of ``?v`` in the first solution of ``query``; PerfError when there is none."""
    for solution in store.query(query):
        return str(solution["v"].value)
    raise PerfError(f"the catalog has nothing for: {query}")


PHASES: dict[str, Callable[[Sequence[str]], dict[str, Any]]] = {"measure": phase_measure}


def main(argv: Sequence[str]) -> int:
    if argv and argv[0] in PHASES:
        return run_phase_command(MODULE, PHASES, argv)
    from perf.run import main as suite  # the section alone, with the suite's options

    return suite([NAME, *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
