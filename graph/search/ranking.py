"""Searching the index: the ranking rule.

A hit's tier is the best way it matches, in this order (``results.MATCHES``):

1. **exact**: the query's key is one of its names' keys (a name, an alias, its catalog id,
   a notation, an arXiv id; ``graph.search.text.name_key``);
2. **prefix**: a name's key starts with the query's key;
3. **text**: every word of the query is in its names, aliases, tags or summary (the last
   word, from three letters, as a prefix: a query still being typed), by FTS5;
4. **typo name**, 5. **typo text**: as 1-2 and 3, with each word of four letters or more read
   as itself or as any word of the index one edit away from it.

Within a tier: benchmarks first (catalogued ones, then those known only by reference), then
organisations, people, papers, models, harnesses, suites, tags, categories
(``graph.search.entities.KINDS``); then relevance (for a name, the shorter name first, as
the closer match; for text, BM25 with a word in a name weighing 10, in an alias 5, in a tag
3, in the summary 1); then the label, then the IRI, so equal hits always come in one order.

Everything but the snippets is one SQL statement, so the ranking, the total and the page
come from SQLite in one pass, whatever the number of hits.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Sequence

from graph.search.index import MARK_END, MARK_START
from graph.search.results import MATCHES, Fragment, SearchError, SearchHit, SearchResults
from graph.search.text import deletions, typo_candidate, within_one_edit, words

MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 12
MAX_LIMIT = 100
PREFIX_MIN_CHARS = 3
"""A last word shorter than this is matched in text as a whole word only: ``a*`` would be
nearly every document (12,000 of 22,800 at 10,000 records, 230 ms to rank)."""
_MAX_SPELLINGS = 32
"""Readings of a query with typos tried as names, at most (all of them as text)."""
_HIGH = "\U0010ffff"
_WEIGHTS = "10.0, 5.0, 3.0, 1.0"  # names, aliases, tags, summary: constants, not input
_SNIPPET_WORDS = 24
_TEXT_TIERS = (2, 4)
"""Tiers found by text: their snippets show the words found; a hit by name shows the start
of its summary instead (its name is its label already)."""

_RANKED = f"""
WITH hit(entity, tier, relevance) AS (
  SELECT entity, 0, 0.0 FROM name WHERE key = :key
  UNION ALL
  SELECT entity, 1, length(key) FROM name WHERE key > :key AND key < :key || '{_HIGH}'
  UNION ALL
  SELECT rowid, 2, bm25(text, {_WEIGHTS}) FROM text WHERE text MATCH :text
  UNION ALL
  SELECT n.entity, 3, length(n.key) FROM json_each(:spellings) AS s
    JOIN name AS n ON n.key >= s.value AND n.key < s.value || '{_HIGH}'
  UNION ALL
  SELECT rowid, 4, bm25(text, {_WEIGHTS}) FROM text WHERE text MATCH :typo_text
),
best AS (
  SELECT entity, min(tier * 1e9 + relevance) AS ranked, tier, relevance FROM hit GROUP BY entity
)
SELECT e.id, e.iri, e.label, e.kind, e.summary, best.tier, best.relevance,
       count(*) OVER () AS total
FROM best JOIN entity AS e ON e.id = best.entity
ORDER BY best.tier, e.rank, best.relevance, e.label_key, e.iri
LIMIT :limit OFFSET :offset
"""
_SNIPPETS = f"""
SELECT rowid, snippet(text, -1, '{MARK_START}', '{MARK_END}', '…', {_SNIPPET_WORDS})
FROM text WHERE text MATCH :text AND rowid IN (SELECT value FROM json_each(:ids))
"""
_NO_MATCH = '""'
"""An FTS5 query that matches nothing (the empty phrase)."""


def search(db: sqlite3.Connection, text: str, limit: int = 20, offset: int = 0) -> SearchResults:
    """The hits of ``text``, ranked, ``limit`` of them from ``offset``; SearchError for a
    query too long to mean anything, or a bad page. No words, no hits."""
    _check(text, limit, offset)
    query = words(text)
    if not query:
        return SearchResults(text, (), 0, limit, offset)
    spellings = _spellings(db, query)
    typo_words = [sorted(options) for options in spellings]
    readings = [" ".join(combo) for combo in itertools.islice(
        itertools.product(*typo_words), _MAX_SPELLINGS)]
    key = " ".join(query)
    typo_text = _fts(typo_words) if any(len(o) > 1 for o in typo_words) else _NO_MATCH
    rows = db.execute(_RANKED, {
        "key": key, "text": _fts([[word] for word in query]),
        "spellings": json.dumps([r for r in readings if r != key]),
        "typo_text": typo_text, "limit": limit, "offset": offset,
    }).fetchall()
    # past the last hit, the window gives no row to read the total from
    total = rows[0][7] if rows else search(db, text, 1, 0).total if offset else 0
    snippets = _snippets(db, [row for row in rows if row[5] in _TEXT_TIERS],
                         _fts(typo_words) if typo_text != _NO_MATCH
                         else _fts([[w] for w in query]))
    hits = tuple(
        SearchHit(iri=iri, label=label, kind=kind, summary=summary,
                  snippet=snippets.get(number) or _opening(summary),
                  match=MATCHES[tier], score=_score(tier, relevance, len(key)))
        for number, iri, label, kind, summary, tier, relevance, _ in rows
    )
    return SearchResults(text, hits, total, limit, offset)


def _check(text: str, limit: int, offset: int) -> None:
    if len(text) > MAX_QUERY_CHARS:
        raise SearchError(f"a search is at most {MAX_QUERY_CHARS} characters; this one has "
                          f"{len(text):,}")
    if len(words(text)) > MAX_QUERY_WORDS:
        raise SearchError(f"a search is at most {MAX_QUERY_WORDS} words; this one has "
                          f"{len(words(text))}")
    if not 1 <= limit <= MAX_LIMIT:
        raise SearchError(f"the number of hits a page shows is 1 to {MAX_LIMIT}, not {limit}")
    if offset < 0:
        raise SearchError(f"a page starts at hit 0 or later, not {offset}")


def _spellings(db: sqlite3.Connection, query: Sequence[str]) -> list[set[str]]:
    """Each word of the query with the words of the index one edit from it."""
    found = []
    for word in query:
        options = {word}
        if typo_candidate(word):
            keys = json.dumps(sorted(deletions(word)))
            near = db.execute("SELECT DISTINCT word FROM neighbour WHERE key IN "
                              "(SELECT value FROM json_each(?))", (keys,))
            options.update(other for (other,) in near if within_one_edit(word, other))
        found.append(options)
    return found


def _fts(options: Sequence[Sequence[str]]) -> str:
    """An FTS5 query: every word (any of its options), the last as a prefix when it has
    ``PREFIX_MIN_CHARS`` or more. Each word is quoted as an FTS5 string, so nothing in it is
    read as FTS5 syntax."""
    groups = []
    for position, group in enumerate(options):
        last = position == len(options) - 1
        terms = " OR ".join(
            f'"{word.replace(chr(34), chr(34) * 2)}"'
            + ("*" if last and len(word) >= PREFIX_MIN_CHARS else "") for word in group)
        groups.append(f"({terms})")
    return " AND ".join(groups)


def _snippets(db: sqlite3.Connection, rows: list[tuple[object, ...]],
              match: str) -> dict[int, tuple[Fragment, ...]]:
    ids = json.dumps([row[0] for row in rows])
    found = db.execute(_SNIPPETS, {"text": match, "ids": ids}).fetchall()
    return {number: _fragments(text) for number, text in found if MARK_START in text}


def _fragments(marked: str) -> tuple[Fragment, ...]:
    """FTS5's marked snippet as plain and matched pieces."""
    pieces: list[Fragment] = []
    for chunk in marked.split(MARK_START):
        found, _, rest = chunk.partition(MARK_END) if MARK_END in chunk else ("", "", chunk)
        if found:
            pieces.append(Fragment(found, match=True))
        if rest:
            pieces.append(Fragment(rest))
    return tuple(pieces)


def _opening(summary: str) -> tuple[Fragment, ...]:
    """The start of a summary, for a hit found by name."""
    cut = summary if len(summary) <= 200 else summary[:200].rsplit(" ", 1)[0] + " …"
    return (Fragment(cut),) if cut else ()


def _score(tier: int, relevance: float, key_length: int) -> float:
    if tier == 0:
        return 1.0
    if tier in (1, 3):
        return key_length / relevance if relevance else 0.0
    return -relevance


__all__ = ["MAX_LIMIT", "MAX_QUERY_CHARS", "MAX_QUERY_WORDS", "search"]
