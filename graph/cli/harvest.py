"""``benchgraph harvest``: harness packages -> one snapshot file per harness, and a NOTICE."""

import argparse
import sys
from pathlib import Path

from graph.cli.common import EXIT_OK, output_to

DOWNLOAD = "pip download --no-deps crfm-helm lm-eval inspect-evals opencompass -d WHEELS"


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "harvest",
        help="read the harnesses' own packages into snapshot files",
        description="Read the wheels of the evaluation harnesses (HELM, lm-eval, "
        "inspect_evals, OpenCompass), or folders holding them unpacked, without installing "
        "or running them, and write what each states about its benchmarks as one sorted, "
        f"deterministic JSON file per harness, with a NOTICE. Get the wheels with: {DOWNLOAD}"
        " (then: benchgraph harvest WHEELS/*.whl -o DIR). A member file that cannot be read "
        "is a warning and the rest still load. Exit 0 when the snapshots were written, 2 on "
        "an input that is not a harness package or a usage error.",
    )
    parser.add_argument(
        "packages", nargs="+", type=Path, metavar="WHEEL|DIR",
        help="a harness wheel (.whl) or a folder holding one unpacked; one per harness",
    )
    parser.add_argument(
        "-o", "--output", type=Path, required=True, metavar="DIR",
        help="the folder to write {harness}.json and NOTICE into (made if missing)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from graph.harvest import harvest
    from graph.harvest.snapshot import snapshot_file_name, write_snapshots

    result = harvest(args.packages)  # HarvestError is a BenchgraphError: main says it
    with output_to(args.output):
        write_snapshots(result.snapshots, args.output)
    for snapshot in result.snapshots:
        tasks = sum(len(entry.tasks) for entry in snapshot.entries)
        print(f"{snapshot_file_name(snapshot)}: {snapshot.package} {snapshot.version}, "
              f"{len(snapshot.entries)} entries, {tasks} tasks", file=sys.stderr)
    for problem in result.problems:
        print(f"warning: {problem}", file=sys.stderr)
    return EXIT_OK
