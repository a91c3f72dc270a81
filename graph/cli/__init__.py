"""The ``benchgraph`` command line: one module per subcommand, listed in ``COMMANDS``.

Exit codes: 0 ok, 1 the data fails validation, 2 usage or input error. A user
never sees a traceback for their own mistake: commands raise ``CliError`` with one
clear line, and ``main`` prints it.
"""

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from graph import __version__
from graph.cli import build, query, stats, validate
from graph.cli.common import EXIT_USAGE, CliError

COMMANDS: tuple[ModuleType, ...] = (build, stats, query, validate)
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


def main(argv: Sequence[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except CliError as error:
        print(f"benchgraph {args.command}: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print("benchgraph: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (`| head`): not an error worth a traceback
        return 0
    return code


__all__ = ["EXIT_USAGE", "main", "make_parser"]
