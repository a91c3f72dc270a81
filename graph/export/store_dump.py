"""A store's graph written out whole, streamed from the store's own indexes: the dumps a store
serves (``graph.store.files``) and the file ``benchgraph build -o`` writes.

Every format is written by its writer of the registry (``graph.export.writers``), which holds
nothing but the statements of one subject: the store is read in its index order, which on
disk groups each graph's statements by subject, and written as it is read. (An in-memory
store gives its statements in no such order: its Turtle says the same statements, but a
subject may be written in several blocks.)

- Turtle, N-Triples and RDF/XML are the default graph, which holds the merge of the named
  graphs.
- TriG, N-Quads and JSON-LD keep each named graph, one after another in the order of their
  IRIs; the default graph (the merge again) is left out.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import BinaryIO

import pyoxigraph as ox

from graph.export.formats import Format, FormatError


def write_dump(store: ox.Store, fmt: Format, out: BinaryIO, prefixes: dict[str, str]) -> int:
    """The whole graph of ``store`` in ``fmt``, written to ``out`` as it is read, declaring
    ``prefixes`` where the format can; the number of statements written. FormatError for a
    format of query results, or (RDF/XML) a graph the format cannot hold, once part of it
    may be written."""
    writer = fmt.rdf_writer
    if writer is None:
        raise FormatError(f"{fmt.name} is a format of query results, not of a graph")
    quads = (_named_quads(store) if fmt.keeps_graphs
             else store.quads_for_pattern(None, None, None, ox.DefaultGraph()))
    return writer(quads, out, prefixes)


def _named_quads(store: ox.Store) -> Iterator[ox.Quad]:
    """Every named graph's statements, a graph after another in the order of their IRIs."""
    graphs = sorted(store.named_graphs(), key=str)
    return chain.from_iterable(store.quads_for_pattern(None, None, None, graph)
                               for graph in graphs)


__all__ = ["write_dump"]
