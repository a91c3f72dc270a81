"""The query section: every named query on rdflib (our engine now) against pyoxigraph, the floor.

    python -m perf.run query [--records 10000] [--rounds 3] [--queries a,b] [--query-timeout S]
    python -m perf.query_perf [same options]          # the query section alone

One child process (``python -m perf.query_perf measure ...``) builds the synthetic catalog
(untimed, ``graph.build.build``) and loads the same quads three ways (untimed):

- ours: ``graph.export.to_dataset`` (rdflib, default graph = union of the named graphs), each
  query run with ``graph.sparql.engine.run_query``, as ``benchgraph query`` runs it;
- floor: the distinct triples in the default graph of an in-memory pyoxigraph ``Store``, each
  query run directly with ``Store.query`` (parameters in the same VALUES block
  ``graph.sparql.oxigraph.run_query_oxigraph`` writes), every solution read;
- oxigraph, named graphs: ``graph.export.to_oxigraph_store`` queried with
  ``use_default_graph_as_union=True``, the shape a served Oxigraph store would have. pyoxigraph
  0.5 yields a triple once per named graph that holds it there (oxigraph issue #1919), so the
  intermediate results of queries over shared nodes grow; shown for the store issue, not the
  floor.

Each query runs once untimed on each engine, then ``--rounds`` times; medians are reported,
with the ratio ours / floor against the issue's target (at most 2x). Every timed run is in
this process; pyoxigraph's untimed run is in a forked copy of it, so that a query over
``--query-timeout`` seconds can be stopped even inside Rust (SIGALRM stops rdflib). A
stopped run counts as that long (marked ``>``; ``timeout`` when the untimed run was stopped).
"""

import argparse
import json
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any

from perf.common import PerfError, SectionReport, run_phase, run_phase_command, table
from perf.common import progress as say

NAME = "query"
HELP = "every named query on rdflib against pyoxigraph over the same triples"
MODULE = "perf.query_perf"
TARGET_RATIO = 2.0
ENGINES = ("ours", "floor", "union")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--queries", metavar="NAMES",
                        help="comma-separated named queries to time (default: all)")
    parser.add_argument("--query-timeout", type=float, default=120.0, metavar="S",
                        help="stop one run of one query after S seconds (default 120)")


# -- the section (parent process) ------------------------------------------------------------

def run(args: argparse.Namespace, catalog: Path, workdir: Path) -> SectionReport:
    say(f"query: building {catalog.name} and timing the named queries in one process")
    measured = run_phase("measure", [str(catalog), str(args.rounds), args.queries or "",
                                     str(args.query_timeout)], workdir, module=MODULE)
    return _report(measured.detail, measured.peak_rss_bytes / 2**20)


def _report(detail: dict[str, Any], peak_mb: float) -> SectionReport:
    rows, ratios = [], {}
    for name, figures in detail["queries"].items():
        medians = {engine: _median(figures[engine]) for engine in ENGINES}
        ratio = medians["ours"][0] / max(medians["floor"][0], 1e-6)
        ratios[name] = ratio
        shown_rows = "?" if figures["rows"] is None else str(figures["rows"])
        rows.append([name, shown_rows, *(_shown(*medians[e]) for e in ENGINES),
                     f"{ratio:,.1f}x", "met" if ratio <= TARGET_RATIO else "MISSED"])
    headers = ["query (median of rounds)", "rows", "rdflib s", "oxigraph s (floor)",
               "oxigraph named graphs s", "rdflib / floor", f"<= {TARGET_RATIO:g}x"]
    met = sum(ratio <= TARGET_RATIO for ratio in ratios.values())
    loads = detail["load_seconds"]
    lines = [table(headers, rows), "",
             f"{detail['records']:,} records, {detail['quads']:,} quads, "
             f"{detail['triples']:,} distinct triples; loads (untimed): rdflib "
             f"{loads['ours']:.1f} s, oxigraph {loads['floor']:.1f} s, "
             f"named graphs {loads['union']:.1f} s; peak {peak_mb:,.0f} MB",
             f"parameters: {json.dumps(detail['parameters'], ensure_ascii=False)}",
             f"target rdflib <= {TARGET_RATIO:g}x the floor: met by {met} of {len(ratios)} "
             f"queries; median ratio {statistics.median(ratios.values()):.1f}x"]
    data = {"target_ratio": TARGET_RATIO, "ratios": {k: round(v, 2) for k, v in ratios.items()},
            **detail}
    return SectionReport("query", "\n".join(lines), data)


def _median(runs: list[float | None]) -> tuple[float, bool]:
    """The median of the runs, and whether some run hit the timeout (None)."""
    timed_out = any(run is None for run in runs)
    values = [run if run is not None else float("inf") for run in runs]
    return statistics.median(values), timed_out


def _shown(seconds: float, timed_out: bool) -> str:
    return "timeout" if seconds == float("inf") else f"{'>' if timed_out else ''}{seconds:.3f}"


# -- the measurement (child process) ---------------------------------------------------------

class _Timeout(Exception):
    pass


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise _Timeout


def _timed(work: Callable[[], object], timeout: float) -> float | None:
    """Seconds ``work`` took in this process, or None when it ran past ``timeout`` and was
    stopped (by SIGALRM: enough for rdflib, whose evaluation is Python)."""
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    started = time.perf_counter()
    try:
        work()
    except _Timeout:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return time.perf_counter() - started


def _timed_apart(work: Callable[[], object], timeout: float) -> float | None:
    """Seconds ``work`` took in a forked copy of this process, or None when it ran past
    ``timeout`` and the copy was killed. pyoxigraph computes a GROUP BY in Rust without coming
    back to Python, where no signal handler runs: only another process can be stopped."""
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


def phase_measure(args: Sequence[str]) -> dict[str, Any]:
    """ARGS: catalog folder, rounds, comma-separated query names (empty: all), timeout."""
    import pyoxigraph as ox

    from graph.build import build
    from graph.export import serialize, to_dataset, to_oxigraph_store
    from graph.export.formats import NTRIPLES
    from graph.settings import Settings
    from graph.sparql.engine import QueryResult, bind_parameters, compile_query, run_query
    from graph.sparql.named import load_named_queries
    from graph.sparql.oxigraph import with_values

    folder, rounds, wanted, timeout = Path(args[0]), int(args[1]), args[2], float(args[3])
    settings = Settings()
    started = time.perf_counter()
    built = build([folder], settings)  # a catalog with defects has files rejected
    loads: dict[str, float] = {}
    clock = time.perf_counter()
    dataset = to_dataset(built.quads)
    loads["ours"] = time.perf_counter() - clock
    clock = time.perf_counter()
    floor = ox.Store()
    floor.bulk_load(serialize(built.table, NTRIPLES).data, format=ox.RdfFormat.N_TRIPLES)
    loads["floor"] = time.perf_counter() - clock
    clock = time.perf_counter()
    union = to_oxigraph_store(built.table)
    loads["union"] = time.perf_counter() - clock

    queries = load_named_queries()
    names = [n for n in wanted.split(",") if n] or list(queries)
    unknown = sorted(set(names) - set(queries))
    if unknown:
        raise PerfError(f"unknown queries: {', '.join(unknown)}")
    parameters = _parameters(floor)
    results: dict[str, Any] = {}
    for name in names:
        query = queries[name]
        compiled = compile_query(query, base=settings.base)
        values = {p.name: parameters[p.type] for p in query.parameters if p.required}
        bindings = bind_parameters(query, values, settings.base)
        work: dict[str, Callable[[], object]] = {
            "ours": partial(run_query, compiled, dataset, bindings),
            "floor": partial(_drain, floor, with_values(compiled, bindings), settings.base, False),
            "union": partial(_drain, union, with_values(compiled, bindings), settings.base, True),
        }
        answers: list[QueryResult] = []
        work["ours"] = partial(_keep, answers, work["ours"])
        times: dict[str, list[float | None]] = {engine: [] for engine in ENGINES}
        for engine in ENGINES:
            guard = _timed if engine == "ours" else _timed_apart
            if guard(work[engine], timeout) is None:  # untimed warm-up, and a guard
                times[engine] = [None]
                continue
            for _ in range(rounds):  # in this process: a forked copy pays for its page faults
                times[engine].append(_timed(work[engine], timeout))
                if times[engine][-1] is None:
                    break
        results[name] = {"rows": _size(answers[0]) if answers else None, **times}
        print(f"{name}: " + ", ".join(f"{e} {_shown(*_median(times[e]))}" for e in ENGINES),
              file=sys.stderr, flush=True)
    return {"seconds": time.perf_counter() - started, "records": len(built.report.records),
            "quads": len(built.table), "triples": len(floor), "load_seconds": loads,
            "parameters": parameters, "queries": results}


def _keep(answers: list[Any], work: Callable[[], Any]) -> object:
    answer = work()
    if not answers:
        answers.append(answer)
    return answer


def _size(answer: Any) -> int:
    """Rows of a SELECT, triples of a CONSTRUCT, 1 for an ASK."""
    if answer.boolean is not None:
        return 1
    return len(answer.graph) if answer.graph is not None else len(answer.rows)


def _drain(store: Any, text: str, base: str, as_union: bool) -> object:
    """The query run directly on pyoxigraph, every solution (or triple) read."""
    import pyoxigraph as ox

    from graph.namespace import PREFIXES

    answer = store.query(text, prefixes=PREFIXES, base_iri=base,
                         use_default_graph_as_union=as_union)
    return bool(answer) if isinstance(answer, ox.QueryBoolean) else [tuple(x) for x in answer]


def _parameters(store: Any) -> dict[str, str]:
    """A value for each parameter type, picked from the catalog so the queries find things:
    the benchmark with the most lineage links, the organisation that publishes most, a date
    in the middle of the records' freshness dates."""
    prefixes = ("PREFIX bench: <https://w3id.org/benchgraph/ontology#> "
                "PREFIX dcterms: <http://purl.org/dc/terms/> "
                "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> ")
    benchmark = _first(store, prefixes + "SELECT ?v WHERE { ?b bench:variant|bench:successor"
                       "|bench:predecessor ?o ; dcterms:identifier ?v } GROUP BY ?v "
                       "ORDER BY DESC(COUNT(*)) ?v LIMIT 1")
    maker = _first(store, prefixes + "SELECT ?v WHERE { ?b bench:publisher ?o . ?o rdfs:label ?v }"
                   " GROUP BY ?v ORDER BY DESC(COUNT(*)) ?v LIMIT 1")
    dates = sorted(str(s["d"].value) for s in store.query(
        prefixes + "SELECT ?d WHERE { ?r bench:researched ?d }"))
    return {"id": benchmark, "string": maker, "date": dates[len(dates) // 2] if dates else
            "2026-01-01", "iri": "bench:Gated", "integer": "2"}


def _first(store: Any, query: str) -> str:
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
