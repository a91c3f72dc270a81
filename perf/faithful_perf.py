"""The faithful section: ``benchgraph build`` of a synthetic catalog with defects in it, as a
user runs it, checked against the catalog's manifest of what was planted (``perf.defects``).

    python -m perf.run faithful [--records 10000] [--rounds 3] [--defect-share 0.01]

Each round times pyoxigraph's floor (``perf.phases``, as the build section does) and
``python -m graph.cli build CATALOG -o cli.ttl --report report.json``. After the rounds, a
phase process reads the last round's Turtle (untimed) and lists its records
(``bench:sourceFile``, ``bench:describes``); ``perf.faithful_checks`` compares them and the
JSON report with the manifest. Reported: records lost to field-level defects (target 0),
stderr lines (at most 40), whether the JSON report holds every warning a field-level defect
calls for and every rejection, and the build against the floor (at most 3x).

Until ``benchgraph build`` has ``--report``, the build runs without it and the report's
figures read "not available"; the records lost are counted from the graph all the same.
"""

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from perf.build_perf import FLOOR, TARGET_RATIO, ours_cli, ratio_to_floor
from perf.common import (
    Headline,
    Measurement,
    PerfError,
    Phase,
    SectionReport,
    run_phase,
    run_phase_command,
    table,
)
from perf.common import progress as say
from perf.faithful_checks import Findings, check, read_report
from perf.generate_catalog import MANIFEST

NAME = "faithful"
HELP = "benchgraph build of a catalog with defects: records kept, report complete, vs floor"
MODULE = "perf.faithful_perf"
TARGET_STDERR_LINES = 40
SHOWN = 5
"""How many files a list of failures names before "and N more"."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options of its own: ``--records``, ``--rounds`` and ``--defect-share`` are common."""


def report_option_available() -> bool:
    """Whether ``benchgraph build`` takes ``--report FILE`` (its help says so)."""
    command = [sys.executable, "-m", "graph.cli", "build", "--help"]
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    return "--report" in completed.stdout


def run(args: argparse.Namespace, catalog: Path, workdir: Path) -> SectionReport:
    manifest_path = catalog / MANIFEST
    if not manifest_path.exists():
        raise PerfError(f"{catalog} has no {MANIFEST}: not a catalog of perf.generate_catalog")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    nt = workdir / "ours.nt"
    say("faithful: the build's N-Triples for the floor (in process, untimed here)")
    run_phase("ours-build", [str(catalog), str(nt), "ntriples"], workdir)
    report_path = workdir / "report.json"
    with_report = report_option_available()
    extra = ["--report", str(report_path)] if with_report else []
    floor = Measurement(FLOOR, "pyoxigraph bulk load N-Triples (floor)")
    cli = Measurement("ours-cli", "ours: benchgraph build -o out.ttl --report (CLI)" if with_report
                      else "ours: benchgraph build -o out.ttl (CLI, no --report yet)")
    for round_number in range(1, args.rounds + 1):
        say(f"round {round_number}/{args.rounds}: {FLOOR}")
        floor.runs.append(run_phase(FLOOR, [str(nt)], workdir))
        say(f"round {round_number}/{args.rounds}: ours-cli")
        cli.runs.append(ours_cli(catalog, workdir, extra))
    say("faithful: reading the built graph's records")
    built = run_phase("records", [str(workdir / "cli.ttl"), str(catalog)], workdir,
                      module=MODULE).detail
    problems, report_state = None, "not available: benchgraph build has no --report"
    if with_report:
        try:
            problems = read_report(report_path, catalog)
            report_state = f"{len(problems):,} problems"
        except (OSError, ValueError) as error:  # ReportShapeError and bad JSON are ValueErrors
            report_state = f"unreadable ({type(error).__name__}: {error})"
    findings = check(manifest, built["files"], built["records"], problems)
    stderr_lines = len((workdir / "cli.stderr").read_text(encoding="utf-8",
                                                           errors="replace").splitlines())
    return _report(manifest, findings, floor, cli, stderr_lines, report_state,
                   files=len(built["files"]), records=len(built["records"]))


def headline(data: dict[str, Any]) -> Headline:
    """Records lost, and the build's time against the floor (``perf.run compare``)."""
    return {"records lost to field-level defects": f"{len(data['lost_field_level'])}",
            "records lost with no defect": f"{len(data['lost_clean'])}",
            "build, CLI / floor": f"{data['ratio_cli']:.2f}x"}


def _report(manifest: dict[str, Any], found: Findings, floor: Measurement, cli: Measurement,
            stderr_lines: int, report_state: str, files: int, records: int) -> SectionReport:
    ratio = ratio_to_floor(cli, floor)
    rows = [[m.label, f"{m.seconds:.2f}", f"{m.cpu_seconds or 0:.2f}", f"{m.peak_mb:,.0f}",
             f"{ratio_to_floor(m, floor):.2f}x"] for m in (floor, cli)]
    lines = [table(["phase (median of rounds)", "wall s", "cpu s", "peak MB", "vs floor"],
                   rows), ""]
    planted = manifest["files"]
    lines.append(f"{files:,} files, {records:,} records built; {len(planted)} files with "
                 f"defects ({manifest['defect_share']:g} of {manifest['records']:,} records): "
                 f"{found.field_files} field-level, {found.kept_files} kept shapes, "
                 f"{found.file_files} file-level")
    tally_rows = [[name, t.level, str(t.files), str(t.built), str(t.warned), str(t.rejected)]
                  for name, t in found.tallies.items()]
    lines += [table(["defect class", "level", "files", "built", "warned", "rejected"],
                    tally_rows), ""]
    lines.append(f"records lost to field-level defects: {len(found.lost_field)} of "
                 f"{found.field_files} (target 0: {_verdict(not found.lost_field)})"
                 + _named(found.lost_field, found))
    lines.append(f"records lost among the kept shapes: {len(found.lost_kept)} of "
                 f"{found.kept_files}" + _named(found.lost_kept, found))
    lines.append(f"directory pages on their catalogued benchmark's node: "
                 f"{found.pages - len(found.pages_apart)} of {found.pages}"
                 + _named(found.pages_apart, found))
    lines.append(f"records lost with no defect: {len(found.lost_clean)}"
                 + _named(found.lost_clean, found))
    lines.append(f"file-level defects built anyway: {len(found.built_broken)} of "
                 f"{found.file_files}" + _named(found.built_broken, found))
    lines.append(f"stderr: {stderr_lines} lines (target <= {TARGET_STDERR_LINES}: "
                 f"{_verdict(stderr_lines <= TARGET_STDERR_LINES)})")
    lines.append(f"JSON report: {report_state}" + _completeness(found))
    cpu_ratio = (cli.cpu_seconds or 0) / (floor.cpu_seconds or 1)
    lines.append(f"ours (CLI) / floor, wall, median of rounds: {ratio:.2f}x; target <= "
                 f"{TARGET_RATIO:g}x: {_verdict(ratio <= TARGET_RATIO)} (in CPU seconds: "
                 f"{cpu_ratio:.2f}x)")
    data: dict[str, Any] = {
        "files": files, "records": records, "defect_files": len(planted),
        "tallies": {name: vars(t) for name, t in found.tallies.items()},
        "lost_field_level": found.lost_field, "lost_kept": found.lost_kept,
        "lost_clean": found.lost_clean,
        "pages_apart": found.pages_apart, "built_broken": found.built_broken,
        "stderr_lines": stderr_lines, "report": report_state,
        "report_complete": found.report_complete,
        "missing_warnings": found.missing_warnings,
        "missing_rejections": found.missing_rejections,
        "unexpected": None if found.unexpected is None else [vars(p) for p in found.unexpected],
        "ratio_cli": round(ratio, 3), "ratio_cpu": round(cpu_ratio, 3),
        "target_ratio": TARGET_RATIO,
        "phases": [floor.as_json(), cli.as_json()],
    }
    return SectionReport(NAME, "\n".join(lines), data)


def _completeness(found: Findings) -> str:
    if found.missing_warnings is None or found.missing_rejections is None:
        return ""
    warned = found.expected_warnings - len(found.missing_warnings)
    rejected = found.not_built - len(found.missing_rejections)
    unexpected = found.unexpected or []
    text = (f"; {'complete' if found.report_complete else 'INCOMPLETE'}: warnings for "
            f"{warned} of {found.expected_warnings} field-level defects"
            f"{_named(found.missing_warnings, found)}; rejections of {rejected} of the "
            f"{found.not_built} files not built{_named(found.missing_rejections, found)}; "
            f"{len(unexpected)} problems no planted defect calls for")
    if unexpected:
        first = unexpected[0]
        text += f" (first: {first.kind} {first.file}: {first.field}: {first.reason})"
    return text


def _named(names: Sequence[str], found: Findings) -> str:
    """The first few of ``names``, each file with its defects' classes and, when rejected,
    the report's reason."""
    if not names:
        return ""

    def described(name: str) -> str:
        about = [", ".join(found.classes.get(name, [])), found.reasons.get(name, "")]
        return f"{name} ({'; '.join(part for part in about if part)})" if any(about) else name

    more = f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return ": " + "; ".join(described(name) for name in names[:SHOWN]) + more


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


# -- the phase (child process) ----------------------------------------------------------------

RECORDS_QUERY = """
PREFIX bench: <https://w3id.org/benchgraph/ontology#>
SELECT ?file ?benchmark WHERE {
  ?record a bench:Record ; bench:sourceFile ?file .
  OPTIONAL { ?record bench:describes ?benchmark }
}
"""


def phase_records(args: Sequence[str]) -> dict[str, Any]:
    """ARGS: a built Turtle file, the catalog folder. The file of each record in it, with the
    ids of the benchmarks the record describes, and every record file the folder holds."""
    from pyoxigraph import QuerySolutions, RdfFormat, Store

    from graph.ingest.importers.reading import find_record_files
    from graph.settings import default_settings

    started = time.perf_counter()
    store = Store()
    store.bulk_load(path=args[0], format=RdfFormat.TURTLE)
    prefix = f"{default_settings().base}benchmark/"
    records: dict[str, list[str]] = {}
    solutions = store.query(RECORDS_QUERY)
    if not isinstance(solutions, QuerySolutions):  # a SELECT always gives solutions
        raise PerfError(f"the records query gave {type(solutions).__name__}")
    for solution in solutions:
        described = records.setdefault(solution["file"].value, [])
        if solution["benchmark"] is not None:
            described.append(solution["benchmark"].value.removeprefix(prefix))
    files = [relative.as_posix() for _, relative in find_record_files([Path(args[1])])]
    return {"seconds": time.perf_counter() - started, "records": records, "files": files}


PHASES: dict[str, Phase] = {"records": phase_records}


def main(argv: Sequence[str]) -> int:
    return run_phase_command(MODULE, PHASES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
