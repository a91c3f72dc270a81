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

from graph.dataset.quads import Quad
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT, QuadTable

_Ids = npt.NDArray[np.int32]


class TableGraphs:
    """The named graphs of ``table``: each one's quads, made on demand."""

    def __init__(self, table: QuadTable) -> None:
        self._terms = table.terms.terms
        # Ids fit 32 bits (a table holds far fewer than 2**31 terms): half the memory of the
        # table's own 64-bit columns, which ``column`` copies.
        self._columns = tuple(table.column(p).astype(np.int32)
                              for p in (SUBJECT, PREDICATE, OBJECT))
        graphs = table.column(GRAPH)
        order = np.argsort(graphs, kind="stable")  # each graph's rows, in the order stated
        ordered = graphs[order]
        del graphs
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]]) if len(order) else \
            np.zeros(0, dtype=np.int64)
        ends = np.r_[starts[1:], len(order)].astype(np.int64)
        self._rows: _Ids = order.astype(np.int32)
        first_stated = np.argsort(self._rows[starts], kind="stable")
        self._spans: dict[URIRef, tuple[int, int]] = {}
        for position in first_stated.tolist():
            graph = self._terms[int(ordered[starts[position]])]
            assert isinstance(graph, URIRef)  # a graph is named by an IRI
            self._spans[graph] = (int(starts[position]), int(ends[position]))

    def names(self) -> list[URIRef]:
        """Every graph of the table, in the order first stated."""
        return list(self._spans)

    def quads(self, graph: URIRef) -> list[Quad]:
        """The quads of ``graph`` in the order stated (none for a graph the table lacks)."""
        span = self._spans.get(graph)
        if span is None:
            return []
        rows = self._rows[span[0]:span[1]]
        term = self._terms.__getitem__
        subjects, predicates, objects = (map(term, column[rows].tolist())
                                         for column in self._columns)
        return [(s, p, o, graph)  # type: ignore[misc]  # subjects and predicates are IRIs
                for s, p, o in zip(subjects, predicates, objects, strict=True)]

    def each(self, skip: frozenset[URIRef] = frozenset()) -> Iterator[tuple[URIRef, list[Quad]]]:
        """Every graph but those in ``skip`` with its quads, one at a time."""
        for graph in self._spans:
            if graph not in skip:
                yield graph, self.quads(graph)
