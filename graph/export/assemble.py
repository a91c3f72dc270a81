"""Text made of per-term pieces: the last step of the N-Triples, N-Quads, Turtle and TriG
writers.

A writer decides, for every statement, which piece of each kind comes next (a list of bytes
made once per term, and a numpy column of indices into it; or one piece that every row
takes, such as the space between two terms); ``interleave`` joins them row by row. It works
a chunk of rows at a time and hands out each chunk as it is made: a file is written block by
block, so a dump of a large catalog (gigabytes of N-Quads) never stands whole in memory, and
a million statements never hold a million Python integers at once
(perf/decisions/documents-streamed.md).
"""

from collections.abc import Iterator, Sequence
from itertools import chain, repeat

import numpy as np
import numpy.typing as npt

CHUNK = 1 << 14
"""Rows joined at a time. Eight times as many made a chunk's pieces, their ids as Python ints
and its bytes a visible peak, where a store build writing a large build graph's page
reached its own; at this size nothing shows over the writer's start, and it writes as fast
(perf/decisions/documents-streamed.md)."""

Piece = tuple[list[bytes], npt.NDArray[np.int64]] | bytes
"""What each row takes next: ``values[indices[row]]`` of a (values, indices) pair, or the
same bytes for every row."""


def interleave(pieces: Sequence[Piece], rows: int, head: bytes = b"") -> Iterator[bytes]:
    """``head``, then for each of the ``rows`` rows every piece of ``pieces`` in that order;
    in chunks, made as they are asked for."""
    yield head
    for start in range(0, rows, CHUNK):
        count = min(CHUNK, rows - start)
        columns = [
            repeat(piece, count) if isinstance(piece, bytes)
            else map(piece[0].__getitem__, piece[1][start : start + count].tolist())
            for piece in pieces
        ]
        yield b"".join(chain.from_iterable(zip(*columns, strict=True)))
