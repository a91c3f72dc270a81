"""A query's result in a format of the registry: the one way the CLI and the web app write one.

A SELECT or ASK answer is written by its results writer (``graph.sparql.results``). A
CONSTRUCT or DESCRIBE graph is written by the writers of the exports (``graph.export``), as one
graph, sorted as ``graph.export.serialize_quads`` sorts it, so a result reads like the same
triples in a dump: same prefixes, same layout, each term as the store holds it. The graph
holds no blank node there; a result that has some (a CONSTRUCT template with ``[]``) is
written by pyoxigraph's own serialiser instead, which can label them (RDF/XML by the export's
writer, for its guards, in the order of the result).
"""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO
from typing import TYPE_CHECKING, cast

import pyoxigraph as ox

from graph.export import prefixes_for, serialize_quads
from graph.export.formats import RDFXML, Format
from graph.export.writers import write_rdfxml
from graph.sparql.results import FormatError, TableLayout

if TYPE_CHECKING:
    from graph.sparql.result import QueryResult


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
    quads = (ox.Quad(t.subject, t.predicate, t.object) for t in triples)  # the default graph
    return serialize_quads(quads, fmt, prefixes_for(base), as_graph=True).data


def _with_blank_nodes(triples: Sequence[ox.Triple], fmt: Format,
                      prefixes: dict[str, str]) -> bytes:
    if fmt is RDFXML:
        out = BytesIO()
        write_rdfxml((ox.Quad(t.subject, t.predicate, t.object) for t in triples), out, prefixes)
        return out.getvalue()
    oxigraph_format = ox.RdfFormat.from_media_type(fmt.media_type)
    assert oxigraph_format is not None, fmt  # every RDF format of the registry is one of its
    return cast(bytes, ox.serialize(triples, format=oxigraph_format, prefixes=prefixes))


__all__ = ["serialize_result"]
