"""The index file: written once from a build, read-only ever after.

One SQLite file (``INDEX_FILE``) in the store's generation folder, beside the graph it
indexes, so the manifest's switch to a new generation switches both at once. It holds:

- ``entity``, ``name``, ``joined`` (the joined keys of names of several words),
  ``text`` (FTS5, ``unicode61`` words without diacritics) and ``neighbour`` (the one-typo
  lookup): what a search reads (``graph.search.text``);
- ``bench``, ``facet_value`` and ``membership``: the benchmark list and its facets
  (``graph.search.facets``); each facet has one more value, ``NOT_STATED``, whose members
  are the benchmarks with none of its values (it has no ``membership`` rows: it is no value
  a benchmark states);
- ``meta``: the format of the file and the base IRI it was built with.

SQLite and its FTS5 come with Python's standard library (``sqlite3``; FTS5 is compiled into
the SQLite that CPython's builds ship, checked here by ``fts5_available``). The file is
written with journalling and syncing off: it is complete, or its generation folder is
removed, before any reader can see it (``graph.store.disk``).
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import closing
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import TypeVar
from urllib.request import pathname2url

import numpy as np
import pyoxigraph as ox

from graph.errors import BenchgraphError, ErrorKind
from graph.search import bits
from graph.search.entities import Entity, entities
from graph.search.extract import Facts
from graph.search.facets import (
    FACETS,
    NOT_STATED,
    NOT_STATED_LABEL,
    SORTS,
    BenchmarkRow,
    benchmark_rows,
)
from graph.search.text import deletions, fold, name_key
from graph.system.gc_pause import gc_paused

INDEX_FILE = "search.sqlite"
FORMAT = "3"
MARK_START, MARK_END = "\x02", "\x03"
"""What FTS5 puts around a word it found in a snippet; never in the indexed text."""
ENTITIES_AT_A_TIME = 10_000
"""How many entities' rows ``insert_entities`` holds and inserts at a time."""
_T = TypeVar("_T")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entity (id INTEGER PRIMARY KEY, iri TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
  rank INTEGER NOT NULL, label TEXT NOT NULL, label_key TEXT NOT NULL, summary TEXT NOT NULL);
CREATE TABLE name (key TEXT NOT NULL, entity INTEGER NOT NULL,
  PRIMARY KEY (key, entity)) WITHOUT ROWID;
CREATE TABLE joined (key TEXT NOT NULL, entity INTEGER NOT NULL,
  PRIMARY KEY (key, entity)) WITHOUT ROWID;
CREATE VIRTUAL TABLE text USING fts5(names, aliases, tags, summary,
  tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE neighbour (key TEXT NOT NULL, word TEXT NOT NULL,
  PRIMARY KEY (key, word)) WITHOUT ROWID;
CREATE TABLE bench (id INTEGER PRIMARY KEY, iri TEXT NOT NULL UNIQUE,
  identifier TEXT NOT NULL, label TEXT NOT NULL, label_key TEXT NOT NULL,
  summary TEXT NOT NULL, released TEXT NOT NULL, released_key TEXT, updated TEXT NOT NULL,
  updated_record TEXT NOT NULL, catalogued INTEGER NOT NULL, results INTEGER NOT NULL);
CREATE TABLE facet_value (id INTEGER PRIMARY KEY, facet TEXT NOT NULL, key TEXT NOT NULL,
  term TEXT NOT NULL, label TEXT NOT NULL, label_key TEXT NOT NULL, count INTEGER NOT NULL,
  members BLOB NOT NULL, UNIQUE (facet, key));
CREATE TABLE membership (bench INTEGER NOT NULL, value INTEGER NOT NULL,
  PRIMARY KEY (bench, value)) WITHOUT ROWID;
CREATE TABLE bench_order (sort TEXT PRIMARY KEY, numbers BLOB NOT NULL);
"""


class SearchIndexError(BenchgraphError):
    """An index file that cannot be read (missing, or written by another version)."""

    kind = ErrorKind.STORE


@dataclass(frozen=True)
class IndexFigures:
    """What an index holds: to report and to test."""

    entities: int
    names: int
    joined: int
    """Joined keys (``graph.search.text.joined``) of names of several words."""
    words: int
    benchmarks: int
    facet_values: int


def fts5_available() -> bool:
    """Whether this Python's SQLite has FTS5."""
    with sqlite3.connect(":memory:") as db:
        try:
            db.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
        except sqlite3.OperationalError:
            return False
    return True


def write_index(path: Path, store: ox.Store, base: str) -> IndexFigures:
    """Write the index of ``store``'s graph (built with ``base``) to the new file ``path``."""
    with gc_paused(), closing(sqlite3.connect(path)) as db:
        facts = Facts(store)
        db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;" + _SCHEMA)
        db.executemany("INSERT INTO meta VALUES (?, ?)", [("format", FORMAT), ("base", base)])
        entity_count, names, words = _write_search(db, facts)
        benchmarks, values = _write_browse(db, facts, base)
        db.execute("INSERT INTO text (text) VALUES ('optimize')")
        db.commit()
        db.execute("ANALYZE")
        db.commit()
        (joined,) = db.execute("SELECT count(*) FROM joined").fetchone()
    return IndexFigures(entity_count, names, joined, words, benchmarks, values)


EntityRow = tuple[int, str, str, int, str, str, str]
KeyRow = tuple[str, int]
TextRow = tuple[int, str, str, str, str]
ValueRow = tuple[int, str, str, str, str, str]
"""A facet value's row of ``facet_value`` but its count and members."""


@dataclass(frozen=True)
class EntityRows:
    """One entity's rows: of ``entity``, ``name``, ``joined`` and ``text``."""

    entity: EntityRow
    names: list[KeyRow]
    joined: list[KeyRow]
    text: TextRow


def entity_rows(number: int, entity: Entity) -> EntityRows:
    """The rows of ``entity``, numbered ``number``."""
    row = (number, entity.iri, entity.kind, entity.rank, entity.label, fold(entity.label),
           entity.summary)
    text = (number, _listed(entity.names), _listed(entity.aliases), _listed(entity.tags),
            _clean(entity.summary))
    return EntityRows(row, [(key, number) for key in sorted(entity.keys)],
                      [(key, number) for key in sorted(entity.joined_keys)], text)


def insert_entities(db: sqlite3.Connection, numbered: Iterable[tuple[int, Entity]]
                    ) -> tuple[int, int]:
    """Insert these entities' rows, ``ENTITIES_AT_A_TIME`` entities at a time; returns how
    many entities there were and how many names they have. Only a run's rows and entities
    are held at once, not every entity's (perf/decisions/search-index-arrays.md)."""
    count = names_count = 0
    for run in _runs(numbered):
        rows: list[EntityRow] = []
        names: list[KeyRow] = []
        joined: list[KeyRow] = []
        texts: list[TextRow] = []
        for number, entity in run:
            own = entity_rows(number, entity)
            rows.append(own.entity)
            names += own.names
            joined += own.joined
            texts.append(own.text)
        db.executemany("INSERT INTO entity VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        db.executemany("INSERT INTO name VALUES (?, ?)", names)
        db.executemany("INSERT INTO joined VALUES (?, ?)", joined)
        db.executemany("INSERT INTO text (rowid, names, aliases, tags, summary) "
                       "VALUES (?, ?, ?, ?, ?)", texts)
        count += len(run)
        names_count += len(names)
    return count, names_count


def vocabulary(db: sqlite3.Connection) -> set[str]:
    """The words of ``text`` a one-typo lookup may land on (``neighbour``'s words)."""
    db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocabulary "
               "USING fts5vocab(main, text, row)")
    return {word for (word,) in db.execute("SELECT term FROM temp.vocabulary")
            if len(word) >= 3 and not word.isdigit()}


def neighbour_rows(words: Iterable[str]) -> Iterator[tuple[str, str]]:
    return ((key, word) for word in words for key in deletions(word))


def _write_search(db: sqlite3.Connection, facts: Facts) -> tuple[int, int, int]:
    count, names = insert_entities(db, enumerate(entities(facts), start=1))
    words = vocabulary(db)
    db.executemany("INSERT OR IGNORE INTO neighbour VALUES (?, ?)", neighbour_rows(words))
    return count, names, len(words)


def _write_browse(db: sqlite3.Connection, facts: Facts, base: str) -> tuple[int, int]:
    """``bench``, ``membership`` (a run of ``ENTITIES_AT_A_TIME`` benchmarks at a time, as
    ``insert_entities``) and ``facet_value``; returns how many benchmarks and values (not
    counting the facets' ``NOT_STATED``)."""
    value_ids: dict[tuple[str, str], int] = {}
    values: list[ValueRow] = []
    holders: defaultdict[int, list[int]] = defaultdict(list)
    count = 0
    for run in _runs(enumerate(benchmark_rows(facts, base), start=1)):
        benches, members = [], []
        for number, row in run:
            benches.append(bench_row(number, row))
            for value in row.values:
                value_id = value_ids.get((value.facet, value.key))
                if value_id is None:
                    value_id = value_ids[value.facet, value.key] = len(values) + 1
                    values.append((value_id, value.facet, value.key, value.term, value.label,
                                   fold(value.label)))
                holders[value_id].append(number)
                members.append((number, value_id))
        db.executemany("INSERT INTO bench VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", benches)
        db.executemany("INSERT OR IGNORE INTO membership VALUES (?, ?)", members)
        count += len(run)
    db.executemany("INSERT INTO facet_value VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   ((*value, len(holders[value[0]]), bits.pack(holders[value[0]]))
                    for value in values))
    db.executemany("INSERT INTO facet_value VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   _not_stated_rows(values, holders, count))
    write_orders(db)
    db.execute("INSERT INTO meta VALUES ('benchmarks', ?)", (str(count),))
    return count, len(values)


def _not_stated_rows(values: list[ValueRow], holders: Mapping[int, list[int]], count: int
                    ) -> Iterator[tuple[int, str, str, str, str, str, int, bytes]]:
    """Each facet's ``NOT_STATED`` row of ``facet_value``, numbered after ``values``: its
    members are the benchmarks, of those numbered 1 to ``count``, that hold none of the
    facet's ``values`` (``holders`` by value number)."""
    stated = {facet.name: np.zeros(count + 1, dtype=bool) for facet in FACETS}
    for number, name, *_ in values:
        stated[name][holders[number]] = True
    label = fold(NOT_STATED_LABEL)
    for number, facet in enumerate(FACETS, start=len(values) + 1):
        members = (np.flatnonzero(~stated[facet.name][1:]) + 1).tolist()
        yield (number, facet.name, NOT_STATED, "", NOT_STATED_LABEL, label, len(members),
               bits.pack(members))


def _runs(items: Iterable[_T]) -> Iterator[list[_T]]:
    """``items`` ``ENTITIES_AT_A_TIME`` at a time."""
    rest = iter(items)
    while run := list(islice(rest, ENTITIES_AT_A_TIME)):
        yield run


BenchRow = tuple[int, str, str, str, str, str, str, str | None, str, str, int, int]


def bench_row(number: int, row: BenchmarkRow) -> BenchRow:
    """``row``'s row of ``bench``, numbered ``number``."""
    return (number, row.iri, row.identifier, row.label, name_key(row.label), row.summary,
            row.released, row.released_key, row.updated, row.updated_record,
            int(row.catalogued), row.results)


def write_orders(db: sqlite3.Connection) -> None:
    """``bench_order`` (written anew) from ``bench``: the numbers in each sort's order."""
    db.execute("DELETE FROM bench_order")
    for name, sort in SORTS.items():
        ordered = [n for (n,) in db.execute(f"SELECT b.id FROM bench AS b ORDER BY {sort.order}")]
        db.execute("INSERT INTO bench_order VALUES (?, ?)", (name, bits.order(ordered)))


def _listed(parts: tuple[str, ...]) -> str:
    return _clean(" ; ".join(parts))


def _clean(text: str) -> str:
    """``text`` without control characters (the snippet marks among them)."""
    return _CONTROL.sub(" ", text)


def open_index(path: Path, base: str) -> sqlite3.Connection:
    """The index at ``path``, read-only; SearchIndexError when it is missing or of another
    format or base."""
    if not path.is_file():
        raise SearchIndexError(f"the store in {path.parent.parent} has no search index "
                          f"({path.name}): build it again")
    uri = f"file:{pathname2url(str(path))}?mode=ro&immutable=1"
    db = sqlite3.connect(uri, uri=True, check_same_thread=False)
    meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    if meta.get("format") != FORMAT or meta.get("base") != base:
        db.close()
        raise SearchIndexError(f"the search index in {path.parent} was built by another version "
                          "of benchgraph or for another base IRI: build the store again")
    return db


__all__ = [
    "INDEX_FILE",
    "MARK_END",
    "MARK_START",
    "IndexFigures",
    "SearchIndexError",
    "fts5_available",
    "open_index",
    "write_index",
]
