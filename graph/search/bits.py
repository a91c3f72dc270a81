"""Sets of benchmarks as bit masks: how the list counts facet values under any choice.

Each facet value keeps, in the index, the set of benchmarks that have it as a bit mask (bit
``n`` for the benchmark numbered ``n``), and each sort the benchmark numbers in its order.
A request then needs no query per facet: the benchmarks a choice gives are an OR of masks
within a facet and an AND across facets, and a value's count is the population count of
its mask ANDed with that; Python's integers do both in C, far faster than the same counts
as SQL ``GROUP BY``s over a membership table (perf/decisions/facets-from-the-index.md).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence

import numpy as np


def pack(numbers: Iterable[int]) -> bytes:
    """A mask with the bits of ``numbers`` set, little-endian."""
    ordered = sorted(numbers)
    packed = bytearray(ordered[-1] // 8 + 1 if ordered else 0)
    for number in ordered:
        packed[number >> 3] |= 1 << (number & 7)
    return bytes(packed)


def unpack(packed: bytes) -> int:
    """A mask as an integer."""
    return int.from_bytes(packed, "little")


def every(count: int) -> int:
    """The mask of the benchmarks numbered 1 to ``count``."""
    return (1 << (count + 1)) - 2


def order(numbers: Sequence[int]) -> bytes:
    """Benchmark numbers in an order, as the index keeps them."""
    return array("i", numbers).tobytes()


def in_order(mask: int, ordered: bytes, count: int) -> list[int]:
    """The numbers of ``mask``, in the order ``ordered`` keeps (``count`` benchmarks in all)."""
    numbers = np.frombuffer(ordered, dtype=np.int32)
    bits = np.unpackbits(np.frombuffer(mask.to_bytes(count // 8 + 1, "little"), dtype=np.uint8),
                         bitorder="little")
    return [int(number) for number in numbers[bits[numbers] == 1]]


__all__ = ["every", "in_order", "order", "pack", "unpack"]
