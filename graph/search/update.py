"""The index of an incremental build: the previous generation's index with the rows of what
changed written again, when that gives the file a full build writes; else written whole.

A full write reads every statement the index needs from the store (``Facts``), and every
entity and benchmark (perf/decisions/search-index-updated.md). After one record changed,
only the entities and benchmarks whose rows read a changed statement can differ, so the
previous file is copied and those rows written again, from the statements about them alone,
read from the store into a small store of their own. Which rows read what:

- an entity's row (``graph.search.entities``): its own statements (subject), and the labels
  of its tags (``bench:tag`` objects);
- a benchmark's row (``graph.search.facets``): its own statements, the harness of each of
  its harness tasks (``bench:harnessTask``, then ``bench:harness``), the review days of the
  records that describe it (``bench:describes``), and the labels of its facet values.

Rows are numbered in a full build's order (kind, then IRI; benchmarks by IRI; facet values as
the benchmarks first hold them), so the update stands only while no number moves: the
entities and benchmarks are the same nodes of the same kinds, each changed benchmark holds
the same facet values, and every value keeps its label. Otherwise (a record added, removed,
or a tag gained: most changes that are not a record's text) the index is written whole.
``neighbour`` follows ``text``'s words: those gone are removed, those new added. An index of
another ``FORMAT`` (written by another version) is written whole.
The FTS index is not optimised again nor the statistics gathered again (``ANALYZE``): those
change no answer, and the copied ones still describe the file.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

import pyoxigraph as ox
from rdflib import URIRef

from graph.namespace import BENCH
from graph.search.entities import entities
from graph.search.extract import Facts, Term, term_text
from graph.search.facets import ORDER_COLUMNS, BenchmarkRow, benchmark_rows
from graph.search.index import (
    FORMAT,
    bench_row,
    insert_entities,
    neighbour_rows,
    vocabulary,
    write_index,
    write_orders,
)
from graph.system.gc_pause import gc_paused

_MERGE = ox.DefaultGraph()


def update_index(path: Path, before: Path, store: ox.Store, base: str,
                 mentioned: Iterable[Term]) -> bool:
    """Write the index of ``store``'s graph to the new file ``path``: ``before`` (the index of
    the graph before a change; ``mentioned``, the subjects and objects of every statement the
    change removed or added) updated where that gives a full build's file, else written
    whole. Returns whether it was updated."""
    with gc_paused():
        if before.is_file():
            shutil.copyfile(before, path)
            with closing(sqlite3.connect(path)) as db:
                # As ``write_index`` writes it: no journal, no sync (the commit's fsync wrote
                # the whole copied file out).
                db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
                if _Update(db, store, base, set(mentioned)).apply():
                    db.commit()
                    return True
            path.unlink()
        write_index(path, store, base)
        return False


class _Update:
    """One index file brought up to date with a store's graph, if no number moves."""

    def __init__(self, db: sqlite3.Connection, store: ox.Store, base: str,
                 mentioned: set[Term]) -> None:
        self.db, self.base, self.store = db, base, store
        pointing = self._subjects(mentioned)
        self.entity_nodes = mentioned | pointing  # a tag's label: its holders
        tasks = self._subjects(pointing, BENCH.harnessTask)  # a harness's label: via tasks
        described = self._objects(mentioned, BENCH.describes)  # a record's review day
        self.bench_nodes = self.entity_nodes | tasks | described
        harnesses = self._objects(self._objects(self.bench_nodes, BENCH.harnessTask),
                                  BENCH.harness)
        around = (self.entity_nodes | self.bench_nodes | harnesses
                  | self._objects(self.entity_nodes) | self._objects(self.bench_nodes)
                  | self._subjects(self.bench_nodes, BENCH.describes))
        about = ox.Store()
        about.extend(quad for node in around if isinstance(node, ox.NamedNode | ox.BlankNode)
                     for quad in store.quads_for_pattern(node, None, None, _MERGE))
        self.facts = Facts(about)

    def _subjects(self, objects: set[Term], predicate: URIRef | None = None) -> set[Term]:
        """The subjects of statements of ``objects`` (by ``predicate``, or any)."""
        named = None if predicate is None else ox.NamedNode(predicate)
        return {quad.subject for node in objects
                for quad in self.store.quads_for_pattern(None, named, node, _MERGE)}

    def _objects(self, subjects: set[Term], predicate: URIRef | None = None) -> set[Term]:
        """The objects of statements of ``subjects`` (by ``predicate``, or any)."""
        named = None if predicate is None else ox.NamedNode(predicate)
        return {quad.object for node in subjects if isinstance(node, ox.NamedNode | ox.BlankNode)
                for quad in self.store.quads_for_pattern(node, named, None, _MERGE)}

    def apply(self) -> bool:
        return self._same_format() and self._search() and self._browse()

    def _same_format(self) -> bool:
        found: tuple[str] | None = self.db.execute(
            "SELECT value FROM meta WHERE key = 'format'").fetchone()
        return found == (FORMAT,)

    def _search(self) -> bool:
        db, facts = self.db, self.facts
        wanted = {term_text(node) for node in self.entity_nodes}
        fresh = [entity for entity in entities(facts) if entity.iri in wanted]
        held = self._held("SELECT iri, id, kind FROM entity WHERE iri IN", wanted)
        if {entity.iri: entity.kind for entity in fresh} != {
                iri: kind for iri, (_, kind) in held.items()}:
            return False
        words = vocabulary(db)
        numbers = [(held[entity.iri][0],) for entity in fresh]
        db.executemany("DELETE FROM entity WHERE id = ?", numbers)
        db.executemany("DELETE FROM name WHERE entity = ?", numbers)
        db.executemany("DELETE FROM joined WHERE entity = ?", numbers)
        db.executemany("DELETE FROM text WHERE rowid = ?", numbers)
        insert_entities(db, ((held[entity.iri][0], entity) for entity in fresh))
        now = vocabulary(db)
        db.executemany("DELETE FROM neighbour WHERE key = ? AND word = ?",
                       neighbour_rows(words - now))
        db.executemany("INSERT OR IGNORE INTO neighbour VALUES (?, ?)", neighbour_rows(now - words))
        return True

    def _held(self, select: str, iris: set[str]) -> dict[str, tuple[int, str]]:
        return {iri: (number, kind)
                for iri, number, kind in self._rows_in(select, sorted(iris))}

    def _rows_in(self, select: str, values: Sequence[object]) -> Iterator[tuple[Any, ...]]:
        """The rows of ``select``, a statement ending in ``IN``, for ``values``, asked 500
        at a time (under SQLite's bound on a statement's parameters)."""
        for start in range(0, len(values), 500):
            chunk = values[start:start + 500]
            yield from self.db.execute(f"{select} ({', '.join('?' * len(chunk))})", chunk)

    def _browse(self) -> bool:
        db, facts = self.db, self.facts
        wanted = {term_text(node) for node in self.bench_nodes}
        fresh = [row for row in benchmark_rows(facts, self.base) if row.iri in wanted]
        held = self._held("SELECT iri, id, '' FROM bench WHERE iri IN", wanted)
        if {row.iri for row in fresh} != set(held):
            return False
        updates = []
        for row in fresh:
            number = held[row.iri][0]
            if not self._same_values(number, row):
                return False
            updates.append(bench_row(number, row))
        numbers = [row[0] for row in updates]
        placed = self._order_keys(numbers)
        db.executemany("DELETE FROM bench WHERE id = ?", [(number,) for number in numbers])
        db.executemany("INSERT INTO bench VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", updates)
        if self._order_keys(numbers) != placed:  # else no benchmark moves in any order
            write_orders(db)
        return True

    def _order_keys(self, numbers: list[int]) -> list[tuple[object, ...]]:
        """What the orders read of the benchmarks ``numbers`` (``ORDER_COLUMNS``): the
        orders are sorted again only when one of these moved."""
        return sorted(self._rows_in(
            f"SELECT id, {', '.join(ORDER_COLUMNS)} FROM bench WHERE id IN", numbers))

    def _same_values(self, number: int, row: BenchmarkRow) -> bool:
        """Whether the benchmark numbered ``number`` holds the facet values ``row`` gives,
        each under the label it had."""
        held = set(self.db.execute(
            "SELECT v.facet, v.term, v.label FROM membership AS m "
            "JOIN facet_value AS v ON v.id = m.value WHERE m.bench = ?", (number,)))
        return held == {(value.facet, value.term, value.label) for value in row.values}


__all__ = ["update_index"]
