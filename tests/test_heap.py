"""The C heap's free pages handed back between a store build's phases (``graph.system.heap``)."""

from pathlib import Path

import pytest

from graph.system.heap import release_free_memory


def rss_mb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) // 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_free_heap_pages_are_handed_back() -> None:
    """160 MB of 600-byte strings (beyond Python's small-object allocator, so in the C heap),
    one in fifty kept so that the heap's top stays in use: freed, the rest stays in the
    process until ``release_free_memory``, which gives back over 100 MB."""
    if not release_free_memory():
        pytest.skip("this C library cannot hand free pages back (not glibc)")
    strings = [bytes(600) for _ in range(270_000)]
    kept = strings[::50]
    del strings
    before = rss_mb()
    assert release_free_memory()
    assert before - rss_mb() > 100, (before, rss_mb())
    assert len(kept) == 5400
