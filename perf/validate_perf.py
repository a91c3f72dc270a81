"""The validate section: ``graph.validation.validate`` on N synthetic records and on N/10, and one
record changed, against plain pyshacl on the same data.

    python -m perf.run validate [--records 10000] [--rounds 3] [--plain] [--updates 20]

Measured in rounds, each phase in a fresh process (``python -m perf.validate_perf PHASE``);
the catalog is built untimed first in every phase, into a store in memory:

- ours, full: ``graph.validation.validate.validate(store)`` on N/10 records and on N records, as
  ``benchgraph build --store`` and ``benchgraph validate`` run it (the store read graph by
  graph, nothing kept once checked), and the growth ratio between the two (10.0 is
  linear); with ``--small-rounds K``, N/10 records are validated K times a round, once
  before N and the rest after, and the ratio is read from their median;
- ours, one record changed: after a full validation of a store folder (untimed), one
  record's graph replaced in the store as an incremental build replaces it, with a new
  statement that breaks a shape (``graph.store.writing.replace_graphs``, untimed), then
  ``ValidationSession.update_store`` from the full validation's report (timed), as
  ``benchgraph build --store`` validates after an incremental build; then again to put it
  back; medians and maxima over ``--updates`` records spread over the catalog;
- with ``--plain``: ``pyshacl.validate`` over the union of the N/10 records' graphs with the
  ontology, the shapes as written, no inference: what validating without this package costs.
"""

import argparse
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from rdflib import URIRef

from perf.common import (
    Headline,
    Measurement,
    SectionReport,
    cached_catalog,
    phase_figures,
    run_phase,
    run_phase_command,
    table,
)
from perf.common import progress as say

NAME = "validate"
HELP = "graph.validation.validate on N and N/10 synthetic records, and one changed record"
MODULE = "perf.validate_perf"
TARGET_FULL_SECONDS = 40.0
"""Issue 2's targets, at 10,000 records: a full validation in 40 s, within 1 GB."""
TARGET_PEAK_MB = 1024.0
TARGET_UPDATE_MS = 50.0
LARGE_RECORDS = 10_000
"""Above this many records, issue 12's targets apply instead: the full validation's time
grows linearly from N/10 (within ``TARGET_GROWTH_SLACK`` of it) and stays within 2 GB."""
TARGET_LARGE_PEAK_MB = 2048.0
TARGET_GROWTH_SLACK = 1.2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--small", type=int, metavar="M",
                        help="records of the smaller catalog for the growth ratio "
                        "(default N/10)")
    parser.add_argument("--small-rounds", type=int, default=1, metavar="K",
                        help="full validations of the smaller catalog a round, one before the "
                        "larger and the rest after it; the growth is read from their median "
                        "(default 1)")
    parser.add_argument("--updates", type=int, default=20, metavar="U",
                        help="records changed one at a time after a full validation (default 20)")
    parser.add_argument("--plain", action="store_true",
                        help="also time plain pyshacl over the smaller catalog's union graph")
    parser.add_argument("--full-only", action="store_true",
                        help="only the full validations of N/10 and N records (issue 12's "
                             "targets), not the updates")


# -- the section (parent process) ------------------------------------------------------------

def run(args: argparse.Namespace, catalog: Path, workdir: Path) -> SectionReport:
    small = args.small or max(1, args.records // 10)
    small_catalog, _ = cached_catalog(small, args.seed, args.directory_pages, args.profile,
                                      args.defect_share)
    large = args.records + args.directory_pages
    sizes = {"small": small + args.directory_pages, "large": large}
    phases: list[tuple[str, str, str, list[str]]] = [
        ("full-small", f"ours: validate {sizes['small']:,} records", "full", [str(small_catalog)]),
        ("full-large", f"ours: validate {large:,} records", "full", [str(catalog)]),
    ]
    if not args.full_only:
        phases.append(("update", f"ours: one record changed, of {large:,}", "update",
                       [str(catalog), str(args.updates)]))
    if args.plain:
        phases.append(("plain-small", f"plain pyshacl, {sizes['small']:,} records (union)",
                       "plain", [str(small_catalog)]))
    # The smaller catalog's further runs come after the larger's: the growth's two figures
    # are then taken around the same minutes of a machine whose speed moves, not one before
    # the other (perf/decisions/perf-validate-small-rounds.md).
    small_again = phases[:1] * (max(1, args.small_rounds) - 1)
    measured = {name: Measurement(name, label) for name, label, _, _ in phases}
    for round_number in range(1, args.rounds + 1):
        for name, _, phase, arguments in [*phases[:2], *small_again, *phases[2:]]:
            say(f"round {round_number}/{args.rounds}: validate {name}")
            measured[name].runs.append(run_phase(phase, arguments, workdir, module=MODULE))
    return _report(measured, sizes)


def headline(data: dict[str, Any]) -> Headline:
    """Full validation's CPU time, per record and memory, its growth, and one record checked
    again (``perf.run compare``)."""
    found: Headline = {}
    full = phase_figures(data, "full-large")
    if full is not None and full["median_cpu_seconds"] is not None:
        records = data["sizes"]["large"]
        found["full (CPU s)"] = f"{full['median_cpu_seconds']:.1f}"
        found["full (ms/record)"] = f"{1000 * full['median_cpu_seconds'] / records:.2f}"
        found["full, peak MB"] = f"{full['max_peak_rss_mb']:,.0f}"
    if data.get("growth_cpu") is not None:
        found["full, growth in CPU (x10 is linear)"] = (
            f"x{data['growth_cpu']:.2f} from {data['sizes']['small']:,}")
    if data.get("update_median_ms") is not None:
        found["one record changed (median ms)"] = f"{data['update_median_ms']:.1f}"
    return found


def _report(measured: dict[str, Measurement], sizes: dict[str, int]) -> SectionReport:
    rows = []
    for m in measured.values():
        records = sizes["small"] if m.name.endswith("small") else sizes["large"]
        per_record = "" if m.name == "update" else f"{1000 * m.seconds / records:.2f}"
        cpu = m.cpu_seconds
        before = m.detail_median("rss_before_mb")
        rows.append([m.label, f"{m.seconds:.3f}", "" if cpu is None else f"{cpu:.3f}",
                     per_record, f"{m.peak_mb:,.0f}", "" if before is None else f"{before:,.0f}",
                     "" if before is None else f"{m.peak_mb - before:,.0f}"])
    lines = [table(["phase (median of rounds)", "wall s", "cpu s", "ms/record", "peak MB",
                    "MB before", "MB added"], rows), ""]
    full_small, full_large = measured["full-small"], measured["full-large"]
    ratio = full_large.seconds / full_small.seconds
    cpu_ratio = _ratio(full_large.cpu_seconds, full_small.cpu_seconds)
    scale = sizes["large"] / sizes["small"]
    lines.append(f"growth {sizes['small']:,} -> {sizes['large']:,} records (x{scale:g}): "
                 f"time x{ratio:.2f} wall, x{cpu_ratio:.2f} cpu (x{scale:g} is linear)")
    last = full_large.runs[-1].detail
    lines.append(f"{sizes['large']:,} records: {last.get('records'):,} loaded "
                 f"({last.get('rejected')} files rejected), {last.get('quads'):,} quads, "
                 f"{last.get('violations')} violations, {last.get('warnings')} warnings")
    large = sizes["large"] > LARGE_RECORDS
    peak_target = TARGET_LARGE_PEAK_MB if large else TARGET_PEAK_MB
    verdicts = [
        ("growth", cpu_ratio <= TARGET_GROWTH_SLACK * scale,
         f"x{cpu_ratio:.2f} cpu <= x{TARGET_GROWTH_SLACK * scale:g}") if large else
        ("full", full_large.seconds <= TARGET_FULL_SECONDS,
         f"{full_large.seconds:.1f} s <= {TARGET_FULL_SECONDS:g} s"),
        ("memory", full_large.peak_mb <= peak_target,
         f"peak {full_large.peak_mb:,.0f} MB (build included) <= {peak_target:,.0f} MB"),
    ]
    data: dict[str, Any] = {"sizes": sizes, "growth_wall": round(ratio, 3),
                            "growth_cpu": round(cpu_ratio, 3)}
    if "update" in measured:
        update = measured["update"]
        median_ms = update.detail_median("median_ms") or 0.0
        max_ms = update.detail_median("max_ms") or 0.0
        cpu_median_ms = update.detail_median("median_cpu_ms") or 0.0
        cpu_max_ms = update.detail_median("max_cpu_ms") or 0.0
        lines.append(f"one changed record: median {median_ms:.1f} ms wall ({cpu_median_ms:.1f} "
                     f"cpu), max {max_ms:.1f} ms wall ({cpu_max_ms:.1f} cpu) per update (medians "
                     f"over rounds; {int(update.detail_median('updates') or 0)} updates a round)")
        verdicts.append(("update", max_ms <= TARGET_UPDATE_MS,
                         f"max {max_ms:.1f} ms <= {TARGET_UPDATE_MS:g} ms"))
        data.update(update_median_ms=round(median_ms, 2), update_max_ms=round(max_ms, 2),
                    update_median_cpu_ms=round(cpu_median_ms, 2),
                    update_max_cpu_ms=round(cpu_max_ms, 2))
    lines.append("targets: " + "; ".join(f"{name} {text}: {'met' if ok else 'MISSED'}"
                                         for name, ok, text in verdicts))
    if "plain-small" in measured:
        plain = measured["plain-small"]
        lines.append(f"plain pyshacl / ours on {sizes['small']:,} records: "
                     f"x{plain.seconds / full_small.seconds:.1f} wall")
    data.update(targets={name: ok for name, ok, _ in verdicts},
                phases=[m.as_json() for m in measured.values()])
    return SectionReport("validate", "\n".join(lines), data)


def _ratio(a: float | None, b: float | None) -> float:
    return a / b if a is not None and b else float("nan")


# -- the phases (child processes) ------------------------------------------------------------

def _clock(work: Callable[[], Any]) -> tuple[dict[str, float], Any]:
    started, cpu = time.perf_counter(), time.process_time()
    value = work()
    return {"seconds": time.perf_counter() - started,
            "cpu_seconds": time.process_time() - cpu}, value


def _built(folder: str) -> tuple[Any, dict[str, Any]]:
    """DIR built into a store in memory (``graph.build.graphs.build``: the whole catalog's
    N-Quads, its store and its records' models, all held in this process); what this process
    holds before validating is ``rss_before_mb``."""
    from graph.build.graphs import build
    from graph.settings import Settings
    from graph.validation.validate import bundled_shapes

    bundled_shapes()  # parsing the shapes is start-up, not validation
    result = build([Path(folder)], Settings())  # a catalog with defects has files rejected
    solutions = result.store.query("SELECT (COUNT(*) AS ?n) { GRAPH ?g { ?s ?p ?o } }")
    assert isinstance(solutions, ox.QuerySolutions)
    [named] = solutions
    return result, {"quads": int(named["n"].value), "records": len(result.report.records),
                    "rejected": len(result.report.rejected), "rss_before_mb": _peak_mb()}


def phase_full(args: Sequence[str]) -> dict[str, Any]:
    """Builds DIR into a store folder (untimed), then validates every record of it from that
    store on disk (timed), graph by graph, as ``benchgraph build --store`` does (there, in the
    process that wrote the store)."""
    import tempfile

    from graph.build.graphs import read
    from graph.ingest.kept import Spool
    from graph.settings import Settings
    from graph.store.kinds import build_into
    from graph.validation.validate import bundled_shapes, validate

    settings = Settings()
    bundled_shapes()  # parsing the shapes is start-up, not validation
    with tempfile.TemporaryDirectory() as scratch:
        records = read([Path(args[0])], settings, keep=Spool())
        _, manifest = build_into(Path(scratch), records, settings, served=False)
        store = ox.Store.read_only(str(Path(scratch) / manifest.generation))
        detail = {"quads": manifest.quads, "records": len(records.report.records),
                  "rejected": len(records.report.rejected), "rss_before_mb": _peak_mb()}
        clock, report = _clock(lambda: validate(store))
    return {**clock, **detail, **_counts(report)}


def _counts(report: Any) -> dict[str, Any]:
    from graph.validation.validate import Severity

    return {"records_checked": report.records_checked,
            "violations": report.count(Severity.VIOLATION),
            "warnings": report.count(Severity.WARNING)}


def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * (1 if sys.platform == "darwin"
                                                                else 1024)
    return round(peak / 2**20, 1)


def phase_update(args: Sequence[str]) -> dict[str, Any]:
    """Builds DIR into a store folder and validates it (untimed), then changes U records one
    at a time in the store (untimed) and validates each change (timed): a statement that
    breaks a shape is added, then taken out again."""
    import tempfile

    from graph.build.graphs import read
    from graph.build.stats import count_record_graphs
    from graph.ingest.kept import Spool
    from graph.mapping.iris import Iris
    from graph.namespace import BENCH
    from graph.settings import Settings
    from graph.store.kinds import build_into
    from graph.store.writing import UpdateHeader, replace_graphs
    from graph.validation.validate import ValidationSession, validate

    settings = Settings()
    build = ox.NamedNode(Iris(settings.base).build())
    describes, variant = (ox.NamedNode(str(term)) for term in (BENCH.describes, BENCH.variant))
    with tempfile.TemporaryDirectory() as scratch:
        records = read([Path(args[0])], settings, keep=Spool())
        _, manifest = build_into(Path(scratch), records, settings, served=False)
        store = ox.Store(str(Path(scratch) / manifest.generation))
        detail = {"quads": manifest.quads, "records": len(records.report.records)}
        report = validate(store, settings)
        catalogued = sorted(quad.subject.value for quad in store.quads_for_pattern(
            None, ox.NamedNode(str(BENCH.catalogued)), None, build)
            if isinstance(quad.subject, ox.NamedNode) and isinstance(quad.object, ox.Literal)
            and quad.object.value == "true")
        described = [quad for quad in store.quads_for_pattern(None, describes, None)
                     if isinstance(quad.graph_name, ox.NamedNode)]
        count = min(int(args[1]), len(described))
        record_graphs = count_record_graphs(store, settings.base)
        times: list[float] = []
        cpu_times: list[float] = []
        for index in range(count):
            chosen = described[index * len(described) // count]
            graph = chosen.graph_name
            assert isinstance(graph, ox.NamedNode) and isinstance(chosen.object, ox.NamedNode)
            quads = list(store.quads_for_pattern(None, None, None, graph))
            broken = [*quads, ox.Quad(chosen.object, variant, chosen.object, graph)]
            for version in (broken, quads):
                header = UpdateHeader(catalogued, graphs=[graph.value], counts={})
                nquads = ox.serialize(version, format=ox.RdfFormat.N_QUADS)
                assert nquads is not None
                replaced = replace_graphs(store, header, nquads, settings.base)

                def change(before: Any = report, changed: Any = replaced.graphs,
                           mentioned: Any = replaced.changed.mentioned) -> Any:
                    return ValidationSession(settings).update_store(
                        store, before, {URIRef(name) for name in changed}, mentioned,
                        record_graphs)

                clock, (report, checked) = _clock(change)
                times.append(clock["seconds"])
                cpu_times.append(clock["cpu_seconds"])
                detail["most_checked"] = max(checked, int(detail.get("most_checked", 0)))
    milliseconds = sorted(1000 * t for t in times)
    cpu_milliseconds = sorted(1000 * t for t in cpu_times)
    return {"seconds": statistics.median(times), "cpu_seconds": statistics.median(cpu_times),
            **detail, "updates": len(times),
            "median_ms": statistics.median(milliseconds), "max_ms": milliseconds[-1],
            "median_cpu_ms": statistics.median(cpu_milliseconds),
            "max_cpu_ms": cpu_milliseconds[-1]}


def phase_plain(args: Sequence[str]) -> dict[str, Any]:
    """Builds DIR and puts every graph and the ontology into one rdflib Graph (untimed), then
    runs plain ``pyshacl.validate`` on it with the shapes as written (timed)."""
    import pyshacl
    from rdflib import Graph

    from graph.ontology import ontology_graph
    from graph.validation.validate import bundled_shapes

    result, detail = _built(args[0])
    data = Graph()
    for s, p, o, _ in result.quads:
        data.add((s, p, o))
    for triple in ontology_graph():
        data.add(triple)
    shapes = bundled_shapes().graph
    clock, outcome = _clock(lambda: pyshacl.validate(data, shacl_graph=shapes, inference="none"))
    return {**clock, **detail, "conforms": bool(outcome[0])}


PHASES: dict[str, Callable[[Sequence[str]], dict[str, Any]]] = {
    "full": phase_full, "update": phase_update, "plain": phase_plain,
}


def main(argv: Sequence[str]) -> int:
    return run_phase_command(MODULE, PHASES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
