"""A store's graph written out whole, streamed from the store's own indexes: the dumps a store
serves (``graph.store.files``) and the file ``benchgraph build -o`` writes.

Every format is written by its writer of the registry (``graph.export.writers``), which holds
nothing but the statements of one subject: the store is read in its index order, which on
disk groups each graph's statements by subject, and written as it is read. An in-memory
store gives its statements in the order they were added: each subject's are then looked up
together (``grouped``).

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


def write_dump(store: ox.Store, fmt: Format, out: BinaryIO, prefixes: dict[str, str], *,
               grouped: bool = False) -> int:
    """The whole graph of ``store`` in ``fmt``, written to ``out`` as it is read, declaring
    ``prefixes`` where the format can; the number of statements written. With ``grouped``
    (a store in memory), each subject's statements are looked up together. FormatError for
    a format of query results, or (RDF/XML) a graph the format cannot hold, once part of it
    may be written."""
    writer = fmt.rdf_writer
    if writer is None:
        raise FormatError(f"{fmt.name} is a format of query results, not of a graph")
    graphs = sorted(store.named_graphs(), key=str) if fmt.keeps_graphs else [ox.DefaultGraph()]
    read = _by_subject if grouped else _in_order
    return writer(chain.from_iterable(read(store, graph) for graph in graphs), out, prefixes)


def _in_order(store: ox.Store, graph: ox.NamedNode | ox.BlankNode | ox.DefaultGraph
                ) -> Iterator[ox.Quad]:
    return store.quads_for_pattern(None, None, None, graph)


def _by_subject(store: ox.Store, graph: ox.NamedNode | ox.BlankNode | ox.DefaultGraph
                ) -> Iterator[ox.Quad]:
    """``graph``'s statements, each subject's together: those of a subject met for the first
    time, looked up by it (the subjects met are held)."""
    met: set[ox.NamedNode | ox.BlankNode | ox.Triple] = set()
    for quad in store.quads_for_pattern(None, None, None, graph):
        if quad.subject not in met:
            met.add(quad.subject)
            yield from store.quads_for_pattern(quad.subject, None, None, graph)


__all__ = ["write_dump"]
