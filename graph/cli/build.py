"""``benchgraph build``: record files -> one RDF file (or stdout), with a load report."""

import argparse
import sys
from pathlib import Path

from graph.cli.common import (
    add_build_arguments,
    build_from,
    load_exit_code,
    output_to,
    report_load,
    settings_from,
)
from graph.export import write_file, write_stream
from graph.export.formats import RDF_FORMATS, format_for, names
from graph.stats import statement_counts


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "build",
        help="build the graph from record files and write it as RDF",
        description="Read record files (default: the bundled catalog), map them to RDF and write "
        "the graph. Exit 0 when every file loaded, 2 when some were rejected (the good "
        "records are still written) or on a usage error.",
    )
    add_build_arguments(parser)
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="write here (atomically) instead of stdout",
    )
    parser.add_argument(
        "--format",
        metavar="F",
        help=f"one of {names(RDF_FORMATS)} (default: from FILE's extension, else turtle)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    fmt = format_for(args.format, args.output)
    settings = settings_from(args)
    result = build_from(args, settings)
    if args.output is None:
        write_stream(sys.stdout.buffer, result.table, fmt, base=settings.base)
    else:
        with output_to(args.output):
            write_file(args.output, result.table, fmt, base=settings.base)
    report_load(args, result, statement_counts(result.table, settings.base,
                                               keep_graphs=fmt.keeps_graphs))
    return load_exit_code(result)
