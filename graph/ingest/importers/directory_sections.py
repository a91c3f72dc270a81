"""The small pieces of a directory page: which line is what, and how one line parses.

Everything here looks at a single line (or one paragraph) and knows nothing of the
page around it; ``graph.ingest.importers.directory_page`` walks the page and puts the pieces
together. All of it runs in time linear in the line's length: a line is split with
``str`` methods, and the few regular expressions have no nested or overlapping
repetition, so a pathological line of megabytes cannot make them backtrack.

The rules (see the module docstring of ``directory_page`` for the page as a whole):

- **Item**: a line starting ``- `` (or a lone ``-``); its text is what follows.
- **Heading-like**: not an item, at most ``HEADING_MAX_CHARS`` characters, not ending
  (after closing quotes and brackets) in ``. ! ? , ;`` or ``…``, and not ending in a
  number (a line such as ``Qwen 3.8 Max 80.4%`` is a score, not a heading).
- **Known headings** (heading-like, compared case-insensitively, a trailing ``:``
  ignored): "In the authors’ words" (``’`` or ``'``; "author’s" too), "No scores here
  yet", any heading holding the word "score" or "scores" (a scores heading such as
  "Top scores"), any heading holding "model card" ("No lab model card reports it
  yet", "Reported in 3 lab model cards"), and "More in CATEGORY".
- **Score**: ``MODEL VALUE`` where VALUE, the last word, is a number (``88.1``,
  ``1,234.5``, ``-3``) of at most ``MAX_NUMBER_CHARS`` characters. A ``%`` right
  after it (or as a word of its own) makes the unit ``percent``; without it the unit
  is ``None`` (unknown: a bare number may be points or an Elo rating, so it is not
  called a percentage). A trailing ``:`` or dash after the model name is dropped.
"""

import re
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum

from graph.ingest.records.directory_page import RelatedEntry, Score

STATUSES: tuple[str, ...] = (
    "In use",
    "Saturated",
    "Retired",
    "New",
    "Deprecated",
    "Superseded",
    "Archived",
)
"""The status phrases a "More in" entry may carry between its title and its summary."""

HEADING_MAX_CHARS = 120
MAX_NUMBER_CHARS = 40
MAX_COUNT_DIGITS = 18

_CLOSERS = "\"'”’»)]"
_SENTENCE_PUNCTUATION = ".!?,;…"
_NUMBER = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
_COUNT = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
# A sentence end (. ? or ! with at most one closing quote or bracket, then spaces) that may
# start a new sentence: the next character is a capital, digit, quote or bracket (any
# non-ASCII character passes here; the caller checks it).
_NEW_SENTENCE = re.compile(r"[.?!][\"'”’)\]]? +(?=[A-Z0-9\"'(\[]|[^\x00-\x7f])")
# Sentence ends as plain strings, for finding the last one with str.rfind.
_SENTENCE_MARKS = tuple(p + c + " " for p in ".?!" for c in ("", *_CLOSERS))
# A status phrase as whole words after at least one word of title. Its first letter is
# matched as written (statuses are sentence case), the rest in any case.
_STATUS = re.compile(
    r"(?<=\s)(?:"
    + "|".join(
        re.escape(s[0]) + "(?i:" + r"\s+".join(re.escape(w) for w in s[1:].split(" ")) + ")"
        for s in STATUSES
    )
    + r")(?!\S)"
)
# A word all in lower-case ASCII letters (hyphens and apostrophes allowed), as a whole word.
_LOWER_WORD = re.compile(r"(?<!\S)[a-z][a-z'’-]*[,;:]?(?!\S)")

_AUTHORS_HEADINGS = frozenset({"in the authors' words", "in the author's words"})


class Heading(Enum):
    """The sections of a directory page the importer knows."""

    AUTHORS = "authors_words"
    NO_SCORES = "no_scores"
    SCORES = "scores"
    MODEL_CARDS = "model_cards"
    MORE_IN = "related"


TITLE_LOOKALIKES = frozenset({Heading.AUTHORS, Heading.NO_SCORES, Heading.MODEL_CARDS,
                              Heading.MORE_IN})
"""Headings that, as a page's first line, mean the page has lost its title."""


@dataclass(frozen=True, slots=True)
class Line:
    """One non-blank line of a page, classified once: its number, text and kind."""

    number: int
    text: str
    item: str | None
    """The text after ``- `` when the line is an item, else ``None``."""
    heading: Heading | None
    """The known section this line opens, if it is such a heading."""
    heading_like: bool
    """Whether the line reads as a heading (known or not)."""

    @classmethod
    def read(cls, number: int, text: str) -> "Line":
        item = item_text(text)
        if item is not None:
            return cls(number, text, item, None, False)
        heading_like = looks_like_heading(text)
        return cls(number, text, None, _heading_kind(text) if heading_like else None,
                   heading_like)


def item_text(line: str) -> str | None:
    """The text of a ``- item`` line, or ``None`` when the line is not an item."""
    if line == "-":
        return ""
    if line.startswith("- "):
        return line[2:].strip()
    return None


def looks_like_heading(line: str) -> bool:
    """Whether ``line`` reads as a heading: short, no final punctuation, not a score."""
    if not line or len(line) > HEADING_MAX_CHARS or item_text(line) is not None:
        return False
    end = line.rstrip(_CLOSERS)
    if not end or end[-1] in _SENTENCE_PUNCTUATION:
        return False
    return parse_score(line) is None


def known_heading(line: str) -> Heading | None:
    """Which known section ``line`` opens, if it is a heading of one."""
    return _heading_kind(line) if looks_like_heading(line) else None


def _heading_kind(line: str) -> Heading | None:
    key = line.replace("’", "'").replace("‘", "'").casefold().rstrip(":").strip()
    if key in _AUTHORS_HEADINGS:
        return Heading.AUTHORS
    if key == "no scores here yet":
        return Heading.NO_SCORES
    if "model card" in key:
        return Heading.MODEL_CARDS
    if key.startswith("more in "):
        return Heading.MORE_IN
    if {word.strip("()[],.:;\"'") for word in key.split()} & {"score", "scores"}:
        return Heading.SCORES
    return None


def category_of(heading: str) -> str:
    """The category named by a "More in CATEGORY" heading, as written."""
    return heading.strip()[len("more in "):].rstrip(":").strip()


def parse_score(text: str, *, need_percent: bool = False) -> Score | None:
    """``MODEL VALUE[%]`` as a score, or ``None`` when ``text`` is not one."""
    parts = text.rsplit(None, 1)
    if len(parts) != 2:
        return None
    model, number = parts
    unit: str | None = None
    if number == "%":
        parts = model.rsplit(None, 1)
        if len(parts) != 2:
            return None
        model, number = parts
        unit = "percent"
    elif number.endswith("%"):
        number, unit = number[:-1], "percent"
    if need_percent and unit is None:
        return None
    if len(number) > MAX_NUMBER_CHARS or not _NUMBER.fullmatch(number):
        return None
    model = model.rstrip(" \t:–—").strip()
    if not model:
        return None
    return Score(model=model, value=Decimal(number.replace(",", "")), unit=unit)


def split_access(paragraph: str) -> tuple[str | None, str | None]:
    """The access paragraph as (the "Access needs …" sentence, the rest of it).

    A paragraph that does not open with "Access needs" is all note. The sentence ends at
    the first ``.``, ``?`` or ``!`` outside brackets followed by a space and a capital,
    digit or quote, so neither "e.g. a course" nor "(e.g. CITI)" ends it.
    """
    if not paragraph.casefold().startswith("access needs"):
        return None, paragraph
    depth = counted = 0
    for match in _NEW_SENTENCE.finditer(paragraph):
        before = paragraph[counted:match.start()]
        depth, counted = depth + before.count("(") - before.count(")"), match.start()
        after = paragraph[match.end():match.end() + 1]
        if depth <= 0 and after and (after.isupper() or after.isdigit() or after in "\"'“‘(["):
            return paragraph[:match.end()].rstrip(), paragraph[match.end():].strip() or None
    return paragraph, None


def survey_counts(statement: str) -> tuple[int | None, int | None]:
    """(launch posts, labs) from "… of 522 launch posts from 52 labs …", each if stated."""
    words = statement.split()
    launch_posts = labs = None
    for index in range(len(words) - 1):
        following = words[index + 1].casefold().strip(".,;:)")
        if following == "launch" and launch_posts is None:
            after = words[index + 2].casefold() if index + 2 < len(words) else ""
            if after.startswith("post"):
                launch_posts = _count(words[index])
        elif following in ("lab", "labs") and labs is None:
            after = words[index + 2].casefold() if index + 2 < len(words) else ""
            if not after.startswith(("model", "card")):
                labs = _count(words[index])
    return launch_posts, labs


def _count(word: str) -> int | None:
    word = word.strip("(")
    if len(word) > MAX_COUNT_DIGITS or not _COUNT.fullmatch(word):
        return None
    return int(word.replace(",", ""))


def parse_related(text: str) -> tuple[RelatedEntry | None, str | None]:
    """A "More in" entry ``TITLE STATUS SUMMARY [MODEL VALUE%]``, and a warning if any.

    The status is the first phrase of ``STATUSES`` after at least one word of title. The
    top score on the same line is a ``MODEL VALUE%`` after the summary's last sentence end.
    With no status, the title is guessed: it ends one word before the first all-lower-case
    word (which is then the summary's second word, as in "KBL Models answer …").
    """
    if not text:
        return None, "an empty entry"
    body, top_score = _split_top_score(text)
    match = _STATUS.search(body)
    if match:
        title = body[:match.start()].strip()
        summary = body[match.end():].strip() or None
        entry = RelatedEntry(title=title, status=match.group(), summary=summary,
                             top_score=top_score)
        return entry, None
    title, summary = _guess_title(body)
    warning = (f"no known status ({', '.join(STATUSES)}) after the title; "
               f"took {quote(title)} as the title")
    return RelatedEntry(title=title, summary=summary, top_score=top_score), warning


def _split_top_score(text: str) -> tuple[str, Score | None]:
    end = max(
        (found + len(mark) for mark in _SENTENCE_MARKS if (found := text.rfind(mark)) >= 0),
        default=-1,
    )
    if end < 0:
        return text, None
    score = parse_score(text[end:], need_percent=True)
    if score is None:
        return text, None
    return text[:end].rstrip(), score


def _guess_title(body: str) -> tuple[str, str | None]:
    match = _LOWER_WORD.search(body)
    if match:
        parts = body[:match.start()].rstrip().rsplit(None, 1)
        if len(parts) == 2:
            return parts[0], body[len(parts[0]):].strip()
    return body, None


def quote(text: str, limit: int = 60) -> str:
    """``text`` in quotes for a message, cut short when long."""
    return repr(text if len(text) <= limit else text[:limit] + "…")

