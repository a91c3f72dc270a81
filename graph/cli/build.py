"""``benchgraph build``: record files -> one RDF file (or stdout), with a load report."""

import argparse
import sys
from pathlib import Path

from graph.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    add_base_argument,
    add_paths_argument,
    build_from,
    settings_from,
)
from graph.cli.report import print_load_report
from graph.export import write_file, write_stream
from graph.export.formats import FORMATS, format_for


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "build",
        help="build the graph from record files and write it as RDF",
        description="Read record files (default: the bundled catalog), map them to RDF and write "
        "the graph. Exit 0 when every file loaded, 2 when some were rejected (the good "
        "records are still written) or on a usage error.",
    )
    add_paths_argument(parser)
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
        help=f"one of {', '.join(f.name for f in FORMATS)} "
        "(default: from FILE's extension, else turtle)",
    )
    add_base_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    try:
        fmt = format_for(args.format, args.output)
    except ValueError as error:
        raise CliError(str(error)) from None
    result = build_from(args.paths, settings)
    if args.output is None:
        written = write_stream(sys.stdout.buffer, result.table, fmt, base=settings.base)
    else:
        try:
            written = write_file(args.output, result.table, fmt, base=settings.base)
        except OSError as error:
            raise CliError(f"cannot write {args.output}: {error.strerror or error}") from None
    print_load_report(result.report, triples=written.statements)
    return EXIT_USAGE if result.report.rejected else EXIT_OK
