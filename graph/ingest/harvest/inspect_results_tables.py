"""The figures of one inspect_evals results table, each a draft result.

A table is read by its columns (``inspect_results_columns``) and row by row
(``inspect_results_rows``): each value cell gives one figure (``result_figures``), or two in an
"ours/paper" cell, with the model, metric, subset and side its column, its row, the table's
heading and the README's rules give it; a Stderr or CI cell goes to the figure to its left,
a ``StdErr`` row to the row above. A cell that is no figure is a warning naming the table,
the column and the cell. The reader (``graph.ingest.harvest.inspect_results``) decides on the drafts
of all the README's tables together.
"""

import re
from dataclasses import replace

from graph.ingest.harvest.inspect_results_columns import (
    OWN,
    Column,
    Side,
    columns,
    stated_side,
    without_unit,
)
from graph.ingest.harvest.inspect_results_report import Fact
from graph.ingest.harvest.inspect_results_rows import (
    Draft,
    Row,
    TableReading,
    blank,
    read_row,
    skipped_row,
)
from graph.ingest.harvest.inspect_results_rules import TableRule, column_rule, regex
from graph.ingest.harvest.result_figures import Figure, figure, interval, lone, pair, parse_date


def read_table(reading: TableReading) -> list[Draft]:
    """Every figure of one table, each a draft result."""
    rules = reading.layout.rules
    reading.columns = columns(reading.layout, reading.table.header)
    transposed = reading.columns[0].role == "metric"
    drafts: list[Draft] = []
    previous: dict[int, Draft] = {}
    width = len(reading.columns)
    for raw in reading.table.rows:
        cells = (*raw[:width], *("",) * (width - len(raw)))
        label = cells[0]
        if transposed and (role := column_rule(rules, label)) is not None and role.role == "stderr":
            _stderr_row(reading, previous, cells)
            continue
        if skipped_row(rules, reading.columns, cells):
            continue
        found = _row_figures(reading, cells, label if transposed else None)
        previous = {d.column: d for d in found}
        drafts += found
    return drafts


def _row_figures(reading: TableReading, cells: tuple[str, ...], metric: str | None
                 ) -> list[Draft]:
    row = read_row(reading, cells)
    found: dict[int, Draft] = {}
    drafts: list[Draft] = []
    for column in reading.columns:
        if column.role == "value":
            made = _figures(reading, row, column, cells[column.index], metric)
            drafts += made
            if made:
                found[column.index] = made[0]
        elif column.role in ("stderr", "ci") and not blank(reading.layout.rules,
                                                              cells[column.index]):
            _attach(reading, found, column, cells[column.index])
    return drafts


def _figures(reading: TableReading, row: Row, column: Column, cell: str,
             metric_row: str | None) -> list[Draft]:
    rules, rule = reading.layout.rules, reading.layout.rule
    if blank(rules, cell):
        return []
    pairs: tuple[Side | None, Side | None] | None = column.pair or (
        (column.side, column.side) if rule is not None and rule.pair else None)
    if pairs is not None:
        figures = pair(cell)
        if figures is None:
            reading.warn("a cell of two figures that does not hold two: left out", cell)
            return []
        metrics = rule.pair if rule is not None and rule.pair and not column.pair else None
        return [d for i, f in enumerate(figures) if (d := _draft(
            reading, row, column, f, pairs[i], metrics[i] if metrics else metric_row))
            is not None]
    one = figure(cell, rule.parenthesis if rule else None)
    if one is None:
        reading.warn("a table cell that is no figure: left out", f"{column.heading}: {cell}")
        return []
    draft = _draft(reading, row, column, one, None, metric_row)
    return [draft] if draft else []


def _draft(reading: TableReading, row: Row, column: Column, one: Figure, side: Side | None,
           metric_row: str | None) -> Draft | None:
    """One figure's result; ``None`` (and a warning) where the table names no model. A
    paper's figure in a row of the README's own run (a "Paper Score" column) takes none of
    the row's run: its samples, epochs, judge and date are the README's run's."""
    rule = reading.layout.rule
    model = column.model or row.model or _table_model(reading)
    if model is None:
        reading.warn("a results table that names no model: left out", column.heading)
        return None
    stated = side or column.side
    chosen = stated or row.side or _tablestated_side(reading) or OWN
    if chosen.paper and rule is not None and rule.paper_ran_by:
        chosen = Side("paper", rule.paper_ran_by)
    draft = Draft(
        model=model, metric=_metric(reading, column, one, metric_row), figure=one,
        side=chosen, column=column.index,
        percent=one.percent or column.percent or bool(rule and rule.scale == "percent"),
        subset=(column.subset if column.subset is not None else row.subset
                if row.subset is not None else table_subset(reading)),
        provider=row.provider, prompt=row.prompt, table=reading.heading,
        ci_level=column.ci_level if one.ci else None, table_index=reading.index,
        other={**dict(column.other), **row.both},
    )
    if not (stated is not None and stated.paper and not (row.side and row.side.paper)):
        _row_run(draft, row)
    draft.samples = draft.samples or column.samples
    if rule is not None and rule.dated and draft.date is None:
        draft.date = _dated_rule(rule.dated)
    return draft


def _row_run(draft: Draft, row: Row) -> None:
    draft.samples = row.own.get("samples")
    draft.epochs = row.own.get("epochs")
    draft.judge = row.own.get("judge")
    draft.date = row.own.get("date")


def _dated_rule(words: str) -> Fact | None:
    found = regex("{date}").search(words)
    date = parse_date(found["value"]) if found else None
    return Fact(date, words) if date else None


def _metric(reading: TableReading, column: Column, one: Figure, metric_row: str | None) -> str:
    """The metric of a figure: its row's label in a table of one metric a row (or the
    README's pair of metrics), what the column's rule names, the table's rule, a word the
    cell adds (``60.0% accuracy``), else the column's heading."""
    rule = reading.layout.rule
    if metric_row is not None:
        return without_unit(metric_row)[0]
    if column.metric:
        return column.metric
    if rule is not None and rule.metric:
        return rule.metric
    if rule is not None and rule.metric_from == "heading":
        return reading.heading
    return one.word or column.base


def _table_model(reading: TableReading) -> str | None:
    """The model of a table with no model column: the README's rule, the table's heading or
    the line before it, by the rule's pattern."""
    rule, eval_rule = reading.layout.rule, reading.layout.eval_rule
    if rule is not None and rule.model:
        return rule.model
    if rule is not None and rule.model_from:
        found = heading_or_intro_match(reading, rule)
        if found:
            return found["model"]
    return eval_rule.model if eval_rule else None


def heading_or_intro_match(reading: TableReading, rule: TableRule) -> re.Match[str] | None:
    """The rule's ``model_pattern`` found in the table's heading or the line before it, as
    its ``model_from`` says."""
    texts = [reading.heading] if rule.model_from == "heading" else reading.where.near[-1:]
    return next((m for t in texts if (m := regex(rule.model_pattern).search(t))), None)


def table_subset(reading: TableReading) -> str | None:
    """The subset a README's rule reads off the table's heading (``Algorithmic Track``)."""
    rule = reading.layout.rule
    found = regex(rule.heading).fullmatch(reading.heading) if rule and rule.heading else None
    return found.groupdict().get("subset") if found else None


def _tablestated_side(reading: TableReading) -> Side | None:
    rule = reading.layout.rule
    if rule is not None and rule.reported_as:
        return Side(rule.reported_as, rule.ran_by or "not_stated")
    return stated_side(reading.layout.rules, reading.heading, "heading")


def _attach(reading: TableReading, found: dict[int, Draft], column: Column, cell: str) -> None:
    """A Stderr or CI cell, to the nearest figure to its left."""
    rule = reading.layout.rule
    left = [i for i in found if i < column.index]
    if not left or (rule is not None and rule.stderr == "unclear"):
        return
    draft = found[max(left)]
    if column.role == "stderr":
        _stderr(reading, draft, cell)
    else:
        _interval(reading, draft, column, cell)


def _stderr(reading: TableReading, draft: Draft, cell: str) -> None:
    found = lone(cell)
    if found is None:
        reading.warn("a standard error that is no figure: left out", cell)
    elif found[1] != draft.percent:
        reading.warn("a standard error printed on another scale than its value: left out",
                     f"{draft.model} {draft.metric}: {draft.figure.value}, stderr {cell}")
    else:
        draft.figure = replace(draft.figure, stderr=found[0])


def _interval(reading: TableReading, draft: Draft, column: Column, cell: str) -> None:
    bounds = interval(cell)
    if bounds is None:
        reading.warn("a confidence interval that is not [low, high]: left out", cell)
        return
    draft.figure = replace(draft.figure, ci=bounds)
    draft.ci_level = column.ci_level


def _stderr_row(reading: TableReading, previous: dict[int, Draft], cells: tuple[str, ...]
                ) -> None:
    """A ``StdErr`` row of a table of one metric a row: the errors of the row above."""
    for index, draft in previous.items():
        if not blank(reading.layout.rules, cells[index]):
            _stderr(reading, draft, cells[index])
