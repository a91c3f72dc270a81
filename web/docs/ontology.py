"""The ontology as documentation: its classes, properties and vocabularies, read from
``ontology/*.ttl``, with how many nodes of the served graph use each term.

The terms' words (label, comment, domain, range) are the ontology's own, as the files state
them; the counts come from the store, one query for every class and one for every property,
made once per app (its store never changes while it is served).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, partial

import pyoxigraph as ox
from flask import Flask, current_app
from rdflib import Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS, SKOS
from rdflib.term import Node

from graph.namespace import BENCH_IRI, curie
from graph.ontology import ONTOLOGY_FILES, ontology_graph
from graph.resources import data_dir
from graph.store.base import Store

_KINDS = {OWL.Class: "class", OWL.ObjectProperty: "object property",
          OWL.DatatypeProperty: "datatype property", RDF.Property: "property"}
_USAGE_KEY = "benchgraph.docs.usage"
_USAGE_LOCK = "benchgraph.docs.usage.lock"


@dataclass(frozen=True)
class TermRef:
    """A term a definition points at (a domain, a range, a superclass)."""

    iri: str
    text: str
    """Its local name for a ``bench:`` term, else its CURIE."""
    anchor: str | None
    """The term's anchor on the ontology page, when it is the ontology's own."""


@dataclass(frozen=True)
class TermDoc:
    """One class or property, as the ontology page shows it."""

    name: str
    """The local name: the page's anchor (``/ontology#Benchmark``)."""
    iri: str
    kind: str
    label: str
    comment: str
    domain: tuple[TermRef, ...]
    range: tuple[TermRef, ...]
    parents: tuple[TermRef, ...]
    """``rdfs:subClassOf`` or ``rdfs:subPropertyOf``."""

    @property
    def is_class(self) -> bool:
        return self.kind == "class"


@dataclass(frozen=True)
class Individual:
    """A member of a controlled vocabulary, which has a page of its own."""

    name: str
    label: str
    comment: str
    notation: str


@dataclass(frozen=True)
class Scheme:
    """A controlled vocabulary (a SKOS concept scheme) and its members."""

    name: str
    label: str
    comment: str
    members: tuple[Individual, ...]


@dataclass(frozen=True)
class OntologyDoc:
    """Everything the ontology page shows but the counts."""

    title: str
    comment: str
    version: str
    classes: tuple[TermDoc, ...]
    properties: tuple[TermDoc, ...]
    schemes: tuple[Scheme, ...]


def local_name(iri: str) -> str:
    """The part after the ontology's namespace (``Benchmark``), or ``""`` for another IRI."""
    return iri[len(BENCH_IRI):] if iri.startswith(BENCH_IRI) else ""


@cache
def ontology_doc() -> OntologyDoc:
    """The ontology's terms, in the order the files define them (read once per process)."""
    graph = ontology_graph()
    order = _definition_order()
    terms = [_term(graph, subject, kind) for rdf_type, kind in _KINDS.items()
             for subject in graph.subjects(RDF.type, rdf_type) if local_name(str(subject))]
    terms.sort(key=lambda term: order.get(term.name, len(order)))
    header = URIRef(BENCH_IRI.rstrip("#"))
    schemes = sorted(map(partial(_scheme, graph), graph.subjects(RDF.type, SKOS.ConceptScheme)),
                     key=lambda scheme: order.get(scheme.name, len(order)))
    return OntologyDoc(
        title=_text(graph, header, RDFS.label) or "benchgraph ontology",
        comment=_text(graph, header, RDFS.comment),
        version=_text(graph, header, OWL.versionInfo),
        classes=tuple(term for term in terms if term.is_class),
        properties=tuple(term for term in terms if not term.is_class),
        schemes=tuple(schemes),
    )


def documents() -> dict[str, str]:
    """The anchor on the ontology page of each IRI that names the ontology as a document: its
    own, its version's, and the parts it names with ``rdfs:seeAlso`` below it
    (``…/ontology/vocabularies``: the vocabularies' section)."""
    graph = ontology_graph()
    found: dict[str, str] = {}
    for header in graph.subjects(RDF.type, OWL.Ontology):
        found[str(header)] = ""
        found.update((str(version), "") for version in graph.objects(header, OWL.versionIRI))
        for part in graph.objects(header, RDFS.seeAlso):
            if str(part).startswith(f"{header}/"):
                found[str(part)] = str(part).rsplit("/", 1)[-1]
    return found


def ontology_turtle() -> bytes:
    """The ontology files as they are in ``ontology/``, one after another, each under a comment
    naming it (Turtle allows a prefix to be declared again, so the whole is Turtle too)."""
    parts = [f"# ---- ontology/{name} ----\n".encode() + (data_dir("ontology") / name).read_bytes()
             for name in ONTOLOGY_FILES]
    return b"\n".join(parts)


def init_app(app: Flask) -> None:
    """Make room for the counts of the app's store (``usage``)."""
    app.extensions[_USAGE_KEY] = None
    app.extensions[_USAGE_LOCK] = threading.Lock()


def usage(store: Store) -> dict[str, int]:
    """How many nodes use each term: instances of a class, subjects of a property (counted in
    the default graph, the merge of every record, the build and the ontology). Counted once per
    app: its store never changes while it is served."""
    extensions = current_app.extensions
    found: dict[str, int] | None = extensions[_USAGE_KEY]
    if found is None:
        with extensions[_USAGE_LOCK]:
            found = extensions[_USAGE_KEY]
            if found is None:
                found = extensions[_USAGE_KEY] = _count_usage(store, ontology_doc())
    return found


def _count_usage(store: Store, doc: OntologyDoc) -> dict[str, int]:
    counts: dict[str, int] = {}
    for terms, pattern in ((doc.classes, "?node a ?term"), (doc.properties, "?node ?term ?value")):
        values = " ".join(str(ox.NamedNode(term.iri)) for term in terms)
        result = store.query(f"SELECT ?term (COUNT(DISTINCT ?node) AS ?n) WHERE {{ VALUES ?term "
                             f"{{ {values} }} {pattern} }} GROUP BY ?term")
        for term, count in result.rows:
            assert isinstance(term, ox.NamedNode) and isinstance(count, ox.Literal)
            counts[term.value] = int(count.value)
    return counts


def _definition_order() -> dict[str, int]:
    """Each term's position in the files, so the page follows the ontology's own layout."""
    order: dict[str, int] = {}
    for name in ONTOLOGY_FILES:
        for line in (data_dir("ontology") / name).read_text(encoding="utf-8").splitlines():
            if line.startswith("bench:"):
                order.setdefault(line.split()[0].removeprefix("bench:"), len(order))
    return order


def _term(graph: Graph, subject: Node, kind: str) -> TermDoc:
    iri = str(subject)
    parent = RDFS.subClassOf if kind == "class" else RDFS.subPropertyOf
    return TermDoc(
        name=local_name(iri), iri=iri, kind=kind,
        label=_text(graph, subject, RDFS.label), comment=_text(graph, subject, RDFS.comment),
        domain=_refs(graph.objects(subject, RDFS.domain)),
        range=_refs(graph.objects(subject, RDFS.range)),
        parents=_refs(graph.objects(subject, parent)),
    )


def _scheme(graph: Graph, node: Node) -> Scheme:
    members = sorted(
        (Individual(local_name(str(member)), _text(graph, member, RDFS.label),
                    _text(graph, member, RDFS.comment), _text(graph, member, SKOS.notation))
         for member in graph.subjects(SKOS.inScheme, node)),
        key=lambda individual: individual.name)
    return Scheme(local_name(str(node)), _text(graph, node, RDFS.label),
                  _text(graph, node, RDFS.comment), tuple(members))


def _refs(nodes: Iterable[Node]) -> tuple[TermRef, ...]:
    refs = []
    for node in sorted(nodes, key=str):
        iri = str(node)
        name = local_name(iri)
        refs.append(TermRef(iri, name or curie(iri), name or None))
    return tuple(refs)


def _text(graph: Graph, subject: Node, predicate: URIRef) -> str:
    value = graph.value(subject, predicate)
    return "" if value is None else str(value)


__all__ = ["OntologyDoc", "Scheme", "TermDoc", "documents", "init_app", "local_name",
           "ontology_doc", "ontology_turtle", "usage"]
