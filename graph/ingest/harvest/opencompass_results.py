"""The results an OpenCompass dataset README states: its tables of models' values, read from the
Markdown's parsed tables (markdown-it, GitHub's table syntax:
``graph.ingest.harvest.markdown_blocks``, which every reader of stated results shares), never by
patterns over its text.

A table is read in one of three forms; a table of none of them (a list of subjects, a count of
questions) states no results and is passed by:

1. **A model a row.** A column whose heading is a model column (``model``; the rules may name
   another) holds the model, verbatim (``llama-2-70b-turbomind``). Each other column's heading
   says what its values are:

   - a metric (``[[metric]]`` rules: ``pass@1``, IFEval's four accuracies, MBPP's counts):
     ``metric`` is the heading, for the benchmark as a whole;
   - a subset and a metric together (``[[compound]]`` rules: LCBench's ``en/pass@1``), where
     the metric part is one of those metrics: both;
   - anything else names the dataset or subset scored (``gsm8k``, ``mmlu-humanities``,
     ``college_biology``): ``subset`` is the heading, or ``None`` where it names the benchmark
     itself (the folder's name or the README's title, without case). Its metric is the one
     another table of the README states for that name (SeedBench's ``Type ID | ... | Metric``
     table), else ``None`` (not stated): these tables print OpenCompass's summary value of each
     dataset and never name its metric (the config named by ``settings.prompt`` says how it
     was scored).

2. **A dataset a row**, OpenCompass's summary layout: ``dataset | version | metric | mode |
   MODEL...`` (any leading run of those four headings, ``dataset`` first). The dataset cell is
   the subset, the metric cell the metric; ``version`` (the config's hash) and ``mode``
   (``gen``, ``ppl``) go to ``settings.other`` where stated (not ``-``); each further column is
   a model, by its heading.

3. **A model a column**: every body cell a number (or empty), in one row: each heading is a
   model, its metric not stated (aime2024's "Performance"). With more rows, nothing tells them
   apart: one warning, and none is read.

Markdown stacks tables written without a blank line between them into one (the second's
delimiter row becomes a body row); such a table is split at each row of delimiters first
(``markdown_blocks.unstacked``). The parser pads a narrower second table's rows to the first's
width (the padding is dropped again) and cuts a wider one's: its extra cells are lost (no
README of 0.5.4 has one).

**Values** are kept as printed, a ``%`` dropped, and then ``scale`` is ``"percent"``. No other
value has a scale: the READMEs never say what scale they print (the values read as accuracies
×100, but columns beside ``pass@1`` are counts: ``pass``, ``timeout``). An empty or ``-`` cell
states no value; any other cell that is no number (``xx.xx``) is left out, with one warning
per table.

**Who ran it and under what settings** is what the ``[[table]]`` rules of
``opencompass_results.toml`` (``graph.ingest.harvest.opencompass_results_rules``) say for the
table's headings and folder, each with its reason (``ran_by`` is ``not_stated`` where no rule says;
``harness`` is ``opencompass`` for the maintainers' own runs). A rule's ``kind`` ties a table
to the README's run command (``python3 run.py --models hf_internlm2_7b --datasets
gsm8k_gen_17d0dc``, read with ``shlex`` from its code blocks) for that kind of model, base or
chat by the model config's class (``[[model_class]]``): the dataset config it names is
``settings.prompt``, and ``shots`` is read from that config's name where the name states them
(``[shots]``). Chain of thought is never stated. No README dates its results: ``date`` stays
``None``.

``table`` is the headings above the table, below the README's title (its first heading, where
every later one is below it), joined by ``" / "`` (``Base Models / Details``); ``source`` the
README. A claim the README states twice with different values (a model listed twice in one
table) is a warning; the entry keeps the first.
"""

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import takewhile
from typing import Literal

from graph.ingest.harvest.markdown_blocks import Code, Heading, Row, Table, blocks, unstacked
from graph.ingest.harvest.opencompass_results_rules import Kind, Rules, TableReading, table_reading
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.harvest.result_figures import plain_number
from graph.ingest.records.stated_result import Settings, StatedResult

_NO_VALUE = frozenset({"", "-", "–", "—"})
_SUMMARY = ("dataset", "version", "metric", "mode")
"""The columns OpenCompass's summarizer prints before its models' columns."""


# -- the Markdown -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Table:
    headings: tuple[str, ...]
    """The headings above it, outermost first."""
    header: Row
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class _Command:
    models: list[str]
    datasets: list[str]


@dataclass
class _Document:
    title: str | None = None
    """The first heading, where every later one is below it."""
    tables: list[_Table] = field(default_factory=list)
    commands: list[_Command] = field(default_factory=list)


def _document(text: str) -> _Document:
    """The README's title, tables (stacked ones split) and run commands."""
    document = _Document()
    above: list[Heading] = []
    headings: list[Heading] = []
    for block in blocks(text):
        if isinstance(block, Heading):
            headings.append(block)
            above = [h for h in above if h.level < block.level] + [block]
        elif isinstance(block, Code):
            document.commands += _commands(block.text)
        elif isinstance(block, Table):
            names = tuple(h.text for h in above)
            document.tables += [_Table(names, t.header, t.rows) for t in unstacked(block)]
    if headings and all(h.level > headings[0].level for h in headings[1:]):
        document.title = headings[0].text
    return document


def _commands(code: str) -> Iterator[_Command]:
    """The ``--models ... --datasets ...`` run commands of a code block, one a line."""
    for line in code.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        datasets = _option(words, "--datasets")
        if datasets:
            yield _Command(_option(words, "--models"), datasets)


def _option(words: list[str], option: str) -> list[str]:
    """The words after ``option``, up to the next option."""
    if option not in words:
        return []
    return list(takewhile(lambda word: not word.startswith("-"), words[words.index(option) + 1:]))


# -- the results --------------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """What every README's results are read with: the rules, and the kind of model each
    model config names."""

    rules: Rules
    kinds: dict[str, Kind]


@dataclass
class _Readme:
    """One README being read."""

    reader: MemberReader
    name: str
    folder: str
    context: Context
    document: _Document
    metrics: dict[str, str]
    """The metric the README's own tables state for a name (SeedBench's task ids)."""
    metric_names: dict[str, str]
    """The metric headings of the rules, by their case-folded form."""

    def whole(self, heading: str) -> bool:
        """Whether a column heading names the benchmark itself."""
        names = {self.folder.casefold(), (self.document.title or "").casefold()}
        return heading.casefold() in names


def readme_results(reader: MemberReader, name: str, folder: str, text: str,
                   context: Context) -> list[StatedResult]:
    """Every result README ``name`` of dataset folder ``folder`` states (the module's
    docstring); warnings for cells and tables that cannot be read."""
    document = _document(text)
    readme = _Readme(reader, name, folder, context, document, _stated_metrics(document),
                     {rule.name.casefold(): rule.name for rule in context.rules.metric})
    results: list[StatedResult] = []
    for table in document.tables:
        reading = table_reading(context.rules, folder, table.headings)
        if table.header:
            results += _table_results(readme, table, reading)
    _warn_twice_stated(readme, results)
    return results


def _stated_metrics(document: _Document) -> dict[str, str]:
    """For each table with a ``Metric`` column (not its first), its first column's names and
    their metric."""
    found: dict[str, str] = {}
    for table in document.tables:
        headings = [h.casefold() for h in table.header]
        if "metric" in headings[1:]:
            column = headings.index("metric")
            for row in table.rows:
                if row[0] and row[column]:
                    found.setdefault(row[0], row[column])
    return found


def _table_results(readme: _Readme, table: _Table, reading: TableReading
                   ) -> list[StatedResult]:
    headings = [h.casefold() for h in table.header]
    model = next((i for i, h in enumerate(headings) if h in reading.model_columns), None)
    if model is not None:
        return _model_rows(readme, table, reading, model)
    if headings[0] == "dataset" and "metric" in headings:
        return _dataset_rows(readme, table, reading)
    if _numbers_only(table):
        return _model_columns(readme, table, reading)
    return []


@dataclass
class _Cells:
    """The cells of one table that are no number (and not empty or ``-``)."""

    unread: list[str] = field(default_factory=list)

    def add(self, cell: str) -> tuple[str, bool] | None:
        """The cell's value (``plain_number``), keeping it as unread when it has none."""
        value = plain_number(cell)
        if value is None and cell not in _NO_VALUE:
            self.unread.append(cell)
        return value


def _model_rows(readme: _Readme, table: _Table, reading: TableReading, model: int
                ) -> list[StatedResult]:
    cells = _Cells()
    results: list[StatedResult] = []
    settings_at = [i for i, h in enumerate(table.header)
                   if h.casefold() in reading.setting_columns]
    for row in table.rows:
        other = {table.header[i]: row[i] for i in settings_at if row[i] not in _NO_VALUE}
        for column, heading in enumerate(table.header):
            if column == model or column in settings_at or not row[model]:
                continue
            value = cells.add(row[column])
            if value is not None:
                subset, metric = _column(readme, heading)
                results.append(_result(readme, table, reading, row[model], subset, metric,
                                       value, other))
    _warn_unread(readme, table, cells)
    return results


def _column(readme: _Readme, heading: str) -> tuple[str | None, str | None]:
    """The subset and metric a model row's column heading names."""
    metrics = readme.metric_names
    if heading.casefold() in metrics:
        return None, heading
    for rule in readme.context.rules.compound:
        found = re.fullmatch(rule.pattern, heading)
        if found and found.group("metric").strip().casefold() in metrics:
            subset = found.group("subset").strip()
            return (None if readme.whole(subset) else subset), found.group("metric").strip()
    return (None if readme.whole(heading) else heading), readme.metrics.get(heading)


def _dataset_rows(readme: _Readme, table: _Table, reading: TableReading
                  ) -> list[StatedResult]:
    headings = [h.casefold() for h in table.header]
    described = next((i for i, h in enumerate(headings) if h not in _SUMMARY), len(headings))
    cells = _Cells()
    results: list[StatedResult] = []
    for row in table.rows:
        stated = dict(zip(headings[:described], row[:described], strict=True))
        subset, metric = stated.get("dataset", ""), stated.get("metric", "")
        other = {key: stated[key] for key in ("version", "mode")
                 if stated.get(key, "") not in _NO_VALUE}
        for column in range(described, len(row)):
            value = cells.add(row[column])
            if value is not None and table.header[column]:
                results.append(_result(
                    readme, table, reading, table.header[column],
                    None if not subset or readme.whole(subset) else subset,
                    metric or None, value, other))
    _warn_unread(readme, table, cells)
    return results


def _numbers_only(table: _Table) -> bool:
    """Whether every body cell is a number or empty (one at least) and no heading is."""
    cells = [cell for row in table.rows for cell in row]
    return (any(plain_number(cell) for cell in cells)
            and all(plain_number(cell) or cell in _NO_VALUE for cell in cells)
            and not any(plain_number(h) for h in table.header))


def _model_columns(readme: _Readme, table: _Table, reading: TableReading
                   ) -> list[StatedResult]:
    if len(table.rows) != 1:
        readme.reader.warn(readme.name, "a table of models by column with more than one row "
                           "of values: the rows are not told apart, none is read",
                           field=_table_name(readme, table))
        return []
    return [_result(readme, table, reading, heading, None, None, value, {})
            for heading, cell in zip(table.header, table.rows[0], strict=True)
            if heading and (value := plain_number(cell)) is not None]


def _result(readme: _Readme, table: _Table, reading: TableReading, model: str,
            subset: str | None, metric: str | None, value: tuple[str, bool],
            other: dict[str, str]) -> StatedResult:
    ran_by = reading.ran_by or "not_stated"
    return StatedResult(
        model=model, metric=metric, value=value[0], scale="percent" if value[1] else None,
        subset=subset, settings=_settings(readme, reading, other),
        harness="opencompass" if ran_by == "harness_maintainers" else None,
        ran_by=ran_by, table=_table_name(readme, table), source=readme.name,
    )


def _settings(readme: _Readme, reading: TableReading, other: dict[str, str]) -> Settings:
    config = _config(readme, reading.kind)
    shots = readme.context.rules.shots
    found = re.search(shots.pattern, config) if shots and config else None
    return Settings(shots=int(found.group("shots")) if found else None, prompt=config,
                    judge=reading.judge, other=other)


def _config(readme: _Readme, kind: Kind | Literal["any"] | None) -> str | None:
    """The one dataset config that the README's run commands for ``kind`` of model name."""
    if kind is None:
        return None
    commands = [c for c in readme.document.commands if kind == "any" or (
        c.models and all(readme.context.kinds.get(m) == kind for m in c.models))]
    configs = {tuple(c.datasets) for c in commands}
    if len(configs) != 1:
        return None
    (named,) = configs
    return named[0] if len(named) == 1 else None


def _table_name(readme: _Readme, table: _Table) -> str | None:
    headings = list(table.headings)
    if len(headings) > 1 and headings[0] == readme.document.title:
        headings = headings[1:]
    return " / ".join(headings) or None


def _warn_unread(readme: _Readme, table: _Table, cells: _Cells) -> None:
    if cells.unread:
        shown = ", ".join(repr(c) for c in sorted(set(cells.unread))[:3])
        count = len(cells.unread)
        readme.reader.warn(readme.name, "result cells that are no number: left out",
                           field=_table_name(readme, table),
                           value=f"{shown} ({count} cell{'' if count == 1 else 's'})")


def _warn_twice_stated(readme: _Readme, results: list[StatedResult]) -> None:
    """A warning for each claim the README states twice with different values (the entry
    keeps the first)."""
    first: dict[tuple[str, ...], str] = {}
    for result in results:
        value = first.setdefault(result.key(), result.value)
        if value != result.value:
            readme.reader.warn(readme.name, "a result stated twice with different values: the "
                               "first kept", field=result.table,
                               value=" / ".join(filter(None, (
                                   result.model, result.subset, result.metric)))
                               + f": {value}, {result.value}")
