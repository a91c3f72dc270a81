"""The README and the code never drift apart: every command is documented, every example runs."""

import argparse
import re
import shlex
from pathlib import Path

import pytest

from graph.cli import main, make_parser
from graph.resources import data_dir

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def subcommands() -> list[str]:
    parser = make_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(action.choices)


def test_every_command_is_in_the_readme_table() -> None:
    documented = set(re.findall(r"^\| `benchgraph (\w+)", README, re.MULTILINE))
    assert documented == set(subcommands())


EXAMPLES = re.findall(r"^    (benchgraph query .+)$", README, re.MULTILINE)


def test_the_readme_has_query_examples() -> None:
    assert EXAMPLES


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_query_example_runs(example: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = shlex.split(example)[1:]
    assert (data_dir("queries") / f"{argv[1]}.rq").is_file()
    assert main(argv) == 0
    assert capsys.readouterr().out.strip()
