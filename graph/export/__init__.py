"""Writing the graph out: every format of the registry (``graph.export.formats``), deterministic,
atomic on disk (``graph.export.atomic``: only a regular file is ever replaced; a stream, a
device or a FIFO is written in place).

rdflib's serialisers need tens of seconds for a build of 10,000 records, so the writers work on
the build's ``QuadTable`` (rdflib quads are put in one first). ``graph.dataset.canonical`` puts its
statements in canonical order, deduplicated and sorted by the N-Triples form of (graph,)
subject, predicate and object. N-Triples and N-Quads are written from it directly, Turtle and
TriG by ``graph.export.turtle``, JSON-LD and RDF/XML by pyoxigraph from the canonical N-Quads
(``graph.export.oxigraph_writers``). The same quads in any order therefore give the same bytes.

Turtle, N-Triples and RDF/XML hold the union of the named graphs (a triple stated in two
records appears once). TriG, N-Quads and JSON-LD keep each named graph: JSON-LD is written
expanded, one ``{"@id": graph, "@graph": [...]}`` object per named graph, with no
``@context``. Turtle, TriG and RDF/XML declare the prefixes of ``graph.namespace.PREFIXES``
and, when ``base`` is given, the prefix ``base:`` for the data's base IRI.

Query results are written by ``serialize_result`` (``graph.export.query_results``): a
CONSTRUCT or DESCRIBE graph by these same writers, a SELECT or ASK answer by the results
writers of ``graph.sparql.results``.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import BinaryIO

import pyoxigraph as ox
from rdflib import Dataset, Graph, URIRef

from graph.dataset.canonical import canonical
from graph.dataset.quads import Quad
from graph.dataset.table import QuadTable
from graph.export.atomic import write_atomically
from graph.export.formats import NQUADS, Format, FormatError, format_for
from graph.namespace import BASE_PREFIX, PREFIXES
from graph.system.gc_pause import gc_paused

Source = QuadTable | Iterable[Quad]
"""What the writers take: a built table, or rdflib quads."""


@dataclass(frozen=True)
class Serialized:
    """A graph serialised in memory, as the chunks the writers made (joined only on demand:
    a stream or file gets them one after another, with no second copy of the whole)."""

    format: Format
    chunks: tuple[bytes, ...]
    statements: int
    """Triples written (union formats) or quads written (formats that keep named graphs)."""

    @cached_property
    def data(self) -> bytes:
        """The whole serialisation."""
        return b"".join(self.chunks)

    @property
    def size(self) -> int:
        """Its length in bytes."""
        return sum(map(len, self.chunks))


@dataclass(frozen=True)
class Written:
    """What a write put in a file or stream."""

    format: Format
    statements: int
    """Triples written (union formats) or quads written (formats that keep named graphs)."""
    size: int
    """Bytes written."""


def prefixes_for(base: str | None = None) -> dict[str, str]:
    """The prefixes Turtle and TriG declare: ``PREFIXES``, plus ``base:`` for ``base``."""
    prefixes = dict(sorted(PREFIXES.items()))
    if base is not None:
        prefixes[BASE_PREFIX] = base
    return prefixes


def serialize(
    quads: Source, fmt: Format, *, base: str | None = None, as_graph: bool = False
) -> Serialized:
    """The quads in ``fmt``, as bytes; ``base`` (the data's base IRI) adds the ``base:`` prefix.
    ``as_graph`` writes one graph (the union) even in a format that keeps named graphs: how a
    query's result graph is written. The same quads, in any order and with any repeats,
    always give the same bytes.

    FormatError for a format of query results, or a graph the format cannot hold; ValueError
    for a term pyoxigraph cannot write (an invalid IRI or language tag), TypeError for a blank
    node or a row that is not a quad."""
    with gc_paused():
        statements, chunks = _serialized(quads, fmt, base, as_graph)
        return Serialized(fmt, tuple(chunks), statements)


def _serialized(quads: Source, fmt: Format, base: str | None, as_graph: bool = False
                ) -> tuple[int, Iterable[bytes]]:
    """How many statements the quads are in ``fmt``, and their serialisation in chunks,
    made as they are asked for (``serialize`` says what it raises)."""
    writer = fmt.rdf_writer
    if writer is None:
        raise FormatError(f"{fmt.name} is a format of query results, not of a graph")
    statements = canonical(as_table(quads), keep_graphs=fmt.keeps_graphs and not as_graph)
    return len(statements), writer(statements, prefixes_for(base))


def write_stream(
    stream: BinaryIO, quads: Source, fmt: Format, *, base: str | None = None
) -> Written:
    """Write the quads to a binary stream (``sys.stdout.buffer``), then flush it. Nothing is
    written unless the whole serialisation succeeded, so it is made whole first (a file is
    written as it is made: ``write_file``)."""
    result = serialize(quads, fmt, base=base)
    stream.writelines(result.chunks)
    stream.flush()
    return Written(fmt, result.statements, result.size)


def write_file(
    path: Path, quads: Source, fmt: Format | None = None, *, base: str | None = None
) -> Written:
    """Write the quads to ``path`` atomically (``write_atomically``), in ``fmt`` or the format
    of its extension: chunk by chunk as the writer makes them, so the whole document is never
    in memory (a dump of 100,000 records is gigabytes); a failure part way leaves a file at
    ``path`` as it was (a stream or a device is written in place: ``graph.export.atomic``)."""
    chosen = fmt or format_for(None, path)

    def write(handle: BinaryIO) -> Written:
        with gc_paused():
            statements, chunks = _serialized(quads, chosen, base)
            size = 0
            for chunk in chunks:
                handle.write(chunk)
                size += len(chunk)
        return Written(chosen, statements, size)

    return write_atomically(path, write)


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


def to_oxigraph_store(quads: Source) -> ox.Store:
    """An in-memory pyoxigraph Store holding the quads (duplicates once), bulk-loaded from
    their canonical N-Quads."""
    store = ox.Store()
    with gc_paused():
        store.bulk_load(serialize(quads, NQUADS).data, format=ox.RdfFormat.N_QUADS)
    return store


def as_table(quads: Source) -> QuadTable:
    """The quads as a ``QuadTable``: a table as it is, rdflib quads put in a new one."""
    return quads if isinstance(quads, QuadTable) else QuadTable.of(quads)


__all__ = [
    "Serialized",
    "Source",
    "Written",
    "as_table",
    "prefixes_for",
    "serialize",
    "to_dataset",
    "to_oxigraph_store",
    "write_atomically",
    "write_file",
    "write_stream",
]
