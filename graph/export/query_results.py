"""A query's result in a format of the registry: the one way the CLI and the web app write one.

A SELECT or ASK answer is written by its results writer (``graph.sparql.results``). A
CONSTRUCT or DESCRIBE graph is written by the writers of the exports (``graph.export``), as one
graph, so a result reads exactly like the same triples in a dump: same prefixes, same order,
same bytes. The graph holds no blank node there; a result that has some (a CONSTRUCT template
with ``[]``) is written by pyoxigraph's own serialiser instead, which can label them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import pyoxigraph as ox
from rdflib import BNode, Graph, URIRef
from rdflib.namespace import RDF

from graph.dataset.quads import Quad
from graph.export import prefixes_for, serialize
from graph.export.formats import RDFXML, Format
from graph.export.oxigraph_writers import rdfxml
from graph.sparql.results import FormatError, Layout

if TYPE_CHECKING:
    from graph.sparql.engine import QueryResult

RESULT_GRAPH = URIRef("urn:x-benchgraph:result")
"""The graph name a result's triples are put in to be written; never written itself."""


def serialize_result(
    result: QueryResult, fmt: Format, *, base: str | None = None, width: int | None = None
) -> bytes:
    """The result in ``fmt``. ``base`` gives the data's base IRI its prefix ``base:``; ``width``
    is the widest line a table may take (None: values are never cut). FormatError when the
    format does not fit the result (a graph as CSV, a SELECT result as Turtle)."""
    if not fmt.fits(result.form):
        raise FormatError(f"format {fmt.name!r} cannot hold the result of a {result.form} query")
    if fmt.results_writer is not None:
        return fmt.results_writer(result, Layout(base=base, width=width)).encode("utf-8")
    graph = result.graph if result.graph is not None else Graph()
    if any(isinstance(term, BNode) for triple in graph for term in triple):
        return _with_blank_nodes(graph, fmt, prefixes_for(base))
    quads = cast(list[Quad], [(s, p, o, RESULT_GRAPH) for s, p, o in graph])  # IRIs, literals
    return serialize(quads, fmt, base=base, as_graph=True).data


def _with_blank_nodes(graph: Graph, fmt: Format, prefixes: dict[str, str]) -> bytes:
    ntriples = graph.serialize(format="nt", encoding="utf-8")
    triples = list(ox.parse(ntriples, format=ox.RdfFormat.N_TRIPLES))
    if fmt is RDFXML:
        named = {str(p) for p in graph.predicates()} | {
            str(o) for o in graph.objects(None, RDF.type) if isinstance(o, URIRef)}
        return rdfxml(triples, named, prefixes)
    oxigraph_format = ox.RdfFormat.from_media_type(fmt.media_type)
    assert oxigraph_format is not None, fmt  # every RDF format of the registry is one of its
    return cast(bytes, ox.serialize(triples, format=oxigraph_format, prefixes=prefixes))


__all__ = ["RESULT_GRAPH", "serialize_result"]
