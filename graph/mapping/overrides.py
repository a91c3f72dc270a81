"""Known misses of the matching rule, kept as data: ``harness_overrides.toml`` beside this module.

The rule (``graph.mapping.identity``) matches a harness entry to a benchmark by name, confirmed
by the arXiv id. Some entries name their benchmark in words no rule should read as its name
(HELM calls HumanEval ``HumanEval (Code)``), and some run a benchmark as a few tasks of a
bigger entry (lm-eval runs BoolQ inside ``super_glue``). Each such case is one override here,
with the reason it holds; ``tests/test_harness_overrides.py`` checks every one of them on the
bundled catalog.

- ``[[entry]]``: the entry (``harness``, ``entry``) describes the benchmark named
  ``benchmark`` (a name or an id, resolved as a reference is: by slug, against every record's
  claims), instead of the one the rule finds;
- ``[[tasks]]``: the entry's ``tasks`` are the named benchmark's tasks in that harness; the
  entry itself still describes its own benchmark, which keeps its other tasks.

An override about an entry the build does not hold does nothing: the harness may simply not
be in the catalog.
"""

import tomllib
from functools import cache
from importlib import resources
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from graph.records.harness_snapshot import Harness

FILE_NAME = "harness_overrides.toml"

Text = Annotated[str, Field(min_length=1)]


class _Override(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    harness: Harness
    entry: Text
    """The entry's id in its harness's snapshot."""
    benchmark: Text
    """The benchmark it describes (or whose tasks it holds), by name or id."""
    reason: Text
    """Why: what the harness writes, and why the rule cannot see the match."""

    @property
    def key(self) -> tuple[str, str]:
        return (self.harness, self.entry)


class EntryOverride(_Override):
    """An entry that describes another benchmark than its name says."""


class TaskOverride(_Override):
    """Tasks of an entry that are another benchmark's tasks."""

    tasks: Annotated[list[Text], Field(min_length=1)]


class Overrides(BaseModel):
    """Every override, as the file lists them."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    entry: list[EntryOverride] = []
    tasks: list[TaskOverride] = []

    def for_entry(self, key: tuple[str, str]) -> EntryOverride | None:
        """The override of the benchmark the entry ``key`` describes, if any."""
        return next((o for o in self.entry if o.key == key), None)

    def tasks_of(self, key: tuple[str, str]) -> list[TaskOverride]:
        """The overrides that move some of the entry ``key``'s tasks to another benchmark."""
        return [o for o in self.tasks if o.key == key]


NO_OVERRIDES = Overrides()


def read_overrides(text: str) -> Overrides:
    """The overrides of a TOML text; raises ``tomllib.TOMLDecodeError`` or pydantic's
    ``ValidationError`` for a file that breaks the format (a bug in the shipped data)."""
    return Overrides.model_validate(tomllib.loads(text))


@cache
def bundled_overrides() -> Overrides:
    """The overrides shipped with benchgraph, read once per process."""
    return read_overrides(resources.files("graph.mapping").joinpath(FILE_NAME).read_text("utf-8"))
