"""What the subcommands share: exit codes, the one error type, and the common arguments."""

import argparse
from collections.abc import Sequence
from pathlib import Path

from graph.build import BuildResult, build
from graph.cli.progress import progress_bar
from graph.importers.reading import InputPathError
from graph.settings import Settings

EXIT_OK = 0
EXIT_DATA_FAILS = 1
EXIT_USAGE = 2


class CliError(Exception):
    """A usage or input error: printed as one line, exit code 2 unless told otherwise."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def add_paths_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        metavar="PATH",
        help="record files or folders of them (searched recursively); default: the bundled catalog",
    )


def add_base_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--base",
        metavar="IRI",
        help="base IRI of the data (default: $BENCHGRAPH_BASE or https://w3id.org/benchgraph/)",
    )


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings from the environment, with the command line's ``--base`` on top."""
    from pydantic import ValidationError

    overrides = {"base": args.base} if getattr(args, "base", None) else {}
    try:
        return Settings(**overrides)
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
        raise CliError(f"bad setting: {problems}") from None


def build_from(paths: Sequence[Path], settings: Settings) -> BuildResult:
    """The graph of the PATHs given on the command line (default: the bundled catalog), with a
    progress bar on a terminal; a PATH that does not exist is a usage error."""
    try:
        return build(paths, settings, progress=progress_bar("reading"))
    except InputPathError as error:
        raise CliError(str(error)) from None
