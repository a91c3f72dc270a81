"""Text made of per-term pieces: the last step of the N-Triples, N-Quads, Turtle and TriG
writers.

A writer decides, for every statement, which piece of each kind comes next (a list of bytes
made once per term, and a numpy column of indices into it; or one piece that every row
takes, such as the space between two terms); ``interleave`` joins them row by row. It works
a chunk of rows at a time and hands out each chunk as it is made: a file is written block by
block, so a dump of 13 million statements (3 GB of N-Quads at 100,000 records) never stands
whole in memory, and a million statements never hold a million Python integers at once.
"""

from collections.abc import Iterator, Sequence
from itertools import chain, repeat

import numpy as np
import numpy.typing as npt

CHUNK = 1 << 14
"""Rows joined at a time. At 1 << 17 a chunk's pieces, their ids as Python ints and its bytes
held 57-106 MB at once (writing 1.3 million N-Quads), and a store build writing the
build graph's page at 100,000 records (135,000 statements) reached its peak there; at this
size nothing shows over the writer's start, and it writes as fast."""

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
