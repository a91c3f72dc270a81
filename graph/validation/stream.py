"""A build's store read graph by graph, for a validation that keeps no graph once checked.

The rdflib quads of a whole catalog are 13 million quad tuples at 100,000 records, more than
a gigabyte. A build's validation needs none of that at once: ``StoreGraphs`` reads the
build's pyoxigraph store, where each record, the build graph and
the ontology are named graphs, and makes a graph's rdflib quads only when it is asked for
(``graph.dataset.oxigraph.RdflibTerms``). The caller drops them after checking, so only a
batch lives at a time. The default graph (the merge of the named ones, in a build's store)
is not read.

The graphs are read in the caller's thread. pyoxigraph lets go of the interpreter while it
writes a graph out (``Store.dump``), but a thread doing so ahead of the caller gets it back
only at the interpreter's switch interval, once per graph, while the caller checks records
in Python: it read no faster, and held the graphs written ahead besides.
"""

from collections.abc import Iterator

import pyoxigraph as ox
from rdflib import URIRef

from graph.dataset.oxigraph import RdflibTerms
from graph.dataset.quads import Quad
from graph.dataset.terms import iri


class StoreGraphs:
    """The named graphs of ``store``: each one's quads, made on demand.

    The graphs come in the order of their names (a store keeps no order of statement), each
    one's statements in the store's order. A store holds each statement once: one stated
    twice in a graph comes once."""

    def __init__(self, store: ox.Store) -> None:
        self._store = store
        self._terms = RdflibTerms()

    def names(self) -> list[URIRef]:
        """Every named graph of the store, in the order of their names."""
        # a graph is named by an IRI in a build's store: a blank node names no record
        named = sorted(graph.value for graph in self._store.named_graphs()
                       if isinstance(graph, ox.NamedNode))
        return [iri(name) for name in named]

    def holds(self, graph: URIRef) -> bool:
        """Whether the store holds a statement in ``graph``."""
        statements = self._store.quads_for_pattern(None, None, None, ox.NamedNode(graph))
        return next(statements, None) is not None

    def quads(self, graph: URIRef) -> list[Quad]:
        """The quads of ``graph`` (none for a graph the store lacks)."""
        statements = self._store.quads_for_pattern(None, None, None, ox.NamedNode(graph))
        return self._terms.quads(statements, graph)

    def each(self, skip: frozenset[URIRef] = frozenset()) -> Iterator[tuple[URIRef, list[Quad]]]:
        """Every graph but those in ``skip`` with its quads, one at a time."""
        for graph in self.names():
            if graph not in skip:
                yield graph, self.quads(graph)
