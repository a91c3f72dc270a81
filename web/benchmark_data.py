"""What the store says around one benchmark, gathered for its page in a few queries.

The benchmark's own statements come from its ``Description`` (the one every format of the
page is written from). Four small queries, each with the benchmark bound as ``?b``, fetch
what the page shows beside them: the statements of its parts (dataset, metric, credits,
sources, harness tasks, results, paper, model-card survey) with the labels of what they
point to; the labels of the nodes one step from the benchmark; and what each record that
speaks about the benchmark says about itself (freshness, build) — the records that describe
it, and those that describe a benchmark linking to it. Every statement keeps the named graph
that states it, so the page can say which record said each thing.

Each query was shaped by measuring it at 10,000 records: pyoxigraph 0.5 plans a UNION whose
branch holds a ``GRAPH`` pattern badly once ``?b`` is bound outside it (50 ms instead of
1 ms), so such branches are separate queries here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import pyoxigraph as ox
from flask import current_app

from graph.namespace import BENCH, DCTERMS, ONTOLOGY_IRI, PROV, RDF, RDFS, SCHEMA, SKOS
from graph.store.base import Description, Statement, Store, Term


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


bench, dcterms, prov, rdf, rdfs, schema, skos = (
    Plain(ns) for ns in (BENCH, DCTERMS, PROV, RDF, RDFS, SCHEMA, SKOS))

PART_LINKS = (
    bench.dataset, bench.metric, bench.authorCredit, bench.publisherCredit, bench.source,
    bench.harnessTask, bench.result, bench.paper, bench.modelCardSurvey,
)
"""The benchmark's links to the nodes its page shows in full."""

PARTS_QUERY = f"""SELECT ?part ?p ?o ?g ?label WHERE {{
  VALUES ?link {{ {" ".join(f"<{link}>" for link in PART_LINKS)} }}
  ?b ?link ?part .
  GRAPH ?g {{ ?part ?p ?o }}
  OPTIONAL {{ ?o rdfs:label ?label }}
}}"""

LABELS_QUERY = "SELECT ?x ?label WHERE { { ?b ?p ?x } UNION { ?x ?p ?b } ?x rdfs:label ?label }"

RECORDS_QUERY = "SELECT ?g ?p ?o WHERE { GRAPH ?g { ?g bench:describes ?b . ?g ?p ?o } }"

LINKING_RECORDS_QUERY = """SELECT DISTINCT ?g ?p ?o WHERE {
  ?s ?x ?b . GRAPH ?g { ?g bench:describes ?s . ?g ?p ?o }
}"""

ONTOLOGY_QUERY = """SELECT ?x ?label ?notation WHERE {
  GRAPH ?ontology { ?x rdfs:label ?label OPTIONAL { ?x skos:notation ?notation } }
}"""

_ONTOLOGY_KEY = "benchgraph.benchmark_page.ontology"


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
class Vocabulary:
    """The labels and notations of the ontology's terms: the same for every page of a store,
    so fetched once per app."""

    labels: dict[str, str]
    notations: dict[str, str]


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
    labels: dict[str, str]
    vocabulary: Vocabulary
    truncated: bool

    def label(self, iri: str) -> str | None:
        return self.labels.get(iri) or self.vocabulary.labels.get(iri)

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
    labels: _Labels = {}
    for statement in benchmark.get(rdfs.label):
        _offer(labels, description.node, statement.object)
    parts: dict[str, Node] = {}
    seen: set[Statement] = set()  # a row per label of the object: the statement once
    for part, predicate, obj, graph, label in store.query(PARTS_QUERY, bindings).rows:
        assert isinstance(part, ox.NamedNode) and isinstance(predicate, ox.NamedNode)
        assert isinstance(graph, ox.NamedNode) and obj is not None
        statement = Statement(part, predicate, obj, graph)
        if statement not in seen:
            seen.add(statement)
            parts.setdefault(part.value, Node(part.value)).add(statement)
        if label is not None:
            _offer(labels, obj, label)
    for x, label in store.query(LABELS_QUERY, bindings).rows:
        assert x is not None and label is not None
        _offer(labels, x, label)
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
    return Neighbourhood(
        benchmark, description.incoming, parts, records, describing,
        {iri: label.value for iri, label in labels.items()},
        vocabulary(store), description.truncated,
    )


def vocabulary(store: Store) -> Vocabulary:
    """The ontology's labels and notations, queried on the app's first benchmark page."""
    extensions = current_app.extensions
    known: Vocabulary | None = extensions.get(_ONTOLOGY_KEY)
    if known is None:
        labels: _Labels = {}
        notations: dict[str, str] = {}
        rows = store.query(ONTOLOGY_QUERY, {"ontology": ox.NamedNode(ONTOLOGY_IRI)}).rows
        for x, label, notation in rows:
            assert x is not None and label is not None
            _offer(labels, x, label)
            if notation is not None:
                notations[x.value] = notation.value
        known = extensions[_ONTOLOGY_KEY] = Vocabulary(
            {iri: label.value for iri, label in labels.items()}, notations)
    return known


_Labels = dict[str, ox.Literal]


def _offer(labels: _Labels, node: object, label: object) -> None:
    """Keep one label per node whatever order the rows come in: English or untagged first,
    then the smallest."""
    assert isinstance(node, (ox.NamedNode, ox.BlankNode, ox.Literal))
    if not isinstance(label, ox.Literal):
        return
    held = labels.get(node.value)
    if held is None or _rank(label) < _rank(held):
        labels[node.value] = label


def _rank(label: ox.Literal) -> tuple[int, str]:
    return (0 if label.language in (None, "en") else 1, label.value)


def statements_of(nodes: Iterable[Node]) -> Iterable[Statement]:
    for node in nodes:
        for group in node.statements.values():
            yield from group


__all__ = [
    "LABELS_QUERY",
    "LINKING_RECORDS_QUERY",
    "ONTOLOGY_QUERY",
    "PARTS_QUERY",
    "PART_LINKS",
    "RECORDS_QUERY",
    "Neighbourhood",
    "Node",
    "Plain",
    "Vocabulary",
    "bench",
    "dcterms",
    "gather",
    "prov",
    "rdf",
    "rdfs",
    "schema",
    "skos",
    "statements_of",
    "vocabulary",
]
