"""OpenCompass (``opencompass``): one entry per dataset folder of its configs.

Each folder of ``opencompass/configs/datasets/`` is a benchmark; the only facts harvested
are its name (the README's heading, else the folder's name) and the ``abbr`` of each dataset
its config files define (``dict(abbr='gsm8k', ...)``), which name its tasks in OpenCompass's
results. The configs are Python, read as syntax trees and never run: an ``abbr`` built in
code (an f-string in a loop) is not stated, and is left out.
"""

import ast

from graph.harvest import pyast
from graph.harvest.archive import Archive
from graph.harvest.reader import MemberReader, Reading
from graph.harvest.text import first_heading
from graph.records.harness_snapshot import Entry, Harness

DATASETS = "opencompass/configs/datasets/"


class OpenCompassReader:
    harness: Harness = "opencompass"
    distribution = "opencompass"

    def read(self, archive: Archive) -> Reading:
        reading = Reading()
        reader = MemberReader(archive, reading.problems)
        folders: dict[str, list[str]] = {}
        for name in archive.below(DATASETS):
            parts = name[len(DATASETS):].split("/")
            if len(parts) > 1:
                folders.setdefault(parts[0], []).append(name)
        for folder, members in sorted(folders.items()):
            reading.entries.append(_entry(reader, folder, members))
        return reading


def _entry(reader: MemberReader, folder: str, members: list[str]) -> Entry:
    readme = next((m for m in members if m.lower() == f"{DATASETS}{folder}/readme.md".lower()),
                  None)
    text = reader.text(readme) if readme else None
    abbrs: list[str] = []
    for name in members:
        module = pyast.parse_module(reader, name) if name.endswith(".py") else None
        abbrs += _abbrs(module) if module else []
    return Entry(
        id=folder,
        name=(first_heading(text) if text else None) or folder,
        tasks=abbrs,
        source=[f"{DATASETS}{folder}/", *([readme] if readme else [])],
    )


def _abbrs(module: ast.Module) -> list[str]:
    """Every literal ``abbr`` in the module: ``dict(abbr='x')`` and ``{'abbr': 'x'}``."""
    found: list[str] = []
    for node in ast.walk(module):
        value: str | None = None
        if isinstance(node, ast.Call):
            value = pyast.string(pyast.keyword(node, "abbr"))
        elif isinstance(node, ast.Dict):
            value = next((pyast.string(v) for k, v in zip(node.keys, node.values, strict=True)
                          if pyast.string(k) == "abbr"), None)
        if value and value.strip():
            found.append(value.strip())
    return found
