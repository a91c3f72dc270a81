"""The incremental section: ``benchgraph build --store oxigraph:DIR`` of N synthetic records in
full, against the incremental rebuild after one record changed; validation full and of one
changed record; and the memory of a process serving the store.

    python -m perf.run incremental [--records 10000] [--rounds 3] [--sizes 10000,100000]

Side by side, in rounds, each phase in a fresh process (``python -m perf.incremental_perf
PHASE``) whose peak RSS is read from ``os.wait4`` (the largest process of its tree: the
build's own process, or the one writing its Oxigraph store):

- full build: ``benchgraph build CATALOG --store oxigraph:DIR --full --no-validate`` in
  process (start-up and imports not counted; validation is its own phase): time, records/s,
  peak RSS;
- rebuild, nothing changed: the same command without ``--full``: every file listed and
  hashed, nothing read again (the floor of an incremental build);
- rebuild, one record changed: one record file's summary rewritten (untimed), then the same
  command; the target is under 2 s at 10,000 records;
- the same two validated, as ``benchgraph build --store`` runs by default: first with nothing
  changed, which validates the whole graph (the generation before was built with
  ``--no-validate``), then with one record changed, which validates only what the change may
  touch, from that first report (``ValidationSession.update_store``);
- serving: the store opened as ``serve`` opens it, then its counts, a search, a benchmark's
  description and a named query, as the first requests of a server make them: peak RSS;
- validation, full and one record changed: the validate section's phases
  (``perf.validate_perf``), on the same catalog.

The catalog is copied into the run's folder first (the rebuild rounds change it).
"""

import argparse
import json
import resource
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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

NAME = "incremental"
HELP = "full build into oxigraph:DIR against a rebuild after one record changed, validation"
MODULE = "perf.incremental_perf"
TARGET_REBUILD_SECONDS = 2.0
TARGET_RSS_MB = 2048.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-validation", action="store_true",
                        help="leave out the validation phases (the slowest at 100,000)")


# -- the section (parent process) ------------------------------------------------------------

def run(args: argparse.Namespace, catalog: Path, workdir: Path) -> SectionReport:
    records = workdir / "records"
    if records.exists():
        shutil.rmtree(records)
    shutil.copytree(catalog, records)
    store = workdir / "store"
    changed = _record_to_change(records)
    phases: list[tuple[str, str, str, list[str]]] = [
        ("full", "full build into oxigraph:DIR", "build", [str(records), str(store)]),
        ("nothing", "rebuild, nothing changed", "rebuild", [str(records), str(store)]),
        ("one", "rebuild, one record changed", "rebuild",
         [str(records), str(store), str(changed)]),
        ("serve", "serving: open + first requests", "serve", [str(store)]),
        ("validated", "rebuild, nothing changed, validated in full", "rebuild-validated",
         [str(records), str(store)]),
        ("validated-one", "rebuild, one record changed, validated", "rebuild-validated",
         [str(records), str(store), str(changed)]),
    ]
    if not getattr(args, "no_validation", False):
        phases += [
            ("validate-full", "validation, full", "full", [str(catalog)]),
            ("validate-one", "validation, one record changed", "update", [str(catalog), "10"]),
        ]
    measured = {name: Measurement(name, label) for name, label, _, _ in phases}
    for round_number in range(1, args.rounds + 1):
        for name, _, phase, arguments in phases:
            say(f"round {round_number}/{args.rounds}: incremental {name}")
            module = "perf.validate_perf" if name.startswith("validate-") else MODULE
            if name in ("one", "validated-one"):
                arguments = [*arguments[:2], str(changed), f"{name} {round_number}"]
            measured[name].runs.append(run_phase(phase, arguments, workdir, module=module))
    return _report(measured, args.records + args.directory_pages)


def headline(data: dict[str, Any]) -> Headline:
    """Each phase's time and the full build's rate and memory (``perf.run compare``)."""
    found: Headline = {}
    for phase in data["phases"]:
        found[phase["label"] + " (s)"] = f"{phase['median_seconds']:.3f}"
        if phase["name"] == "full":
            found["full build records/s"] = f"{data['records'] / phase['median_seconds']:,.0f}"
    found.update({phase["label"] + " peak MB": f"{phase['max_peak_rss_mb']:,.0f}"
                  for phase in data["phases"] if phase["name"] in ("full", "one", "serve",
                                                                  "validate-full")})
    return found


def _record_to_change(records: Path) -> Path:
    """A record file in the middle of the catalog whose summary can be rewritten."""
    files = sorted(path for path in records.rglob("*.txt") if path.is_file())
    for path in files[len(files) // 2:]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("page"), dict):
            return path
    raise PerfError(f"no catalog page record under {records} to change")


def _report(measured: dict[str, Measurement], records: int) -> SectionReport:
    rows = []
    for m in measured.values():
        per_second = f"{records / m.seconds:,.0f}" if m.name in ("full", "nothing") else ""
        per_record = f"{1000 * m.seconds / records:.2f}" if m.name == "validate-full" else ""
        read, validated = (m.detail_median(key) for key in ("records_read", "records_validated"))
        rows.append([m.label, f"{m.seconds:.3f}", per_second, per_record,
                     "" if read is None else f"{read:.0f}",
                     "" if validated is None else f"{validated:.0f}", f"{m.peak_mb:,.0f}"])
    lines = [table(["phase (median of rounds)", "wall s", "records/s", "ms/record",
                    "read again", "validated", "peak MB"], rows), ""]
    full, one, serve = measured["full"], measured["one"], measured["serve"]
    # a rebuild is a build into oxigraph:DIR too: the largest of the three is held to 2 GB
    largest = max((measured[name] for name in ("full", "nothing", "one", "validated",
                                               "validated-one") if name in measured),
                  key=lambda m: m.peak_mb)
    lines.append(f"rebuild after one change / full build: x{one.seconds / full.seconds:.3f}; "
                 f"seconds by step (last round): {one.runs[-1].detail.get('steps')}")
    verdicts = [
        ("rebuild", one.seconds < TARGET_REBUILD_SECONDS,
         f"one record changed {one.seconds:.2f} s < {TARGET_REBUILD_SECONDS:g} s"),

        ("build memory", largest.peak_mb < TARGET_RSS_MB,
         f"peak {largest.peak_mb:,.0f} MB ({largest.label}) < {TARGET_RSS_MB:,.0f} MB"),
        ("serving memory", serve.peak_mb < TARGET_RSS_MB,
         f"peak {serve.peak_mb:,.0f} MB < {TARGET_RSS_MB:,.0f} MB"),
    ]
    if "validated-one" in measured:
        checked = measured["validated-one"]
        verdicts.insert(1, ("validated rebuild", checked.seconds < TARGET_REBUILD_SECONDS,
                            f"one record changed, validated {checked.seconds:.2f} s < "
                            f"{TARGET_REBUILD_SECONDS:g} s"))
    if "validate-full" in measured:
        validation = measured["validate-full"]
        verdicts.append(("validation memory", validation.peak_mb < TARGET_RSS_MB,
                         f"peak {validation.peak_mb:,.0f} MB < {TARGET_RSS_MB:,.0f} MB"))
    lines.append("targets: " + "; ".join(f"{name} {text}: {'met' if ok else 'MISSED'}"
                                         for name, ok, text in verdicts))
    data: dict[str, Any] = {
        "records": records,
        "targets": {name: ok for name, ok, _ in verdicts},
        "phases": [m.as_json() for m in measured.values()],
    }
    return SectionReport("incremental", "\n".join(lines), data)


# -- the phases (child processes) ------------------------------------------------------------

def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak * (1 if sys.platform == "darwin" else 1024) / 2**20, 1)


def _build_command(records: str, store: str, *extra: str) -> dict[str, Any]:
    """``benchgraph build RECORDS --store oxigraph:STORE [EXTRA...]`` in this process, timed."""
    import contextlib
    import io

    from graph.cli import main

    errors = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stderr(errors):
        code = main(["build", records, "--store", f"oxigraph:{store}", "-v", *extra])
    seconds = time.perf_counter() - started
    if code not in (0, 2):  # 2: some files rejected, the rest built
        raise PerfError(f"benchgraph build exited {code}:\n{errors.getvalue()[-2000:]}")
    text = errors.getvalue()
    return {"seconds": seconds, "incremental": "incremental build:" in text,
            "summary": next((line for line in text.splitlines()
                             if line.startswith("incremental build:")), ""),
            "rss_self_mb": _peak_mb()}


def phase_build(args: Sequence[str]) -> dict[str, Any]:
    """A full build of RECORDS into the store folder STORE."""
    return _build_command(args[0], args[1], "--full", "--no-validate")


def phase_rebuild(args: Sequence[str], validate: bool = False) -> dict[str, Any]:
    """RECORDS STORE [FILE ROUND]: FILE's summary rewritten for ROUND (untimed), then the build
    again, which must be incremental; with ``validate``, validated."""
    from graph.settings import Settings
    from graph.store.rebuild import rebuild_store

    if len(args) > 2:
        path = Path(args[2])
        data = json.loads(path.read_text(encoding="utf-8"))
        data["page"]["summary"] = f"Rewritten for round {args[3]} of the incremental section."
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    started = time.perf_counter()
    rebuilt = rebuild_store(Path(args[1]), [Path(args[0])], Settings(), validate=validate)
    seconds = time.perf_counter() - started
    if rebuilt is None:
        raise PerfError(f"the build of {args[1]} was not incremental")
    figures = rebuilt.figures
    return {"seconds": seconds, "records_read": figures.records_read,
            "records_remapped": figures.records_remapped,
            "graphs_changed": figures.graphs_changed, "steps": figures.seconds,
            "records_validated": figures.records_validated,
            "rss_self_mb": _peak_mb()}


def phase_serve(args: Sequence[str]) -> dict[str, Any]:
    """STORE opened as ``benchgraph serve --store oxigraph:STORE`` opens it, and the first
    requests' reads: counts, a search, a description, a named query."""
    import pyoxigraph as ox

    from graph.namespace import BENCH
    from graph.settings import Settings
    from graph.store.kinds import StoreSpec, open_store

    started = time.perf_counter()
    store = open_store(StoreSpec.parse(f"oxigraph:{args[0]}"), Settings())
    try:
        store.prepare()
        counts = store.counts()
        found = store.artefacts().search("bench", limit=10)
        benchmarks = store.query("SELECT ?s WHERE { ?s a ?type } LIMIT 1",
                                 {"type": ox.NamedNode(str(BENCH.Benchmark))})
        first = benchmarks.rows[0][0] if benchmarks.count else None
        described = store.describe(first.value) if isinstance(first, ox.NamedNode) else None
        seconds = time.perf_counter() - started
    finally:
        store.close()
    return {"seconds": seconds, "statements": counts.statements.total, "found": found.total,
            "described": None if described is None else len(described.outgoing),
            "rss_self_mb": _peak_mb()}


PHASES: dict[str, Phase] = {
    "build": phase_build, "rebuild": phase_rebuild, "serve": phase_serve,
    "rebuild-validated": lambda args: phase_rebuild(args, validate=True)}


def main(argv: Sequence[str]) -> int:
    return run_phase_command(MODULE, PHASES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
