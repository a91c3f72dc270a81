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
"""

import re
import shlex
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal

from markdown_it import MarkdownIt
from markdown_it.token import Token
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from graph.harvest.archive import MemberError
from graph.harvest.reader import MemberReader
from graph.harvest.yaml_loader import YamlError, load_mapping
from graph.records.stated_result import RanBy, Settings, StatedResult, Uncertainty

FILE_NAME = "inspect_results.toml"
HARNESS = "inspect_evals"

# -- the rules ---------------------------------------------------------------------------


@cache
def _regex(pattern: str) -> re.Pattern[str]:
    """A rule's pattern, with ``{date}`` and ``{version}`` spelled out, ignoring case."""
    spelled = pattern.replace("{date}", f"(?P<value>{_DATE})").replace(
        "{version}", r"(?P<value>\d+-[A-Z]|\d+(?:\.\d+){1,2})")
    return re.compile(spelled, re.IGNORECASE)


def _compiles(pattern: str) -> str:
    try:
        _regex(pattern)
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
    """The rules of a TOML text; raises ``tomllib.TOMLDecodeError`` or pydantic's
    ``ValidationError`` for a file that breaks the format (a bug in the shipped data)."""
    return Rules.model_validate(tomllib.loads(text))


@cache
def bundled_rules() -> Rules:
    """The rules shipped with benchgraph, read once per process."""
    return read_rules(resources.files("graph.harvest").joinpath(FILE_NAME).read_text("utf-8"))


def _full(rules: Iterable[PatternRule], text: str) -> PatternRule | None:
    """The first rule whose pattern matches the whole of ``text``."""
    return next((r for r in rules if _regex(r.pattern).fullmatch(text)), None)


def _role(rules: Rules, heading: str) -> ColumnRule | None:
    """The first column rule whose heading pattern matches the whole of ``heading``."""
    return next((r for r in rules.column if _regex(r.heading).fullmatch(heading)), None)


# -- the README as blocks ----------------------------------------------------------------

_MARKDOWN = MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Prose:
    text: str


@dataclass(frozen=True)
class Code:
    text: str


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Heading | Prose | Code | Table


def blocks(markdown: str) -> list[Block]:
    """The document's headings, paragraphs (list items' too), code blocks and tables, in
    order, their text as it reads without Markdown."""
    tokens = _MARKDOWN.parse(markdown)
    found: list[Block] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type == "heading_open":
            found.append(Heading(int(token.tag[1:]), _plain(tokens[index + 1])))
        elif token.type == "paragraph_open":
            found.append(Prose(_plain(tokens[index + 1])))
        elif token.type in ("fence", "code_block"):
            found.append(Code(token.content))
        elif token.type == "table_open":
            table, index = _table(tokens, index)
            found.append(table)
        index += 1
    return found


def _plain(inline: Token) -> str:
    parts: list[str] = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return " ".join("".join(parts).split())


def _table(tokens: list[Token], start: int) -> tuple[Table, int]:
    rows: list[tuple[str, ...]] = []
    cells: list[str] = []
    index = start
    while tokens[index].type != "table_close":
        token = tokens[index]
        if token.type == "inline":
            cells.append(_plain(token))
        elif token.type == "tr_close":
            rows.append(tuple(cells))
            cells = []
        index += 1
    header, *body = rows or [()]
    return Table(header, tuple(body)), index


# -- the report's sections ---------------------------------------------------------------


@dataclass
class Section:
    heading: str
    level: int
    own: list[Block] = field(default_factory=list)
    children: list["Section"] = field(default_factory=list)
    parent: "Section | None" = None

    def chain(self) -> Iterator["Section"]:
        """This section and those above it, nearest first."""
        section: Section | None = self
        while section is not None:
            yield section
            section = section.parent

    def tree(self) -> Iterator["Section"]:
        yield self
        for child in self.children:
            yield from child.tree()

    def general(self) -> list[Prose | Code]:
        """The text after the section's last table (all of it where it has none)."""
        last = max((i for i, b in enumerate(self.own) if isinstance(b, Table)), default=-1)
        return [b for b in self.own[last + 1:] if isinstance(b, Prose | Code)]


def report(found: list[Block], rules: Rules, also: str | None) -> Section | None:
    """The Evaluation Report (and the section ``also`` names) as a tree under one root;
    ``None`` where the README has none."""
    root = Section("", 0)
    index = 0
    while index < len(found):
        block = found[index]
        if isinstance(block, Heading) and (
            any(_regex(rule.pattern).match(block.text) for rule in rules.section)
            or (also is not None and _regex(also).fullmatch(block.text))
        ):
            section, index = _section(found, index, root)
            root.children.append(section)
        else:
            index += 1
    return root if root.children else None


def _section(found: list[Block], start: int, root: Section) -> tuple[Section, int]:
    """The section the heading at ``start`` opens, and the index of the block after it."""
    heading = found[start]
    assert isinstance(heading, Heading)
    top = Section(heading.text, heading.level, parent=root)
    current = top
    index = start + 1
    while index < len(found):
        block = found[index]
        if isinstance(block, Heading):
            if block.level <= top.level:
                break
            while current is not top and current.level >= block.level:
                current = current.parent or top
            child = Section(block.text, block.level, parent=current)
            current.children.append(child)
            current = child
        else:
            current.own.append(block)
        index += 1
    return top, index


# -- what the text around a table states -------------------------------------------------


@dataclass(frozen=True)
class Context:
    """The texts that govern one table, nearest first: at each distance, each text with
    whether it is a heading or the table's introduction (where ``intro`` sentences count),
    and the code blocks (commands)."""

    levels: list[list[tuple[str, bool]]]
    code: list[list[str]]

    @property
    def near(self) -> list[str]:
        """The table's heading and the text just before it."""
        return [text for text, _ in self.levels[0]]


def context(section: Section, position: int, scope: str) -> Context:
    """What governs the table at ``position`` of the section (the module's docstring)."""
    before = _intro(section.own, position)
    levels = [[(section.heading, True), *((t, True) for t in _prose(before))],
              [(t, False) for t in _prose(section.general())]]
    code = [_code(before), _code(section.general())]
    for above in list(section.chain())[1:]:
        levels.append([(above.heading, True), *((t, False) for t in _prose(above.general()))])
        code.append(_code(above.general()))
    if scope == "section":
        root = list(section.chain())[-1]
        everything = [b for s in root.tree() for b in s.general()]
        levels.append([(s.heading, False) for s in root.tree()]
                      + [(t, False) for t in _prose(everything)])
        code.append(_code(everything))
    return Context(levels, code)


def _intro(own: list[Block], position: int) -> list[Block]:
    """The blocks after the table before this one (or the section's start) up to it."""
    start = max((i for i, b in enumerate(own[:position]) if isinstance(b, Table)), default=-1)
    return own[start + 1:position]


def _prose(found: Iterable[Block]) -> list[str]:
    return [b.text for b in found if isinstance(b, Prose)]


def _code(found: Iterable[Block]) -> list[str]:
    return [b.text for b in found if isinstance(b, Code)]


@dataclass(frozen=True)
class Fact:
    value: str
    stated_as: str


def fact(rules: Rules, kind: FactKind, where: Context) -> Fact | None:
    """What the nearest text states of ``kind``; ``None`` where none does, or two texts at
    the same distance disagree."""
    patterns = [r for r in rules.fact if r.kind == kind]
    for level in where.levels:
        found = {
            value: _sentence(text, match)
            for rule in patterns for text, intro in level if intro or rule.where == "anywhere"
            for match in _regex(rule.pattern).finditer(text)
            if (value := _fact_value(kind, match.group("value"))) is not None
        }
        if found:
            return Fact(*next(iter(found.items()))) if len(found) == 1 else None
    return None


def _sentence(text: str, match: re.Match[str]) -> str:
    """The sentence of ``text`` that holds ``match`` (a heading is one sentence)."""
    starts = [0, *(m.end() for m in re.finditer(r"[.!?:|](?=\s)\s+", text)
                   if m.end() <= match.start())]
    end = re.search(r"[.!?|](?=\s|$)", text[match.end():])
    found = text[starts[-1]:match.end() + (end.start() + 1 if end else len(text))]
    return found.strip().rstrip(".:|").strip()


def _fact_value(kind: FactKind, text: str) -> str | None:
    if kind == "date":
        return parse_date(text)
    if kind in ("samples", "epochs"):
        return text.replace(",", "")
    return text


# -- dates -------------------------------------------------------------------------------

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_MONTH = "(?:" + "|".join(_MONTHS) + ")"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_DATE = (rf"\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH}\s+{_DAY},?\s+\d{{4}}"
         rf"|{_DAY}\s+(?:of\s+)?{_MONTH},?\s+\d{{4}}|{_MONTH}\s*[–-]\s*{_MONTH}\s+\d{{4}}"
         rf"|{_MONTH}\s+\d{{4}}")


def parse_date(text: str) -> str | None:
    """``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY`` (a range of months) of a date as the READMEs
    write one: ``2026-03-06``, ``July 3, 2025``, ``4th of March 2026``, ``December 2025``,
    ``February–March 2026``; ``None`` for anything else."""
    text = text.strip().lower()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return text if 1 <= int(text[5:7]) <= 12 and 1 <= int(text[8:]) <= 31 else None
    months = [m for m in re.findall(r"[a-z]+", text) if m in _MONTHS]
    year = re.search(r"\d{4}", text)
    if year is None or not months:
        return None
    if len(months) > 1:
        return year.group(0)
    day = re.match(r"(\d{1,2})(?:st|nd|rd|th)?\b", text) or re.search(
        r"\b(\d{1,2})(?:st|nd|rd|th)?(?:,|\s)", text[text.index(months[0]):])
    month = f"{year.group(0)}-{_MONTHS.index(months[0]) + 1:02d}"
    if day is None:
        return month
    return f"{month}-{int(day.group(1)):02d}" if 1 <= int(day.group(1)) <= 31 else None


# -- commands ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """What one ``inspect eval`` command sets: for which models, its ``-T`` arguments, its
    epochs and grader model."""

    models: tuple[str, ...]
    arguments: frozenset[tuple[str, str]]
    epochs: str | None
    judge: str | None


def commands(rules: Rules, code: str) -> list[Command]:
    """The ``inspect eval`` commands of a code block (continued lines joined)."""
    found: list[Command] = []
    for line in code.replace("\\\n", " ").splitlines():
        if "inspect eval" not in line or line.lstrip().startswith("#"):
            continue
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        found.append(_command(rules, words))
    return found


def _command(rules: Rules, words: list[str]) -> Command:
    options: list[tuple[str, str]] = []
    for index, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in ("--model", "-T", "--epochs", "--model-role") and (
                equals or index + 1 < len(words)):
            options.append((name, value if equals else words[index + 1]))
    models = tuple(m for name, value in options if name == "--model" for m in value.split(","))
    arguments = [tuple(v.split("=", 1)) for n, v in options if n == "-T" and "=" in v]
    judges = [v for k, v in arguments if _full(rules.judge_argument, k)]
    judges += [j for n, v in options if n == "--model-role" for j in _graders(rules, v)]
    epochs = [v for n, v in options if n == "--epochs" and v.isdigit()]
    return Command(
        models=tuple("*" if re.fullmatch(r"<.*>", m) else m for m in models),
        arguments=frozenset((k, v) for k, v in arguments
                            if not _full(rules.judge_argument, k)),
        epochs=epochs[0] if epochs else None,
        judge=judges[0] if judges else None,
    )


def _graders(rules: Rules, value: str) -> list[str]:
    """The grader model a ``--model-role`` value names: ``grader=M``, ``grader={"model": M}``
    or ``{grader: M}``."""
    role, equals, model = value.partition("=")
    if equals and not role.lstrip().startswith("{"):
        roles: dict[str, Any] = {role: _role_model(model)}
    else:
        try:
            roles = load_mapping(value)
        except YamlError:
            return []
    named = [_role_model(model) for role, model in roles.items()
             if _full(rules.judge_argument, str(role))]
    return [model for model in named if isinstance(model, str)]


def _role_model(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("{"):
        try:
            value = load_mapping(value)
        except YamlError:
            return None
    return value.get("model") if isinstance(value, dict) else value


def _names(model: str, named: str) -> bool:
    """Whether a command's model names a table's (the same id, or the same last part:
    ``openai/gpt-5.1-2025-11-13`` for ``gpt-5.1-2025-11-13``)."""
    return named == "*" or named == model or named.rsplit("/", 1)[-1] == model.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class RunSettings:
    other: dict[str, str]
    epochs: str | None
    judge: str | None


def command_settings(found: list[list[Command]], model: str, mode: str) -> RunSettings:
    """What the nearest commands that name ``model`` agree on."""
    for level in found:
        named = [c for c in level if mode == "all" or any(_names(model, m) for m in c.models)]
        if named:
            shared = frozenset.intersection(*(c.arguments for c in named))
            return RunSettings(dict(sorted(shared)), _agreed(c.epochs for c in named),
                               _agreed(c.judge for c in named))
    return RunSettings({}, None, None)


def _agreed(values: Iterable[str | None]) -> str | None:
    found = set(values)
    return found.pop() if len(found) == 1 else None


_ARGUMENT = re.compile(r"-T\s+(?P<key>\w+)=(?P<value>[^\s,;)]+)")


def inline_arguments(where: Context) -> dict[str, str]:
    """``-T k=v`` written in a table's heading or introduction, or a heading above it."""
    for level in where.levels:
        found = dict(sorted((m["key"], m["value"]) for text, intro in level if intro
                            for m in _ARGUMENT.finditer(text)))
        if found:
            return found
    return {}


# -- cells -------------------------------------------------------------------------------

_NUMBER = r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?"
_CELL = re.compile(
    rf"(?P<value>{_NUMBER})\s*(?P<pct>%)?"
    rf"(?:\s*±\s*(?P<pm>{_NUMBER})\s*(?P<pmpct>%)?)?"
    r"(?:\s*\((?P<paren>[^()]*)\))?"
    rf"(?:\s*\[\s*(?P<low>{_NUMBER})\s*,\s*(?P<high>{_NUMBER})\s*\])?"
    r"(?:\s+(?P<word>[A-Za-z][\w-]*))?"
)
_PAIR = re.compile(rf"(?P<a>{_NUMBER})\s*(?P<apct>%)?\s*/\s*(?P<b>{_NUMBER})\s*(?P<bpct>%)?")
_LONE = re.compile(rf"±?\s*(?P<value>{_NUMBER})\s*(?P<pct>%)?")


@dataclass(frozen=True)
class Figure:
    """One figure of a cell, as printed."""

    value: str
    percent: bool
    stderr: str | None = None
    ci: tuple[str, str] | None = None
    word: str | None = None
    """A word after the figure that names its metric (``60.0% accuracy``)."""


def _bare(number: str) -> str:
    return number.replace(",", "")


def figure(cell: str, parenthesis: str | None) -> Figure | None:
    """The figure of a cell: ``0.766``, ``68.5%``, ``83.3%±3.8%``, ``17.5 [12.0, 23.0]``,
    ``60.0% accuracy``, ``0.60 (0.014)`` (a standard error where ``parenthesis`` says so; any
    other bracketed note, ``(+0.3%)``, ``(1/19)``, is not a figure); ``None`` otherwise."""
    found = _CELL.fullmatch(cell)
    if found is None:
        return None
    stderr = found["pm"]
    bracketed = _LONE.fullmatch(found["paren"] or "")
    if parenthesis == "stderr" and bracketed and stderr is None:
        stderr = bracketed["value"]
    return Figure(
        value=_bare(found["value"]), percent=bool(found["pct"] or found["pmpct"]),
        stderr=_bare(stderr) if stderr else None,
        ci=(_bare(found["low"]), _bare(found["high"])) if found["low"] else None,
        word=found["word"],
    )


def pair(cell: str) -> tuple[Figure, Figure] | None:
    """The two figures of a ``15.2/14.4`` or ``64 / 29`` cell."""
    found = _PAIR.fullmatch(cell)
    if found is None:
        return None
    return (Figure(_bare(found["a"]), bool(found["apct"])),
            Figure(_bare(found["b"]), bool(found["bpct"])))


def lone(cell: str) -> tuple[str, bool] | None:
    """A standard error cell's figure and whether it is printed with ``%``."""
    found = _LONE.fullmatch(cell)
    return (_bare(found["value"]), bool(found["pct"])) if found else None


# -- tables: what each column is -----------------------------------------------------------


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
    generic = _role(layout.rules, base)
    role: Role = (override.role if override and override.role
                  else generic.role if generic else "value")
    level = _regex(generic.heading).fullmatch(base) if generic and role == "ci" else None
    column = Column(index, heading, role, key=generic.key if generic else None,
                    ci_level=int(level["level"]) / 100 if level and level["level"] else None)
    if role != "value":
        return column
    bare, percent = _unit(base)
    level = re.search(r"(\d+)% CI", heading, re.IGNORECASE)
    column = replace(column, base=bare, percent=percent, side=suffix_side,
                     ci_level=int(level.group(1)) / 100 if level else None)
    paired = _full(layout.rules.pair, heading)
    if paired is not None:
        return _paired(column, _regex(paired.pattern).fullmatch(heading))
    column = _named(layout, _laid_out(layout, header, column))
    if column.side is None and column.model is None:
        column = replace(column, side=_side(layout.rules, heading, "column"))
    return _overridden(column, override) if override else column


def _side_suffix(rules: Rules, heading: str) -> tuple[str, Side | None]:
    """``Accuracy (Inspect)``: the heading without a bracketed side word, and that side."""
    found = re.fullmatch(r"(?P<base>.*?)\s*\((?P<word>[^()]*)\)", heading)
    side = _side(rules, found["word"], "column") if found else None
    return (found["base"], side) if found and side else (heading, None)


def _side(rules: Rules, text: str, where: str) -> Side | None:
    rule = next((r for r in rules.side if r.where == where and _regex(r.pattern).search(text)),
                None)
    return Side(rule.reported_as, rule.ran_by) if rule else None


def _unit(heading: str) -> tuple[str, bool]:
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
    first = _role(rules, header[0])
    if mode is None and first is not None and first.role == "metric":
        if _full(rules.plain, column.heading) or _side(rules, column.heading,
                                                                    "column"):
            return column
        mode = "subsets"
    if mode == "subsets":
        whole = _full(rules.whole, column.heading) is not None
        return replace(column, subset=None if whole else column.heading)
    if mode == "models":
        return replace(column, model=column.heading)
    return column


def _named(layout: Layout, column: Column) -> Column:
    """What the README's rule reads off a column heading: the model (and a side word),
    or a subset, metric and samples."""
    rule = layout.rule
    if rule is not None and rule.column_model and (
            found := _regex(rule.column_model).search(column.heading)):
        rest = column.heading[:found.start("model")] + column.heading[found.end("model"):]
        return replace(column, model=found["model"], side=_side(layout.rules, rest, "column"))
    if rule is not None and rule.column_pattern and (
            found := _regex(rule.column_pattern).search(column.heading)):
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


# -- tables: what each row states ----------------------------------------------------------


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


def _row(reading: TableReading, cells: tuple[str, ...]) -> Row:
    """What a row's cells other than its figures state. A first cell that is nothing but a
    side word (coconot's ``paper`` row among the scorer models) says whose the row is."""
    rules = reading.layout.rules
    row = Row()
    for column in reading.columns:
        cell = cells[column.index]
        if _blank(rules, cell):
            continue
        label = next((r for r in rules.side if r.where == "column"
                      and _regex(r.pattern).fullmatch(cell)), None) if column.index == 0 else None
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
        row.subset = None if _full(rules.whole, cell) else (
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
    found = re.fullmatch(r"(?P<n>\d[\d,]*)(?:\s*/\s*\d[\d,]*)?", cell)
    if found is None:
        reading.warn(f"a {role} cell that is no count: left out", cell)
    else:
        row.own[role] = _bare(found["n"])


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
    row.side = _side(rules, cell, "column") or row.side
    if role == "side":
        row.both.update(re.findall(r"(\w+)=([\w.-]+)", cell))
        return
    for rule in rules.fact:
        if rule.kind == "samples" and rule.where == "intro" and (
                found := _regex(rule.pattern).search(cell)):
            row.own["samples"] = _bare(found["value"])


def _blank(rules: Rules, cell: str) -> bool:
    return not cell or _full(rules.blank, cell) is not None


def _skipped_row(rules: Rules, columns: list[Column], cells: tuple[str, ...]) -> bool:
    """A rule row (``| --- |``), a group label (``**Reasoning Models**`` and nothing else),
    an average row."""
    figures = [cells[c.index] for c in columns if c.role == "value"]
    return (all(re.fullmatch(r"[-:\s]*", c) for c in cells)
            or all(_blank(rules, c) for c in figures)
            or _full(rules.average, cells[0]) is not None)


# -- tables: the figures -----------------------------------------------------------------


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
        if transposed and (role := _role(rules, label)) is not None and role.role == "stderr":
            _stderr_row(reading, previous, cells)
            continue
        if _skipped_row(rules, reading.columns, cells):
            continue
        found = _row_figures(reading, cells, label if transposed else None)
        previous = {d.column: d for d in found}
        drafts += found
    return drafts


def _row_figures(reading: TableReading, cells: tuple[str, ...], metric: str | None
                 ) -> list[Draft]:
    row = _row(reading, cells)
    found: dict[int, Draft] = {}
    drafts: list[Draft] = []
    for column in reading.columns:
        if column.role == "value":
            made = _figures(reading, row, column, cells[column.index], metric)
            drafts += made
            if made:
                found[column.index] = made[0]
        elif column.role in ("stderr", "ci") and not _blank(reading.layout.rules,
                                                              cells[column.index]):
            _attach(reading, found, column, cells[column.index])
    return drafts


def _figures(reading: TableReading, row: Row, column: Column, cell: str,
             metric_row: str | None) -> list[Draft]:
    rules, rule = reading.layout.rules, reading.layout.rule
    if _blank(rules, cell):
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
    chosen = stated or row.side or _table_side(reading) or OWN
    if chosen.paper and rule is not None and rule.paper_ran_by:
        chosen = Side("paper", rule.paper_ran_by)
    draft = Draft(
        model=model, metric=_metric(reading, column, one, metric_row), figure=one,
        side=chosen, column=column.index,
        percent=one.percent or column.percent or bool(rule and rule.scale == "percent"),
        subset=(column.subset if column.subset is not None else row.subset
                if row.subset is not None else _table_subset(reading)),
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
    found = _regex("{date}").search(words)
    date = parse_date(found["value"]) if found else None
    return Fact(date, words) if date else None


def _metric(reading: TableReading, column: Column, one: Figure, metric_row: str | None) -> str:
    """The metric of a figure: its row's label in a table of one metric a row (or the
    README's pair of metrics), what the column's rule names, the table's rule, a word the
    cell adds (``60.0% accuracy``), else the column's heading."""
    rule = reading.layout.rule
    if metric_row is not None:
        return _unit(metric_row)[0]
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
        found = _from_heading_or_intro(reading, rule)
        if found:
            return found["model"]
    return eval_rule.model if eval_rule else None


def _from_heading_or_intro(reading: TableReading, rule: TableRule) -> re.Match[str] | None:
    texts = [reading.heading] if rule.model_from == "heading" else reading.where.near[-1:]
    return next((m for t in texts if (m := _regex(rule.model_pattern).search(t))), None)


def _table_subset(reading: TableReading) -> str | None:
    """The subset a README's rule reads off the table's heading (``Algorithmic Track``)."""
    rule = reading.layout.rule
    found = _regex(rule.heading).fullmatch(reading.heading) if rule and rule.heading else None
    return found.groupdict().get("subset") if found else None


def _table_side(reading: TableReading) -> Side | None:
    rule = reading.layout.rule
    if rule is not None and rule.reported_as:
        return Side(rule.reported_as, rule.ran_by or "not_stated")
    return _side(reading.layout.rules, reading.heading, "heading")


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
    found = re.fullmatch(rf"\[\s*(?P<low>{_NUMBER})\s*,\s*(?P<high>{_NUMBER})\s*\]", cell)
    if found is None:
        reading.warn("a confidence interval that is not [low, high]: left out", cell)
        return
    draft.figure = replace(draft.figure, ci=(_bare(found["low"]), _bare(found["high"])))
    draft.ci_level = column.ci_level


def _stderr_row(reading: TableReading, previous: dict[int, Draft], cells: tuple[str, ...]
                ) -> None:
    """A ``StdErr`` row of a table of one metric a row: the errors of the row above."""
    for index, draft in previous.items():
        if not _blank(reading.layout.rules, cells[index]):
            _stderr(reading, draft, cells[index])


# -- a README ----------------------------------------------------------------------------


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
            if (rule is not None and rule.skip) or _full(layout.rules.skip_table,
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
    return ((rule.heading is None or _regex(rule.heading).fullmatch(section.heading) is not None)
            and (rule.header is None or list(table.header) == rule.header)
            and (rule.under is None
                 or any(_regex(rule.under).search(s.heading) for s in section.chain())))


def _in_context(reading: TableReading, drafts: list[Draft]) -> list[Draft]:
    """The drafts with what the text around the table states of the README's own runs."""
    rules, rule, eval_rule = reading.layout.rules, reading.layout.rule, reading.layout.eval_rule
    where = reading.where
    facts = {kind: fact(rules, kind, where) for kind in
             ("date", "version", "samples", "epochs", "judge", "temperature")}
    heading = _from_heading_or_intro(reading, rule) if rule and rule.model_from else None
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
        if draft.subset is None or draft.subset == _table_subset(reading):
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
        shared = _full(rules.proportion, metric) is not None
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
