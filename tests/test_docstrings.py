"""Docstrings say what holds and why, and point to what exists.

A docstring of ``graph/`` or ``web/`` carries no date (a measurement and its day belong in a
decision note under ``perf/decisions/``), names only modules that exist (and, right after a
module, a name it defines), and points only to decision notes that exist. Comments point
only to notes that exist too. Where a docstring names a section of ``perf/README.md``, that
section exists.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph.export.formats import FORMATS

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("graph", "web")

DATE = re.compile(r"(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])")
"""A day, ``YYYY-MM-DD``; not a part of a longer name (a model's ``gpt-4o-2024-05-13``)."""
MODULE = re.compile(r"(?<![\w./-])((?:graph|web)(?:\.[A-Za-z_]\w*)+)")
"""A dotted name under one of the packages: ``graph.store.process.pool``, ``web.server.serve``."""
NOTE = re.compile(r"perf/decisions/([\w.-]+?\.md)")
README_SECTION = re.compile(r"perf/README(?:\.md)?`{0,2},\s*\"([^\"]+)\"")
FILE_SUFFIXES = frozenset(extension for fmt in FORMATS for extension in fmt.extensions)
"""A name ending so is a file's (``-o graph.ttl``), not a module's."""


def docstrings(source: str) -> Iterator[tuple[int, str]]:
    """Every string that stands as a statement (a module's, class's, function's or
    attribute's docstring), with its line."""
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            yield node.lineno, node.value.value


def comments(source: str) -> Iterator[tuple[int, str]]:
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def missing_name(dotted: str) -> str | None:
    """Why ``dotted`` names nothing (None when it does): the longest leading part that is a
    module must exist, and the part after it must be a name that module defines."""
    if Path(dotted).suffix in FILE_SUFFIXES and dotted.count(".") == 1:
        return None
    parts = dotted.split(".")
    for cut in range(len(parts), 1, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(module) is not None
        except ImportError:  # a leading part is no package
            found = False
        if found:
            if cut < len(parts) and not hasattr(importlib.import_module(module), parts[cut]):
                return f"{module} defines no {parts[cut]}"
            return None
    return "no such module"


def problems(source: str, root: Path = ROOT) -> list[str]:
    """What the docstrings and comments of one module's ``source`` get wrong."""
    found = []
    headings = set(re.findall(r"^#+ (.+?)\s*$", (root / "perf" / "README.md").read_text(),
                              re.MULTILINE))
    for line, text in docstrings(source):
        found += [f"{line}: a date, {day}" for day in DATE.findall(text)]
        for name in MODULE.findall(text):
            why = missing_name(name)
            if why:
                found.append(f"{line}: {name}: {why}")
        found += [f"{line}: perf/README.md has no section {section!r}"
                  for section in README_SECTION.findall(" ".join(text.split()))
                  if section not in headings]
    for line, text in [*docstrings(source), *comments(source)]:
        found += [f"{line}: no note perf/decisions/{note}" for note in NOTE.findall(text)
                  if not (root / "perf" / "decisions" / note).is_file()]
    return found


def modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("source, expected", [
    ('"""Measured on 2026-12-03: 28 ms."""', ["1: a date, 2026-12-03"]),
    ('"""HELM names ``openai/gpt-4o-2024-05-13``."""', []),
    ('"""Written as ``graph.store.formats`` says."""',
     ["1: graph.store.formats: graph.store defines no formats"]),
    ('"""The ``graph.nothing`` module."""', ["1: graph.nothing: no such module"]),
    ('"""Written by ``graph.export.serialize_result``."""',
     ["1: graph.export.serialize_result: graph.export defines no serialize_result"]),
    ('"""The pool (``graph.store.process.pool.QueryPool``), its ``web.server``."""', []),
    ('"""``benchgraph build -o graph.ttl``."""', []),
    ('"""Why: perf/decisions/no-such-note.md."""',
     ["1: no note perf/decisions/no-such-note.md"]),
    ('x = 1  # perf/decisions/no-such-note.md', ["1: no note perf/decisions/no-such-note.md"]),
    ('"""Why: perf/decisions/load-in-blocks.md."""', []),
    ('"""(perf/README.md, "The fifth pass")."""',
     ["1: perf/README.md has no section 'The fifth pass'"]),
    ('"""(``perf/README.md``, "Running")."""', []),
])
def test_problems_are_found(source: str, expected: list[str]) -> None:
    assert problems(source) == expected


def test_every_docstring_holds_no_date_and_names_what_exists() -> None:
    found = [f"{path.relative_to(ROOT)}:{problem}"
             for path in modules() for problem in problems(path.read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)


def test_every_decision_note_is_listed_in_the_perf_readme() -> None:
    readme = (ROOT / "perf" / "README.md").read_text()
    notes = sorted(path.name for path in (ROOT / "perf" / "decisions").glob("*.md"))
    assert notes
    assert [note for note in notes if f"(decisions/{note})" not in readme] == []
