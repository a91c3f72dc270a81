"""Counts over a built graph: its statements by where they come from (records, the build graph,
the ontology), and nodes per class, per suite, per access level, per harness.

``benchgraph build`` and ``benchgraph stats`` both say how many statements there are through
``statement_counts``, so they can never disagree.
"""

from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from rdflib import URIRef

from graph.dataset.canonical import first_of_runs, sorted_unique_rows
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT, QuadTable
from graph.mapping.iris import Iris
from graph.namespace import BENCH, ONTOLOGY_IRI, RDF

Ids = npt.NDArray[np.int64]


@dataclass(frozen=True)
class StatementCounts:
    """Distinct statements, by the part of the dataset they come from. A triple stated in
    two parts (a record and the ontology, say) counts once, in the first of: records, the
    build graph, the ontology; so the three add up to ``total``."""

    unit: Literal["triples", "quads"]
    """Triples: the union of the named graphs (Turtle); quads: each graph's own (N-Quads)."""
    records: int
    """Statements of the records' named graphs."""
    build: int
    """Statements of the build graph (``{base}build``: derived facts such as catalogued)."""
    ontology: int
    """Statements of the ontology and its vocabularies."""
    record_graphs: int
    """Named graphs of records."""

    @property
    def total(self) -> int:
        return self.records + self.build + self.ontology


def statement_counts(table: QuadTable, base: str, *,
                     keep_graphs: bool = False) -> StatementCounts:
    """The table's distinct statements (quads with ``keep_graphs``, else triples) by part, the
    build graph being that of the data's ``base``; ``total`` is what a writer of that kind of
    format writes."""
    held = table.held_rows()  # read in place: no column copied before it is sorted
    graphs = held[:, GRAPH]
    n = max(len(table.terms), 1)
    apart = _apart(table, base)
    part = np.zeros(len(graphs), dtype=np.int8)  # 0 records, 1 the build graph, 2 the ontology
    part[graphs == apart[0]] = 1
    part[graphs == apart[1]] = 2
    record_graphs = _record_graphs(graphs, apart, n)
    unit: Literal["triples", "quads"] = "quads" if keep_graphs else "triples"
    keys = None if keep_graphs else _triple_keys(held, part, n)
    if keys is not None:
        keys.sort()  # in place
        records, build, ontology = _first_parts(keys)
        return StatementCounts(unit, records, build, ontology, record_graphs)
    subjects, predicates, objects = (held[:, p] for p in (SUBJECT, PREDICATE, OBJECT))
    if keep_graphs:  # a graph belongs to one part: its distinct quads are the part's
        rows = sorted_unique_rows([graphs, subjects, predicates, objects], n)
        by_graph = np.zeros(n, dtype=np.int64)
        by_graph[graphs] = part
        parts = by_graph[rows[0]]
    else:  # the part rides in the object column (3 o + part), so the rows sort as 3 columns,
        # and the first row of each triple is its first part
        rows = sorted_unique_rows([subjects, predicates, objects.astype(np.int64) * 3 + part],
                                  3 * n)
        if not len(rows[0]):
            return StatementCounts(unit, 0, 0, 0, record_graphs)
        first = first_of_runs(rows[0]) | first_of_runs(rows[1]) | first_of_runs(rows[2] // 3)
        parts = rows[2][first] % 3
    records, build, ontology = np.bincount(parts, minlength=3).tolist()
    return StatementCounts(unit, records, build, ontology, record_graphs)


def _apart(table: QuadTable, base: str) -> list[int]:
    """The ids of the build graph of ``base`` and of the ontology's graph (-1: not in it)."""
    return [_term_id(table, Iris(base).build()), _term_id(table, ONTOLOGY_IRI)]


def _record_graphs(graphs: npt.NDArray[np.int32], apart: list[int], n: int) -> int:
    """How many named graphs ``graphs`` (a table's column, of ``n`` terms) holds, but the
    build graph and the ontology's (``apart``, -1 for one it lacks)."""
    named = np.zeros(n, dtype=np.bool_)
    named[graphs] = True
    return int(np.count_nonzero(named)) - sum(int(named[g]) for g in apart if g >= 0)


def _triple_keys(held: npt.NDArray[np.int32], part: npt.NDArray[np.int8],
                 n: int) -> Ids | None:
    """Each row's triple and part as one int64, ((s * P + p) * n + o) * 3 + part, where p is
    the predicate's rank among the P predicates the table uses (a few dozen, where three ids
    of ``n`` terms would not fit one key at 100,000 records); None when even that does not
    fit. Sorted, the rows of one triple are a run, its first part first.

    Eight bytes a row, made in place: the three columns packed and sorted as separate 64-bit
    copies (``sorted_unique_rows``) held several times that at once, the largest step of a
    store build once the records are mapped (perf/decisions/statement-counts-packed.md)."""
    predicates = held[:, PREDICATE]
    used = np.zeros(n, dtype=np.bool_)
    used[predicates] = True
    rank = np.cumsum(used, dtype=np.int32) - 1  # a used predicate's place among them
    count = int(rank[-1]) + 1
    if n * count * n * 3 >= 2**63:
        return None
    keys = held[:, SUBJECT].astype(np.int64)
    keys *= count
    keys += rank[predicates]
    keys *= n
    keys += held[:, OBJECT]
    keys *= 3
    keys += part
    return keys


_RUN = 1 << 16
"""Keys read at a time by ``_first_parts``."""


def _first_parts(keys: Ids) -> list[int]:
    """How many triples first come in each part, from the sorted keys of ``_triple_keys``:
    each triple counts in the part of the first row of its run. Read a run of keys at a time,
    so that nothing the size of the keys is made again."""
    counts = np.zeros(3, dtype=np.int64)
    previous = -1  # no triple: every key is at least 0
    for start in range(0, len(keys), _RUN):
        run = keys[start:start + _RUN]
        triples = run // 3
        first = np.empty(len(run), dtype=np.bool_)
        first[0] = triples[0] != previous
        np.not_equal(triples[1:], triples[:-1], out=first[1:])
        counts += np.bincount(run[first] % 3, minlength=3)
        previous = int(triples[-1])
    return [int(count) for count in counts]


def _term_id(table: QuadTable, iri: URIRef) -> int:
    found = table.terms.find_iri(iri)
    return -1 if found is None else found  # -1 matches no id


@dataclass(frozen=True)
class GraphStats:
    """Statements by part, then (outside the ontology) distinct nodes per class, benchmarks per
    suite and access level, tasks per harness."""

    statements: StatementCounts
    per_class: dict[URIRef, int]
    per_suite: dict[URIRef, int]
    per_access_level: dict[URIRef, int]
    per_harness: dict[URIRef, int]

    def to_json(self) -> dict[str, Any]:
        """The counts as JSON: the statements by part, then each section a mapping from IRI
        to count, in order (what a store folder keeps in its manifest)."""
        sections = {name: {str(iri): n for iri, n in getattr(self, name).items()}
                    for name in _SECTIONS}
        return {"statements": asdict(self.statements), **sections}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GraphStats":
        sections = {name: {URIRef(iri): int(n) for iri, n in data[name].items()}
                    for name in _SECTIONS}
        return cls(statements=StatementCounts(**data["statements"]), **sections)


_SECTIONS = ("per_class", "per_suite", "per_access_level", "per_harness")


def graph_stats(table: QuadTable, base: str) -> GraphStats:
    """The statements (triples, ``statement_counts``), and the counts of nodes over the data:
    the records' graphs and the build graph, not the ontology's. Worked out on the table's
    term ids, so a build of a million quads takes a moment."""
    terms = table.terms
    statements = statement_counts(table, base)  # before the columns below: never both at once

    def term_id(iri: URIRef) -> int:
        return _term_id(table, iri)

    held = table.held_rows()  # read in place: a predicate's rows are chosen from it
    data = held[:, GRAPH] != term_id(ONTOLOGY_IRI)
    predicates = held[:, PREDICATE]
    n = len(terms)

    def pairs(predicate: URIRef) -> tuple[Ids, Ids]:
        """Distinct (subject, object) of the statements with this predicate."""
        chosen = predicates == term_id(predicate)
        chosen &= data
        found = sorted_unique_rows([held[chosen, SUBJECT], held[chosen, OBJECT]], n)
        return found[0], found[1]

    typed, classes = pairs(RDF.type)
    tasks = typed[classes == term_id(BENCH.HarnessTask)]
    with_harness, harnesses = pairs(BENCH.harness)
    counts = {
        name: _count(values, table)
        for name, values in (
            ("per_class", classes),
            ("per_suite", pairs(BENCH.inSuite)[1]),
            ("per_access_level", pairs(BENCH.accessLevel)[1]),
            ("per_harness", harnesses[np.isin(with_harness, tasks)]),
        )
    }
    return GraphStats(statements, **counts)


def updated_stats(before: GraphStats, old: QuadTable, new: QuadTable, subjects: Ids,
                  base: str) -> GraphStats:
    """The stats of ``new`` (``graph_stats``), from ``before``, those of ``old``, when the two
    tables (of one term table) differ only in statements of ``subjects``. Of ``old`` only its
    statements about ``subjects`` are read: it may hold them alone (an incremental build has
    made ``new`` in the place of the old table: ``graph.store.rebuild``). The statements of a
    subject in any graph are all that decide which part its triples count in, and all that
    make it a node of a class, a suite, an access level, or a harness's task. So the counts
    of those subjects' statements in ``old`` are taken away and those in ``new`` added; the
    record graphs are counted again (one pass over a column). Counting the whole table again
    takes two sorts of its rows (perf/decisions/stats-from-changed-subjects.md)."""
    was, now = (graph_stats(_about(table, subjects), base) for table in (old, new))
    records, build, ontology = (
        getattr(before.statements, part) - getattr(was.statements, part)
        + getattr(now.statements, part) for part in ("records", "build", "ontology"))
    graphs = _record_graphs(new.held_rows()[:, GRAPH], _apart(new, base),
                            max(len(new.terms), 1))
    statements = StatementCounts(before.statements.unit, records, build, ontology, graphs)
    sections = {name: _sorted(_plus(getattr(before, name), getattr(was, name),
                                    getattr(now, name)))
                for name in _SECTIONS}
    return GraphStats(statements, **sections)


def _about(table: QuadTable, subjects: Ids) -> QuadTable:
    """The statements of ``table`` whose subject is one of ``subjects``."""
    return table.select(np.isin(table.held_rows()[:, SUBJECT], subjects))


def _plus(counts: dict[URIRef, int], less: dict[URIRef, int],
          more: dict[URIRef, int]) -> dict[URIRef, int]:
    """``counts`` less ``less`` and more ``more``, without the IRIs left at nought."""
    summed = dict(counts)
    for iri, n in less.items():
        summed[iri] -= n
    for iri, n in more.items():
        summed[iri] = summed.get(iri, 0) + n
    return {iri: n for iri, n in summed.items() if n}


def _sorted(counts: dict[URIRef, int]) -> dict[URIRef, int]:
    """The most frequent first, then by IRI: the order of ``_count``."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], str(item[0]))))


def _count(ids: Ids, table: QuadTable) -> dict[URIRef, int]:
    """How often each IRI is among ``ids``, the most frequent first (literals are left out)."""
    values, counts = np.unique(ids, return_counts=True)
    found = [
        (term, count)
        for term, count in zip(map(table.terms.terms.__getitem__, values.tolist()),
                               counts.tolist(), strict=True)
        if isinstance(term, URIRef)
    ]
    return _sorted(dict(found))
