"""A table of an inspect_evals Evaluation Report being read, and what its rows state.

The reader (``graph.ingest.harvest.inspect_results``) reads a table row by row: the cells that are
no
figure say whose the row's figures are (the model, its provider, a subset, a side word), what
is the row's own run's (samples, epochs, a judge, a date) and settings of all its figures. Each
figure then becomes a ``Draft``, what its ``StatedResult`` will hold, completed by the text
around the table before the README's figures are decided on together (their scale, their
side). Rows that state nothing (a delimiter row of a stacked table, a group label, an average)
are passed by.
"""

import re
from dataclasses import dataclass, field
from typing import Any

from graph.ingest.harvest.inspect_results_columns import Column, Layout, Side, stated_side
from graph.ingest.harvest.inspect_results_report import Context, Fact
from graph.ingest.harvest.inspect_results_rules import Rules, matching, regex
from graph.ingest.harvest.markdown_blocks import Table, delimiter_row
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.harvest.result_figures import Figure, bare, count, parse_date


@dataclass
class Draft:
    """A result being read: what ``StatedResult`` will hold, and what decides its scale."""

    model: str
    metric: str
    figure: Figure
    percent: bool
    side: Side
    column: int
    subset: str | None = None
    provider: str | None = None
    samples: str | None = None
    epochs: str | None = None
    judge: str | None = None
    prompt: str | None = None
    other: dict[str, str] = field(default_factory=dict)
    ci_level: float | None = None
    date: Fact | None = None
    version: str | None = None
    table: str = ""
    table_index: int = 0


@dataclass
class Row:
    """What a row's cells other than figures state."""

    model: str | None = None
    provider: str | None = None
    subset: str | None = None
    side: Side | None = None
    prompt: str | None = None
    own: dict[str, Any] = field(default_factory=dict)
    """What is the row's run's: samples, epochs, judge, date."""
    both: dict[str, str] = field(default_factory=dict)
    """Settings of every figure in the row: setting columns, a side cell's."""


@dataclass
class TableReading:
    """One table being read."""

    layout: Layout
    table: Table
    heading: str
    where: Context
    index: int
    reader: MemberReader
    readme: str
    columns: list[Column] = field(default_factory=list)

    def warn(self, reason: str, value: str) -> None:
        self.reader.warn(self.readme, reason, field="results", value=f"{self.heading}: {value}")


def read_row(reading: TableReading, cells: tuple[str, ...]) -> Row:
    """What a row's cells other than its figures state. A first cell that is nothing but a
    side word (coconot's ``paper`` row among the scorer models) says whose the row is."""
    rules = reading.layout.rules
    row = Row()
    for column in reading.columns:
        cell = cells[column.index]
        if blank(rules, cell):
            continue
        label = next((r for r in rules.side if r.where == "column"
                      and regex(r.pattern).fullmatch(cell)), None) if column.index == 0 else None
        if label is not None:
            row.side = Side(label.reported_as, label.ran_by)
        else:
            _cell_fact(reading, row, column, cell)
    return row


def _cell_fact(reading: TableReading, row: Row, column: Column, cell: str) -> None:
    """What one non-figure cell adds to the row."""
    rules = reading.layout.rules
    if column.role == "model":
        row.model = cell
    elif column.role == "provider":
        row.provider = cell
    elif column.role == "subset":
        sized = re.fullmatch(r"(?P<subset>.*?)\s*\(n=(?P<n>\d+)\)", cell)
        row.subset = None if matching(rules.whole, cell) else (
            sized["subset"] if sized else cell)
        if sized:
            row.own["samples"] = sized["n"]
    elif column.role in ("samples", "epochs"):
        _counted(reading, row, column.role, cell)
    elif column.role == "judge":
        row.own["judge"] = cell
    elif column.role == "date":
        _dated(reading, row, cell)
    elif column.role == "prompt":
        row.prompt = cell
    elif column.role == "setting" and column.key:
        row.both[column.key] = cell
    elif column.role in ("side", "notes"):
        _marked(reading, row, column.role, cell)


def _counted(reading: TableReading, row: Row, role: str, cell: str) -> None:
    counted = count(cell)
    if counted is None:
        reading.warn(f"a {role} cell that is no count: left out", cell)
    else:
        row.own[role] = counted


def _dated(reading: TableReading, row: Row, cell: str) -> None:
    date = parse_date(cell)
    if date is None:
        reading.warn("a date cell that is no date: left out", cell)
    else:
        row.own["date"] = Fact(date, cell)


def _marked(reading: TableReading, row: Row, role: str, cell: str) -> None:
    """A side or notes cell: whose figures the row's are, the settings a side cell gives in
    brackets (``inspect (temp=0)``), the samples a note gives (``first 276 samples``)."""
    rules = reading.layout.rules
    row.side = stated_side(rules, cell, "column") or row.side
    if role == "side":
        row.both.update(re.findall(r"(\w+)=([\w.-]+)", cell))
        return
    for rule in rules.fact:
        if rule.kind == "samples" and rule.where == "intro" and (
                found := regex(rule.pattern).search(cell)):
            row.own["samples"] = bare(found["value"])


def blank(rules: Rules, cell: str) -> bool:
    """Whether a cell holds no figure: empty, or as a ``blank`` rule says (``-``, ``DNF``)."""
    return not cell or matching(rules.blank, cell) is not None


def skipped_row(rules: Rules, columns: list[Column], cells: tuple[str, ...]) -> bool:
    """A stacked table's delimiter row (``| --- |``), a group label (``**Reasoning Models**``
    and nothing else), an average row."""
    figures = [cells[c.index] for c in columns if c.role == "value"]
    return (delimiter_row(cells) or all(blank(rules, c) for c in figures)
            or matching(rules.average, cells[0]) is not None)
