"""How a local store follows its folder from one generation to the next, at request boundaries.

A build into a store folder writes a new generation beside the current one and switches the
manifest to it (``graph.store.disk``), while a server may be serving the folder. The store
the server opened (``graph.store.local.LocalStore``) looks at the manifest (one ``stat``:
``graph.store.manifest.ManifestVersion``) whenever a call or a request begins, and on a
change opens the new generation (``graph.store.generations.lease_current``) and serves it
from then on: its build's facts and counts, its search index, dumps and validation report,
and a new pool of query processes over it. All of that is one ``Served``, so it moves
together.

A request that began on the old generation finishes on it: the store's ``reading`` block
holds one ``Served`` (``Generations.using``) and gives a view of the store that answers every
call from it (a server holds one from a request's first use of the store until its response
is sent). Each ``Served`` counts the calls and views using it; the one left behind by a
switch is closed once none does (its query processes stopped once their queries are
answered, its lease let go of, so that the next build may remove it). So no request fails
because a build finished, and none sees half of one generation and half of the next.

A store that never changes (the ``memory`` kind, built for itself) has one ``Served``, made
on first use, and never follows its folder.

The new generation's query processes come from the store's one zygote
(``graph.store.process.pool.Zygotes``), forked before the server's threads started, each told which
generation to open: a move forks nothing from a server whose threads run.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from graph.build.stats import GraphStats
from graph.export.formats import Format
from graph.store.artefacts import Artefacts
from graph.store.base import BuildFacts, StoredFile
from graph.store.errors import StoreError, StorePreparing
from graph.store.files import DumpWriting, kept_dump, read_validation
from graph.store.generations import Lease
from graph.store.manifest import ManifestVersion, manifest_version
from graph.store.process.executor import OnDisk
from graph.store.process.pool import QueryPool
from graph.validation.report import ValidationReport

log = logging.getLogger(__name__)
DUMP_WAIT = 10.0
"""Seconds a request waits for a dump being written before it is told to come back."""


@dataclass(eq=False)
class Served:
    """One generation as a store serves it: its folder and graph, its build's facts and
    counts, and what is made of it on first use (the query processes, the dumps' files, the
    validation report). A generation's files never change, so none of it is made twice."""

    path: Path
    facts: BuildFacts
    stats: GraphStats
    version: ManifestVersion | None = None
    """The manifest file that named it; None for a store that never changes."""
    lease: Lease | None = None
    """This process's hold on the generation folder, so that no build removes it."""
    pool: QueryPool | None = None
    pool_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    dumps: dict[str, StoredFile] = field(default_factory=dict, repr=False)
    writing: dict[str, DumpWriting] = field(default_factory=dict, repr=False)
    """The dumps being written, by format."""
    dumps_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    """Guards ``dumps`` and ``writing``, never held while a dump is written."""
    spare: Path | None = None
    """This process's own folder for the dumps a generation folder it cannot write lacks."""
    users: int = 0
    """The calls and ``reading`` blocks using it now."""
    retired: bool = False
    """Set once the store has moved on to a newer generation."""

    @property
    def source(self) -> OnDisk:
        """Where its query processes find the graph."""
        return OnDisk(self.path)

    def dump(self, fmt: Format) -> StoredFile:
        """``fmt``'s dump: the one made, else written now by its own process
        (``graph.store.files.DumpWriting``) and waited for ``DUMP_WAIT`` seconds, in which a
        small graph's is written; past them, ``StorePreparing`` (a 503 asking the client to
        come back), so that no request holds a server thread for the minutes a large graph's
        takes. One process writes each dump, whoever asks meanwhile."""
        with self.dumps_lock:
            found = self.dumps.get(fmt.name)
            if found is not None:
                return found
            if self.spare is None:
                self.spare = Path(tempfile.mkdtemp(prefix="benchgraph-dumps-"))
            writing = self.writing.get(fmt.name)
            if writing is None:
                found = kept_dump(self.path, fmt, self.spare)
                if found is not None:
                    self.dumps[fmt.name] = found
                    return found
                writing = self.writing[fmt.name] = DumpWriting.start(
                    self.path, fmt, self.facts.base, self.spare)
        try:
            found = writing.done(DUMP_WAIT)
        except StoreError:
            with self.dumps_lock:  # the next request tries again
                self.writing.pop(fmt.name, None)
            raise
        if found is None:
            raise StorePreparing(f"the {fmt.name} dump of this graph is being written: ask "
                                 "again in a few seconds")
        with self.dumps_lock:
            self.dumps[fmt.name] = found
            self.writing.pop(fmt.name, None)
        return found

    @cached_property
    def artefacts(self) -> Artefacts:
        """The generation's search index, validation report and dumps."""
        return Artefacts(self.facts.base, lambda: self.path, self.dump, lambda: self.validation)

    @cached_property
    def validation(self) -> ValidationReport | None:
        """The kept report, read once."""
        return read_validation(self.path)

    def close(self) -> None:
        """Stop its query processes and let go of the generation (idempotent)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.close()
        lease, self.lease = self.lease, None
        if lease is not None:
            lease.close()
        with self.dumps_lock:
            writing, self.writing = self.writing, {}
        for unfinished in writing.values():
            unfinished.stop()
        spare, self.spare = self.spare, None
        if spare is not None:
            shutil.rmtree(spare, ignore_errors=True)


class Generations:
    """The generation a store serves now, the older ones still in use by what began on them,
    and the move from one to the next.

    ``served`` is the first generation; with ``reopen``
    (which opens the folder's current generation, leased), the folder is followed: a call or
    a block that begins after a build switched the manifest moves the store to the new
    generation first."""

    def __init__(self, folder: Path, served: Served, *,
                 reopen: Callable[[], Served] | None = None) -> None:
        self.folder = folder
        self._served = served
        self._reopen = reopen
        self._looked_at = served.version
        self._lock = threading.Lock()
        """Guards which generation is current, and every ``Served``'s ``users``."""
        self._moving = threading.Lock()
        """Held by the one thread that opens a new generation; the others meanwhile read
        the one before (still whole: this process holds its lease)."""
        self._retired: list[Served] = []

    def current(self) -> Served:
        """The current generation (moved to first, if the folder was switched since it was
        last looked at), to read its facts: held by nothing."""
        self.follow()
        return self._now()

    def _now(self) -> Served:
        with self._lock:
            return self._served

    @contextmanager
    def using(self) -> Iterator[Served]:
        """The current generation (moved to first, as ``current``), held until the block ends:
        not closed, its lease kept, whatever builds switch to meanwhile."""
        self.follow()
        with self._lock:
            served = self._served
            served.users += 1
        try:
            yield served
        finally:
            with self._lock:
                served.users -= 1
                done = served.retired and served.users == 0 and served in self._retired
                if done:
                    self._retired.remove(served)
            if done:
                served.close()

    def follow(self) -> None:
        """Move to the generation the folder's manifest names, if a build has switched it
        since it was last looked at (one ``stat``). A manifest that cannot be served (another
        version's, another base IRI's) is logged, and the generation before stays."""
        if self._reopen is None:
            return
        version = manifest_version(self.folder)
        if version is None or version == self._looked_at:
            return
        if not self._moving.acquire(blocking=False):
            return  # another thread is moving: this call reads the generation before
        try:
            if version != self._looked_at:
                self._move(version)
        finally:
            self._moving.release()

    def _move(self, seen: ManifestVersion) -> None:
        """Open the generation the manifest names (``seen``, or one switched to since)."""
        assert self._reopen is not None
        try:
            fresh = self._reopen()
        except StoreError as error:
            log.warning("%s was rebuilt but cannot be served (%s): serving the generation "
                        "before it", self.folder, error.message)
            self._looked_at = seen  # not tried again until a build switches again
            return
        self._looked_at = fresh.version
        with self._lock:
            old = self._served
            assert old is not None, "a followed store opens its first generation at once"
            same = old.path == fresh.path  # the manifest written again: nothing to move to
            if not same:
                self._served = fresh
                old.retired = True
                idle = old.users == 0
                if not idle:
                    self._retired.append(old)
        if same:
            fresh.close()
            return
        log.info("%s: moved to %s", self.folder, fresh.path.name)
        if idle:
            old.close()

    def close(self) -> None:
        """Close every generation still open (the store is done with)."""
        with self._lock:
            every = [served for served in (self._served, *self._retired) if served is not None]
            self._retired = []
        for served in every:
            served.close()


__all__ = ["Generations", "Served"]
