"""What the store says around one benchmark, gathered for its page in a few queries.

The benchmark's own statements come from its ``Description`` (the one every format of the
page is written from). Three small queries, each with the benchmark bound as ``?b``, fetch
what the page shows beside them: the statements of its parts (dataset, metric, credits,
sources, harness tasks, paper, model-card survey; its results are read apart, by
``web.benchmark.results``), and what each record that speaks about the benchmark says about
itself (freshness, build) — the records that describe it, and those that describe a
benchmark linking to it. The labels of every IRI shown come in one lookup (``web.labels``),
the vocabularies' notations once per app. Every statement keeps the named graph that states
it, so the page can say which record said each thing.

The queries were shaped by measuring them: pyoxigraph 0.5 plans a UNION whose branch holds a
``GRAPH`` pattern badly once ``?b`` is bound outside it, so the two record queries are two
queries (perf/decisions/benchmark-record-queries-apart.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import pyoxigraph as ox
from flask import current_app

from graph.namespace import (
    BENCH,
    BENCH_IRI,
    DCTERMS,
    FOAF,
    ONTOLOGY_IRI,
    PROV,
    RDF,
    RDFS,
    SCHEMA,
    SKOS,
)
from graph.store.base import Description, Statement, Store, Term
from web.labels import Labels, fetch_labels


class Plain:
    """A closed namespace's terms as plain strings, as the store's terms give their IRIs
    (an rdflib ``URIRef`` never equals a ``str``): ``bench.body``. A name the namespace does
    not define is still refused."""

    def __init__(self, namespace: object) -> None:
        self._namespace = namespace

    def __getattr__(self, name: str) -> str:
        iri = str(getattr(self._namespace, name))
        setattr(self, name, iri)
        return iri


bench, dcterms, foaf, prov, rdf, rdfs, schema, skos = (
    Plain(ns) for ns in (BENCH, DCTERMS, FOAF, PROV, RDF, RDFS, SCHEMA, SKOS))

PART_LINKS = (
    bench.dataset, bench.metric, bench.authorCredit, bench.publisherCredit, bench.source,
    bench.harnessTask, bench.paper, bench.modelCardSurvey,
)
"""The benchmark's links to the nodes its page shows in full. Its results are read apart, by
the named query that ranks them (``web.benchmark.results``): a benchmark may have thousands."""

PARTS_QUERY = f"""SELECT ?part ?p ?o ?g WHERE {{
  {{ VALUES ?link {{ {" ".join(f"<{link}>" for link in PART_LINKS)} }}
    ?b ?link ?part }}
  UNION {{ ?b bench:paper/bench:authorCredit ?part }}
  UNION {{ ?b bench:harnessTask/bench:subtask ?part }}
  GRAPH ?g {{ ?part ?p ?o }}
}}"""
"""The benchmark's parts, its papers' author credits (the paper's authors in order) and its
harness tasks' sub-tasks."""

RECORDS_QUERY = "SELECT ?g ?p ?o WHERE { GRAPH ?g { ?g bench:describes ?b . ?g ?p ?o } }"

LINKING_RECORDS_QUERY = """SELECT DISTINCT ?g ?p ?o WHERE {
  ?s ?x ?b . GRAPH ?g { ?g bench:describes ?s . ?g ?p ?o }
}"""

NOTATIONS_QUERY = "SELECT ?x ?notation WHERE { GRAPH ?ontology { ?x skos:notation ?notation } }"

_NOTATIONS_KEY = "benchgraph.benchmark_page.notations"


@dataclass
class Node:
    """The statements about one node, by predicate, in the order the store gave them."""

    iri: str
    statements: dict[str, list[Statement]] = field(default_factory=dict)

    def add(self, statement: Statement) -> None:
        self.statements.setdefault(statement.predicate.value, []).append(statement)

    def get(self, predicate: str) -> list[Statement]:
        return self.statements.get(predicate, [])

    def objects(self, predicate: str) -> list[Term]:
        """The distinct objects of ``predicate``, first statement first."""
        return list(dict.fromkeys(statement.object for statement in self.get(predicate)))

    def first(self, predicate: str) -> Term | None:
        statements = self.get(predicate)
        return statements[0].object if statements else None

    def lexical(self, predicate: str) -> str | None:
        """The first object's lexical form (an IRI's value)."""
        term = self.first(predicate)
        return None if term is None else term.value


@dataclass(frozen=True)
class Neighbourhood:
    """A benchmark and what its page shows around it."""

    benchmark: Node
    incoming: tuple[Statement, ...]
    parts: dict[str, Node]
    records: dict[str, Node]
    """What each record that speaks about the benchmark says about itself, by graph IRI."""
    describing: tuple[str, ...]
    """The records that describe the benchmark itself (the others describe a benchmark that
    links to it)."""
    labels: Labels
    notations: dict[str, str]
    """The vocabularies' members by IRI: their notation (``gated``, ``higher_is_better``)."""
    truncated: bool

    def label(self, iri: str) -> str | None:
        return self.labels.get(iri)

    def statements(self) -> Iterable[Statement]:
        """Every statement the page shows but the records' own."""
        yield from statements_of([self.benchmark, *self.parts.values()])
        yield from self.incoming


def gather(store: Store, description: Description) -> Neighbourhood:
    """What the page of ``description``'s node shows."""
    bindings = {"b": description.node}
    benchmark = Node(description.node.value)
    for statement in description.outgoing:
        benchmark.add(statement)
    parts: dict[str, Node] = {}
    for part, predicate, obj, graph in store.query(PARTS_QUERY, bindings).rows:
        assert isinstance(part, ox.NamedNode) and isinstance(predicate, ox.NamedNode)
        assert isinstance(graph, ox.NamedNode) and obj is not None
        parts.setdefault(part.value, Node(part.value)).add(Statement(part, predicate, obj, graph))
    records: dict[str, Node] = {}
    describing: tuple[str, ...] = ()
    for query in (RECORDS_QUERY, LINKING_RECORDS_QUERY):
        found: dict[str, Node] = {}
        for graph, predicate, obj in store.query(query, bindings).rows:
            assert isinstance(graph, ox.NamedNode) and isinstance(predicate, ox.NamedNode)
            assert obj is not None
            found.setdefault(graph.value, Node(graph.value)).add(
                Statement(graph, predicate, obj, graph))
        for iri, node in found.items():
            records.setdefault(iri, node)  # a record describing the benchmark is read once
        describing = describing or tuple(found)
    shown = [*statements_of([benchmark, *parts.values(), *records.values()]),
             *description.incoming]
    iris = {benchmark.iri, *(term.value for term in benchmark.objects(bench.paper)),
            *(s.predicate.value for s in shown if s.predicate.value.startswith(BENCH_IRI)),
            *(term.value for s in shown for term in (s.subject, s.object)
              if isinstance(term, ox.NamedNode) and term.value not in parts
              and term.value not in records)}
    # Only what has an rdfs:label: the parts but papers, the records and the standard terms'
    # properties (``web.benchmark.view.STANDARD_LABELS``) have none, and asking for them made
    # a second lookup of every other label property.
    return Neighbourhood(benchmark, description.incoming, parts, records, describing,
                         fetch_labels(store, iris), notations(store), description.truncated)


def notations(store: Store) -> dict[str, str]:
    """The notations of the vocabularies' members, queried on the app's first benchmark
    page (the ontology does not change under a running app)."""
    extensions = current_app.extensions
    known: dict[str, str] | None = extensions.get(_NOTATIONS_KEY)
    if known is None:
        rows = store.query(NOTATIONS_QUERY, {"ontology": ox.NamedNode(ONTOLOGY_IRI)}).rows
        known = extensions[_NOTATIONS_KEY] = {
            x.value: notation.value for x, notation in rows if x is not None and notation}
    return known


def statements_of(nodes: Iterable[Node]) -> Iterable[Statement]:
    for node in nodes:
        for group in node.statements.values():
            yield from group


__all__ = [
    "LINKING_RECORDS_QUERY", "NOTATIONS_QUERY", "PARTS_QUERY", "PART_LINKS", "RECORDS_QUERY",
    "Neighbourhood", "Node", "Plain", "bench", "dcterms", "foaf", "gather", "notations", "prov",
    "rdf", "rdfs", "schema", "skos", "statements_of",
]
