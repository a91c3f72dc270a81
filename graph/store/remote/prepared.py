"""The files a ``sparql:`` store makes from the engine, made in a process of their own while
the server already answers.

A ``sparql:URL`` store answers pages, named queries and ``/sparql`` from the engine, which
needs nothing but the URL. Search, the faceted lists, the dumps and the validation report's
files need the files made from the data graphs read back (``RemoteStore``): made before
listening, they kept ``serve --store sparql:URL`` from answering its first query for tens of
seconds at 10,000 records and minutes at 100,000 (perf/decisions/remote-files-made-apart.md).
So ``serve`` forks one process that makes them into a folder of its own and says when they
are there by a file in it: ``ready`` naming the generation folder, or ``failed`` with the
reason. The server reads those files; until they are there, what needs them answers 503
with ``Retry-After``, saying what is being made and for how long (``StorePreparing``).

A process, not a thread: the server then forks its query processes' zygote from the process
that opened the store, and a thread running at a fork leaves the locks it held locked in every
child.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from graph.errors import BenchgraphError
from graph.store.errors import StoreError, StorePreparing

READY = "ready"
FAILED = "failed"
@dataclass
class Preparation:
    """The process making a store's files into ``root``, started by the process ``owner``."""

    root: Path
    pid: int
    started: float = field(default_factory=time.monotonic)
    owner: int = field(default_factory=os.getpid)
    _exited: bool = field(default=False, repr=False)
    _made: Path | None = field(default=None, repr=False)
    """The generation folder, once read from ``ready``: every request after asks nothing."""

    @classmethod
    def start(cls, make: Callable[[Path], Path]) -> Preparation:
        """Fork a process that runs ``make(root)`` (it returns the generation folder it made
        in ``root``) and leaves ``ready`` or ``failed`` in ``root``."""
        root = Path(tempfile.mkdtemp(prefix="benchgraph-remote-"))
        pid = os.fork()
        if pid == 0:  # the child: make the files, say how it went, never return to the caller
            code = 1
            try:
                _say(root / READY, make(root).name)
                code = 0
            except BaseException as error:
                _say(root / FAILED, error.message if isinstance(error, BenchgraphError)
                     else f"{type(error).__name__}: {error}")
            finally:
                os._exit(code)
        return cls(root, pid)

    def folder(self) -> Path:
        """The generation folder, once made. StorePreparing while it is being made,
        StoreError when it could not be."""
        if self._made is not None:
            return self._made
        ready, failed = self.root / READY, self.root / FAILED
        running = self._running()  # before reading the files: a maker that ends between
        if ready.exists():         # the two has said how it went by then
            self._made = self.root / ready.read_text(encoding="utf-8")
            return self._made
        if failed.exists():
            raise StoreError("the search index and the downloads could not be made from the "
                             f"engine: {failed.read_text(encoding='utf-8')}")
        if not running:
            raise StoreError("the process making the search index and the downloads from the "
                             "engine ended without saying why (out of memory?)")
        seconds = time.monotonic() - self.started
        raise StorePreparing(f"the search index and the downloads are being made from the "
                             f"engine ({seconds:.0f} s so far); try again in a few seconds")

    def _running(self) -> bool:
        if self._exited:
            return False
        if os.getpid() == self.owner:  # its parent: reap it, or learn another reaped it
            try:
                done, _ = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # a server that reaps every child of its own did
                done = self.pid
            self._exited = done == self.pid
            return not self._exited
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # a process of another user has that number now
            return False
        return True

    def stop(self) -> None:
        """In the process that started it: stop the maker if it still runs and remove what
        it made. Elsewhere (a worker), nothing: the folder is shared."""
        if os.getpid() != self.owner:
            return
        if self._running():
            os.kill(self.pid, signal.SIGKILL)
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
            self._exited = True
        shutil.rmtree(self.root, ignore_errors=True)


def _say(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all (a reader never sees half of it)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


__all__ = ["Preparation", "StorePreparing"]
