"""The ontology and its vocabularies as data: one named graph of every build.

A built graph carries ``ontology/*.ttl`` in the named graph
``https://w3id.org/benchgraph/ontology``, so that a query, a page or an export can
label and describe every ``bench:`` term without a second source.
"""

from functools import cache

import pyoxigraph as ox
from rdflib import Graph, Literal, URIRef

from graph.dataset.oxigraph import to_rdflib
from graph.dataset.quads import Quad
from graph.namespace import ONTOLOGY_IRI
from graph.resources import data_dir

ONTOLOGY_FILES = ("bench.ttl", "vocabularies.ttl")


_Triple = tuple[URIRef, URIRef, URIRef | Literal]


@cache
def ontology_triples() -> tuple[_Triple, ...]:
    """The ontology's statements once each, in the order its files state them, parsed once per
    process by pyoxigraph and made rdflib's: faster than rdflib's own Turtle parser, and paid
    by every build and rebuild (perf/decisions/pyoxigraph-parses-and-writes.md)."""
    statements: dict[_Triple, None] = {}
    for name in ONTOLOGY_FILES:
        for quad in ox.parse(path=data_dir("ontology") / name, format=ox.RdfFormat.TURTLE):
            s, p, o = map(to_rdflib, (quad.subject, quad.predicate, quad.object))
            assert isinstance(s, URIRef) and isinstance(p, URIRef)  # no blank nodes in it
            assert isinstance(o, (URIRef, Literal))
            statements[s, p, o] = None
    return tuple(statements)


@cache
def ontology_graph() -> Graph:
    """The ontology and vocabularies as an rdflib graph, made once per process (treat as
    read-only): the vocabularies are read from it."""
    graph = Graph()
    for triple in ontology_triples():
        graph.add(triple)
    return graph


def ontology_quads() -> list[Quad]:
    """The ontology's statements, in its own named graph, in the order its files state them: a
    build adds them in that order, and a store in memory gives them back in the order they
    were added, so what a build writes is the same from one process to the next (an rdflib
    graph's order is its set's, which Python's hashes change in every process)."""
    return [(s, p, o, ONTOLOGY_IRI) for s, p, o in ontology_triples()]
