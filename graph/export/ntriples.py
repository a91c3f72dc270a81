"""N-Triples and N-Quads: one statement a line, in canonical order (``graph.dataset.canonical``),
each term in the N-Triples form the term table holds. This text is also what pyoxigraph
reads to write JSON-LD and to fill a store."""

from collections.abc import Iterator

from graph.dataset.canonical import Canonical
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT
from graph.export.assemble import Piece, interleave


def write_ntriples(statements: Canonical) -> Iterator[bytes]:
    """N-Quads when the statements keep their graphs (``keep_graphs=True``), else N-Triples;
    in chunks, made as they are asked for."""
    if not len(statements):
        return iter(())
    order = [SUBJECT, PREDICATE, OBJECT]
    if GRAPH in statements.columns:
        order.append(GRAPH)  # N-Quads write the graph last
    words = statements.words
    pieces: list[Piece] = []
    for position in order:
        pieces += [(words, statements.columns[position]), b" "]
    pieces[-1] = b" .\n"
    return interleave(pieces, len(statements))
