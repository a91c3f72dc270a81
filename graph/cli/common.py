"""What the subcommands share: exit codes, and the arguments and steps of every command that
builds the graph (``build``, ``stats``, ``query``, ``validate``), declared once here."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from graph.build.stats import StatementCounts
from graph.cli.changes import change_lines
from graph.cli.progress import progress_bar
from graph.cli.report import print_lines, print_load_report, write_report_json
from graph.errors import BenchgraphError, ErrorKind
from graph.settings import Settings, load_settings
from graph.store.base import Store
from graph.store.changes import BuildChanges
from graph.store.kinds import StoreSpec, open_store

if TYPE_CHECKING:  # the build is imported when a command builds: see graph.cli
    from graph.build.graphs import BuildResult, Read

EXIT_OK = 0
EXIT_DATA_FAILS = 1
EXIT_REJECTED = ErrorKind.INPUT.exit_code
"""Some record file was rejected (the others were still built)."""

EXTRA_WORDS = "extra_words"
"""The default naming the attribute that collects the words ``main`` finds after the options
(``benchgraph build -o out.ttl a/ --base X b/``): argparse fills a ``nargs="*"`` positional
once, so later PATHs reach ``main`` as unrecognised and it puts them there."""


def add_build_arguments(parser: argparse.ArgumentParser, words: str | None = "paths") -> None:
    """PATH..., ``--base``, ``--verbose`` and ``--report FILE``: the same for every command
    that builds. ``words=None`` when the command declares its own positional words (``query``)
    and collects PATHs among them."""
    if words is not None:
        parser.add_argument(
            words,
            nargs="*",
            metavar="PATH",
            help="record files or folders of them (searched recursively), anywhere on the "
            "line; default: the bundled catalog",
        )
        parser.set_defaults(**{EXTRA_WORDS: words})
    parser.add_argument(
        "--base",
        metavar="IRI",
        help="base IRI of the data (default: $BENCHGRAPH_BASE or https://w3id.org/benchgraph/)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="list every warning and rejected file of the load, not a summary",
    )
    parser.add_argument(
        "--report",
        type=Path,
        metavar="FILE.json",
        help="write every warning and rejection of the load to FILE.json, for tools",
    )


def add_store_arguments(parser: argparse.ArgumentParser, *, limits: bool = True) -> None:
    """``--store`` (and with ``limits``, ``--query-timeout`` and ``--row-limit``): the same for
    every command that reads the graph from a store."""
    parser.add_argument(
        "--store",
        metavar="S",
        help="memory (default: built now from PATH...) or oxigraph:DIR (built once by "
        "`benchgraph build --store oxigraph:DIR`, opened as it is)",
    )
    if limits:
        # no argparse type: the settings read the value and say what is wrong with it
        parser.add_argument("--query-timeout", metavar="SECONDS",
                            help="stop a query after this long (default 30, at most a day)")
        parser.add_argument("--row-limit", metavar="N",
                            help="return at most N rows or triples, 0 for all (default 10000)")


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings from the environment, with the command line's flags on top: each flag is
    named after its setting (``--base``, ``--store``, ``--row-limit``...)."""
    flags = {name: value for name in Settings.model_fields
             if (value := getattr(args, name, None)) is not None}
    return load_settings(**flags)


@contextmanager
def opened_store(
    args: argparse.Namespace, settings: Settings, paths: Sequence[str] | None = None
) -> Iterator[tuple[Store, Read | None]]:
    """The store the settings name, and the records it was built from (a ``memory`` store is
    built now, from the PATHs given; an ``oxigraph:DIR`` store is opened as it is, and PATHs
    beside it are a usage error); closed when the command is done."""
    spec = StoreSpec.parse(settings.store)
    given = list(args.paths if paths is None else paths)
    built = build_from(args, settings, given) if spec.kind == "memory" else None
    store = open_store(spec, settings, [Path(word) for word in given], built=built, lazy=True)
    try:
        yield store, built
    finally:
        store.close()


def build_from(
    args: argparse.Namespace, settings: Settings | None = None, paths: Sequence[str] | None = None,
    *, keep: bool = False,
) -> Read:
    """The records of the PATHs given on the command line (``paths`` when the command picked
    them out of its words; default: the bundled catalog), read with a progress bar on a
    terminal, and indexed; writes ``--report`` when asked. A PATH that does not exist is an
    input error (``InputPathError``). With ``keep``, the records are kept for a store's state
    as they are read (``graph.build.graphs.read``)."""
    from graph.build.graphs import read
    from graph.ingest.kept import Spool

    given = [Path(word) for word in (args.paths if paths is None else paths)]
    settings = settings or settings_from(args)
    records = read(given, settings, progress_bar("reading"), keep=Spool() if keep else None)
    if args.report is not None:
        with output_to(args.report):
            write_report_json(args.report, records.report)
    return records


def report_load(
    args: argparse.Namespace, result: BuildResult | Read, counts: StatementCounts | None = None,
    *, written: bool = True,
) -> None:
    """The load report on stderr, as ``--verbose`` asks (``written``: whether the graph was
    written out, ``graph.cli.report.counts_line``)."""
    print_load_report(result.report, counts=counts, verbose=args.verbose, written=written)


def report_changes(args: argparse.Namespace, result: BuildResult | Read, changes: BuildChanges,
                   before: str) -> None:
    """What the build changed against the ``before`` (``build``, ``push``) its store held,
    on stderr as ``--verbose`` asks (``graph.cli.changes``); with ``--report``, the report
    written again, with them."""
    print_lines(change_lines(changes, len(result.report.records), before, args.verbose))
    if args.report is not None:
        with output_to(args.report):
            write_report_json(args.report, result.report, changes)


def load_exit_code(result: BuildResult | Read | None) -> int:
    """``EXIT_REJECTED`` when a file was rejected, else ``EXIT_OK`` (also when nothing was
    built: a store opened as it is)."""
    return EXIT_REJECTED if result is not None and result.report.rejected else EXIT_OK


@contextmanager
def output_to(path: Path | str) -> Iterator[None]:
    """Writing ``path`` (a file, or ``stdout``): a system error (no such folder, no
    permission, a full disk, a refusal of ``graph.export.atomic``) becomes one line naming
    it."""
    try:
        yield
    except OSError as error:
        if path == STDOUT:
            _let_go_of_stdout()
        raise BenchgraphError(
            f"cannot write {path}: {error.strerror or error}", ErrorKind.INPUT
        ) from None


STDOUT = "stdout"
"""How ``output_to`` names the standard output."""


def _let_go_of_stdout() -> None:
    """Point the standard output at the null device: what a failed write left in its buffer
    would otherwise fail again, with a traceback, when the interpreter flushes it at exit."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, ValueError):  # no descriptor (a test's capture): nothing held
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, descriptor)
    finally:
        os.close(null)


def take_extra_words(
    args: argparse.Namespace, extra: list[str], fail: Callable[[str], NoReturn]
) -> None:
    """Put the words argparse left over into the command's positional list; ``fail`` (the
    subcommand parser's ``error``) ends the run when an option among them is unknown, or when
    the command takes no more words."""
    options = [word for word in extra if word.startswith("-") and word != "-"]
    dest = getattr(args, EXTRA_WORDS, None)
    if options or dest is None:
        fail(f"unrecognized arguments: {' '.join(options or extra)}")
    setattr(args, dest, [*getattr(args, dest), *extra])
