"""What each column of an inspect_evals results table is, by its heading and the rules.

A column of an Evaluation Report's table is a figure's (``value``), or states something of the
row (the model, its provider, a subset, samples, a date, a setting), or a figure's error
(``stderr``, ``ci``), or nothing of the results (time, cost), as the ``[[column]]`` rules of
``inspect_results.toml`` name its heading. A value column's heading may say more: a unit
(``Accuracy (%)``), whose figures they are (``Accuracy (Inspect)``, ``Paper``), a pair of
figures (``ours/paper``), or, where a README's rule says so, a subset, a model or a metric.
The reader (``graph.ingest.harvest.inspect_results``) reads each row by these columns.
"""

import re
from dataclasses import dataclass, replace
from typing import Literal

from graph.ingest.harvest.inspect_results_rules import (
    ColumnOverride,
    EvalRule,
    Role,
    Rules,
    TableRule,
    column_rule,
    matching,
    regex,
)
from graph.ingest.records.stated_result import RanBy


@dataclass(frozen=True)
class Side:
    reported_as: Literal["reproduction", "paper"]
    ran_by: RanBy

    @property
    def paper(self) -> bool:
        return self.reported_as == "paper"


OWN = Side("reproduction", "harness_maintainers")


@dataclass(frozen=True)
class Column:
    index: int
    heading: str
    role: Role
    key: str | None = None
    ci_level: float | None = None
    base: str = ""
    """The heading without a unit (``(%)``) or a bracketed side word (``(Inspect)``)."""
    metric: str | None = None
    """The metric where a rule, a pair heading or a paper column's neighbour names it."""
    subset: str | None = None
    model: str | None = None
    side: Side | None = None
    pair: tuple[Side, Side] | None = None
    samples: str | None = None
    percent: bool = False
    other: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Layout:
    """The rules that read one table: the general ones, the README's and the table's."""

    rules: Rules
    eval_rule: EvalRule | None
    rule: TableRule | None


def columns(layout: Layout, header: tuple[str, ...]) -> list[Column]:
    """What each column of a table is, by its heading and the README's rules."""
    found = [_column(layout, header, index, heading) for index, heading in enumerate(header)]
    own = [c for c in found if c.role == "value" and c.side is None and c.pair is None]
    if len(own) != 1 or (layout.rule is not None and layout.rule.metric):
        return found
    return [replace(c, metric=own[0].metric or own[0].base) if c.role == "value"
            and c.side is not None and c.side.paper and c.model is None and c.metric is None
            else c for c in found]


def _column(layout: Layout, header: tuple[str, ...], index: int, heading: str) -> Column:
    override = layout.rule.column.get(heading) if layout.rule else None
    base, suffix_side = _side_suffix(layout.rules, heading)
    generic = column_rule(layout.rules, base)
    role: Role = (override.role if override and override.role
                  else generic.role if generic else "value")
    level = regex(generic.heading).fullmatch(base) if generic and role == "ci" else None
    column = Column(index, heading, role, key=generic.key if generic else None,
                    ci_level=int(level["level"]) / 100 if level and level["level"] else None)
    if role != "value":
        return column
    bare, percent = without_unit(base)
    level = re.search(r"(\d+)% CI", heading, re.IGNORECASE)
    column = replace(column, base=bare, percent=percent, side=suffix_side,
                     ci_level=int(level.group(1)) / 100 if level else None)
    paired = matching(layout.rules.pair, heading)
    if paired is not None:
        return _paired(column, regex(paired.pattern).fullmatch(heading))
    column = _named(layout, _laid_out(layout, header, column))
    if column.side is None and column.model is None:
        column = replace(column, side=stated_side(layout.rules, heading, "column"))
    return _overridden(column, override) if override else column


def _side_suffix(rules: Rules, heading: str) -> tuple[str, Side | None]:
    """``Accuracy (Inspect)``: the heading without a bracketed side word, and that side."""
    found = re.fullmatch(r"(?P<base>.*?)\s*\((?P<word>[^()]*)\)", heading)
    side = stated_side(rules, found["word"], "column") if found else None
    return (found["base"], side) if found and side else (heading, None)


def stated_side(rules: Rules, text: str, where: str) -> Side | None:
    """Whose figures ``text`` says they are, by the first side rule for ``where`` it holds."""
    rule = next((r for r in rules.side if r.where == where and regex(r.pattern).search(text)),
                None)
    return Side(rule.reported_as, rule.ran_by) if rule else None


def without_unit(heading: str) -> tuple[str, bool]:
    """A heading without a ``(%)`` or trailing `` %`` unit, and whether it says %."""
    found = re.fullmatch(r"(?P<base>.*?)\s*(?:\(%\)|(?<=\s)%)", heading)
    return (found["base"], True) if found else (heading, heading.endswith("%"))


def _paired(column: Column, found: re.Match[str] | None) -> Column:
    """A column of ``ours/paper`` cells."""
    assert found is not None
    first, second = (OWN if found[k].lower() == "ours" else Side("paper", "paper_authors")
                     for k in ("first", "second"))
    return replace(column, metric=found["metric"], pair=(first, second))


def _laid_out(layout: Layout, header: tuple[str, ...], column: Column) -> Column:
    """A value column whose heading is a subset or a model: in a table of one metric a row,
    or where the README's rule says so."""
    rules = layout.rules
    mode = layout.rule.columns if layout.rule else None
    first = column_rule(rules, header[0])
    if mode is None and first is not None and first.role == "metric":
        if matching(rules.plain, column.heading) or stated_side(rules, column.heading,
                                                                    "column"):
            return column
        mode = "subsets"
    if mode == "subsets":
        whole = matching(rules.whole, column.heading) is not None
        return replace(column, subset=None if whole else column.heading)
    if mode == "models":
        return replace(column, model=column.heading)
    return column


def _named(layout: Layout, column: Column) -> Column:
    """What the README's rule reads off a column heading: the model (and a side word),
    or a subset, metric and samples."""
    rule = layout.rule
    if rule is not None and rule.column_model and (
            found := regex(rule.column_model).search(column.heading)):
        rest = column.heading[:found.start("model")] + column.heading[found.end("model"):]
        return replace(column, model=found["model"], side=stated_side(layout.rules, rest, "column"))
    if rule is not None and rule.column_pattern and (
            found := regex(rule.column_pattern).search(column.heading)):
        groups = found.groupdict()
        return replace(column, subset=groups.get("subset"), metric=groups.get("metric"),
                       samples=groups.get("samples"))
    return column


def _overridden(column: Column, override: ColumnOverride) -> Column:
    side = column.side
    if override.reported_as:
        side = Side(override.reported_as, override.ran_by or "not_stated")
    return replace(
        column, model=override.model or column.model, metric=override.metric or column.metric,
        subset=None if override.whole else override.subset or column.subset, side=side,
        other=tuple(sorted(override.other.items())),
    )
