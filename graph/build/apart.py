"""A full build for a store, made in a process of its own (``benchgraph build --store``).

Mapping holds a lookup of every term (term to id) until the table is frozen. Freed then,
the lookups leave holes that Python's allocator cannot hand back to the system: an arena
goes back only once all of it is free, and the terms' forms and the records' facts live
beside them, so that space was carried through validation, the dumps and the search index,
to the load (perf/decisions/build-apart.md).

So the records are loaded and mapped in a forked child (``graph.system.child``), which sends what
it built back to the parent as data and exits, its heap with it: the term table as its
forms, kinds and extras (``TermSnapshot``, the forms a run at a time) and its rows
(``numpy`` writes them as they are held); then the load report and what each mapping asked,
pickled. They go through a file of their own a part at a time, not as the job's return
value, which would be pickled whole, its pickler's memo holding every term at once. The
parent makes them afresh, packed, and goes on from there: it holds less once it has the
build than the process that mapped it held, for the time it takes to send and read it back.

The records' own pickles are not sent: the spool they are in (``graph.ingest.kept.Spool``) is made
before the fork, so both processes hold the same unnamed file, and a ``KeptRecord`` is sent
as where its pickle is. An error in the child is raised in the parent; a child that dies
(killed for memory, say) is a ``BenchgraphError`` that says so (``graph.system.child``).
"""

import pickle
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

from graph.build.graphs import BuildResult, build
from graph.dataset.table import QuadTable, TermSnapshot, TermTable
from graph.ingest.kept import KeptRecord, Spool
from graph.ingest.loader import Progress
from graph.settings import Settings
from graph.system.child import run_in_child
from graph.system.gc_pause import gc_paused

_TERMS_AT_A_TIME = 100_000
"""Forms (or extras) a pickle of the table's terms holds: the pickler's memo keeps every object of a
pickle until it is cleared (a whole table's forms: 3.3 million entries at 100,000 records)."""
_SPOOL = "spool"
"""The persistent id of the shared spool in the pickles sent."""


def build_apart(paths: Sequence[Path], settings: Settings,
                progress: Progress | None = None) -> BuildResult:
    """``graph.build.graphs.build(paths, settings, progress, keep=...)`` made in a forked child;
    the result's table frozen (``TermTable.freeze``), its records packed in a spool."""
    spool = Spool()
    with tempfile.TemporaryFile(prefix="benchgraph-build-") as channel:
        run_in_child(lambda: _send(channel, build(paths, settings, progress, keep=spool), spool),
                     "the build's process")
        channel.seek(0)
        with gc_paused():  # millions of objects made, none of them garbage
            return _receive(channel, spool)


class _Sender(pickle.Pickler):
    """Pickles with the shared spool by reference, and a spooled record as where it is."""

    def __init__(self, out: IO[bytes], spool: Spool) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self._spool = spool

    def persistent_id(self, obj: Any) -> str | None:
        return _SPOOL if obj is self._spool else None

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is KeptRecord:
            return obj.reduce_in_place()
        return NotImplemented


class _Receiver(pickle.Unpickler):
    """Reads what ``_Sender`` wrote, the spool by reference to this process's own."""

    def __init__(self, source: IO[bytes], spool: Spool) -> None:
        super().__init__(source)
        self._spool = spool

    def persistent_load(self, pid: Any) -> Spool:
        if pid != _SPOOL:
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        return self._spool


def _send(out: IO[bytes], result: BuildResult, spool: Spool) -> None:
    table = result.table
    table.terms.freeze()
    snapshot = table.terms.snapshot()
    sender = _Sender(out, spool)
    forms = snapshot.ntriples
    sender.dump((snapshot.kinds, len(forms), len(snapshot.extras)))
    for items in (forms, snapshot.extras):
        for start in range(0, len(items), _TERMS_AT_A_TIME):
            sender.dump(items[start:start + _TERMS_AT_A_TIME])
            sender.clear_memo()
    del snapshot, forms
    out.flush()
    np.save(out, table.held_rows(), allow_pickle=False)
    sender.dump((result.report, result.asked))
    out.flush()  # the child ends without flushing what it holds


def _receive(source: IO[bytes], spool: Spool) -> BuildResult:
    def load() -> Any:  # an unpickler a pickle: one keeps its memo from the last
        return _Receiver(source, spool).load()

    kinds, form_count, extra_count = load()
    forms: list[str] = []
    extras: list[str] = []
    for items, count in ((forms, form_count), (extras, extra_count)):
        while len(items) < count:
            items += load()
    terms = TermTable.restored(TermSnapshot(kinds, forms, extras))
    terms.freeze()
    table = QuadTable.of_rows(terms, np.load(source, allow_pickle=False))
    report, asked = load()
    return BuildResult(report, table, asked)


__all__ = ["build_apart"]
