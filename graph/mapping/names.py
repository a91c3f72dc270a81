"""The forms a written name stands for, compared as slugs: the name, and for ``Name (ABBR)``
the name before the bracket and the abbreviation (``graph.mapping.identity`` holds the rule
that uses them)."""

import re
from functools import lru_cache

from graph.slug import node_key, slugify

# "Name (SHORT)" at the very end: SHORT one word of 2-16 characters, no nested bracket.
_TRAILING_SHORT_FORM = re.compile(r"(?P<name>.*?\S)\s*\((?P<short>[^\s()]{2,16})\)\s*")
_ALPHANUMERIC = re.compile(r"[^\W_]")


def split_abbreviation(title: str) -> tuple[str, str] | None:
    """``(name, abbreviation)`` when ``title`` ends in a bracketed abbreviation, else None.

    An abbreviation is one bracketed word at the end (2-16 characters, no space) that holds
    an upper-case letter and is short for the name before it: its letters and digits occur
    in the name in order, the first at the start of a word (the test of Schwartz and Hearst,
    2003). So ``BIG-Bench Hard (BBH)`` and ``Humanity's Last Exam (HLE)`` split;
    ``MIMIC-CXR (classification)``, ``MIMIC-RRS (MedHELM)``, ``AIME (2025)`` and
    ``GPT-5 (high)`` do not: a bracket that only qualifies the name stays part of it.
    """
    match = _TRAILING_SHORT_FORM.fullmatch(title)
    if match is None:
        return None
    name, short = match.group("name"), match.group("short")
    if not any(char.isupper() for char in short) or not _is_short_for(short, name):
        return None
    return name, short


def _is_short_for(short: str, name: str) -> bool:
    """Whether ``short``'s letters and digits occur in ``name`` in order, matched from the
    end, the first of them at the start of a word of ``name``."""
    letters = _ALPHANUMERIC.findall(short.lower())
    text = name.lower()
    if not letters or len(letters) >= len(_ALPHANUMERIC.findall(text)):
        return False
    end = len(text)
    for index in range(len(letters) - 1, -1, -1):
        found = text.rfind(letters[index], 0, end)
        while index == 0 and found > 0 and _ALPHANUMERIC.match(text[found - 1]):
            found = text.rfind(letters[index], 0, found)
        if found < 0:
            return False
        end = found
    return True


@lru_cache(maxsize=65536)  # one title is resolved once per page that lists it
def forms(written: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The slugs a written name stands for: (as names, as aliases). ``BIG-Bench Hard (BBH)``
    -> ``(("big_bench_hard_bbh", "big_bench_hard"), ("bbh",))``."""
    split = split_abbreviation(written)
    if split is None:
        return (slugify(written),), ()
    return (slugify(written), slugify(split[0])), (slugify(split[1]),)


def own_id(title: str) -> str:
    """The id of a benchmark named ``title`` that no other record claims: the slug of its
    name, the abbreviation dropped (``BIG-Bench Hard (BBH)`` -> ``big_bench_hard``)."""
    split = split_abbreviation(title)
    return node_key(title if split is None else split[0])
