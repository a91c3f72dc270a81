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
"""

from __future__ import annotations

import re
import unicodedata

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


__all__ = ["TYPO_MIN_LENGTH", "deletions", "fold", "name_key", "typo_candidate",
           "within_one_edit", "words"]
