"""The canonical order of a dataset: its distinct statements, sorted by N-Triples form.

Every writer starts here, so the same quads in any order, with any repeats, always give the
same bytes. A statement is sorted by the N-Triples forms of its (graph,) subject, predicate
and object; ``keep_graphs=False`` takes the union of the named graphs (a triple stated in two
records is one statement).

Terms are ranked by N-Triples form once; statements are then sorted as rows of ranks by
numpy: a million Python tuples sorted by string keys would take seconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT, QuadTable

Ranks = npt.NDArray[np.int64]
Ids = npt.NDArray[np.integer[Any]]
"""Term ids or ranks of any integer width."""
_PACKED_LIMIT = 2**63
"""A statement's ranks are packed into one int64 sort key when n ** width stays below this."""


@dataclass(frozen=True)
class Canonical:
    """The distinct statements of a table, sorted: one column of term ranks per position.

    A term's rank is its place in the N-Triples order of every term: ``words[rank]`` is its
    UTF-8 N-Triples form."""

    columns: dict[int, Ranks]
    """Ranks by position (``SUBJECT``, ``PREDICATE``, ``OBJECT`` and, when graphs are kept,
    ``GRAPH``); the i-th statement is the i-th entry of each."""
    words: list[bytes]

    def __len__(self) -> int:
        return len(self.columns[SUBJECT])


def canonical(table: QuadTable, *, keep_graphs: bool) -> Canonical:
    """The table's distinct statements in canonical order.

    ValueError for a string that is not valid Unicode (a lone surrogate)."""
    positions = [GRAPH, SUBJECT, PREDICATE, OBJECT] if keep_graphs else [SUBJECT, PREDICATE, OBJECT]
    order = table.terms.order()
    words = table.terms.encoded(order)
    rank = np.empty(len(order), dtype=np.int64)
    rank[np.asarray(order, dtype=np.int64)] = np.arange(len(order), dtype=np.int64)
    ranks = [rank[table.column(position)] for position in positions]
    sorted_ranks = sorted_unique_rows(ranks, len(order))
    return Canonical(dict(zip(positions, sorted_ranks, strict=True)), words)


def without_graphs(quads: Canonical) -> Canonical:
    """The distinct triples of canonical quads (``keep_graphs=True``): what ``canonical``
    makes of the same table with ``keep_graphs=False``, from the ranks already made."""
    positions = [SUBJECT, PREDICATE, OBJECT]
    triples = sorted_unique_rows([quads.columns[position] for position in positions],
                                 len(quads.words))
    return Canonical(dict(zip(positions, triples, strict=True)), quads.words)


def sorted_unique_rows(columns: Sequence[Ids], n: int) -> list[Ranks]:
    """The rows (one value of each column) sorted, each once, as 64-bit columns again. Every
    value is below ``n`` (term ranks or term ids); the columns may be of any integer type
    (a table's own 32-bit ids, read in place: ``QuadTable.held_rows``)."""
    if not len(columns[0]):
        return [np.zeros(0, dtype=np.int64) for _ in columns]
    if n ** len(columns) < _PACKED_LIMIT:
        key = np.sort(_packed(columns, n))
        key = key[first_of_runs(key)]
        digits = []
        for _ in columns[1:]:
            key, digit = np.divmod(key, n)
            digits.append(digit)
        return [key, *reversed(digits)]
    # Too many terms for one int64 key: each half of the row packs into one key.
    middle = len(columns) // 2
    halves = [_packed(columns[:middle], n), _packed(columns[middle:], n)]
    order = np.lexsort(halves[::-1])  # lexsort's last key is the primary one
    high, low = halves[0][order], halves[1][order]
    keep = first_of_runs(high) | first_of_runs(low)
    return [column[order][keep].astype(np.int64, copy=False) for column in columns]


def _packed(columns: Sequence[Ids], n: int) -> Ranks:
    key = columns[0].astype(np.int64, copy=False)  # 32-bit ids would overflow: never packed so
    for column in columns[1:]:
        key = key * n + column
    return key


def first_of_runs(values: Ids) -> npt.NDArray[np.bool_]:
    """True where a value differs from the one before it (and for the first, if any)."""
    keep = np.empty(len(values), dtype=np.bool_)
    keep[:1] = True
    np.not_equal(values[1:], values[:-1], out=keep[1:])
    return keep
