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


@cache
def ontology_graph() -> Graph:
    """The ontology and vocabularies, parsed once per process (treat as read-only).

    Parsed by pyoxigraph, its statements made rdflib's: faster than rdflib's own Turtle
    parser, and paid by every build and rebuild (the vocabularies are read from it;
    perf/decisions/pyoxigraph-parses-and-writes.md)."""
    graph = Graph()
    for name in ONTOLOGY_FILES:
        for quad in ox.parse(path=data_dir("ontology") / name, format=ox.RdfFormat.TURTLE):
            graph.add((to_rdflib(quad.subject), to_rdflib(quad.predicate),
                       to_rdflib(quad.object)))
    return graph


def ontology_quads() -> list[Quad]:
    """The ontology's statements, in its own named graph."""
    quads: list[Quad] = []
    for s, p, o in ontology_graph():
        assert isinstance(s, URIRef) and isinstance(p, URIRef)  # the ontology has no blank nodes
        assert isinstance(o, (URIRef, Literal))
        quads.append((s, p, o, ONTOLOGY_IRI))
    return quads
