"""A build's table read graph by graph, for a validation that keeps no graph once checked.

``ValidationSession.validate(quads)`` keeps every graph's rdflib quads, so that ``update``
can check them again: at 100,000 records that is 13 million quad tuples, more than a
gigabyte, on top of the table they came from. A build checked once (``benchgraph build
--store``, ``push``) needs none of that: ``TableGraphs`` hands out the build graph and the
ontology first (every record's check reads them), then the other graphs in the order they
were first stated, making each one's rdflib quads from the table's ids only when it is
asked for. The caller drops them after checking, so only a batch lives at a time.
"""

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
from rdflib import URIRef

from graph.dataset.canonical import first_of_runs
from graph.dataset.quads import Quad
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT, QuadTable

_Ids = npt.NDArray[np.int32]


class TableGraphs:
    """The named graphs of ``table``: each one's quads, made on demand.

    The table's own rows are read in place (``QuadTable.held_rows``: it does not grow while
    it is validated). A build states each graph's quads together, so each graph is one run
    of rows, in the order first stated, and nothing more is made; only a table where some
    graph's rows are apart gets an index of its rows by graph. Copying three columns and
    sorting the rows by graph, always, held 16 bytes a quad and made 30 more on the way
    (perf/decisions/rows-read-in-place.md)."""

    def __init__(self, table: QuadTable) -> None:
        self._terms = table.terms.terms
        self._held = held = table.held_rows()
        graphs = held[:, GRAPH]
        starts = np.flatnonzero(first_of_runs(graphs))
        names = graphs[starts]
        self._rows: _Ids | None = None
        if len(np.unique(names)) < len(names):  # a graph in two runs or more: index its rows
            order = np.argsort(graphs, kind="stable")  # each graph's rows, in the order stated
            ordered = graphs[order]
            starts = np.flatnonzero(first_of_runs(ordered))
            ends = np.r_[starts[1:], len(order)]
            names = ordered[starts]
            self._rows = order.astype(np.int32)
            del order, ordered
            first_stated = np.argsort(self._rows[starts], kind="stable")
            starts, ends, names = starts[first_stated], ends[first_stated], names[first_stated]
        else:
            ends = np.r_[starts[1:], len(graphs)]
        self._spans: dict[URIRef, tuple[int, int]] = {}
        for name, start, end in zip(names.tolist(), starts.tolist(), ends.tolist(), strict=True):
            graph = self._terms[name]
            assert isinstance(graph, URIRef)  # a graph is named by an IRI
            self._spans[graph] = (start, end)

    def names(self) -> list[URIRef]:
        """Every graph of the table, in the order first stated."""
        return list(self._spans)

    def quads(self, graph: URIRef) -> list[Quad]:
        """The quads of ``graph`` in the order stated (none for a graph the table lacks)."""
        span = self._spans.get(graph)
        if span is None:
            return []
        start, end = span
        block = (self._held[start:end] if self._rows is None
                 else self._held[self._rows[start:end]])
        term = self._terms.__getitem__
        subjects, predicates, objects = (map(term, block[:, position].tolist())
                                         for position in (SUBJECT, PREDICATE, OBJECT))
        return [(s, p, o, graph)  # type: ignore[misc]  # subjects and predicates are IRIs
                for s, p, o in zip(subjects, predicates, objects, strict=True)]

    def each(self, skip: frozenset[URIRef] = frozenset()) -> Iterator[tuple[URIRef, list[Quad]]]:
        """Every graph but those in ``skip`` with its quads, one at a time."""
        for graph in self._spans:
            if graph not in skip:
                yield graph, self.quads(graph)
