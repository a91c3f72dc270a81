"""Words and names as the index compares them, and the one-typo rule.

A name and a query meet on their *key*: Unicode NFKD with combining marks dropped, lower
case, each run of characters that are not letters or digits one space (``MIMIC-RRS
(MedHELM)`` -> ``mimic rrs medhelm``; the catalog id ``mimic_rrs`` -> ``mimic rrs``). That
is the slug rule of IRIs (``graph.slug``) with spaces, except that every script's letters
count, not only ASCII ones, and it splits words as SQLite's ``unicode61`` tokenizer with
``remove_diacritics 2`` does, so the words of a query are the words the full-text index holds.

One typo is one edit: a letter inserted, dropped, changed, or two neighbours swapped
(optimal string alignment distance 1). Candidates come from a *deletion neighbourhood*
(each word of the index is stored under itself and under every form with one letter
dropped; a query word looks up the same forms of itself): two words within one edit always
share a form, so the lookup is a handful of index probes whatever the vocabulary's size, and
``within_one_edit`` then keeps only the true neighbours. A trigram table would find the same
words but needs a count over every word sharing a trigram, and trigrams of short words
(most names) say little.

Word breaks are a writer's choice: ``HumanEval`` and ``human eval``, ``GSM8K`` and ``gsm 8k``,
``HellaSwag`` and ``hella swag`` are one name. So, as search engines treat compound words
(a name's words also indexed catenated; a query's neighbouring words also read as one, as
shingles with no separator), a name is also matched by its *joined key*, its key with the
spaces dropped (``joined``), and a query's words are also read with a run of neighbours
written as one word (``joinings``). Only the key of a name of several words is stored joined
(a one-word key is its own joined key), and a query is joined whole against names and by
runs of at most ``MAX_JOINED`` words against the words of the text, so neither the index nor
a query grows with the ways a text could be split.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

_WORD = re.compile(r"[^\W_]+")

TYPO_MIN_LENGTH = 4
"""Words shorter than this are matched as typed: one edit to a three-letter word makes
another real word too often (``rrs`` -> ``rss``, ``bbh`` -> ``bbq``)."""


def fold(text: str) -> str:
    """``text`` without combining marks, in lower case."""
    if not text.isascii():
        decomposed = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return text.lower()


def words(text: str) -> list[str]:
    """The words of ``text``, folded, in order."""
    return _WORD.findall(fold(text))


def name_key(text: str) -> str:
    """The key a name is matched by: its words joined by single spaces."""
    return " ".join(words(text))


def joined(key: str) -> str:
    """``key`` with its word breaks dropped: ``human eval`` -> ``humaneval``."""
    return key.replace(" ", "")


MAX_JOINED = 3
"""The most neighbouring words a query's word is read as joined from, in its text: a
compound split by the person typing is rarely split more often (``gsm 8 k``), and the readings
of a query of ``n`` words stay under ``2n``."""


def joinings(query: Sequence[str]) -> list[list[str]]:
    """The readings of ``query`` (its words) with one run of two to ``MAX_JOINED`` adjacent
    words written as one: ``human eval set`` -> ``humaneval set``, ``human evalset``,
    ``humanevalset``."""
    return [[*query[:start], "".join(query[start:end]), *query[end:]]
            for start in range(len(query))
            for end in range(start + 2, min(start + MAX_JOINED, len(query)) + 1)]


def deletions(word: str) -> set[str]:
    """``word`` and every form of it with one character dropped."""
    return {word} | {word[:i] + word[i + 1:] for i in range(len(word))}


def within_one_edit(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by at most one insertion, deletion, substitution or swap of
    two neighbouring characters."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    if len(a) < len(b):  # one insertion at i
        return a[i:] == b[i + 1:]
    if a[i + 1:] == b[i + 1:]:  # one substitution at i
        return True
    return a[i + 2:] == b[i + 2:] and a[i:i + 2] == b[i:i + 2][::-1]  # a swap at i


def typo_candidate(word: str) -> bool:
    """Whether a word may be read with one typo: long enough, and not a number."""
    return len(word) >= TYPO_MIN_LENGTH and not word.isdigit()


__all__ = ["MAX_JOINED", "TYPO_MIN_LENGTH", "deletions", "fold", "joined", "joinings",
           "name_key", "typo_candidate", "within_one_edit", "words"]
