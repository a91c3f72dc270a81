"""Handing the C heap's free pages back to the system once a large piece of work is done.

Python frees what the work let go of, but glibc's allocator keeps most of it: a free chunk
is returned to the system only when it sits at the top of the heap, so the freed space
between the objects a process keeps stays in its RSS.
``malloc_trim(0)`` gives back every free page, wherever it is (perf/decisions/heap-trimmed.md;
the freed small objects that Python's own allocator keeps are not the C heap's to give
back).

glibc alone has ``malloc_trim``; elsewhere (musl, macOS) ``release_free_memory`` does
nothing and says so.
"""

from __future__ import annotations

import ctypes

from graph.system.libc import libc_function


def release_free_memory() -> bool:
    """Give the heap's free pages back to the system; False where the C library cannot
    (nothing is done)."""
    trim = libc_function("malloc_trim", (ctypes.c_size_t,))
    if trim is None:
        return False
    trim(0)
    return True


__all__ = ["release_free_memory"]
