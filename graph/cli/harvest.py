"""``benchgraph harvest``: harness packages -> one snapshot file per harness, and a NOTICE."""

import argparse
import sys
from pathlib import Path

from graph.cli.common import EXIT_OK, output_to
from graph.errors import BenchgraphError, ErrorKind

DOWNLOAD = "pip download --no-deps crfm-helm lm-eval inspect-evals opencompass -d WHEELS"
HELM_CHECKOUT = "git clone --branch v0.5.16 https://github.com/stanford-crfm/helm DIR"


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "harvest",
        help="read the harnesses' own packages into snapshot files",
        description="Read the wheels of the evaluation harnesses (HELM, lm-eval, "
        "inspect_evals, OpenCompass), or folders holding them unpacked, without installing "
        "or running them, and write what each states about its benchmarks as one sorted, "
        f"deterministic JSON file per harness, with a NOTICE. Get the wheels with: {DOWNLOAD}"
        " (then: benchgraph harvest WHEELS/*.whl -o DIR). A member file that cannot be read "
        "is a warning and the rest still load. MedHELM's access levels are in HELM's "
        "repository, not its wheel: give a checkout of the wheel's release with "
        f"--helm-repository DIR (for crfm-helm 0.5.16: {HELM_CHECKOUT}). Exit 0 when the "
        "snapshots were written, 2 on an input that is not a harness package or a usage "
        "error.",
    )
    parser.add_argument(
        "packages", nargs="+", type=Path, metavar="WHEEL|DIR",
        help="a harness wheel (.whl) or a folder holding one unpacked; one per harness",
    )
    parser.add_argument(
        "-o", "--output", type=Path, required=True, metavar="DIR",
        help="the folder to write {harness}.json and NOTICE into (made if missing)",
    )
    parser.add_argument(
        "--helm-repository", type=Path, metavar="DIR",
        help="HELM's repository at the wheel's release: the MedHELM access levels its "
        "run_entries_medhelm_*.conf files state are added, and the snapshot names its commit",
    )
    parser.add_argument(
        "--helm-commit", metavar="SHA",
        help="the commit --helm-repository DIR holds, when DIR is no git work tree (an "
        "unpacked git archive); in a work tree, its HEAD is the commit (and must match)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from graph.ingest.harvest import harvest
    from graph.ingest.harvest.helm_repository import locate
    from graph.ingest.harvest.snapshot import snapshot_file_name, write_snapshots

    if args.helm_commit and args.helm_repository is None:
        raise BenchgraphError("--helm-commit names the commit of --helm-repository DIR: "
                              "give both", ErrorKind.USAGE)
    # HarvestError is a BenchgraphError: main says it in one line
    repository = locate(args.helm_repository, args.helm_commit) if args.helm_repository else None
    result = harvest(args.packages, repository)
    with output_to(args.output):
        write_snapshots(result.snapshots, args.output)
    for snapshot in result.snapshots:
        tasks = sum(len(entry.tasks) for entry in snapshot.entries)
        access = sum(1 for entry in snapshot.entries if entry.access)
        stated = f", {access} with access levels" if snapshot.repository else ""
        print(f"{snapshot_file_name(snapshot)}: {snapshot.package} {snapshot.version}, "
              f"{len(snapshot.entries)} entries, {tasks} tasks{stated}", file=sys.stderr)
    for problem in result.problems:
        print(f"warning: {problem}", file=sys.stderr)
    return EXIT_OK
