"""The ontology and its vocabularies as data: one named graph of every build.

A built graph carries ``ontology/*.ttl`` in the named graph
``https://w3id.org/benchgraph/ontology``, so that a query, a page or an export can
label and describe every ``bench:`` term without a second source.
"""

from functools import cache

from rdflib import Graph, Literal, URIRef

from graph.dataset.quads import Quad
from graph.namespace import ONTOLOGY_IRI
from graph.resources import data_dir

ONTOLOGY_FILES = ("bench.ttl", "vocabularies.ttl")


@cache
def ontology_graph() -> Graph:
    """The ontology and vocabularies, parsed once per process (treat as read-only)."""
    graph = Graph()
    for name in ONTOLOGY_FILES:
        graph.parse(data_dir("ontology") / name, format="turtle")
    return graph


def ontology_quads() -> list[Quad]:
    """The ontology's statements, in its own named graph."""
    quads: list[Quad] = []
    for s, p, o in ontology_graph():
        assert isinstance(s, URIRef) and isinstance(p, URIRef)  # the ontology has no blank nodes
        assert isinstance(o, (URIRef, Literal))
        quads.append((s, p, o, ONTOLOGY_IRI))
    return quads
