"""The results an inspect eval's ``README.md`` states in its "Evaluation Report" section.

The section (the README template's ``## Evaluation Report``, at whatever level; a heading
that starts with those words) is read as Markdown with markdown-it (CommonMark and its table
extension), never by scanning lines: headings, paragraphs and list items, code blocks and
tables, each table under the nearest heading above it (``StatedResult.table``). How the
READMEs write their tables is data, ``inspect_results.toml`` beside this module, each rule
with its reason: which column heading plays which part (model, provider, subset, samples,
stderr, a confidence interval, time and cost columns skipped), which words mark a figure as
the paper's, the sentences that state a date, a version, samples, epochs or a judge, and the
rules of single READMEs (a model named only in a sentence, columns that are subsets or
models, a cell holding two figures), each quoting the README's words it rests on. A rule
whose words the README no longer holds, or that matches no table, is a warning.

One result is one figure: a model (verbatim, and the Provider column's organisation where
there is one), a metric (the column heading; the row label in a table of one metric a row;
a word the cell adds, ``60.0% accuracy``; what a README rule names), a subset where the row or
column is a part of the benchmark, and the value as printed, thousands separators and ``%``
taken off. ``scale`` is ``percent`` where the cell or the heading prints ``%``; ``fraction``
only where the README makes it plain: every figure of that metric in the table is printed
without ``%``, lies between 0 and 1, and either the metric is named as a share (accuracy, a
rate, a ratio) or the table gives a standard error or interval beside it; otherwise
``None``. A standard error (a Stderr column, ``± 0.03`` in the cell, a bracketed one where a
README rule says so) or an interval is kept on the value's scale only: one printed on
another scale (``45.3%`` beside ``±0.025``) is a warning and left out.

Whose figure: the README's own runs are the harness's (``harness="inspect_evals"``,
``ran_by="harness_maintainers"``); a figure a heading, a column or a row marks as the paper's,
the original implementation's or a leaderboard's is ``reported_as="paper"`` with no harness,
``ran_by="paper_authors"`` where it is the paper's or its authors', ``not_stated`` otherwise.
Where a README prints both, its own are ``reported_as="reproduction"``; where it prints no
other, ``None``. "ours/paper" cells (``15.2/14.4``) give one of each.

What a sentence states holds for the tables it governs: the text just before a table (back to
the table before it, or its section's heading), and that heading, for that table alone; the
text of a section after its last table, for every table of the section and the sections below
it; the headings above; the whole report where a README rule says its notes speak of all
its tables (and a section beside the report that a rule names, such as a table's own
heading at the report's level). The nearest statement wins; two that disagree at the same
distance state nothing. Dates (``Results generated December 2025``: ``2025-12``, the
sentence in ``date_stated_as``), versions, samples, epochs, the judge and a temperature apply
to the README's own runs only; a paper's figure is dated only by its row's Date cell or a
README rule. The samples a sentence states hold for the table's figures of the whole
benchmark (or of the subset its heading names), never for a row's or column's part of it. A
changelog's date is never read: it is outside the section. The commands a section gives
(``inspect eval ... --model M -T k=v``) are the settings of the rows of the models they name
(``-T`` arguments in ``settings.other``, ``--epochs``, a grader model, by ``-T`` or
``--model-role``, as the judge); where several name one model, what they all share.

``harness_version`` is the eval version the section says produced its figures ("Evaluation
version: 1-A", "Results use version 2-A"), and ``None`` where it says none or two: the
eval's listed ``version`` is the version of the code in the package, and the READMEs keep
figures of older versions (ape's are of 1-A where the eval is at 3-A), so it is never taken
for them. A README that says its figures were not made with this harness (a rule's
``harness = false``) gives them no harness at all.

Models are named as each table names them (``gpt-4o``, ``Sonnet 4``, ``claude-opus-4-6``),
never resolved here; which node each is, the mapping decides.

Not results: time, token and cost columns, average rows, human baselines, tables a README
rule says restate others. A cell that holds no figure (``-``, ``DNF``) is skipped; one that
is not a figure in any form the rules know is a warning naming the table, column and cell.
A README with no Evaluation Report, or one without tables, states no result; one whose
tables give none is a warning.

This module reads one README: which of its rules hold, which tables are read, what the text
around each states of the README's own runs, and the results its figures make together. The
parts it reads with are modules of their own: the rules (``inspect_results_rules``), the
report's sections and what their text states (``inspect_results_report``), its commands
(``inspect_results_commands``), what each column is (``inspect_results_columns``), what a row
states (``inspect_results_rows``) and a table's figures (``inspect_results_tables``); the
Markdown blocks and the figures as printed are those every reader of stated results shares
(``markdown_blocks``, ``result_figures``).
"""

from dataclasses import replace

from graph.ingest.harvest.archive import MemberError
from graph.ingest.harvest.inspect_results_columns import Layout
from graph.ingest.harvest.inspect_results_commands import (
    command_settings,
    commands,
    inline_arguments,
)
from graph.ingest.harvest.inspect_results_report import Fact, Section, context, fact, report
from graph.ingest.harvest.inspect_results_rows import Draft, TableReading
from graph.ingest.harvest.inspect_results_rules import (
    FILE_NAME,
    EvalRule,
    Rules,
    TableRule,
    bundled_rules,
    matching,
    regex,
)
from graph.ingest.harvest.inspect_results_tables import (
    heading_or_intro_match,
    read_table,
    table_subset,
)
from graph.ingest.harvest.markdown_blocks import Table, blocks
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.records.stated_result import Settings, StatedResult, Uncertainty

HARNESS = "inspect_evals"


def read_results(reader: MemberReader, readme: str, rules: Rules | None = None
                 ) -> list[StatedResult]:
    """The results ``readme`` (``inspect_evals/NAME/README.md``) states in its Evaluation
    Report. A README that cannot be read states none here (the listing's reader, which reads
    it for its citations, warns of it)."""
    try:
        text = reader.archive.read_text(readme)
    except MemberError:
        return []
    return results(reader, readme, text, rules or bundled_rules())


def results(reader: MemberReader, readme: str, text: str, rules: Rules) -> list[StatedResult]:
    """The results of one README's text (see the module's docstring)."""
    eval_id = readme.rstrip("/").split("/")[-2] if readme.count("/") else ""
    eval_rule = next((r for r in rules.eval if r.eval == eval_id), None)
    if eval_rule is not None and not _holds(reader, readme, text, eval_rule):
        eval_rule = None
    table_rules = [r for r in rules.table if r.eval == eval_id
                   and _holds(reader, readme, text, r)]
    root = report(blocks(text), rules, eval_rule.also if eval_rule else None)
    used: set[int] = set()
    drafts, tables = _tables(reader, readme, root, Layout(rules, eval_rule, None), table_rules,
                             used) if root else ([], 0)
    for index, rule in enumerate(table_rules):
        if index not in used:
            reader.warn(readme, f"a rule in {FILE_NAME} that matches no table of the README",
                        field="results", value=rule.quote)
    if tables and not drafts:
        reader.warn(readme, "an Evaluation Report whose tables state no result",
                    field="results")
    return _stated(reader, readme, rules, eval_rule, drafts)


def _holds(reader: MemberReader, readme: str, text: str, rule: EvalRule | TableRule) -> bool:
    """Whether the README holds the words a rule quotes; a warning where it does not."""
    if " ".join(rule.quote.split()) in " ".join(text.split()):
        return True
    reader.warn(readme, f"a rule in {FILE_NAME} whose words the README no longer holds: "
                "left out", field="results", value=rule.quote)
    return False


def _tables(reader: MemberReader, readme: str, root: Section, layout: Layout,
            table_rules: list[TableRule], used: set[int]) -> tuple[list[Draft], int]:
    drafts: list[Draft] = []
    counts = [0] * len(table_rules)
    tables = 0
    scope = layout.eval_rule.scope if layout.eval_rule else "heading"
    for section in root.tree():
        for position, block in enumerate(section.own):
            if not isinstance(block, Table) or not block.header:
                continue
            chosen = _table_rule(table_rules, section, block, counts)
            rule = table_rules[chosen] if chosen is not None else None
            if chosen is not None:
                used.add(chosen)
            if (rule is not None and rule.skip) or matching(layout.rules.skip_table,
                                                         section.heading):
                continue
            tables += 1
            reading = TableReading(replace(layout, rule=rule), block, section.heading,
                                   context(section, position, scope), tables, reader, readme)
            drafts += _in_context(reading, read_table(reading))
    return drafts, tables


def _table_rule(rules: list[TableRule], section: Section, table: Table, counts: list[int]
                ) -> int | None:
    """The first of the README's table rules that selects this table; ``counts`` holds how
    many tables each rule's selectors have matched so far (for ``index``)."""
    chosen: int | None = None
    for index, rule in enumerate(rules):
        if not _selects(rule, section, table):
            continue
        counts[index] += 1
        if chosen is None and (rule.index is None or rule.index == counts[index]):
            chosen = index
    return chosen


def _selects(rule: TableRule, section: Section, table: Table) -> bool:
    return ((rule.heading is None or regex(rule.heading).fullmatch(section.heading) is not None)
            and (rule.header is None or list(table.header) == rule.header)
            and (rule.under is None
                 or any(regex(rule.under).search(s.heading) for s in section.chain())))


def _in_context(reading: TableReading, drafts: list[Draft]) -> list[Draft]:
    """The drafts with what the text around the table states of the README's own runs."""
    rules, rule, eval_rule = reading.layout.rules, reading.layout.rule, reading.layout.eval_rule
    where = reading.where
    facts = {kind: fact(rules, kind, where) for kind in
             ("date", "version", "samples", "epochs", "judge", "temperature")}
    heading = heading_or_intro_match(reading, rule) if rule and rule.model_from else None
    stated = [[c for text in level for c in commands(rules, text)] for level in where.code]
    mode = eval_rule.commands if eval_rule else "match"
    inline = inline_arguments(where)
    for draft in drafts:
        if heading is not None and "prompt" in heading.groupdict():
            draft.prompt = draft.prompt or heading["prompt"]
        if draft.side.paper:
            continue
        run = command_settings(stated if mode != "ignore" else [], draft.model, mode)
        temperature = facts["temperature"]
        draft.other = {**({"temperature": temperature.value} if temperature else {}), **inline,
                       **run.other, **(rule.other if rule else {}), **draft.other}
        draft.date = draft.date or facts["date"]
        draft.version = facts["version"].value if facts["version"] else None
        if draft.subset is None or draft.subset == table_subset(reading):
            draft.samples = draft.samples or _value(facts["samples"])
        draft.epochs = draft.epochs or run.epochs or _value(facts["epochs"])
        draft.judge = (draft.judge or (rule.judge if rule else None) or run.judge
                       or _value(facts["judge"]))
        draft.prompt = draft.prompt or (rule.prompt if rule else None)
    return drafts


def _value(found: Fact | None) -> str | None:
    return found.value if found else None


def _stated(reader: MemberReader, readme: str, rules: Rules, eval_rule: EvalRule | None,
            drafts: list[Draft]) -> list[StatedResult]:
    """The drafts as results: scales decided, sides named, one result a claim."""
    compared = any(d.side.paper for d in drafts)
    fractions = _fractions(rules, drafts)
    kept: dict[tuple[str, ...], StatedResult] = {}
    for draft in drafts:
        result = _result(readme, eval_rule, draft, compared, id(draft) in fractions)
        earlier = kept.setdefault(result.key(), result)
        if earlier.value != result.value:
            reader.warn(readme, "two figures for one result: the first kept", field="results",
                        value=f"{draft.table}: {draft.model} {draft.metric}: {earlier.value}, "
                              f"{result.value}")
    return list(kept.values())


def _fractions(rules: Rules, drafts: list[Draft]) -> set[int]:
    """The drafts printed as fractions (the module's docstring): by table and metric."""
    groups: dict[tuple[int, str], list[Draft]] = {}
    for draft in drafts:
        if not draft.percent:
            groups.setdefault((draft.table_index, draft.metric), []).append(draft)
    found: set[int] = set()
    for (_, metric), group in groups.items():
        bounded = all(0 <= float(d.figure.value) <= 1 for d in group)
        shared = matching(rules.proportion, metric) is not None
        spread = any(d.figure.stderr or d.figure.ci for d in group)
        if bounded and (shared or spread):
            found.update(id(d) for d in group)
    return found


def _result(readme: str, eval_rule: EvalRule | None, draft: Draft, compared: bool,
            fraction: bool) -> StatedResult:
    own = not draft.side.paper
    ours = own and (eval_rule is None or eval_rule.harness)
    one = draft.figure
    return StatedResult(
        model=draft.model, model_provider=draft.provider, metric=draft.metric,
        value=one.value, scale="percent" if draft.percent else "fraction" if fraction else None,
        subset=draft.subset,
        uncertainty=Uncertainty(
            stderr=one.stderr, ci_low=one.ci[0] if one.ci else None,
            ci_high=one.ci[1] if one.ci else None, ci_level=draft.ci_level if one.ci else None,
        ) if one.stderr or one.ci else None,
        samples=int(draft.samples) if draft.samples else None,
        settings=Settings(
            epochs=int(draft.epochs) if draft.epochs and int(draft.epochs) >= 1 else None,
            judge=draft.judge, prompt=draft.prompt, other=dict(sorted(draft.other.items())),
        ),
        harness=HARNESS if ours else None,
        harness_version=draft.version if ours else None,
        reported_as="paper" if not own else "reproduction" if compared else None,
        ran_by=(eval_rule.ran_by or draft.side.ran_by) if own and eval_rule else draft.side.ran_by,
        date=draft.date.value if draft.date else None,
        date_stated_as=draft.date.stated_as if draft.date else None,
        table=draft.table or None, source=readme,
    )
