"""The unit the build produces and every writer consumes: one statement in one named graph."""

from rdflib import Literal, URIRef

Object = URIRef | Literal
Quad = tuple[URIRef, URIRef, Object, URIRef]
"""(subject, predicate, object, named graph). The graph never holds blank nodes."""
