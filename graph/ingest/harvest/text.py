"""Text as the harnesses write it: short descriptions, arXiv references, a README's title.

Only facts and short descriptions are harvested, never a paper's abstract: a description is
its first paragraph, and when that is long, the whole sentences of it that fit in
``DESCRIPTION_LIMIT`` characters. Nothing is reworded; runs of white space become one space.
"""

import re

from graph.ingest.records.identifiers import ARXIV_ID

DESCRIPTION_LIMIT = 500
"""The longest description kept, in characters (the harnesses' own are mostly 100-300)."""

_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
_ARXIV_REFERENCE = re.compile(
    r"(?:(?i:arxiv\.org/(?:abs|pdf|html)/)|(?i:huggingface\.co/papers/)|(?i:arxiv:)\s*)"
    r"(?P<id>" + ARXIV_ID.pattern + ")"
)
"""An arXiv link, ``arXiv:ID``, or a Hugging Face paper page (which is named by the paper's
arXiv id)."""
_VERSION = re.compile(r"v\d+$")
_HEADING = re.compile(r"^#[ \t]+(.*?)[ \t#]*$", re.MULTILINE)


def short_description(text: str | None) -> str | None:
    """The first paragraph of ``text``, cut to whole sentences within the limit; a single
    sentence longer than the limit is cut at a word and ends with ``…``. ``None`` for none."""
    if not text or not text.strip():
        return None
    first = " ".join(_PARAGRAPH_BREAK.split(text.strip(), maxsplit=1)[0].split())
    if len(first) <= DESCRIPTION_LIMIT:
        return first
    kept = ""
    for sentence in _SENTENCE_END.split(first):
        longer = f"{kept} {sentence}" if kept else sentence
        if len(longer) > DESCRIPTION_LIMIT:
            break
        kept = longer
    if kept:
        return kept
    return first[: DESCRIPTION_LIMIT - 1].rsplit(" ", 1)[0] + "…"


def arxiv_ids(text: str) -> list[str]:
    """Every arXiv id that ``text`` links or cites (``arxiv.org/abs/…``, ``/pdf/…``,
    ``arXiv:…``), without its version, once each, in order of first mention."""
    found: dict[str, None] = {}
    for match in _ARXIV_REFERENCE.finditer(text):
        found.setdefault(_VERSION.sub("", match.group("id")))
    return list(found)


def arxiv_id(reference: str) -> str | None:
    """The arXiv id of one reference: a link, ``arXiv:…`` or a bare id; ``None`` otherwise."""
    bare = reference.strip()
    if ARXIV_ID.fullmatch(bare):
        return _VERSION.sub("", bare)
    ids = arxiv_ids(bare)
    return ids[0] if len(ids) == 1 else None


def first_heading(markdown: str) -> str | None:
    """The text of a Markdown document's first level-1 heading; ``None`` when it has none or
    that heading is empty."""
    found = _HEADING.search(markdown)
    return found.group(1).strip() or None if found else None
