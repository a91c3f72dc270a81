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
def test_every_query_example_runs(example: str, bundled_folder: Path,
                                  capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Each example as written, on the bundled catalog's store folder (the README's
    ``BENCHGRAPH_STORE``): run as written, each would build the whole catalog again."""
    monkeypatch.setenv("BENCHGRAPH_STORE", f"oxigraph:{bundled_folder}")
    argv = shlex.split(example)[1:]
    assert (data_dir("queries") / f"{argv[1]}.rq").is_file()
    assert main(argv) == 0
    assert capsys.readouterr().out.strip()


ROOT = Path(__file__).resolve().parent.parent
LAYOUT = README.split("## Layout", 1)[1].split("\n## ", 1)[0]
LAYOUT_PATHS = re.findall(r"`([\w./-]+/?)`", "\n".join(
    row.split("|")[1] for row in LAYOUT.splitlines() if row.startswith("| `")
))


def test_every_path_in_the_layout_table_exists() -> None:
    assert LAYOUT_PATHS
    missing = [path for path in LAYOUT_PATHS if not (ROOT / path).exists()]
    assert not missing, f"the README's layout names paths that do not exist: {missing}"


def test_the_layout_table_names_every_module_and_folder() -> None:
    named = {path.rstrip("/") for path in LAYOUT_PATHS}
    entries = [
        f"graph/{entry.name}"
        for entry in (ROOT / "graph").iterdir()
        if entry.name not in ("__init__.py", "__pycache__", "_data")
        and (entry.suffix == ".py" or entry.is_dir())
    ]
    entries += ["ontology", "shapes", "queries", "web", "catalog", "perf", "tests"]
    unnamed = sorted(entry for entry in entries if entry not in named)
    assert not unnamed, f"add these to the README's layout table: {unnamed}"


def test_the_formats_table_is_the_format_registry() -> None:
    from graph.export.formats import FORMATS

    section = README.split("## Commands", 1)[1].split("\n## ", 1)[0]
    rows = [[cell.strip() for cell in row.strip("|").split("|")]
            for row in section.splitlines() if row.startswith("| `") and row.count("|") == 6]
    documented = {row[0].strip("`"): row[1:4] for row in rows}
    assert documented == {
        fmt.name: [", ".join(f"`{alias}`" for alias in fmt.aliases),
                   ", ".join(f"`{ext}`" for ext in fmt.extensions), f"`{fmt.media_type}`"]
        for fmt in FORMATS
    }


def test_the_opening_names_every_question_the_named_queries_answer() -> None:
    """What a user can ask, as the README's opening lists it, is every named query."""
    from graph.sparql.named import load_named_queries

    opening = " ".join(README.split("## Two commands", 1)[0].split())
    unnamed = [query.title for query in load_named_queries().values()
               if query.title not in opening]
    assert not unnamed, f"add these to the README's opening: {unnamed}"
