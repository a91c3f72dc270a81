"""Writing graphs out: every format of the registry (``graph.export.formats``), each by one
writer of pyoxigraph quads (``graph.export.writers``); a file replaced whole
(``graph.export.atomic``: only a regular file is ever replaced; a stream, a device or a FIFO
is written in place).

The whole graph is written from a store, in the store's own order (``graph.export.store_dump``).
Anything else is a few statements in memory, written by ``serialize`` (rdflib quads) or
``serialize_quads`` (pyoxigraph's): their distinct statements sorted by the N-Triples forms of
graph, subject, predicate and object, so the same quads in any order, with any repeats,
always give the same bytes.

Turtle, N-Triples and RDF/XML hold the union of the named graphs (a triple stated in two
graphs appears once). TriG, N-Quads and JSON-LD keep each named graph: JSON-LD is written
expanded, one ``{"@id": graph, "@graph": [...]}`` object per named graph, with no
``@context``. Turtle, TriG and RDF/XML declare the prefixes of ``graph.namespace.PREFIXES``
and, when ``base`` is given, the prefix ``base:`` for the data's base IRI.

Query results are written by ``serialize_result`` (``graph.export.query_results``): a
CONSTRUCT or DESCRIBE graph by these same writers, a SELECT or ASK answer by the results
writers of ``graph.sparql.results``.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from io import BytesIO

import pyoxigraph as ox
from rdflib import BNode, Dataset, Graph, URIRef

from graph.dataset.oxigraph import to_oxigraph
from graph.dataset.quads import Quad
from graph.export.atomic import write_atomically
from graph.export.formats import Format, FormatError
from graph.namespace import BASE_PREFIX, PREFIXES
from graph.system.gc_pause import gc_paused


@dataclass(frozen=True)
class Serialized:
    """A graph serialised in memory."""

    format: Format
    data: bytes
    statements: int
    """Triples written (union formats) or quads written (formats that keep named graphs)."""


def prefixes_for(base: str | None = None) -> dict[str, str]:
    """The prefixes Turtle and TriG declare: ``PREFIXES``, plus ``base:`` for ``base``."""
    prefixes = dict(sorted(PREFIXES.items()))
    if base is not None:
        prefixes[BASE_PREFIX] = base
    return prefixes


def serialize(
    quads: Iterable[Quad], fmt: Format, *, base: str | None = None, as_graph: bool = False
) -> Serialized:
    """The rdflib quads in ``fmt``, as bytes; ``base`` (the data's base IRI) adds the
    ``base:`` prefix. ``as_graph`` writes one graph (the union) even in a format that keeps
    named graphs: how a query's result graph is written. The same quads, in any order and
    with any repeats, always give the same bytes.

    FormatError for a format of query results, or a graph the format cannot hold; ValueError
    for a term pyoxigraph cannot write (an invalid IRI or language tag, a string that is not
    valid Unicode), TypeError for a blank node or a row that is not a quad."""
    return serialize_quads(map(_oxigraph_quad, quads), fmt, prefixes_for(base),
                           as_graph=as_graph)


def serialize_quads(
    quads: Iterable[ox.Quad], fmt: Format, prefixes: dict[str, str], *, as_graph: bool = False
) -> Serialized:
    """The pyoxigraph quads in ``fmt``, declaring ``prefixes``, as ``serialize`` writes them:
    each distinct statement once (of the union, unless the format keeps graphs and
    ``as_graph`` is false), sorted by the N-Triples forms of graph, subject, predicate and
    object. FormatError for a format of query results, or a graph the format cannot hold."""
    writer = fmt.rdf_writer
    if writer is None:
        raise FormatError(f"{fmt.name} is a format of query results, not of a graph")
    if as_graph or not fmt.keeps_graphs:
        quads = (ox.Quad(quad.subject, quad.predicate, quad.object) for quad in quads)
    statements = sorted(set(quads), key=_forms)
    out = BytesIO()
    written = writer(statements, out, prefixes)
    return Serialized(fmt, out.getvalue(), written)


def _forms(quad: ox.Quad) -> tuple[str, str, str, str]:
    return str(quad.graph_name), str(quad.subject), str(quad.predicate), str(quad.object)


def _oxigraph_quad(row: Quad) -> ox.Quad:
    """An rdflib quad of IRIs and literals as pyoxigraph's (``serialize`` says what it
    raises)."""
    if len(row) != 4:
        raise TypeError(f"a quad has four terms (subject, predicate, object, graph), not {row!r}")
    for term in row:
        if isinstance(term, BNode):
            raise TypeError(f"a graph written out holds no blank node: {term!r} in {row!r}")
    try:
        subject, predicate, obj, graph = [to_oxigraph(term) for term in row]
    except ValueError:
        for term in row:
            try:
                str(term).encode()
            except UnicodeEncodeError as bad:
                raise ValueError(f"not valid Unicode ({bad.reason}): {term!r}") from None
        raise
    if not (isinstance(subject, ox.NamedNode) and isinstance(predicate, ox.NamedNode)
            and isinstance(graph, ox.NamedNode)):
        raise TypeError(f"a quad's subject, predicate and graph are IRIs, not {row!r}")
    return ox.Quad(subject, predicate, obj, graph)


def to_dataset(quads: Iterable[Quad]) -> Dataset:
    """An rdflib Dataset with one named graph per graph name; its default graph is their union
    (``default_union=True``), as the validator and SPARQL queries expect.

    rdflib adds one triple at a time whatever the API (``addN`` loops too); adding to each
    named graph with the collector paused is the fastest way measured
    (perf/decisions/collector-paused.md)."""
    dataset = Dataset(default_union=True)
    graphs: dict[URIRef, Graph] = {}
    with gc_paused():
        for subject, predicate, obj, name in quads:
            graph = graphs.get(name)
            if graph is None:
                graph = graphs[name] = dataset.graph(name)
            graph.add((subject, predicate, obj))
    return dataset


__all__ = [
    "Serialized",
    "prefixes_for",
    "serialize",
    "serialize_quads",
    "to_dataset",
    "write_atomically",
]
