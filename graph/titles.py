"""Two titles of one paper, told apart from two papers' titles.

A title is compared as its words: case, accents, braces and punctuation do not count, so a
BibTeX title (``{BERT}: Pre-training of Deep {B}idirectional ...``) agrees with the same title
on arXiv. A title cut where a line wrapped, or written without its subtitle, agrees with the
whole when it keeps at least ``SHORTEST_CUT`` words. The harvest checks a harness's citations
with it (``graph.ingest.harvest.bibtex``), and the matching joins two entries that cite one
paper by it (``graph.mapping.matching``).
"""

import re
import unicodedata

SHORTEST_CUT = 3
"""The fewest words a title cut short must keep to agree with the whole."""
_WORD = re.compile(r"\w+")


def same_title(one: str, other: str) -> bool:
    """Whether two titles are one: the same words, or one the other's first words (at least
    ``SHORTEST_CUT``), as a title cut at a line break or without its subtitle is."""
    a, b = title_words(one), title_words(other)
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= SHORTEST_CUT and long[: len(short)] == short


def title_words(title: str) -> list[str]:
    """The words of ``title``, case-folded and without their accents."""
    folded = unicodedata.normalize("NFKD", title.casefold())
    return _WORD.findall("".join(c for c in folded if not unicodedata.combining(c)))
