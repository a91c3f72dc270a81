"""A query's result in a format of the registry: the one way the CLI and the web app write one.

A SELECT or ASK answer is written by its results writer (``graph.sparql.results``). A
CONSTRUCT or DESCRIBE graph is written by the writers of the exports (``graph.export``), as one
graph, so a result reads exactly like the same triples in a dump: same prefixes, same order,
same bytes. The graph holds no blank node there; a result that has some (a CONSTRUCT template
with ``[]``) is written by pyoxigraph's own serialiser instead, which can label them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import pyoxigraph as ox
from rdflib import URIRef

from graph.dataset.oxigraph import to_rdflib
from graph.dataset.quads import Quad
from graph.export import prefixes_for, serialize
from graph.export.formats import RDFXML, Format
from graph.export.oxigraph_writers import rdfxml
from graph.sparql.results import FormatError, TableLayout

if TYPE_CHECKING:
    from graph.sparql.result import QueryResult

RESULT_GRAPH = URIRef("urn:x-benchgraph:result")
"""The graph name a result's triples are put in to be written; never written itself."""
_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


def serialize_result(
    result: QueryResult, fmt: Format, *, base: str | None = None, width: int | None = None
) -> bytes:
    """The result in ``fmt``. ``base`` gives the data's base IRI its prefix ``base:``; ``width``
    is the widest line a table may take (None: values are never cut). FormatError when the
    format does not fit the result (a graph as CSV, a SELECT result as Turtle)."""
    if not fmt.fits(result.form):
        raise FormatError(f"format {fmt.name!r} cannot hold the result of a {result.form} query")
    if fmt.results_writer is not None:
        return fmt.results_writer(result, TableLayout(base=base, width=width)).encode("utf-8")
    triples = result.triples
    if any(isinstance(term, ox.BlankNode) for t in triples for term in (t.subject, t.object)):
        return _with_blank_nodes(triples, fmt, prefixes_for(base))
    quads = cast(list[Quad], [(to_rdflib(t.subject), to_rdflib(t.predicate), to_rdflib(t.object),
                               RESULT_GRAPH) for t in triples])  # IRIs and literals only
    return serialize(quads, fmt, base=base, as_graph=True).data


def _with_blank_nodes(triples: Sequence[ox.Triple], fmt: Format,
                      prefixes: dict[str, str]) -> bytes:
    if fmt is RDFXML:
        named = {t.predicate.value for t in triples} | {
            t.object.value for t in triples
            if t.predicate.value == _RDF_TYPE and isinstance(t.object, ox.NamedNode)}
        return rdfxml(list(triples), named, prefixes)
    oxigraph_format = ox.RdfFormat.from_media_type(fmt.media_type)
    assert oxigraph_format is not None, fmt  # every RDF format of the registry is one of its
    return cast(bytes, ox.serialize(triples, format=oxigraph_format, prefixes=prefixes))


__all__ = ["RESULT_GRAPH", "serialize_result"]
