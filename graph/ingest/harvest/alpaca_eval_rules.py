"""AlpacaEval's leaderboards as rules kept as data: ``alpaca_eval.toml`` beside this module.

The package's leaderboards are CSV files whose meaning the package states elsewhere: which
folder is which version of the benchmark (``constants.py``), what each column holds (the
metrics' code), who ran a row by its ``mode`` (the README), and the README's own results table.
The reader (``graph.ingest.harvest.alpaca_eval``) applies these rules; the file states them, each
with where in the package it was read (``reason``), so that a new release that changes one is
a change of data, and a rule that no longer matches the package is a warning of the harvest.
"""

from functools import cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from graph.ingest.records.stated_result import RanBy, Scale
from graph.resources import bundled_toml, read_toml

RULES_FILE = "alpaca_eval.toml"

Text = Annotated[str, Field(min_length=1)]


class _Rule(BaseModel):
    """Strict, immutable, and no key the file's format does not define."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class BenchmarkRule(_Rule):
    """A benchmark: its leaderboard folder, and what the package states of it elsewhere."""

    id: Text
    name: Text
    aliases: list[str] = []
    folder: Text
    annotator_constant: Text
    """The name in ``constants.py`` of its default annotator, whose leaderboard is the main."""
    baseline: Text
    main_metric: Text
    cite_keys: list[str] = []
    reason: Text


class ColumnRule(_Rule):
    """A leaderboard column by its heading, and what it holds."""

    name: str
    role: Literal["model", "score", "samples", "mode", "data"]
    stderr: str | None = None
    """For a score: the column of its standard error."""
    scale: Scale | None = None
    reason: Text


class ModeRule(_Rule):
    mode: Text
    ran_by: RanBy
    reason: Text


class ScoreColumn(_Rule):
    metric: Text
    stderr: str | None = None


class ReadmeTableRule(_Rule):
    """A results table of the README, by the paragraph that titles it."""

    title: Text
    benchmark: Text
    annotator: Text
    mode: Text
    scale: Scale | None = None
    scores: list[ScoreColumn]
    reason: Text


class Rules(_Rule):
    description_heading: Text
    description_reason: Text
    ignored_folders: list[str] = []
    ignored_reason: str | None = None
    benchmark: list[BenchmarkRule]
    column: list[ColumnRule]
    mode: list[ModeRule]
    readme_table: list[ReadmeTableRule] = []


def read_rules(text: str) -> Rules:
    """The rules of a TOML text (``graph.resources.read_toml``)."""
    return read_toml(Rules, text)


@cache
def bundled_rules() -> Rules:
    """The rules shipped with benchgraph, read once per process."""
    return bundled_toml(Rules, "graph.ingest.harvest", RULES_FILE)
