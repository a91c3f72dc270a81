"""Counts over a built graph: its statements by where they come from (records, the build graph,
the ontology), and nodes per class. (Benchmarks by a fact they state, a suite, an access level,
a harness, are the benchmark list's facets, counted from the search index with their "not
stated" bucket: ``graph.search.facets``.)

``benchgraph build`` and ``benchgraph stats`` both say how many statements there are through
``statement_counts``, so they can never disagree.

Each reads a pyoxigraph store as every build makes it: each record's named graph, the build
graph (``{base}build``) and the ontology's as named graphs, and in the default graph their
RDF merge (each distinct triple once). The engine counts (SPARQL ``COUNT``, ``GROUP BY``):
nothing the size of the catalog is held in Python.
"""

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal

import pyoxigraph as ox
from rdflib import URIRef

from graph.mapping.iris import Iris
from graph.namespace import ONTOLOGY_IRI, RDF

Subject = ox.NamedNode | ox.BlankNode


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


def statement_counts(store: ox.Store, base: str, *,
                     keep_graphs: bool = False) -> StatementCounts:
    """The store's distinct statements (quads with ``keep_graphs``, else triples) by part, the
    build graph being that of the data's ``base``; ``total`` is what a writer of that kind of
    format writes.

    Triples: all of them are the default graph's (the merge). The build graph and the
    ontology's are small, so theirs are the ones found by a look-up each: the build graph's
    triples that no record's graph holds, and the ontology's that no other named graph holds;
    the rest are the records'. Quads: a graph belongs to one part, and a store holds each of
    its quads once, so the records' are all the store's quads but the default graph's and
    those of the other two parts."""
    build, ontology = _apart(base)
    graphs = count_record_graphs(store, base)
    triples = _count(store, "?s ?p ?o")
    if keep_graphs:
        in_build, in_ontology = (_count(store, f"GRAPH {graph} {{ ?s ?p ?o }}")
                                 for graph in (build, ontology))
        return StatementCounts("quads", len(store) - triples - in_build - in_ontology,
                               in_build, in_ontology, graphs)
    only_build, only_ontology = (
        _count(store, f"""GRAPH {graph} {{ ?s ?p ?o }} FILTER NOT EXISTS {{
            GRAPH ?g {{ ?s ?p ?o }} FILTER(?g NOT IN ({graph}, {ontology})) }}""")
        for graph in (build, ontology))  # one of the build graph and the ontology: the build's
    return StatementCounts("triples", triples - only_build - only_ontology, only_build,
                           only_ontology, graphs)


def count_record_graphs(store: ox.Store, base: str) -> int:
    """How many named graphs of ``store`` hold a statement, but the build graph of ``base`` and
    the ontology's: the records' graphs. (A graph whose statements were all removed is still
    named by the store: it is no record's.)"""
    build, ontology = _apart(base)
    return _count(store, f"""GRAPH ?g {{ }} FILTER(?g NOT IN ({build}, {ontology}))
        FILTER EXISTS {{ GRAPH ?g {{ ?s ?p ?o }} }}""")


def _apart(base: str) -> tuple[str, str]:
    """The build graph of ``base`` and the ontology's graph, as SPARQL IRIs."""
    return f"<{Iris(base).build()}>", f"<{ONTOLOGY_IRI}>"


def _count(store: ox.Store, where: str) -> int:
    """How many solutions the SPARQL group pattern ``where`` has in ``store``."""
    solutions = store.query(f"SELECT (COUNT(*) AS ?n) {{ {where} }}")
    assert isinstance(solutions, ox.QuerySolutions)
    found = next(iter(solutions))[0]
    assert isinstance(found, ox.Literal)
    return int(found.value)


@dataclass(frozen=True)
class GraphStats:
    """Statements by part, then (outside the ontology) distinct nodes per class."""

    statements: StatementCounts
    per_class: dict[URIRef, int]

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


_SECTIONS = ("per_class",)


def graph_stats(store: ox.Store, base: str) -> GraphStats:
    """The statements (triples, ``statement_counts``), and the distinct nodes of each class in
    the data: every named graph but the ontology's (the records' and the build graph).

    A node of a class is a distinct (subject, object) pair of ``rdf:type`` whose object is an
    IRI (a literal or a blank node is no class). The pairs are the default graph's (the merge:
    each pair once) less those of the few statements only the ontology holds, found once and
    taken away (``_in_data``); a ``FILTER EXISTS`` on each of the merge's statements would look
    each up again in the named graphs, many times slower."""
    pattern = f"?s <{RDF.type}> ?o"
    solutions = store.query(
        f"SELECT ?o (COUNT(*) AS ?n) {{ {pattern} {_in_data(pattern)} }} GROUP BY ?o")
    assert isinstance(solutions, ox.QuerySolutions)
    per_class: dict[URIRef, int] = {}
    for iri, n in solutions:
        assert isinstance(n, ox.Literal)
        if isinstance(iri, ox.NamedNode):  # tested here: the engine's isIRI reads each term
            per_class[URIRef(iri.value)] = int(n.value)
    return GraphStats(statement_counts(store, base), _sorted(per_class))


def _in_data(pattern: str) -> str:
    """A SPARQL ``MINUS`` that leaves out of the default graph's solutions of ``pattern`` (one
    triple pattern of ``?s`` and ``?o``) those whose statement only the ontology's graph holds:
    the rest are stated in a data graph."""
    ontology = f"<{ONTOLOGY_IRI}>"
    return f"""MINUS {{ GRAPH {ontology} {{ {pattern} }}
        FILTER NOT EXISTS {{ GRAPH ?g {{ {pattern} }} FILTER(?g != {ontology}) }} }}"""


def about(store: ox.Store, subjects: Iterable[Subject]) -> ox.Store:
    """A new store in memory holding every quad of ``store`` whose subject is one of
    ``subjects``: their statements in each named graph and, since ``store``'s default graph is
    the merge of its named graphs, the merge of those statements in its default graph. What
    ``updated_stats`` reads of a store."""
    found = ox.Store()
    for subject in subjects:
        found.extend(store.quads_for_pattern(subject, None, None, None))
    return found


def updated_stats(before: GraphStats, was: ox.Store, now: ox.Store, record_graphs: int,
                  base: str) -> GraphStats:
    """The stats of a store (``graph_stats``) from ``before``, those of the store it was, when
    the two differ only in statements of some subjects: ``was`` and ``now`` hold every
    statement about those subjects before and after (``about``), and ``record_graphs`` is
    how many record graphs the store now has (``count_record_graphs``). The statements of a
    subject in any graph are all that decide which part its triples count in, and all that
    make it a node of a class. So the counts of those subjects' statements in ``was`` are
    taken away and those in ``now`` added: the whole store is not read
    (perf/decisions/stats-from-changed-subjects.md)."""
    less, more = graph_stats(was, base), graph_stats(now, base)
    records, build, ontology = (
        getattr(before.statements, part) - getattr(less.statements, part)
        + getattr(more.statements, part) for part in ("records", "build", "ontology"))
    statements = StatementCounts(before.statements.unit, records, build, ontology,
                                 record_graphs)
    sections = {name: _sorted(_plus(getattr(before, name), getattr(less, name),
                                    getattr(more, name)))
                for name in _SECTIONS}
    return GraphStats(statements, **sections)


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
    """The most frequent first, then by IRI."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], str(item[0]))))
