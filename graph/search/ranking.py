"""Searching the index: the ranking rule.

A hit's tier is the best way it matches, in this order (``results.MATCHES``):

1. **exact**: the query's key is one of its names' keys (a name, an alias, its catalog id,
   a notation, an arXiv id; ``graph.search.text.name_key``);
2. **joined**: as 1, the words of both joined (``human eval`` finds ``HumanEval``,
   ``humaneval`` finds ``Human Eval``; ``graph.search.text.joined``);
3. **prefix**: a name's key starts with the query's key;
4. **joined prefix**: as 3, the words of both joined;
5. **text**: every word of the query is in its names, aliases, tags or summary (the last
   word, from three letters, as a prefix: a query still being typed), by FTS5; or so it is
   with a run of neighbouring words of the query read as one (``hella swag`` finds a text
   with ``HellaSwag``; ``graph.search.text.joinings``);
6. **typo name**, 7. **typo text**: as 1, 3 and 5, with each word of four letters or more
   read as itself or as any word of the index one edit away from it (a query's words are
   read with a typo or joined, not both: the readings would multiply).

A match with the words joined comes right after the same match with the words as typed, so
it never ranks above a name the query spells out. A query of one word has no neighbours to
join: what it gains is the names it equals or starts once *their* words are joined
(``hellaswag`` finds ``Hella Swag``).

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
from dataclasses import dataclass

from graph.search.index import MARK_END, MARK_START
from graph.search.results import MATCHES, Fragment, SearchError, SearchHit, SearchResults
from graph.search.text import (
    deletions,
    joined,
    joinings,
    typo_candidate,
    within_one_edit,
    words,
)

MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 12
MAX_LIMIT = 100
PREFIX_MIN_CHARS = 3
"""A last word shorter than this is matched in text as a whole word only: ``a*`` would be
nearly every document, all of them to rank (perf/decisions/search-short-prefix.md)."""
_MAX_SPELLINGS = 32
"""Readings of a query with typos tried as names, at most (all of them as text)."""
_HIGH = "\U0010ffff"
_WEIGHTS = "10.0, 5.0, 3.0, 1.0"  # names, aliases, tags, summary: constants, not input
_SNIPPET_WORDS = 24
_TEXT_TIERS = (4, 6)
"""Tiers found by text: their snippets show the words found; a hit by name shows the start
of its summary instead (its name is its label already)."""

_RANKED = f"""
WITH hit(entity, tier, relevance) AS (
  SELECT entity, 0, 0.0 FROM name WHERE key = :key
  UNION ALL
  SELECT entity, 1, 0.0 FROM name WHERE key = :joined_name
  UNION ALL
  SELECT entity, 1, 0.0 FROM joined WHERE key = :joined
  UNION ALL
  SELECT entity, 2, length(key) FROM name WHERE key > :key AND key < :key || '{_HIGH}'
  UNION ALL
  SELECT entity, 3, length(replace(key, ' ', '')) FROM name
    WHERE key > :joined_name AND key < :joined_name || '{_HIGH}'
  UNION ALL
  SELECT entity, 3, length(key) FROM joined WHERE key > :joined AND key < :joined || '{_HIGH}'
  UNION ALL
  SELECT rowid, 4, bm25(text, {_WEIGHTS}) FROM text WHERE text MATCH :text
  UNION ALL
  SELECT n.entity, 5, length(n.key) FROM json_each(:spellings) AS s
    JOIN name AS n ON n.key >= s.value AND n.key < s.value || '{_HIGH}'
  UNION ALL
  SELECT rowid, 6, bm25(text, {_WEIGHTS}) FROM text WHERE text MATCH :typo_text
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
    read = _read(db, query)
    rows = db.execute(_RANKED, read.parameters() | {"limit": limit, "offset": offset}).fetchall()
    # past the last hit, the window gives no row to read the total from
    total = rows[0][7] if rows else search(db, text, 1, 0).total if offset else 0
    snippets = _snippets(db, [row for row in rows if row[5] in _TEXT_TIERS], read.marked())
    hits = tuple(
        SearchHit(iri=iri, label=label, kind=kind, summary=summary,
                  snippet=snippets.get(number) or _opening(summary),
                  match=MATCHES[tier], score=read.score(tier, relevance))
        for number, iri, label, kind, summary, tier, relevance, _ in rows
    )
    return SearchResults(text, hits, total, limit, offset)


@dataclass(frozen=True)
class _Read:
    """A query's words as each tier looks them up."""

    words: tuple[str, ...]
    spellings: tuple[str, ...]
    """Its readings with typos (the words as typed left out), as names' keys."""
    text: str
    """The FTS5 query of its words as typed, or with a run of them joined."""
    typo_text: str
    """As ``text``, its words as typed read with typos too; ``_NO_MATCH`` when none has one."""

    @property
    def key(self) -> str:
        return " ".join(self.words)

    @property
    def joined(self) -> str:
        return joined(self.key)

    def parameters(self) -> dict[str, object]:
        """``_RANKED``'s parameters but the page."""
        return {
            "key": self.key, "joined": self.joined,
            # a one-word query's joined key is its key: the tiers by key find its names
            "joined_name": self.joined if len(self.words) > 1 else None,
            "text": self.text, "spellings": json.dumps(self.spellings),
            "typo_text": self.typo_text,
        }

    def marked(self) -> str:
        """The FTS5 query whose words a snippet marks: every word a text tier found."""
        return self.text if self.typo_text == _NO_MATCH else self.typo_text

    def score(self, tier: int, relevance: float) -> float:
        """``SearchHit.score`` of a hit of ``tier`` with ``relevance``."""
        if tier <= 1:
            return 1.0
        if tier in (2, 3, 5):
            typed = len(self.joined if tier == 3 else self.key)
            return typed / relevance if relevance else 0.0
        return -relevance


def _read(db: sqlite3.Connection, query: list[str]) -> _Read:
    typo_words = [sorted(options) for options in _spellings(db, query)]
    readings = [" ".join(combo) for combo in itertools.islice(
        itertools.product(*typo_words), _MAX_SPELLINGS)]
    key = " ".join(query)
    joins = [[[word] for word in reading] for reading in joinings(query)]
    typed = _any([[[word] for word in query], *joins])
    typos = _any([typo_words, *joins]) if any(len(o) > 1 for o in typo_words) else _NO_MATCH
    return _Read(tuple(query), tuple(reading for reading in readings if reading != key), typed,
                 typos)


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


def _any(readings: Sequence[Sequence[Sequence[str]]]) -> str:
    """An FTS5 query of any of ``readings``, each as ``_fts`` reads it."""
    if len(readings) == 1:
        return _fts(readings[0])
    return " OR ".join(f"({_fts(reading)})" for reading in readings)


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


__all__ = ["MAX_LIMIT", "MAX_QUERY_CHARS", "MAX_QUERY_WORDS", "search"]
