"""The directory page importer: a benchmark's page in a benchmark directory, as plain text.

The page, line by line (blank lines carry no meaning and are skipped, except that the
first line must not be blank; ``\\r\\n`` and ``\\r`` line ends count as ``\\n``; each line
is stripped of surrounding white space and otherwise kept exactly as written):

1. **Title** (line 1). A blank first line, or one that is a ``- `` item or a section
   heading, is a page with no title: rejected. So is a title with no letter or digit
   (the benchmark's id is the slug of its title). A page must say more than its title: one
   with nothing after it (a one-line text file) is kept but warned about (``TITLE_ALONE``).
2. **Summary**: the next line, unless it is an item or a known heading. (A line that
   opens "Access needs" here is taken as the access paragraph and the summary is absent.)
3. **Access paragraph** (optional): the next such line. Its "Access needs …" sentence
   is ``access``, the rest ``access_note``; a paragraph with no such sentence is all note.
4. **Facts**: the run of items that follows, read in pairs ``- Key`` / ``- value``, any
   keys, any order, kept in order. A last key with no value is reported and left out.
5. **Sections**, each opened by a heading and running to the next heading. What is a
   heading, and which headings are known, is set out in ``directory_sections``. In
   short: a heading is a short line (at most 120 characters) that is not an item, does
   not end in sentence punctuation and does not end in a number. Right after a known
   heading that takes a sentence (scores, model cards) the first line is that sentence
   even if it looks like a heading.

   - "In the authors’ words": every line up to the next heading, joined by ``\\n``.
   - **Scores**: "No scores here yet", or any heading with the word "score(s)" in it
     ("Top scores"), or else the first unknown heading that comes before any model-card
     and "More in" section and whose lines are at most one sentence followed by one or
     more ``- MODEL VALUE[%]`` items, all of them scores. The optional sentence is the
     statement; each item is a score.
   - **Model cards**: any heading with "model card" in it. The first line is the
     statement; "522 launch posts" and "52 labs" in it fill the survey counts.
   - **"More in CATEGORY"**: entries ``- TITLE STATUS SUMMARY [MODEL VALUE%]``, parsed by
     ``directory_sections.parse_related``; a score line alone under an entry without one
     is that entry's top score.

Nothing is dropped in silence. Lines before the facts that are neither summary nor
access paragraph, lines a known section cannot place (an item in the scores section that
is not a score, say), any section under an unknown heading, and a second copy of a known
section are all kept in ``unknown_sections`` (the heading is "" for lines under no
heading) and reported as warnings. A line longer than ``max_string_chars`` rejects the
page. Text that is merely odd (markup, quotes, braces, ``#``) is data.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph.ingest.importers.base import Imported, Problem, RecordRejected, SourceFile
from graph.ingest.importers.directory_sections import (
    TITLE_LOOKALIKES,
    Heading,
    Line,
    category_of,
    item_text,
    known_heading,
    parse_related,
    parse_score,
    quote,
    split_access,
    survey_counts,
)
from graph.ingest.records.directory_page import (
    DirectoryPage,
    Fact,
    ModelCardSection,
    RelatedEntry,
    Score,
    ScoresSection,
    Section,
)
from graph.mapping.dates import partial_date
from graph.settings import Settings
from graph.slug import slugify

_FIRST_VISIBLE = re.compile(r"\S")
TITLE_ALONE = ("the page is its title alone, with nothing that says what the benchmark is (a "
               "summary, access, facts or a section); kept as a catalogued benchmark all the "
               "same")
"""The warning of a one-line text file. A directory page must say something about its
benchmark besides its name; one that does not may be a stray note in the catalog folder, or a
page not yet written: it is kept (its title names a benchmark), and the load report says so."""
NOT_A_RELEASE_DATE = ("not a year, a month or a date (2023, January 2019, 2019-01-31); kept as "
                      "written, as text")


class DirectoryPageImporter:
    """Reads a directory page: any text that does not open like JSON."""

    name = "directory-page"

    def can_read(self, source: SourceFile) -> bool:
        first = _FIRST_VISIBLE.search(source.text)
        return first is None or first.group() not in "{["

    def load(self, source: SourceFile, settings: Settings) -> Imported:
        return _PageParser(source.path, settings.max_string_chars).parse(source.text)


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, each stripped, with ``\\r\\n`` and ``\\r`` read as ``\\n``."""
    return [line.strip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]


@dataclass
class _PageParser:
    """Walks one page's lines once, front to back, filling the record's fields."""

    path: Path
    max_chars: int
    lines: list[Line] = field(default_factory=list)
    position: int = 0
    fields: dict[str, Any] = field(default_factory=dict)
    unknown: list[Section] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    def parse(self, text: str) -> Imported:
        """The page in ``text``, as ``graph.ingest.importers.reading`` decoded it: never empty, only
        white space or holding a NUL (the reader rejects those files)."""
        raw = split_lines(text)
        for number, text_line in enumerate(raw, start=1):
            self._check_length(text_line, f"line {number}")
        self.fields["title"] = _title(raw[0])
        self.lines = [Line.read(n, t) for n, t in enumerate(raw[1:], start=2) if t]
        if not self.lines:
            self._warn("summary", Line.read(1, raw[0]), TITLE_ALONE)
        self._preamble()
        self._stray(stop_at_items=True)
        self._facts()
        while (line := self._peek()) is not None:
            if line.heading is None and not line.heading_like:
                self._stray(stop_at_items=False)
            else:
                self.position += 1
                self._section(line, line.heading)
        page = DirectoryPage(**self.fields, unknown_sections=self.unknown)
        return Imported.one(page, self.warnings)

    # -- reading lines --------------------------------------------------------------

    def _peek(self) -> Line | None:
        return self.lines[self.position] if self.position < len(self.lines) else None

    def _take_while(self, keep: Callable[[Line, int], bool]) -> list[Line]:
        start = self.position
        while (line := self._peek()) is not None and keep(line, self.position - start):
            self.position += 1
        return self.lines[start:self.position]

    def _paragraph(self) -> Line | None:
        line = self._peek()
        if line is None or line.item is not None or line.heading is not None:
            return None
        self.position += 1
        return line

    def _body(self, *, statement_first: bool = False, open_ended: bool = False) -> list[Line]:
        """The lines of a section, up to the next heading.

        ``statement_first``: the first line is the section's sentence even if it looks like
        a heading. ``open_ended`` (unknown sections): lines that look like headings stay in
        the section until it holds a line that does not (a list of links, say).
        """
        prose = False

        def inside(line: Line, index: int) -> bool:
            nonlocal prose
            if line.heading is not None:
                return False
            ends = prose or not open_ended
            if line.heading_like and ends and not (statement_first and index == 0):
                return False
            prose = prose or not line.heading_like
            return True

        return self._take_while(inside)

    # -- the parts of a page ----------------------------------------------------------

    def _preamble(self) -> None:
        summary = self._paragraph()
        if summary is not None and split_access(summary.text)[0] is not None:
            access_line: Line | None = summary
            summary = None
        else:
            access_line = self._paragraph()
        self.fields["summary"] = summary.text if summary else None
        if access_line is not None:
            self.fields["access"], self.fields["access_note"] = split_access(access_line.text)

    def _stray(self, *, stop_at_items: bool) -> None:
        lines = self._take_while(lambda line, _: not (
            (stop_at_items and line.item is not None)
            or line.heading_like or line.heading is not None))
        if lines:
            self._keep("", lines, "unknown_sections", "text under no heading")

    def _facts(self) -> None:
        items = self._take_while(lambda line, _: line.item is not None)
        facts = [Fact(key=items[i].item or "", value=items[i + 1].item or "")
                 for i in range(0, len(items) - 1, 2)]
        if len(items) % 2:
            last = items[-1]
            self._warn("facts", last, f"fact {quote(last.item or '')} has no value line after "
                                      "it; left out")
        for fact in facts:  # a field-level defect: the mapping keeps the date as written
            if slugify(fact.key) == "released" and partial_date(fact.value) is None:
                self.warnings.append(Problem(self.path, "facts.released", NOT_A_RELEASE_DATE,
                                             fact.value))
        self.fields["facts"] = facts

    def _section(self, heading: Line, kind: Heading | None) -> None:
        slot = "scores" if kind is Heading.NO_SCORES else kind.value if kind else None
        if slot is not None and slot in self.fields:
            self._unknown(heading, self._body(open_ended=True), "repeats an earlier section")
        elif kind is Heading.AUTHORS:
            self._authors(heading)
        elif kind in (Heading.NO_SCORES, Heading.SCORES):
            self._scores(heading, self._body(statement_first=True))
        elif kind is Heading.MODEL_CARDS:
            self._model_cards(heading)
        elif kind is Heading.MORE_IN:
            self._related(heading)
        else:
            body = self._body(open_ended=True)
            if self._could_be_scores(body):
                self._scores(heading, body)
            else:
                self._unknown(heading, body, "is not a section this importer knows")

    def _authors(self, heading: Line) -> None:
        body = self._body()
        words = "\n".join(line.text for line in body)
        self._check_length(words, "authors_words")
        if not body:
            self._warn("authors_words", heading, "the heading has no text under it")
        self.fields["authors_words"] = words or None

    def _could_be_scores(self, body: list[Line]) -> bool:
        if any(slot in self.fields for slot in ("scores", "model_cards", "related")):
            return False
        items = body[1:] if body and body[0].item is None else body
        return bool(items) and all(
            line.item is not None and parse_score(line.item) is not None for line in items)

    def _scores(self, heading: Line, body: list[Line]) -> None:
        statement = body[0].text if body and body[0].item is None else None
        scores: list[Score] = []
        leftovers: list[Line] = []
        for line in body[1:] if statement is not None else body:
            score = parse_score(line.item) if line.item is not None else None
            if score is None:
                leftovers.append(line)
            else:
                scores.append(score)
        self.fields["scores"] = ScoresSection(heading=heading.text, statement=statement,
                                              scores=scores)
        if leftovers:
            self._keep(heading.text, leftovers, "scores", "not a '- MODEL VALUE%' score line")

    def _model_cards(self, heading: Line) -> None:
        body = self._body(statement_first=True)
        statement = body[0].text if body and body[0].item is None else None
        launch_posts, labs = survey_counts(statement) if statement else (None, None)
        self.fields["model_cards"] = ModelCardSection(
            heading=heading.text, statement=statement, launch_posts=launch_posts, labs=labs)
        leftovers = body[1:] if statement is not None else body
        if leftovers:
            self._keep(heading.text, leftovers, "model_cards", "more than the one statement")

    def _related(self, heading: Line) -> None:
        category = category_of(heading.text)
        if not category:
            self._warn("category", heading, "the heading names no category")
        related: list[RelatedEntry] = []
        leftovers: list[Line] = []
        for line in self._body():
            if line.item is not None:
                entry, problem = parse_related(line.item)
                if problem:
                    self._warn("related", line, f"{quote(line.text)}: {problem}")
                if entry is not None:
                    related.append(entry)
                    continue
            elif related and related[-1].top_score is None:
                score = parse_score(line.text)
                if score is not None:
                    related[-1] = related[-1].model_copy(update={"top_score": score})
                    continue
            leftovers.append(line)
        self.fields["category"] = category or None
        self.fields["related"] = related
        if leftovers:
            self._keep(heading.text, leftovers, "related", "not an entry or its top score")

    # -- reporting --------------------------------------------------------------------

    def _unknown(self, heading: Line, body: list[Line], why: str) -> None:
        self.unknown.append(Section(heading=heading.text, lines=[line.text for line in body]))
        self._warn("unknown_sections", heading,
                   f"section {quote(heading.text)} {why}: kept as it is ({len(body)} lines)")

    def _keep(self, heading: str, lines: list[Line], field_name: str, why: str) -> None:
        self.unknown.append(Section(heading=heading, lines=[line.text for line in lines]))
        more = f" and {len(lines) - 1} more" if len(lines) > 1 else ""
        self._warn(field_name, lines[0], f"{quote(lines[0].text)}{more}: {why}; kept in "
                                         "unknown_sections")

    def _warn(self, field_name: str, line: Line, reason: str) -> None:
        self.warnings.append(Problem(self.path, field_name, f"line {line.number}: {reason}"))

    def _check_length(self, text: str, where: str) -> None:
        if len(text) > self.max_chars:
            raise RecordRejected(
                f"{len(text):,} characters, over the limit (max_string_chars = {self.max_chars})",
                where)


def _title(first: str) -> str:
    if not first:
        raise RecordRejected("the first line is blank: a page with no title", "title")
    if item_text(first) is not None:
        raise RecordRejected(f"the first line {quote(first)} is a list item: a page with no "
                             "title", "title")
    if known_heading(first) in TITLE_LOOKALIKES:
        raise RecordRejected(f"the first line {quote(first)} is a section heading: a page with "
                             "no title", "title")
    if not slugify(first):
        raise RecordRejected(f"the title {quote(first)} has no letter or digit, so it gives "
                             "the benchmark no id", "title")
    return first
