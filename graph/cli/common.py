"""What the subcommands share: exit codes, and the arguments and steps of every command that
builds the graph (``build``, ``stats``, ``query``, ``validate``), declared once here."""

import argparse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

from graph.build import BuildResult, build
from graph.cli.progress import progress_bar
from graph.cli.report import print_load_report, write_report_json
from graph.errors import BenchgraphError, ErrorKind
from graph.settings import Settings, load_settings
from graph.stats import StatementCounts

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


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings from the environment, with the command line's ``--base`` on top."""
    return load_settings(base=args.base) if args.base else load_settings()


def build_from(
    args: argparse.Namespace, settings: Settings | None = None, paths: Sequence[str] | None = None
) -> BuildResult:
    """The graph of the PATHs given on the command line (``paths`` when the command picked
    them out of its words; default: the bundled catalog), with a progress bar on a terminal;
    writes ``--report`` when asked. A PATH that does not exist is an input error
    (``InputPathError``)."""
    given = [Path(word) for word in (args.paths if paths is None else paths)]
    result = build(given, settings or settings_from(args), progress=progress_bar("reading"))
    if args.report is not None:
        with output_to(args.report):
            write_report_json(args.report, result.report)
    return result


def report_load(
    args: argparse.Namespace, result: BuildResult, counts: StatementCounts | None = None
) -> None:
    """The load report on stderr, as ``--verbose`` asks."""
    print_load_report(result.report, counts=counts, verbose=args.verbose)


def load_exit_code(result: BuildResult) -> int:
    """``EXIT_REJECTED`` when a file was rejected, else ``EXIT_OK``."""
    return EXIT_REJECTED if result.report.rejected else EXIT_OK


@contextmanager
def output_to(path: Path) -> Iterator[None]:
    """Writing ``path``: a system error (no such folder, no permission) becomes one line."""
    try:
        yield
    except OSError as error:
        raise BenchgraphError(
            f"cannot write {path}: {error.strerror or error}", ErrorKind.INPUT
        ) from None


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
