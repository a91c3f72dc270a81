"""benchgraph's performance suite: one command per section, or ``all``.

    python -m perf.run build [--records 10000] [--rounds 3] [--rdflib] [--json FILE]
    python -m perf.run all [--sizes 1000,10000,100000] ...
    python -m perf.run targets [--records 100000] ...   # issue 12's targets (perf/targets.py)
    python -m perf.run compare FILE.json...             # the headline table of saved runs

Each section measures benchgraph against a reference engine on the same synthetic catalog
(generated once, then cached in the temp folder by size, seed and generator version), in
one run, side by side, repeated; it prints medians and ratios. A section is a module with
``NAME``, ``HELP``, ``add_arguments(parser)``, ``run(args, catalog, workdir)`` and
``headline(data)`` (its figures for the table across runs): adding validation or query
figures is adding a module to ``SECTIONS``.

With ``--sizes N,M,...`` the chosen sections run once per catalog size (``--records`` is then
ignored); each section's own table is printed per size, then one table of every section's
headline figures with a column per size, and ``--json`` holds every size's figures. The
JSON is written again after each section, so that a run stopped part way keeps what it
measured. A run stopped by SIGTERM (``kill``, a job's time limit) stops as one stopped by
Ctrl-C does: its servers stop and its work folder goes (``_stop_as_interrupted``).
``compare`` prints that table again from saved JSON files, a column per run and size, so
that runs of other days, code or machines are read side by side.
"""

import argparse
import json
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from perf import (
    abuse_perf,
    build_perf,
    faithful_perf,
    incremental_perf,
    load_perf,
    pages_perf,
    query_perf,
    scale_perf,
    served_store,
    serving,
    startup_perf,
    targets,
    validate_perf,
)
from perf.common import (
    STORE_KINDS,
    PerfError,
    SectionReport,
    Step,
    cached_catalog,
    machine,
    progress,
    table,
    work_root,
)
from perf.generate_catalog import DEFAULT_DEFECT_SHARE, DEFAULT_PROFILE, PROFILES

SECTIONS: tuple[ModuleType, ...] = (build_perf, validate_perf, query_perf, faithful_perf,
                                    pages_perf, startup_perf, load_perf, abuse_perf,
                                    incremental_perf, scale_perf)
SHARING = frozenset({query_perf.NAME, pages_perf.NAME, startup_perf.NAME, load_perf.NAME,
                     abuse_perf.NAME})
"""The sections that serve the store folder and the pushed engine made once in a run
(``perf.served_store``, ``perf.serving.pushed_engine``). Once none is left to run, both are
deleted: at 100,000 records they hold 22 GB and 6 GB of disk, and the incremental and scale
sections then build as much again beside them (``--keep`` keeps them). A section that asks
for them later only makes them again."""


def _common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--records", type=int, default=10_000, metavar="N",
                        help="synthetic catalog page records (default 10000)")
    parser.add_argument("--sizes", type=_sizes, metavar="N,M,...",
                        help="run once per catalog size (instead of --records) and print one "
                        "table of the headline figures across them")
    parser.add_argument("--directory-pages", type=int, default=0, metavar="K",
                        help="synthetic directory pages besides them (default 0)")
    parser.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    parser.add_argument("--profile", choices=sorted(PROFILES), default=DEFAULT_PROFILE,
                        help=f"record sizes of the synthetic catalog (default {DEFAULT_PROFILE})")
    parser.add_argument("--defect-share", type=float, default=DEFAULT_DEFECT_SHARE, metavar="F",
                        help="fraction of records given a defect (perf/defects.py; default "
                             f"{DEFAULT_DEFECT_SHARE:g}, 0 for a catalog with none)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="times each phase runs; medians are reported (default 3)")
    parser.add_argument("--queries", metavar="NAMES", default="",
                        help="comma-separated named queries the query and startup sections "
                        "time (default: all)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    parser.add_argument("--keep", action="store_true",
                        help="keep the outputs the phases wrote (their folder is printed)")
    parser.add_argument("--stores", type=_stores, default=STORE_KINDS, metavar="KINDS",
                        help="the kinds of store the sections that serve several measure, "
                        f"comma-separated (default {','.join(STORE_KINDS)}): at 100,000 "
                        "records a memory store takes minutes and 15 GB to start")


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of record counts: {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError("every size is at least 1 record")
    return sizes


def _stores(text: str) -> tuple[str, ...]:
    kinds = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = sorted(set(kinds) - set(STORE_KINDS))
    if unknown or not kinds:
        raise argparse.ArgumentTypeError(
            f"not kinds of store: {text!r} (known: {', '.join(STORE_KINDS)})")
    return kinds


def _section_names(text: str) -> set[str]:
    names = {part.strip() for part in text.split(",") if part.strip()}
    unknown = sorted(names - {section.NAME for section in SECTIONS})
    if unknown:
        raise argparse.ArgumentTypeError(f"not sections: {', '.join(unknown)}")
    return names


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m perf.run",
                                     description="benchgraph's performance suite.")
    commands = parser.add_subparsers(dest="section", metavar="SECTION", required=True)
    everything = commands.add_parser("all", help="every section, one after another")
    goals = commands.add_parser(targets.NAME, help=targets.HELP)
    for combined in (everything, goals):
        _common_arguments(combined)
    everything.add_argument("--skip", type=_section_names, default=set(), metavar="NAMES",
                            help="sections to leave out, comma-separated")
    goals.set_defaults(records=targets.DEFAULT_RECORDS)
    compare = commands.add_parser("compare", help="the headline table of saved --json files, "
                                  "a column per run and size")
    compare.add_argument("files", type=Path, nargs="+", metavar="FILE.json")
    for section in SECTIONS:
        sub = commands.add_parser(section.NAME, help=section.HELP)
        _common_arguments(sub)
        section.add_arguments(sub)
        section.add_arguments(everything)
        section.add_arguments(goals)
    return parser


def run_sections(args: argparse.Namespace,
                 measured: Callable[[dict[str, Any]], None] = lambda figures: None
                 ) -> dict[str, Any]:
    """Runs the chosen sections, prints their tables, and returns everything for ``--json``;
    ``measured`` is given the figures so far after each section."""
    chosen = [section for section in SECTIONS if section.NAME not in args.skip] \
        if args.section == "all" else [s for s in SECTIONS if s.NAME == args.section]
    return run_steps(args, [(section, args) for section in chosen], measured)


def run_steps(args: argparse.Namespace, steps: Sequence[Step],
              measured: Callable[[dict[str, Any]], None] = lambda figures: None
              ) -> dict[str, Any]:
    """Runs each step's section on its catalog, in one work folder (so that a store one
    section built can serve the next), prints their tables, and returns the figures. A
    section that fails is printed as such and named in ``"failed"``, and the next runs."""
    about = machine()
    print(f"benchgraph performance, {about['date']}: {about['cpus']} CPUs, Python "
          f"{about['python']}, pyoxigraph {about['pyoxigraph']}, rdflib {about['rdflib']}")
    work_root().mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="run-", dir=work_root()))
    figures: dict[str, Any] = {"machine": about, "records": args.records,
                               "directory_pages": args.directory_pages, "seed": args.seed,
                               "profile": args.profile, "defect_share": args.defect_share,
                               "rounds": args.rounds, "stores": list(args.stores),
                               "sections": {}}
    try:
        for number, (section, options) in enumerate(steps):
            _measure(section, options, workdir, figures)
            measured(figures)
            if not args.keep and not SHARING & {later.NAME for later, _ in steps[number + 1:]}:
                served_store.release(workdir)
                serving.release_pushed_engine(workdir)
    finally:
        if args.keep:
            progress(f"outputs kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return figures


def _measure(section: ModuleType, options: argparse.Namespace, workdir: Path,
             figures: dict[str, Any]) -> None:
    """Runs one section, prints its table, and keeps its figures (or, when it failed, why)."""
    catalog = _catalog(options)
    figures.setdefault("catalog", str(catalog))
    try:
        report: SectionReport = section.run(options, catalog, workdir)
    except PerfError as error:  # the next sections still run: a run is hours long
        print(f"\n== {section.NAME} ==\nFAILED: {error}")
        figures.setdefault("failed", {})[section.NAME] = str(error)
        return
    print(f"\n== {report.title} ==\n{report.text}")
    figures["sections"][report.title] = report.data


def _catalog(args: argparse.Namespace) -> Path:
    progress(f"catalog: {args.records} records ({args.profile}), {args.directory_pages} "
             f"directory pages, seed {args.seed}, defects in {args.defect_share:g} of records")
    catalog, generated = cached_catalog(args.records, args.seed, args.directory_pages,
                                        args.profile, args.defect_share)
    progress(f"catalog: {catalog} ({'reused' if generated is None else f'{generated:.1f} s'})")
    return catalog


def run_sizes(args: argparse.Namespace) -> dict[str, Any]:
    """``run_sections`` once per size of ``--sizes``, then the headline table across them."""
    by_size: dict[int, dict[str, Any]] = {}

    def document(runs: dict[int, dict[str, Any]]) -> dict[str, Any]:
        return {"sizes": args.sizes, "runs": {str(size): figures
                                              for size, figures in runs.items()}}

    for size in args.sizes:
        args.records = size

        def measured(figures: dict[str, Any], size: int = size) -> None:
            save_json(args.json, document({**by_size, size: figures}))

        by_size[size] = run_sections(args, measured)
    print("\n== headline figures by catalog size ==\n" + headline_table(
        [(f"{size:,}", figures["sections"]) for size, figures in by_size.items()]))
    return document(by_size)


def headline_table(columns: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """One row per headline figure of every section (``section.headline``), one column per
    run: its heading and its sections' figures as ``--json`` holds them."""
    by_name = {section.NAME: section for section in SECTIONS}
    rows: dict[str, dict[int, str]] = {}
    for at, (_, sections) in enumerate(columns):
        for title, data in sections.items():
            if title in by_name:
                for name, value in by_name[title].headline(data).items():
                    rows.setdefault(f"{title}: {name}", {})[at] = value
    return table(["figure", *(heading for heading, _ in columns)],
                 [[name, *(values.get(at, "") for at in range(len(columns)))]
                  for name, values in rows.items()])


def saved_columns(path: Path) -> list[tuple[str, dict[str, Any]]]:
    """The runs a ``--json`` file holds, as columns of ``headline_table``: one per size of
    an ``--sizes`` run, else one."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PerfError(f"{path}: not a file of figures ({error})") from None
    runs = document["runs"] if "runs" in document else {"": document}
    if not all(isinstance(run, dict) and "sections" in run for run in runs.values()):
        raise PerfError(f"{path}: not the figures of perf.run --json")
    return [(f"{path.stem} {int(size):,}" if size else path.stem, run["sections"])
            for size, run in runs.items()]


def run_targets(args: argparse.Namespace) -> dict[str, Any]:
    """``targets``: the sections that carry issue 12's targets, each at its size
    (``perf.targets``), then one table of the targets met and missed."""
    figures = run_steps(args, targets.steps(args),
                        lambda figures: save_json(args.json, figures))
    text, rows = targets.summary(figures["sections"])
    print(f"\n== issue 12's targets, in this run ==\n{text}")
    figures["targets"] = rows
    return figures


def save_json(path: Path | None, figures: dict[str, Any]) -> None:
    """``--json``: the figures written whole, replacing the last (a run of hours that is
    stopped keeps every section it finished)."""
    if path is None:
        return
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)


def main(argv: Sequence[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    if args.section == "compare":
        try:
            columns = [column for path in args.files for column in saved_columns(path)]
        except PerfError as error:
            print(f"perf.run: {error}", file=sys.stderr)
            return 1
        print(headline_table(columns))
        return 0
    if args.records < 1 or args.rounds < 1 or args.directory_pages < 0:
        print("perf.run: --records and --rounds must be at least 1", file=sys.stderr)
        return 2
    if args.section == targets.NAME and args.sizes:
        print("perf.run: targets runs at --records N and --small (default N/10), not --sizes",
              file=sys.stderr)
        return 2
    if not 0 <= args.defect_share <= 1:
        print("perf.run: --defect-share is a fraction from 0 to 1", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _stop_as_interrupted)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started ignoring it
    try:
        if args.section == targets.NAME:
            figures = run_targets(args)
        elif args.sizes:
            figures = run_sizes(args)
        else:
            figures = run_sections(args, lambda figures: save_json(args.json, figures))
    except PerfError as error:
        print(f"perf.run: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("perf.run: interrupted", file=sys.stderr)
        return 130
    save_json(args.json, figures)
    if args.json:
        progress(f"figures written to {args.json}")
    failed = _failed(figures)
    if failed:
        print(f"perf.run: failed: {', '.join(failed)} (the others were measured)",
              file=sys.stderr)
        return 1
    return 0


def _stop_as_interrupted(signum: int, frame: object) -> None:
    """SIGTERM stops the run as Ctrl-C does (``KeyboardInterrupt``): each server is stopped,
    each phase process is sent SIGINT and stops its own (``perf.common.run_process``), and
    the work folder goes. Left to SIGTERM's default, the run died at once and left its work
    folder (39 GB at 100,000 records, which filled the disk of the next run) and its
    servers behind."""
    raise KeyboardInterrupt


def _failed(figures: dict[str, Any]) -> list[str]:
    """The sections that failed, in a run of one size or of several (``"runs"``)."""
    runs = figures["runs"].values() if "runs" in figures else [figures]
    return [name for run in runs for name in run.get("failed", {})]


if __name__ == "__main__":
    sys.exit(main())
