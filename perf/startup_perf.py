"""The startup section: how long a person waits for a command over a store folder.

    python -m perf.run startup [--records 10000] [--rounds 3] [--stores oxigraph]

The synthetic catalog is built into a validated store folder (untimed;
``perf.served_store``: once in a run, shared with the pages and load sections). Then,
``--rounds`` times each, whole processes timed from the outside (``perf.common.run_process``:
wall time and peak RSS):

- ``benchgraph query NAME --store oxigraph:DIR`` for every named query (or those
  ``--queries`` names; its parameters
  picked from the catalog, as the query section picks them), the table printed; beside it
  the floor, a Python that only imports pyoxigraph, opens the same generation read-only and
  reads every solution of the same text;
- ``benchgraph serve --store oxigraph:DIR``, from the start of the process to the address
  printed and to its first answer to a query; beside it ``oxigraph serve-read-only`` of the
  same generation to its first answer; and ``benchgraph serve`` of the catalog's record
  files (the memory kind, which builds first) to its first answer, for scale, unless
  ``--stores`` leaves ``memory`` out (at 100,000 records it takes minutes and 15 GB).

Targets (issue 9, at 10,000 records): a whole ``query`` process under 1.5 s, ``serve --store``
ready under 3 s. Where the floor also takes 1.5 s or more (at 100,000 records, the slower
queries), a miss says so.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from functools import partial
from pathlib import Path
from typing import Any

from perf.common import Headline, PerfError, SectionReport, run_process, table
from perf.common import progress as say
from perf.query_perf import Asked, asked_queries, named_queries, parameters_of
from perf.served_store import served_store
from perf.serving import serving_benchgraph, serving_oxigraph

NAME = "startup"
HELP = "a whole `query --store` process and `serve --store` until its first answer"
QUERY_TARGET = 1.5
SERVE_TARGET = 3.0
_FLOOR = """import sys, pyoxigraph as ox
store = ox.Store.read_only(sys.argv[1])
answer = store.query(open(sys.argv[2]).read(), base_iri=sys.argv[3])
if not isinstance(answer, ox.QueryBoolean):
    for row in answer:
        tuple(row)
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The section's options are the suite's own (``--rounds``)."""


def run(args: argparse.Namespace, catalog: Path, workdir: Path) -> SectionReport:
    import pyoxigraph as ox

    from graph.settings import Settings
    from graph.store.disk import read_manifest

    store, _built, _reused = served_store(catalog, workdir)
    generation = store / read_manifest(store).generation
    base = Settings().base
    data = ox.Store.read_only(str(generation))
    asked = asked_queries(named_queries(args.queries), parameters_of(data), base)
    del data
    figures: dict[str, Any] = {"records": args.records + args.directory_pages, "queries": {},
                               "serve": {}}
    rows = []
    for query in asked:
        ours, floor = _query_process(query, store, generation, base, workdir, args.rounds)
        figures["queries"][query.name] = {"seconds": ours, "floor_seconds": floor}
        rows.append([query.name, f"{statistics.median(ours):.2f}",
                     f"{statistics.median(floor):.2f}",
                     verdict(statistics.median(ours), statistics.median(floor))])
        say(f"startup: query {query.name}: {statistics.median(ours):.2f} s")
    serve_rows = _serving_times(store, generation, catalog if "memory" in args.stores else None,
                                workdir, args.rounds, figures)
    worst = max(statistics.median(f["seconds"]) for f in figures["queries"].values())
    ready = statistics.median(figures["serve"]["benchgraph serve --store"]["ready"])
    figures["met"] = {"query": worst < QUERY_TARGET, "serve": ready < SERVE_TARGET}
    lines = [table(["benchgraph query NAME --store (whole process)", "ours s", "floor s",
                    "target"], rows), "",
             table(["server", "address printed s", "first answer s"], serve_rows), "",
             f"medians of {args.rounds} rounds; targets: every query process under "
             f"{QUERY_TARGET:g} s (slowest {worst:.2f} s: "
             f"{'met' if figures['met']['query'] else 'MISSED'}), serve --store ready under "
             f"{SERVE_TARGET:g} s ({ready:.2f} s: "
             f"{'met' if figures['met']['serve'] else 'MISSED'}); the floor is a Python "
             "that imports only pyoxigraph and runs the same text on the same folder"]
    return SectionReport(NAME, "\n".join(lines), figures)


def verdict(ours: float, floor: float) -> str:
    """A query process against ``QUERY_TARGET``, which issue 9 set at 10,000 records: a miss
    is marked where pyoxigraph alone, evaluating the same text, misses it too (most of the
    slower queries at 100,000 records)."""
    if ours < QUERY_TARGET:
        return "met"
    return "MISSED, as the floor" if floor >= QUERY_TARGET else "MISSED"


def headline(data: dict[str, Any]) -> Headline:
    """``serve --store`` ready, and the slowest query process (``perf.run compare``)."""
    ready = statistics.median(data["serve"]["benchgraph serve --store"]["ready"])
    slowest = max(statistics.median(query["seconds"]) for query in data["queries"].values())
    return {"serve --store ready (s)": f"{ready:.2f}",
            "slowest query process (s)": f"{slowest:.2f}"}


def _query_process(query: Asked, store: Path, generation: Path, base: str, workdir: Path,
                   rounds: int) -> tuple[list[float], list[float]]:
    """Wall seconds of ``rounds`` whole ``benchgraph query`` processes, and of the floor's."""
    text = workdir / f"{query.name}.rq"
    text.write_text(query.text, encoding="utf-8")
    ours = [sys.executable, "-m", "graph.cli", "query", query.name, "--store",
            f"oxigraph:{store}", "--wide",
            *[f"--param={name}={value}" for name, value in query.values.items()]]
    floor = [sys.executable, "-c", _FLOOR, str(generation), str(text), base]
    times: dict[str, list[float]] = {"ours": [], "floor": []}
    for _ in range(rounds):
        for kind, command in (("ours", ours), ("floor", floor)):
            finished = run_process(command, workdir / f"startup-{kind}.log")
            if finished.code != 0:
                log = (workdir / f"startup-{kind}.log").read_text(errors="replace")
                raise PerfError(f"{' '.join(command[:5])} exited {finished.code}: "
                                   f"{log[-500:]}")
            times[kind].append(finished.seconds)
    return times["ours"], times["floor"]


def _serving_times(store: Path, generation: Path, catalog: Path | None, workdir: Path,
                   rounds: int, figures: dict[str, Any]) -> list[list[str]]:
    """Each server's start, medians of ``rounds``; a memory store of ``catalog`` unless it is
    None (``--stores`` leaves it out)."""
    servers = {
        "benchgraph serve --store": partial(serving_benchgraph,
                                            ["--store", f"oxigraph:{store}"], workdir),
        "oxigraph serve-read-only": partial(serving_oxigraph, generation, workdir),
    }
    if catalog is not None:
        servers["benchgraph serve RECORDS (memory)"] = partial(serving_benchgraph,
                                                               [str(catalog)], workdir)
    rows = []
    for name, start in servers.items():
        listening, ready = [], []
        for _ in range(rounds):
            with start() as served:
                listening.append(served.listening_seconds)
                ready.append(served.ready_seconds)
        figures["serve"][name] = {"listening": listening, "ready": ready}
        rows.append([name, f"{statistics.median(listening):.2f}",
                     f"{statistics.median(ready):.2f}"])
        say(f"startup: {name}: ready in {statistics.median(ready):.2f} s")
    return rows
