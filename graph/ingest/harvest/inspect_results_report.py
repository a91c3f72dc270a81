"""The Evaluation Report of an inspect_evals README as sections, and what its text states.

The reader (``graph.ingest.harvest.inspect_results``) reads a README's tables under the report's
heading and the headings below it, and takes facts of the README's own runs (a date, an eval
version, samples, epochs, a judge, a temperature) from the text that governs each table: the
text just before it, the text of its section after the last table, the headings above it,
nearest first (the reader's docstring says which holds where). This module keeps that
structure: the report as a tree of sections over the README's Markdown blocks
(``graph.ingest.harvest.markdown_blocks``), the texts that govern one table, and what the nearest of
them states by the rules' sentence patterns.
"""

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from graph.ingest.harvest.inspect_results_rules import FactKind, Rules, regex
from graph.ingest.harvest.markdown_blocks import Block, Code, Heading, Prose, Table
from graph.ingest.harvest.result_figures import bare, parse_date

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
            any(regex(rule.pattern).match(block.text) for rule in rules.section)
            or (also is not None and regex(also).fullmatch(block.text))
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
            for match in regex(rule.pattern).finditer(text)
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
        return bare(text)
    return text
