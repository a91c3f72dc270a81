"""SHACL property paths as text: SPARQL syntax, with prefixed names for people or full IRIs
for a query."""

from collections.abc import Callable

from rdflib import BNode, Graph, URIRef
from rdflib.collection import Collection
from rdflib.namespace import RDF, SH
from rdflib.term import Node

from graph.namespace import curie

_SUFFIXES = ((SH.zeroOrMorePath, "*"), (SH.oneOrMorePath, "+"), (SH.zeroOrOnePath, "?"))


def bracketed(iri: URIRef) -> str:
    return f"<{iri}>"


def render_path(graph: Graph, path: Node, iri: Callable[[URIRef], str] = curie) -> str:
    """The SHACL path ``path`` (an IRI, or a blank node of ``graph``) in SPARQL syntax."""
    if isinstance(path, URIRef):
        return iri(path)
    if isinstance(path, BNode):
        inverse = graph.value(path, SH.inversePath)
        if inverse is not None:
            return f"^{_grouped(graph, inverse, iri)}"
        alternatives = graph.value(path, SH.alternativePath)
        if alternatives is not None:
            parts = (_grouped(graph, p, iri) for p in Collection(graph, alternatives))
            return "(" + "|".join(parts) + ")"
        for predicate, suffix in _SUFFIXES:
            inner = graph.value(path, predicate)
            if inner is not None:
                return f"{_grouped(graph, inner, iri)}{suffix}"
        if graph.value(path, RDF.first) is not None:
            return "/".join(_grouped(graph, p, iri) for p in Collection(graph, path))
    raise ValueError(f"{path!r} is not a SHACL property path")


def _grouped(graph: Graph, path: Node, iri: Callable[[URIRef], str]) -> str:
    text = render_path(graph, path, iri)
    return f"({text})" if "/" in text and not text.startswith("(") else text
