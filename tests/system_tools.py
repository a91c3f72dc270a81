"""The programs outside Python that some tests run, and what a test does when one is absent.

A test that needs one carries ``@needs(TOOL)`` (``conftest`` checks it before the test runs)
or calls ``require(TOOL)`` where it starts the program. Where the program is missing, the
test is skipped with the program's name and the command that installs it. Under ``CI=true``
(``.ci/run`` runs the suite so, after installing every one of them) the same absence fails
the test instead: CI can never lose those tests silently.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Tool:
    """A program a test runs, and how a machine gets it."""

    program: str
    install: str
    beside_python: bool = False
    """Also looked for beside this interpreter: pip puts a package's programs there, found
    whether or not its virtual environment is on PATH (``.venv/bin/python -m pytest``)."""

    def path(self) -> str | None:
        if self.beside_python:
            found = shutil.which(self.program, path=str(Path(sys.executable).parent))
            if found:
                return found
        if os.path.isabs(self.program):
            return self.program if os.access(self.program, os.X_OK) else None
        return shutil.which(self.program)

    @property
    def missing(self) -> str:
        return f"{self.program} is not installed: {self.install}"

    def __str__(self) -> str:
        return self.program


RAPPER = Tool("rapper", "apt-get install raptor2-utils")
"""Raptor's parser: the independent reader every export format is checked with."""
CHROMIUM = Tool("/usr/bin/chromium", "apt-get install chromium")
"""Debian's Chromium, which pip's playwright drives (its own browser download cannot work
offline)."""
VIRTUOSO = Tool("virtuoso-t", "apt-get install virtuoso-opensource")
VIRTUOSO_ISQL = Tool("isql-vt", "apt-get install virtuoso-opensource")
OXIGRAPH = Tool("oxigraph", "pip install oxigraph (a test extra)", beside_python=True)
"""pip's ``oxigraph serve``, the engine the ``sparql:`` store suites run against."""


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def require(*tools: Tool) -> list[str]:
    """Each tool's path; the test is skipped (failed under ``CI=true``) naming the first one
    missing."""
    paths = []
    for tool in tools:
        path = tool.path()
        if path is None:
            if in_ci():
                pytest.fail(f"{tool.missing} (CI=true: a missing tool is a failure)")
            pytest.skip(tool.missing)
        paths.append(path)
    return paths


def needs(*tools: Tool) -> pytest.MarkDecorator:
    """Marks a test, a module (``pytestmark``) or a parameter as running ``tools``."""
    return pytest.mark.needs(*tools)


def check_needs(item: pytest.Item) -> None:
    """``require`` every tool the item's ``needs`` marks name (``conftest``'s setup hook)."""
    for mark in item.iter_markers("needs"):
        require(*mark.args)
