"""``benchgraph build``: record files -> one RDF file (or stdout), with a load report."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph as ox

from graph.build.stats import StatementCounts, statement_counts
from graph.cli.common import (
    STDOUT,
    add_build_arguments,
    build_from,
    load_exit_code,
    output_to,
    report_changes,
    report_load,
    settings_from,
)
from graph.cli.progress import progress_bar
from graph.cli.push import add_graph_store_argument, push_build
from graph.errors import BenchgraphError, ErrorKind
from graph.export.atomic import write_atomically
from graph.export.formats import (
    RDF_FORMATS,
    Format,
    FormatError,
    format_for,
    format_for_path,
    names,
)
from graph.settings import Settings
from graph.store.disk import Manifest, build_files
from graph.store.files import dump_name, made_dump
from graph.store.kinds import StoreSpec, build_into

if TYPE_CHECKING:  # the build is imported when a command builds: see graph.cli
    from graph.build.graphs import BuildResult


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "build",
        help="build the graph from record files and write it as RDF",
        description="Read record files (default: the bundled catalog), map them to RDF and write "
        "the graph: as a file (-o, or stdout), with --store oxigraph:DIR into a store "
        "folder that query, stats and serve open as it is (built beside the old one and "
        "switched to only when complete), and with --store sparql:URL into a remote SPARQL "
        "engine, as `benchgraph push` does. When the folder holds a store built by this "
        "version of benchgraph with the same base IRI, the build is incremental: only the "
        "files whose content changed are read again, and what depends on them is made again; "
        "the store is the one a full build makes (--full builds everything again). Exit 0 "
        "when every file loaded, 2 when some were rejected (the good records are still "
        "written) or on a usage error.",
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
        help=f"one of {names(RDF_FORMATS)} (default: from FILE's extension, else turtle; "
        "one that FILE's extension names otherwise is an error)",
    )
    parser.add_argument(
        "--store",
        metavar="oxigraph:DIR|sparql:URL",
        help="also (or, without -o, only) put the graph into this store folder, or push it "
        "into this remote engine (see `benchgraph push`), validated (its report kept for "
        "`benchgraph validate --store` and the /validation page); a folder incrementally "
        "when it holds a store this version built with the same base; says which records "
        "were added, changed and removed since the build it held",
    )
    add_graph_store_argument(parser)
    parser.add_argument(
        "--no-validate", action="store_true",
        help="with --store: keep no validation report (it costs more than the build)",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="with --store, read and write everything again even when the build could be "
        "incremental",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    fmt = output_format(args.format, args.output)
    settings = settings_from(args)
    spec = StoreSpec.parse(args.store) if args.store else None
    if spec is not None and spec.kind == "sparql":
        if args.output is not None or args.full:
            raise BenchgraphError(f"--store {spec} pushes the build into the engine: -o and "
                                  "--full go with an oxigraph:DIR store", ErrorKind.USAGE)
        return push_build(args, spec, settings, validate=not args.no_validate)
    target = _store_folder(spec) if spec is not None else None
    if args.full and target is None:
        raise BenchgraphError("--full goes with --store oxigraph:DIR", ErrorKind.USAGE)
    if target is not None:
        result, manifest = _into_store(args, target, settings)
        print(f"stored in {target}: {manifest.quads:,} quads in {len(result.report.records):,} "
              f"record graphs, the build graph and the ontology; {manifest.triples:,} triples "
              "in their merge", file=sys.stderr)
        report_changes(args, result, manifest.facts.changes, "build")
        counts = manifest.counts.statements
        if args.output is not None:
            counts = _written(args.output, target / manifest.generation, fmt, manifest)
        report_load(args, result, counts, written=args.output is not None)
        return load_exit_code(result)
    with tempfile.TemporaryDirectory(prefix="benchgraph-build-") as folder:
        made = Path(folder) / "made"
        result, outcome = build_files(made, build_from(args, settings), settings.base, dump=fmt)
        _copied(made / dump_name(fmt), args.output or STDOUT)
    assert outcome.dumped is not None, "a build asked for a dump says what it holds"
    report_load(args, result, StatementCounts(**outcome.dumped))
    return load_exit_code(result)


def _written(output: Path, generation: Path, fmt: Format, manifest: Manifest) -> StatementCounts:
    """Write the graph of the store ``generation`` in ``fmt`` to the file ``output``, from its
    dump (``graph.store.files``); the statements it holds, as a file of ``fmt`` counts
    them."""
    _copied(made_dump(generation, fmt, manifest.facts.base, generation).path, output)
    if not fmt.keeps_graphs:
        return manifest.counts.statements
    return statement_counts(ox.Store.read_only(str(generation)), manifest.facts.base,
                            keep_graphs=True)


def _copied(dump: Path, output: Path | str) -> None:
    """The file ``dump`` copied to ``output``: a file, written atomically, or ``STDOUT``."""
    with output_to(output), dump.open("rb") as written:
        if output == STDOUT:
            shutil.copyfileobj(written, sys.stdout.buffer)
            sys.stdout.buffer.flush()
        else:
            write_atomically(Path(output), lambda out: shutil.copyfileobj(written, out))


def output_format(name: str | None, output: Path | None) -> Format:
    """The format to write in: ``--format``, else the extension of ``-o FILE``, else Turtle
    (``format_for``). A ``--format`` that the file's extension names otherwise (``--format
    jsonld -o graph.ttl``) is a usage error naming both, not a file whose name lies about
    what it holds; an extension that names no RDF format (``.txt``, ``.data``) is the
    user's to choose."""
    fmt = format_for(name, output)
    if name is None or output is None:
        return fmt
    named = _rdf_format_of(output)
    if named is not None and named is not fmt:
        raise BenchgraphError(
            f"--format {name} and -o {output} disagree: {output.suffix} is the extension of "
            f"{named.name}; give -o {output.with_suffix(fmt.extension)} or --format "
            f"{named.name}", ErrorKind.USAGE)
    return fmt


def _rdf_format_of(path: Path) -> Format | None:
    """The RDF format ``path``'s extension names; None when it names none."""
    try:
        found = format_for_path(path)
    except FormatError:
        return None
    return found if found.holds_graph else None


def _into_store(args: argparse.Namespace, target: Path, settings: Settings
                ) -> tuple[BuildResult, Manifest]:
    """The build, put into the store folder ``target``: incrementally when it can be. The
    folder's build lock is taken first and held until the store is written: a second build
    stops at once, naming this one (``graph.store.lock``)."""
    from graph.store.lock import BuildLock
    from graph.store.rebuild import kept_build, rebuild_store

    validate = not args.no_validate
    with BuildLock.take(target) as lock:
        rebuilt = None if args.full else rebuild_store(
            target, [Path(path) for path in args.paths], settings, progress_bar("reading"),
            validate=validate, lock=lock)
        if rebuilt is None:
            return build_into(target, build_from(args, settings, keep=True), settings,
                              validate=validate, state=partial(kept_build, settings=settings),
                              lock=lock)
    if args.verbose:
        print(rebuilt.figures.summary(), file=sys.stderr)
    return rebuilt.result, rebuilt.manifest


def _store_folder(spec: StoreSpec) -> Path:
    """The folder of ``--store oxigraph:DIR``; a usage error for a memory store."""
    if spec.kind != "oxigraph":
        raise BenchgraphError(f"--store {spec}: build writes an oxigraph:DIR or a sparql:URL "
                              "store (a memory store is built when a command starts)",
                              ErrorKind.USAGE)
    return Path(spec.location)
