"""The rules that read inspect_evals' Evaluation Reports: ``inspect_results.toml``, as models.

How the READMEs write their tables is data kept beside this module, each rule with its reason
(the reader, ``graph.ingest.harvest.inspect_results``, says what each kind of rule decides): which
column heading plays which part, the words that mark a figure as the paper's, the sentences
that state a fact of the run, and the rules of single READMEs, each quoting the README's words
it rests on. The models here check the file when it is read (a rule's pattern must compile,
no key outside the format), so that a broken rule fails the harvest at once, not one README.
"""

import re
from collections.abc import Iterable
from functools import cache
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from graph.ingest.harvest.result_figures import DATE
from graph.ingest.records.stated_result import RanBy
from graph.resources import bundled_toml, read_toml

FILE_NAME = "inspect_results.toml"


@cache
def regex(pattern: str) -> re.Pattern[str]:
    """A rule's pattern, with ``{date}`` and ``{version}`` spelled out, ignoring case."""
    spelled = pattern.replace("{date}", f"(?P<value>{DATE})").replace(
        "{version}", r"(?P<value>\d+-[A-Z]|\d+(?:\.\d+){1,2})")
    return re.compile(spelled, re.IGNORECASE)


def _compiles(pattern: str) -> str:
    try:
        regex(pattern)
    except re.error as error:
        raise ValueError(f"not a regular expression: {error}") from None
    return pattern


Regex = Annotated[str, AfterValidator(_compiles)]
Text = Annotated[str, Field(min_length=1)]
Role = Literal["model", "provider", "subset", "setting", "samples", "epochs", "judge", "date",
               "stderr", "ci", "prompt", "side", "notes", "metric", "skip", "value"]
FactKind = Literal["date", "version", "samples", "epochs", "judge", "temperature"]


class _Rule(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class PatternRule(_Rule):
    """A pattern of the READMEs' writing, and why it means what the list it is in says."""

    pattern: Regex
    reason: Text


class ColumnRule(_Rule):
    heading: Regex
    role: Role
    key: str | None = None
    """For ``role="setting"``: the name it has in ``settings.other``."""
    reason: Text


class SideRule(_Rule):
    pattern: Regex
    where: Literal["column", "heading"]
    """In a column heading or a side/notes cell, or in a table's heading."""
    reported_as: Literal["reproduction", "paper"]
    ran_by: RanBy
    reason: Text


class FactRule(_Rule):
    kind: FactKind
    where: Literal["intro", "anywhere"]
    pattern: Regex
    reason: Text


class ColumnOverride(_Rule):
    """What one README's column is, where its heading does not say it."""

    role: Role | None = None
    model: str | None = None
    metric: str | None = None
    subset: str | None = None
    whole: bool = False
    reported_as: Literal["reproduction", "paper"] | None = None
    ran_by: RanBy | None = None
    other: dict[str, str] = {}


class EvalRule(_Rule):
    """A rule of one README as a whole."""

    eval: Text
    model: str | None = None
    """The model of its tables that name none."""
    harness: bool = True
    """False: the README says its figures were not produced with this harness."""
    ran_by: RanBy | None = None
    commands: Literal["match", "all", "ignore"] = "match"
    """How its commands apply to rows: to the models they name, to every row, to none."""
    scope: Literal["heading", "section"] = "heading"
    """``section``: all the report's text speaks of all its tables."""
    also: Regex | None = None
    """A heading beside the report's whose section is read as part of it."""
    quote: Text
    reason: Text


class TableRule(_Rule):
    """A rule of one README's tables: those under a heading, with a header, or the n-th."""

    eval: Text
    heading: Regex | None = None
    header: list[str] | None = None
    """The table's first column headings, as written."""
    under: Regex | None = None
    index: int | None = None
    skip: bool = False
    model: str | None = None
    model_from: Literal["heading", "intro"] | None = None
    model_pattern: Regex = r"^(?P<model>.+)$"
    columns: Literal["subsets", "models"] | None = None
    metric: str | None = None
    metric_from: Literal["heading"] | None = None
    pair: Annotated[list[str], Field(min_length=2, max_length=2)] | None = None
    scale: Literal["percent"] | None = None
    parenthesis: Literal["stderr"] | None = None
    stderr: Literal["unclear"] | None = None
    column: dict[str, ColumnOverride] = {}
    column_model: Regex | None = None
    column_pattern: Regex | None = None
    reported_as: Literal["reproduction", "paper"] | None = None
    ran_by: RanBy | None = None
    paper_ran_by: RanBy | None = None
    dated: str | None = None
    prompt: str | None = None
    judge: str | None = None
    other: dict[str, str] = {}
    quote: Text
    reason: Text


class Rules(_Rule):
    """Every rule, as ``inspect_results.toml`` lists them."""

    section: list[PatternRule] = []
    """Headings that open the report."""
    column: list[ColumnRule] = []
    side: list[SideRule] = []
    pair: list[PatternRule] = []
    """Headings of columns of "ours/paper" cells (groups ``metric``, ``first``, ``second``)."""
    blank: list[PatternRule] = []
    """Cells that hold no figure."""
    whole: list[PatternRule] = []
    """Subset names that stand for the whole benchmark."""
    plain: list[PatternRule] = []
    """Headings of the value column of a table of one metric a row."""
    average: list[PatternRule] = []
    """Row labels of averages."""
    skip_table: list[PatternRule] = []
    """Headings of tables that hold no model's results."""
    proportion: list[PatternRule] = []
    """Metric names that are shares of samples."""
    judge_argument: list[PatternRule] = []
    """``-T`` arguments and model roles that name the judge."""
    fact: list[FactRule] = []
    eval: list[EvalRule] = []
    table: list[TableRule] = []

    @model_validator(mode="after")
    def _one_rule_an_eval(self) -> "Rules":
        evals = [rule.eval for rule in self.eval]
        if len(set(evals)) != len(evals):
            raise ValueError(f"{FILE_NAME}: two [[eval]] rules name one eval")
        return self

    def with_readmes(self, other: "Rules") -> "Rules":
        """These rules with ``other``'s rules of single READMEs in place of their own."""
        return self.model_copy(update={"eval": other.eval, "table": other.table})


def read_rules(text: str) -> Rules:
    """The rules of a TOML text (``graph.resources.read_toml``)."""
    return read_toml(Rules, text)


@cache
def bundled_rules() -> Rules:
    """The rules shipped with benchgraph, read once per process."""
    return bundled_toml(Rules, "graph.ingest.harvest", FILE_NAME)


def matching(rules: Iterable[PatternRule], text: str) -> PatternRule | None:
    """The first rule whose pattern matches the whole of ``text``."""
    return next((r for r in rules if regex(r.pattern).fullmatch(text)), None)


def column_rule(rules: Rules, heading: str) -> ColumnRule | None:
    """The first column rule whose heading pattern matches the whole of ``heading``."""
    return next((r for r in rules.column if regex(r.heading).fullmatch(heading)), None)

