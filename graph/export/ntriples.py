"""N-Triples and N-Quads: one statement a line, in canonical order (``graph.dataset.canonical``),
each term in the N-Triples form the term table holds. This text is also what pyoxigraph
reads to write JSON-LD and to fill a store."""

from itertools import repeat

from graph.dataset.canonical import Canonical
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT
from graph.export.assemble import interleave


def write_ntriples(statements: Canonical) -> list[bytes]:
    """N-Quads when the statements keep their graphs (``keep_graphs=True``), else N-Triples;
    in chunks."""
    if not len(statements):
        return []
    order = [SUBJECT, PREDICATE, OBJECT]
    if GRAPH in statements.columns:
        order.append(GRAPH)  # N-Quads write the graph last
    words = statements.words
    inner = list(map(bytes.__add__, words, repeat(b" ")))
    final = list(map(bytes.__add__, words, repeat(b" .\n")))
    columns = [statements.columns[position] for position in order]
    return interleave([*((inner, column) for column in columns[:-1]), (final, columns[-1])])
