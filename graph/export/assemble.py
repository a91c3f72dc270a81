"""Text made of per-term pieces: the last step of the N-Triples, N-Quads, Turtle and TriG
writers.

A writer decides, for every statement, which piece of each kind comes next (a list of bytes
made once per term, and a numpy column of indices into it); ``interleave`` joins them row by
row. It works a chunk of rows at a time, so a million statements never hold a million Python
integers at once.
"""

from collections.abc import Sequence
from itertools import chain

import numpy as np
import numpy.typing as npt

CHUNK = 1 << 17
"""Rows joined at a time."""


def interleave(
    pieces: Sequence[tuple[list[bytes], npt.NDArray[np.int64]]], head: bytes = b""
) -> list[bytes]:
    """``head``, then for each row i: ``values[indices[i]]`` of every (values, indices) in
    ``pieces``, in that order; in chunks, to be written one after another."""
    rows = len(pieces[0][1]) if pieces else 0
    chunks = [head]
    for start in range(0, rows, CHUNK):
        columns = [
            map(values.__getitem__, indices[start : start + CHUNK].tolist())
            for values, indices in pieces
        ]
        chunks.append(b"".join(chain.from_iterable(zip(*columns, strict=True))))
    return chunks
