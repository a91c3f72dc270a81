"""Pausing Python's cyclic garbage collector around bulk work on a large graph."""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused(*, survivors_old: bool = False) -> Iterator[None]:
    """Pause the cyclic collector, then put its state back.

    Building, validating or writing a large catalog allocates millions of objects that form
    no cycles (terms, tuples), but the allocations alone set off collections that walk the
    whole growing heap again and again, a share of the time that grows faster than the
    catalog (perf/decisions/collector-paused.md). Reference counting still frees
    everything.

    With ``survivors_old``, every object alive when the pause ends is moved to the oldest
    generation (``gc.freeze`` then ``gc.unfreeze``, two list splices), as if it had lived
    long: for work that hands back what it made (an incremental build's report holds the
    kept state of every file), where the first collection after the pause would otherwise
    walk all of it as young objects and free nothing. A full collection still looks at them
    when one is due.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if survivors_old:
            gc.freeze()
            gc.unfreeze()
        if was_enabled:
            gc.enable()
