"""Query processes, and the time limit that really stops a query.

pyoxigraph 0.5 has no timeout and no way to cancel a running query from Python, and a
signal handler runs only once the query has returned. So a limit must end the work from
outside: each query runs in a long-lived child process (``graph.store.executor``) that
reaches the store once; the parent waits for the answer until the deadline, and past it
kills the child (SIGKILL: it holds nothing worth saving) and starts a new one.

The command line and the web app use this one mechanism. A ``QueryPool`` belongs to the
process that made it (a gunicorn worker, a CLI run); each thread of that process borrows a
free child for one query. Children are forked by the pool's zygote (``graph.store.zygote``),
so a memory store is shared with them as it is, and none is forked from a threaded process.
"""

from __future__ import annotations

import os
import queue
import signal
import threading
import time
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection

from graph.errors import BenchgraphError, ErrorKind
from graph.store.executor import READY, Failure, QueryRequest, StoreSource, serve
from graph.store.result import QueryResult
from graph.store.zygote import Zygote

_START_TIMEOUT = 60.0
"""Seconds a new query process may take to reach its store."""


class QueryTimeout(BenchgraphError):
    """A query stopped by its time limit, or one that found no free query process in time."""

    kind = ErrorKind.LIMIT


class QueryProcessError(RuntimeError):
    """A query process that died or failed in a way no query should make it: a bug, or the
    system killed it; never the user's doing."""


@dataclass
class _Child:
    """One query process and the parent's end of its socket."""

    pid: int
    connection: Connection
    ready: bool = False

    def wait_ready(self, deadline: float) -> Failure | None:
        """Wait for the process to reach its store: None once it has, else why not."""
        if self.ready:
            return None
        if not self.connection.poll(max(deadline - time.monotonic(), 0)):
            return Failure("store", "the query process did not reach the store in time")
        hello = self.connection.recv()
        if isinstance(hello, Failure):
            return hello
        self.ready = hello == READY
        return None

    def stop(self) -> None:
        """Kill the process (its zygote reaps it)."""
        self.connection.close()
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@dataclass
class QueryPool:
    """Up to ``size`` query processes over the store ``source`` names: one started with the
    pool, the others when a query finds none free, as a connection pool grows.

    Started all at once, each opening the store, a server's two workers opened it eight
    times before their first answer: at 100,000 records, 13 processes and 309 MB PSS once
    ready, against 7 and 202 MB so; on this project's machines, memory new to a process
    costs up to 2.6 ms a megabyte (``perf/README.md``, "Memory new to a process"). A
    command that runs one query starts one process."""

    source: StoreSource
    size: int = 1
    owner: int = field(init=False, default_factory=os.getpid)
    """The process the pool belongs to: only it may use or stop the children."""
    _zygote: Zygote = field(init=False, repr=False)
    _idle: queue.LifoQueue[_Child] = field(init=False, repr=False, default_factory=queue.LifoQueue)
    _lock: threading.Lock = field(init=False, repr=False, default_factory=threading.Lock)
    _children: list[_Child] = field(init=False, repr=False, default_factory=list)
    _closed: bool = field(init=False, repr=False, default=False)
    _slots: int = field(init=False, repr=False, default=1)
    """The processes the pool keeps (started, or being started; ``size`` at most): one from
    the start, one more each time a query finds none free (``_borrow``)."""

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError("a query pool needs at least one process")
        self._zygote = Zygote(partial(serve, source=self.source))
        self._add()

    def run(self, request: QueryRequest, timeout: float) -> QueryResult | Failure:
        """The answer to ``request``; QueryTimeout once ``timeout`` seconds have passed (the
        wait for a free process counts)."""
        if os.getpid() != self.owner:
            raise QueryProcessError("a query pool is used only by the process that made it")
        deadline = time.monotonic() + timeout
        try:
            child = self._borrow(timeout)
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
            return answer  # the process could not reach the store
        except (EOFError, OSError) as error:
            raise QueryProcessError(f"the query process stopped unexpectedly ({error})") from None
        finally:
            if answer is None or (isinstance(answer, Failure) and not child.ready):
                self._replace(child)

    def _borrow(self, timeout: float) -> _Child:
        """A free process: an idle one, else a new one while the pool has fewer than
        ``size``, else the first to be free within ``timeout`` (queue.Empty if none is)."""
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            grow = not self._closed and self._slots < self.size
            if grow:
                self._slots += 1
        if grow:
            self._add()
        return self._idle.get(timeout=timeout)

    def _add(self) -> None:
        """Start a process for one of the slots and make it free (a slot it cannot start in
        is given up)."""
        try:
            pid, connection = self._zygote.spawn()
        except BaseException:
            with self._lock:
                self._slots -= 1
            raise
        child = _Child(pid, connection)
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
        """Stop every query process and the zygote (idempotent; only in the owning process)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            children, self._children = self._children, []
        if os.getpid() == self.owner:
            for child in children:
                child.stop()
            self._zygote.close()


__all__ = ["QueryPool", "QueryProcessError", "QueryTimeout"]
