"""The measured phases, each run alone in a fresh interpreter by ``perf.common.run_phase``:

    python -m perf.phases PHASE ARG...

A phase does its setup untimed, times only the work it names, and prints one JSON line
(``{"seconds": ..., ...}``) as its last line of output. Libraries are imported inside the
phase, so a phase pays only for its own.
"""

import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from perf.common import run_phase_command

Phase = Callable[[Sequence[str]], dict[str, Any]]


def _timed(work: Callable[[], Any]) -> tuple[dict[str, float], Any]:
    """Runs ``work``: its wall seconds and the CPU seconds of this process (every thread)."""
    started, cpu = time.perf_counter(), time.process_time()
    value = work()
    clock = {"seconds": time.perf_counter() - started, "cpu_seconds": time.process_time() - cpu}
    return clock, value


def _prefixes() -> dict[str, str]:
    """The prefixes our Turtle declares (``graph.namespace`` plus ``base:``), so that the
    reference writers abbreviate as much as ours does."""
    from graph.namespace import PREFIXES
    from graph.settings import default_settings

    return {**dict(sorted(PREFIXES.items())), "base": default_settings().base}


def oxi_bulk_load(args: Sequence[str]) -> dict[str, Any]:
    """pyoxigraph bulk-loads an N-Triples file into an in-memory store: the floor."""
    from pyoxigraph import RdfFormat, Store

    store = Store()
    clock, _ = _timed(lambda: store.bulk_load(path=args[0], format=RdfFormat.N_TRIPLES))
    return {**clock, "quads": len(store)}


def oxi_parse(args: Sequence[str]) -> dict[str, Any]:
    """pyoxigraph parses an N-Triples file into Python triples (kept, as a build keeps them)."""
    from pyoxigraph import RdfFormat, parse

    clock, triples = _timed(lambda: list(parse(path=args[0], format=RdfFormat.N_TRIPLES)))
    return {**clock, "triples": len(triples)}


def oxi_turtle(args: Sequence[str]) -> dict[str, Any]:
    """pyoxigraph writes the store's triples as Turtle (after an untimed bulk load)."""
    from pyoxigraph import DefaultGraph, RdfFormat, Store

    store = Store()
    store.bulk_load(path=args[0], format=RdfFormat.N_TRIPLES)
    prefixes = _prefixes()
    clock, _ = _timed(
        lambda: store.dump(
            output=args[1], format=RdfFormat.TURTLE, from_graph=DefaultGraph(), prefixes=prefixes
        )
    )
    return {**clock, "bytes": Path(args[1]).stat().st_size}


def rdflib_parse(args: Sequence[str]) -> dict[str, Any]:
    """rdflib parses an N-Triples file into a Graph."""
    from rdflib import Graph

    graph = Graph()
    clock, _ = _timed(lambda: graph.parse(args[0], format="nt"))
    return {**clock, "triples": len(graph)}


def rdflib_turtle(args: Sequence[str]) -> dict[str, Any]:
    """rdflib writes a Graph as Turtle (after an untimed parse of the N-Triples file)."""
    from rdflib import Graph

    graph = Graph()
    graph.parse(args[0], format="nt")
    for prefix, namespace in _prefixes().items():
        graph.bind(prefix, namespace)
    clock, _ = _timed(lambda: graph.serialize(args[1], format="turtle"))
    return {**clock, "bytes": Path(args[1]).stat().st_size}


def ours_build(args: Sequence[str]) -> dict[str, Any]:
    """benchgraph's build of a folder, then the file written: ``build DIR -o OUT [--format F]``
    (the graph made by the store's writing process, which writes the dump in the format; it
    is then copied out).

    Arguments: the folder, the output file, the format name.
    """
    import shutil
    import tempfile

    from graph.build.graphs import read
    from graph.export.formats import format_for
    from graph.settings import default_settings
    from graph.store.disk import build_files
    from graph.store.files import dump_name

    folder, out, fmt_name = Path(args[0]), Path(args[1]), args[2]
    fmt = format_for(fmt_name, out)
    settings = default_settings()
    started, cpu = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as scratch:
        made = Path(scratch) / "made"
        result, outcome = build_files(made, read([folder], settings), settings.base, dump=fmt)
        built = time.perf_counter()
        shutil.copyfile(made / dump_name(fmt), out)
    finished = time.perf_counter()
    report = result.report
    assert outcome.dumped is not None
    return {
        "seconds": finished - started,
        "cpu_seconds": time.process_time() - cpu,
        "build_seconds": built - started,
        "write_seconds": finished - built,
        "quads": outcome.quads,
        "statements": outcome.quads if fmt.keeps_graphs else outcome.triples,
        "records": len(report.records),
        "warnings": len(report.warnings),
        "rejected": len(report.rejected),
        "bytes": out.stat().st_size,
    }


def ours_load(args: Sequence[str]) -> dict[str, Any]:
    """benchgraph's loader alone (read, import, validate every record file), no mapping."""
    from graph.ingest.loader import load_records
    from graph.settings import default_settings

    settings = default_settings()
    clock, report = _timed(lambda: load_records([Path(args[0])], settings))
    return {**clock, "records": len(report.records), "rejected": len(report.rejected)}


PHASES: dict[str, Phase] = {
    "ours-load": ours_load,
    "oxi-bulk-load": oxi_bulk_load,
    "oxi-parse": oxi_parse,
    "oxi-turtle": oxi_turtle,
    "rdflib-parse": rdflib_parse,
    "rdflib-turtle": rdflib_turtle,
    "ours-build": ours_build,
}


def main(argv: Sequence[str]) -> int:
    return run_phase_command("perf.phases", PHASES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
