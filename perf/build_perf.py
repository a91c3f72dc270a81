"""The build section: ``benchgraph build`` of N synthetic records against pyoxigraph's floor.

Measured side by side, in rounds, each phase in a fresh process:

- floor: pyoxigraph bulk-loads the build's own N-Triples into an in-memory store;
- pyoxigraph parsing that N-Triples file, and writing its triples as Turtle;
- with ``--rdflib``: rdflib parsing the N-Triples into a Graph, and writing it as Turtle;
- ours: ``graph.build.graphs.read``, built into a store folder whose dump is copied out, in
  process (Turtle, N-Triples), and ``python -m graph.cli build DIR -o out.ttl`` as a user
  runs it, start-up included.
"""

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from perf.common import (
    Headline,
    Measurement,
    PerfError,
    Run,
    SectionReport,
    count_ntriples,
    phase_figures,
    rate,
    run_phase,
    run_process,
    table,
)
from perf.common import progress as say

NAME = "build"
HELP = "benchgraph build of N synthetic records against pyoxigraph bulk-loading the same triples"
TARGET_RATIO = 3.0
FLOOR = "oxi-bulk-load"
OURS = "ours-turtle"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rdflib", action="store_true",
                        help="also measure rdflib parsing N-Triples and writing Turtle (slow)")
    parser.add_argument("--rdflib-timeout", type=float, default=600, metavar="SECONDS",
                        help="stop an rdflib phase after this long (default 600)")
    parser.add_argument("--ntriples", type=Path, metavar="FILE",
                        help="measure the pyoxigraph and rdflib phases on this N-Triples file "
                             "instead of the build's own output")
    parser.add_argument("--no-ours", action="store_true",
                        help="measure only pyoxigraph (and rdflib) on --ntriples FILE, "
                             "not benchgraph")


def ours_cli(catalog: Path, workdir: Path, extra: Sequence[str] = ()) -> Run:
    """``benchgraph build CATALOG -o WORKDIR/cli.ttl [EXTRA...]`` as a user runs it, timed from
    outside; its stdout goes to ``cli.log``, its stderr (the load report) to ``cli.stderr``."""
    out = workdir / "cli.ttl"
    command = [sys.executable, "-m", "graph.cli", "build", str(catalog), "-o", str(out), *extra]
    errors = workdir / "cli.stderr"
    finished = run_process(command, workdir / "cli.log", errors=errors)
    if finished.code not in (0, 2):  # 2: some input rejected, the rest still written
        tail = errors.read_text(encoding="utf-8", errors="replace")[-2000:]
        raise PerfError(f"{' '.join(command)} exited {finished.code}:\n{tail}")
    return Run(finished.seconds, finished.peak_rss_bytes,
               {"cpu_seconds": finished.cpu_seconds, "exit_code": finished.code})


def run(args: argparse.Namespace, catalog: Path, workdir: Path) -> SectionReport:
    records = args.records + args.directory_pages
    if args.no_ours and not args.ntriples:
        raise PerfError("--no-ours needs --ntriples FILE: the floor reads the build's output")
    nt = args.ntriples or workdir / "ours.nt"
    phases: list[tuple[str, str, list[str]]] = [
        (FLOOR, "pyoxigraph bulk load N-Triples (floor)", [str(nt)]),
        ("oxi-parse", "pyoxigraph parse N-Triples", [str(nt)]),
        ("oxi-turtle", "pyoxigraph write Turtle", [str(nt), str(workdir / "oxi.ttl")]),
    ]
    if args.rdflib:
        phases += [
            ("rdflib-parse", "rdflib Graph parse N-Triples", [str(nt)]),
            ("rdflib-turtle", "rdflib write Turtle", [str(nt), str(workdir / "rdflib.ttl")]),
        ]
    ours: list[tuple[str, str, list[str]]] = [] if args.no_ours else [
        (OURS, "ours: build + write Turtle (in process)",
         [str(catalog), str(workdir / "ours.ttl"), "turtle"]),
        ("ours-ntriples", "ours: build + write N-Triples (in process)",
         [str(catalog), str(workdir / "ours.nt"), "ntriples"]),
        ("ours-load", "ours: load records only (no mapping)", [str(catalog)]),
    ]
    measured = {name: Measurement(name, label) for name, label, _ in ours + phases}
    if not args.no_ours:
        measured["ours-cli"] = Measurement("ours-cli", "ours: benchgraph build -o out.ttl (CLI)")
    for round_number in range(1, args.rounds + 1):
        # Ours first: the first round writes the N-Triples file the floor then reads.
        for name, _, arguments in ours + phases:
            say(f"round {round_number}/{args.rounds}: {name}")
            phase = "ours-build" if name in (OURS, "ours-ntriples") else name
            timeout = args.rdflib_timeout if name.startswith("rdflib") else None
            measured[name].runs.append(run_phase(phase, arguments, workdir, timeout=timeout))
        if "ours-cli" in measured:
            say(f"round {round_number}/{args.rounds}: ours-cli")
            measured["ours-cli"].runs.append(ours_cli(catalog, workdir))
    triples = count_ntriples(nt)
    for measurement in measured.values():
        measurement.items = triples
    return _report(measured, records, triples)


def headline(data: dict[str, Any]) -> Headline:
    """Build time, records/s and peak memory, ours against the floor (``perf.run compare``)."""
    found: Headline = {}
    ours = phase_figures(data, "ours-turtle")
    if ours is not None:
        found["build + write Turtle, in process (s)"] = f"{ours['median_seconds']:.2f}"
        found["records/s"] = f"{data['records'] / ours['median_seconds']:,.0f}"
        found["peak MB"] = f"{ours['max_peak_rss_mb']:,.0f}"
    for name, label in (("ours-cli", "benchgraph build -o out.ttl (s)"),
                        ("oxi-bulk-load", "floor: pyoxigraph bulk load (s)")):
        figures = phase_figures(data, name)
        if figures is not None:
            found[label] = f"{figures['median_seconds']:.2f}"
    if "ratio_in_process" in data:
        found["ours / floor, in process"] = f"{data['ratio_in_process']:.2f}x"
    return found


def ratio_to_floor(ours: Measurement, floor: Measurement) -> float:
    """The median over rounds of ours / floor in the same round: a load that comes and goes
    on the machine moves both sides of one round alike."""
    pairs = zip(ours.runs, floor.runs, strict=True)
    return statistics.median(mine.seconds / theirs.seconds for mine, theirs in pairs)


def _report(measured: dict[str, Measurement], records: int, triples: int) -> SectionReport:
    floor = measured[FLOOR]
    rows = []
    for m in measured.values():
        cpu = m.cpu_seconds
        over = "> " if m.timed_out else ""  # stopped at the timeout: a lower bound
        rows.append([m.label, f"{over}{m.seconds:.2f}", "" if cpu is None else f"{cpu:.2f}",
                     rate(records, m.seconds) if m.name.startswith("ours") else "",
                     "" if over or m.name == "ours-load" else rate(triples, m.seconds),
                     f"{m.peak_mb:,.0f}",
                     f"{over}{ratio_to_floor(m, floor):.2f}x"])
    headers = ["phase (median of rounds)", "wall s", "cpu s", "records", "triples", "peak MB",
               "vs floor"]
    lines = [table(headers, rows), ""]
    data: dict[str, Any] = {"records": records, "triples": triples, "floor": FLOOR,
                            "phases": [m.as_json() for m in measured.values()]}
    if OURS not in measured:
        lines.append(f"{triples:,} triples")
        return SectionReport("build", "\n".join(lines), data)
    ours = measured[OURS]
    build_s, write_s = ours.detail_median("build_seconds"), ours.detail_median("write_seconds")
    if build_s is not None and write_s is not None:
        lines.append(f"ours (Turtle) = build {build_s:.2f} s + write {write_s:.2f} s")
    last = ours.runs[-1].detail
    lines.append(f"{records:,} records, {triples:,} triples ({triples / max(records, 1):.1f} per "
                 f"record); build report: {last.get('records')} loaded, {last.get('warnings')} "
                 f"warnings, {last.get('rejected')} rejected")
    ratio = ratio_to_floor(ours, floor)
    cli_ratio = ratio_to_floor(measured["ours-cli"], floor)
    cpu_ratio = None
    if ours.cpu_seconds is not None and floor.cpu_seconds:
        cpu_ratio = ours.cpu_seconds / floor.cpu_seconds
    verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
    lines.append(f"ours / floor (wall, median of rounds): {ratio:.2f}x in process, "
                 f"{cli_ratio:.2f}x as a CLI run; target <= {TARGET_RATIO:g}x: {verdict}")
    if cpu_ratio is not None:
        lines.append(f"ours / floor in CPU seconds: {cpu_ratio:.2f}x")
    data.update(ratio_in_process=round(ratio, 3), ratio_cli=round(cli_ratio, 3),
                ratio_cpu=None if cpu_ratio is None else round(cpu_ratio, 3),
                target_ratio=TARGET_RATIO, target_met=ratio <= TARGET_RATIO)
    return SectionReport("build", "\n".join(lines), data)
