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
from graph.errors import BenchgraphError, ErrorKind
from graph.export import write_file, write_stream
from graph.export.formats import RDF_FORMATS, format_for, names
from graph.stats import statement_counts
from graph.store.kinds import StoreSpec, build_into


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "build",
        help="build the graph from record files and write it as RDF",
        description="Read record files (default: the bundled catalog), map them to RDF and write "
        "the graph: as a file (-o, or stdout), and with --store oxigraph:DIR into a store "
        "folder that query, stats and serve open as it is (built beside the old one and "
        "switched to only when complete). Exit 0 when every file loaded, 2 when some were "
        "rejected (the good records are still written) or on a usage error.",
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
    parser.add_argument(
        "--store",
        metavar="oxigraph:DIR",
        help="also (or, without -o, only) put the graph into this store folder, validated "
        "(its report kept for `benchgraph validate --store` and the /validation page)",
    )
    parser.add_argument(
        "--no-validate", action="store_true",
        help="with --store: keep no validation report (it costs more than the build)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    fmt = format_for(args.format, args.output)
    settings = settings_from(args)
    target = _store_folder(args.store) if args.store else None
    result = build_from(args, settings)
    if target is not None:
        manifest = build_into(target, result, settings, validate=not args.no_validate)
        print(f"stored in {target}: {manifest.quads:,} quads in {len(result.report.records):,} "
              f"record graphs, the build graph and the ontology; {manifest.triples:,} triples "
              "in their merge", file=sys.stderr)
    if args.output is not None:
        with output_to(args.output):
            write_file(args.output, result.table, fmt, base=settings.base)
    elif target is None:
        write_stream(sys.stdout.buffer, result.table, fmt, base=settings.base)
    report_load(args, result, statement_counts(result.table, settings.base,
                                               keep_graphs=fmt.keeps_graphs))
    return load_exit_code(result)


def _store_folder(text: str) -> Path:
    """The folder of ``--store oxigraph:DIR``; a usage error for any other kind."""
    spec = StoreSpec.parse(text)
    if spec.kind != "oxigraph":
        raise BenchgraphError(f"--store {spec}: build writes an oxigraph:DIR store (a memory "
                              "store is built when a command starts)", ErrorKind.USAGE)
    return Path(spec.location)
