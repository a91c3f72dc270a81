"""The ``benchgraph`` command line: one module per subcommand, listed in ``COMMANDS``.

Exit codes: 0 ok, 1 the data fails validation, 2 usage or input error. A user never sees a
traceback for their own mistake: the library raises a ``BenchgraphError`` carrying its kind,
and ``main`` alone catches it, prints ``benchgraph COMMAND: message`` and exits with the kind's
code. Any other exception is a bug, and shows as one.

What only building or validating records needs (the loader, the importers, pyshacl) is
imported when a command builds or validates, not at start: ``query --store`` and ``serve
--store`` never need it, and are held to start-up targets (``python -m perf.run startup``).

PATHs go anywhere on the line (``benchgraph query lineage --param benchmark=x catalog/``):
argparse fills a positional list once, so the words it leaves over are put into it here.
"""

import argparse
import logging
import sys
from collections.abc import Sequence
from types import ModuleType

from graph import __version__
from graph.cli import build, harvest, push, query, serve, stats, validate
from graph.cli.common import take_extra_words
from graph.errors import BenchgraphError

COMMANDS: tuple[ModuleType, ...] = (build, stats, query, validate, serve, harvest, push)
"""Each module has ``add_parser(subparsers)``, which registers a parser whose ``run`` default
takes the parsed arguments and returns the exit code."""


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="benchgraph",
        description="A knowledge graph of AI evaluation benchmarks.",
    )
    parser.add_argument("--version", action="version", version=f"benchgraph {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line, with the PATHs found after options collected too."""
    parser = make_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        (subparsers,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        take_extra_words(args, extra, subparsers.choices[args.command].error)
    return args


def one_line(message: str) -> str:
    """The message on one line: some carry a parser's own multi-line text (rdflib's)."""
    return " ".join(line.strip() for line in message.splitlines() if line.strip())


def _quiet_log() -> None:
    """No line of benchgraph's log on a command's stderr, which is its user's: the log (each
    query's line, a query a limit stopped: ``graph.store.query_log``) is a server's, which
    ``serve`` sets up (``web.server.log_to``). With no handler at all, Python's last resort
    would print its warnings beside the command's own one line."""
    package = logging.getLogger("graph")
    if not package.handlers:
        package.addHandler(logging.NullHandler())


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    _quiet_log()
    try:
        code: int = args.run(args)
    except BenchgraphError as error:
        print(f"benchgraph {args.command}: {one_line(error.message)}", file=sys.stderr)
        return error.kind.exit_code
    except KeyboardInterrupt:
        print("benchgraph: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (`| head`): not an error worth a traceback
        return 0
    return code


__all__ = ["main", "make_parser", "parse_arguments"]
