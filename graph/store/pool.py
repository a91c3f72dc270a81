"""Query processes, and the time limit that really stops a query.

pyoxigraph 0.5 has no timeout and no way to cancel a running query from Python, and a
signal handler runs only once the query has returned. So a limit must end the work from
outside: each query runs in a long-lived child process (``graph.store.executor``) that has
opened the store read-only once; the parent waits for the answer until the deadline, and
past it kills the child (SIGKILL: it holds nothing worth saving) and starts a new one.

The command line and the web app use this one mechanism. A ``QueryPool`` belongs to the
process that made it (a gunicorn worker, a CLI run); each thread of that process borrows a
free child for one query. A child is a new interpreter (``python -m graph.store.executor``)
talking over a socket pair, never a fork: a gunicorn worker runs threads, and forking a
threaded process copies locks other threads hold; ``multiprocessing``'s ``spawn`` and
``forkserver`` would re-run the parent's main module in each child.
"""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import graph
from graph.errors import BenchgraphError, ErrorKind
from graph.store.executor import READY, Failure, QueryRequest
from graph.store.result import QueryResult

_PACKAGE_ROOT = str(Path(graph.__file__).resolve().parent.parent)
_CHILD_MAIN = "import sys; from graph.store.executor import main; main(sys.argv[1:])"
"""The child's program (not ``-m graph.store.executor``, which would make the module
``__main__`` and the classes it sends back unknown to the parent's unpickler)."""
_START_TIMEOUT = 60.0
"""Seconds a new query process may take to open its store."""


class QueryTimeout(BenchgraphError):
    """A query stopped by its time limit, or one that found no free query process in time."""

    kind = ErrorKind.LIMIT


class QueryProcessError(RuntimeError):
    """A query process that died or failed in a way no query should make it: a bug, or the
    system killed it; never the user's doing."""


@dataclass
class _Child:
    """One query process and the parent's end of its socket."""

    process: subprocess.Popen[bytes]
    connection: Connection
    ready: bool = False

    @classmethod
    def start(cls, store_path: Path) -> _Child:
        ours, theirs = socket.socketpair()
        environment = dict(os.environ)
        environment["PYTHONPATH"] = os.pathsep.join(
            filter(None, [_PACKAGE_ROOT, environment.get("PYTHONPATH")]))
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", _CHILD_MAIN, str(theirs.fileno()), str(store_path)],
                pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, env=environment,
            )
        finally:
            theirs.close()
        return cls(process, Connection(ours.detach()))

    def wait_ready(self, deadline: float) -> Failure | None:
        """Wait for the process to open its store: None once it has, else why not."""
        if self.ready:
            return None
        if not self.connection.poll(max(deadline - time.monotonic(), 0)):
            return Failure("store", "the query process did not open the store in time")
        hello = self.connection.recv()
        if isinstance(hello, Failure):
            return hello
        self.ready = hello == READY
        return None

    def stop(self) -> None:
        """Kill the process and reap it."""
        self.connection.close()
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


@dataclass
class QueryPool:
    """``size`` query processes over the read-only store at ``store_path``."""

    store_path: Path
    size: int = 1
    owner: int = field(init=False, default_factory=os.getpid)
    """The process the pool belongs to: only it may use or stop the children."""
    _idle: queue.LifoQueue[_Child] = field(init=False, repr=False, default_factory=queue.LifoQueue)
    _lock: threading.Lock = field(init=False, repr=False, default_factory=threading.Lock)
    _children: list[_Child] = field(init=False, repr=False, default_factory=list)
    _closed: bool = field(init=False, repr=False, default=False)

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError("a query pool needs at least one process")
        for _ in range(self.size):
            self._add()

    def run(self, request: QueryRequest, timeout: float) -> QueryResult | Failure:
        """The answer to ``request``; QueryTimeout once ``timeout`` seconds have passed (the
        wait for a free process counts)."""
        if os.getpid() != self.owner:
            raise QueryProcessError("a query pool is used only by the process that made it")
        deadline = time.monotonic() + timeout
        try:
            child = self._idle.get(timeout=timeout)
        except queue.Empty:
            raise QueryTimeout(f"no query process was free within {timeout:g} s: the server "
                               "is busy; try again") from None
        answer: QueryResult | Failure | None = None
        try:
            answer = child.wait_ready(time.monotonic() + _START_TIMEOUT)
            if answer is None:
                child.connection.send(request)
                if not child.connection.poll(max(deadline - time.monotonic(), 0)):
                    raise QueryTimeout(f"the query ran longer than its time limit of "
                                       f"{timeout:g} s and was stopped")
                answer = child.connection.recv()
                self._idle.put(child)
                return answer
            return answer  # the process could not open the store
        except (EOFError, OSError) as error:
            raise QueryProcessError(f"the query process stopped unexpectedly ({error})") from None
        finally:
            if answer is None or (isinstance(answer, Failure) and not child.ready):
                self._replace(child)

    def _add(self) -> None:
        child = _Child.start(self.store_path)
        with self._lock:
            self._children.append(child)
        self._idle.put(child)

    def _replace(self, child: _Child) -> None:
        """Kill ``child`` and put a new process in its place."""
        child.stop()
        with self._lock:
            if child in self._children:
                self._children.remove(child)
            closed = self._closed
        if not closed:
            self._add()

    def close(self) -> None:
        """Stop every query process (idempotent; only in the process that owns them)."""
        with self._lock:
            self._closed = True
            children, self._children = self._children, []
        if os.getpid() == self.owner:
            for child in children:
                child.stop()


__all__ = ["QueryPool", "QueryProcessError", "QueryTimeout"]
