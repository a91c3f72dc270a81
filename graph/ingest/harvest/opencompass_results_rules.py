"""The rules that read OpenCompass's dataset READMEs: ``opencompass_results.toml``, as models.

What a README's tables mean that their cells do not say is data kept beside this module, each
rule with its reason (the reader, ``graph.ingest.harvest.opencompass_results``, says what each kind
decides): the model classes that tell base from chat models, the column headings that are
metrics or a subset and a metric together, how a dataset config's name states its shots, and
for a folder's or a heading's tables who ran them, which column holds the model, which hold
settings, the judge and the kind of model the README's run command was for. The models here
check the file when it is read, so that a broken rule fails the harvest at once.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from graph.ingest.harvest.opencompass_models import Loads, ModelConfig
from graph.ingest.records.stated_result import RanBy
from graph.resources import bundled_toml, read_toml

RULES = "opencompass_results.toml"

Kind = Literal["base", "chat"]
Text = Annotated[str, Field(min_length=1)]


# -- the rules ----------------------------------------------------------------------------


class _Rule(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    reason: Text


class ModelClassRule(_Rule):
    name: Text
    loads: Loads | None = None
    kind: Kind | None = None


class MetricRule(_Rule):
    name: Text


def _with_groups(pattern: str, groups: frozenset[str]) -> str:
    """``pattern``, when it compiles with those named groups; raises ``ValueError``."""
    missing = groups - set(re.compile(pattern).groupindex)
    if missing:
        raise ValueError(f"a pattern without the groups {sorted(missing)}")
    return pattern


class CompoundRule(_Rule):
    """A column heading naming a subset and a metric together."""

    pattern: Text

    @field_validator("pattern")
    @classmethod
    def _groups(cls, pattern: str) -> str:
        return _with_groups(pattern, frozenset({"subset", "metric"}))


class ShotsRule(_Rule):
    """How a dataset config's name states its shots."""

    pattern: Text

    @field_validator("pattern")
    @classmethod
    def _groups(cls, pattern: str) -> str:
        return _with_groups(pattern, frozenset({"shots"}))


class TableRule(_Rule):
    folder: Text | None = None
    heading: Text | None = None
    model_column: Text | None = None
    kind: Kind | Literal["any"] | None = None
    ran_by: RanBy | None = None
    setting_columns: list[Text] = []
    judge: Text | None = None


class Rules(BaseModel):
    """Every rule, as ``opencompass_results.toml`` lists them."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    model_class: list[ModelClassRule] = []
    metric: list[MetricRule] = []
    compound: list[CompoundRule] = []
    shots: ShotsRule | None = None
    table: list[TableRule] = []

    def loads(self) -> dict[str, Loads]:
        """Where each listed model class takes its model from."""
        return {rule.name: rule.loads for rule in self.model_class if rule.loads}

    def kinds(self, configs: Iterable[ModelConfig]) -> dict[str, Kind]:
        """The kind of model each config file names (by its stem), where its classes state
        one and no other file has that stem."""
        by_class = {rule.name: rule.kind for rule in self.model_class}
        found: dict[str, set[tuple[str, Kind | None]]] = {}
        for config in configs:
            kind = by_class.get(config.model_class or "")
            found.setdefault(config.stem, set()).add((config.member, kind))
        return {stem: kind for stem, seen in found.items()
                if len(seen) == 1 and (kind := next(iter(seen))[1]) is not None}


def read_rules(text: str) -> Rules:
    """The rules of a TOML text (``graph.resources.read_toml``)."""
    return read_toml(Rules, text)


@cache
def bundled_rules() -> Rules:
    """The rules shipped beside this module, read once per process."""
    return bundled_toml(Rules, "graph.ingest.harvest", RULES)


@dataclass(frozen=True)
class TableReading:
    """How one table is read: every matching ``[[table]]`` rule, merged."""

    model_columns: frozenset[str] = frozenset()
    kind: Kind | Literal["any"] | None = None
    ran_by: RanBy | None = None
    setting_columns: frozenset[str] = frozenset()
    judge: str | None = None


def table_reading(rules: Rules, folder: str, headings: Sequence[str]) -> TableReading:
    """How the table under ``headings`` of a README in ``folder`` is read: the ``[[table]]``
    rules of that folder (or of any) whose heading is one of them, merged."""
    above = {h.casefold() for h in headings}
    reading = TableReading()
    for rule in rules.table:
        if (rule.folder not in (None, folder)
                or (rule.heading is not None and rule.heading.casefold() not in above)):
            continue
        reading = TableReading(
            model_columns=reading.model_columns | (
                {rule.model_column.casefold()} if rule.model_column else set()),
            kind=rule.kind or reading.kind,
            ran_by=rule.ran_by or reading.ran_by,
            setting_columns=reading.setting_columns | {c.casefold() for c in
                                                       rule.setting_columns},
            judge=rule.judge or reading.judge,
        )
    return reading
