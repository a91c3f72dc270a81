"""Memory as the tests measure it: what a call allocates, by ``tracemalloc``."""

import tracemalloc
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def traced(call: Callable[[], T]) -> tuple[T, int, int]:
    """``call()``'s value, the bytes it left allocated and its peak, traced alone."""
    tracemalloc.start()
    try:
        value = call()
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return value, held, peak
