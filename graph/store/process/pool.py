"""Query processes, and the limits that really stop a query: time, memory, and the share of
the processes that long queries may hold.

Why processes at all: pyoxigraph 0.5 has no timeout and no way to cancel a running query
from Python, and a signal handler runs only once the query has returned. So a limit must
end the work from outside: each query runs in a long-lived child process
(``graph.store.process.executor``) that reaches the store once; the parent waits for the answer,
and when a limit is reached kills the child (SIGKILL: it holds nothing worth saving) and
starts a new one. The children are forked by the pool's zygote (``graph.store.process.zygote``),
so a memory store is shared with them by fork as it is, never loaded again, and none is
forked from a threaded process; the zygote also forbids them the network
(``graph.store.process.confinement``). They are not the one-off children of ``graph.system.child``
(one job,
its outcome sent back once): each serves query after query, with the store reached once, and
is killed from outside when a limit is reached.

The command line and the web app use this one mechanism. A ``QueryPool`` belongs to the
process that made it (the server, a CLI run); each thread of that process borrows a free
child for one query. While it waits for the answer, it holds the query to three limits:

- **time**: the query's time limit, counted from the call, so the wait for a free process
  counts too; past it the query is stopped, within moments (limit + 2 s at most);
- **memory**: a query process may hold at most ``memory_mb`` more than it held once it had
  reached its store, as ``private_memory`` measures it (a memory store's data, shared by
  fork, is in that start); the wait looks every ``_WATCH_SECONDS`` and kills it past that.
  The process caps its own writable memory at twice as much (``cap_data``): a burst faster
  than the watch makes its allocation fail, and the process abort, which its zygote tells
  (``Zygote.ended``). Either way the caller gets the same LIMIT error, naming the limit;
- **long queries**: a query still running after its first ``long_after`` seconds is long,
  and at most ``long_queries`` run at once; one more that turns long is stopped then,
  answered 503 with ``Retry-After``. So ``size - long_queries`` processes are always left to
  short queries and pages, whatever heavy ones are sent.

So the memory of a pool's tree is bounded: ``size`` x (a query process's start +
``memory_mb``), beside the pages the processes share (the zygote's, which hold a memory
store's data once for all). A query process's start is what it holds once it has reached its
store, and it gives back what a query left free before the next (``graph.store.process.executor``).
One look of the watch may let a process pass its limit by what it allocates in that time,
and never past twice the limit (the kernel's cap).
"""

from __future__ import annotations

import logging
import math
import os
import queue
import signal
import threading
import time
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection

from graph.sparql.errors import QueryError
from graph.sparql.result import QueryResult
from graph.store.process.confinement import private_memory
from graph.store.process.executor import READY, Failure, OnDisk, QueryRequest, serve
from graph.store.process.stops import (
    LongQueriesBusy,
    PoolLimits,
    QueryOverMemory,
    QueryProcessError,
    QueryStopped,
    QueryTimeout,
)
from graph.store.process.zygote import Zygote

logger = logging.getLogger(__name__)

_START_TIMEOUT = 60.0
"""Seconds a new query process may take to reach its store."""
_WATCH_SECONDS = 0.05
"""How often the wait for an answer looks at the query process's memory."""
_MB = 1024 * 1024


@dataclass
class _Child:
    """One query process and the parent's end of its socket."""

    pid: int
    connection: Connection
    ready: bool = False
    born: float = field(default_factory=time.monotonic)
    start: int | None = None
    """The memory it held once it reached its store (``private_memory``), if known."""

    def wait_ready(self, deadline: float) -> Failure | None:
        """Wait, until ``deadline`` at most, for the process to reach its store: None once
        it has, or while it still may; else why it cannot."""
        if self.ready:
            return None
        started = self.born + _START_TIMEOUT
        if not self.connection.poll(max(min(deadline, started) - time.monotonic(), 0)):
            if time.monotonic() < started:
                return None
            return Failure("store", "the query process did not reach the store in time")
        hello = self.connection.recv()
        if isinstance(hello, Failure):
            return hello
        self.ready = hello == READY
        self.start = private_memory(self.pid)
        return None

    def added(self) -> int:
        """Bytes it holds beyond its start (0 where unknown)."""
        now = private_memory(self.pid)
        return 0 if now is None or self.start is None else now - self.start

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

    Started all at once, each opening the store, they held more once ready and touched
    more memory new to them, which costs on this project's machines
    (perf/decisions/query-processes-on-demand.md). A command that runs one query starts one
    process."""

    source: OnDisk
    size: int = 1
    limits: PoolLimits = field(default_factory=PoolLimits)
    zygote: Zygote | None = None
    """The zygote to start query processes from (a store's ``Zygotes``, shared by the pools
    of its generations, and not the pool's to stop); None: one of its own."""
    owner: int = field(init=False, default_factory=os.getpid)
    """The process the pool belongs to: only it may use or stop the children."""
    _zygote: Zygote = field(init=False, repr=False)
    _argument: bytes = field(init=False, repr=False, default=b"")
    _idle: queue.LifoQueue[_Child] = field(init=False, repr=False, default_factory=queue.LifoQueue)
    _lock: threading.Lock = field(init=False, repr=False, default_factory=threading.Lock)
    _children: list[_Child] = field(init=False, repr=False, default_factory=list)
    _closed: bool = field(init=False, repr=False, default=False)
    _slots: int = field(init=False, repr=False, default=1)
    """The processes the pool keeps (started, or being started; ``size`` at most): one from
    the start, one more each time a query finds none free (``_borrow``)."""
    _long: list[float] = field(init=False, repr=False, default_factory=list)
    """The deadlines of the long queries running."""

    def __post_init__(self) -> None:
        if self.size < 1:
            raise ValueError("a query pool needs at least one process")
        self._zygote = self.zygote or new_zygote(self.source, self.limits)
        self._argument = os.fsencode(self.source.path)
        self._add()

    def run(self, request: QueryRequest, timeout: float, asked: float | None = None
            ) -> QueryResult | Failure:
        """The answer to ``request``, or the engine's Failure; a QueryStopped when a limit
        stops it (QueryTimeout once ``timeout`` seconds have passed since ``asked``, a
        ``time.monotonic()``, by default now: the wait for a free process counts)."""
        if os.getpid() != self.owner:
            raise QueryProcessError("a query pool is used only by the process that made it")
        deadline = (time.monotonic() if asked is None else asked) + timeout
        try:
            child = self._borrow(deadline)
        except queue.Empty:
            raise QueryTimeout(f"no query process was free within {timeout:g} s: the server "
                               "is busy; try again") from None
        keep = False
        try:
            failure = child.wait_ready(deadline)
            if failure is not None:
                return failure  # the process could not reach the store
            if not child.ready:
                keep = True  # still starting: the next query waits for it
                raise QueryTimeout(f"no query process was ready within {timeout:g} s: the "
                                   "server is busy; try again")
            child.connection.send(request)
            answer = self._answer(child, deadline, timeout)
            if isinstance(answer, Failure) and answer.kind == "memory":
                raise QueryOverMemory.of(self.limits.memory_mb)  # a new process is cleaner
            keep = True
            if isinstance(answer, Failure) and answer.kind == "refused":
                raise QueryError(f"the query asked for what a query process may not do, such "
                                 f"as open a network connection ({answer.message})")
            return answer
        except (EOFError, OSError) as error:
            raise self._died(child, error) from None
        finally:
            if keep:
                self._idle.put(child)
            else:
                self._replace(child)

    def _answer(self, child: _Child, deadline: float, timeout: float) -> QueryResult | Failure:
        """The child's answer, waited for until ``deadline``, as the pool's limits allow."""
        long_at = time.monotonic() + self.limits.long_after
        long = False
        memory = self.limits.memory_mb
        try:
            while True:
                now = time.monotonic()
                wake = deadline if long else min(deadline, long_at)
                if memory is not None:
                    wake = min(wake, now + _WATCH_SECONDS)
                if child.connection.poll(max(wake - now, 0)):
                    answer: QueryResult | Failure = child.connection.recv()
                    return answer
                now = time.monotonic()
                if now >= deadline:
                    raise QueryTimeout(f"the query ran longer than its time limit of "
                                       f"{timeout:g} s and was stopped")
                if memory is not None and child.added() > memory * _MB:
                    raise QueryOverMemory.of(memory)
                if not long and now >= long_at:
                    self._turn_long(deadline)
                    long = True
        finally:
            if long:
                with self._lock:
                    self._long.remove(deadline)

    def _turn_long(self, deadline: float) -> None:
        """Count a query as long until ``deadline``; LongQueriesBusy if as many are already."""
        cap = self.limits.long_queries
        with self._lock:
            if cap is None or len(self._long) < cap:
                self._long.append(deadline)
                return
            wait = min(self._long) - time.monotonic()
        raise LongQueriesBusy.of(self.limits, max(1, math.ceil(wait)))

    def _died(self, child: _Child, error: BaseException) -> Exception:
        """What to raise for a child that died under a query: the pool's closing (the server
        is stopping and stopped it), else what its zygote says ended it."""
        with self._lock:
            closed = self._closed
        if closed:
            return QueryStopped("the server is stopping; the query was stopped with it: try "
                                "again once it is back")
        code = self._zygote.ended(child.pid)
        if code == -signal.SIGABRT and self.limits.memory_mb is not None:
            return QueryOverMemory.of(self.limits.memory_mb)
        if code == -signal.SIGKILL:
            return QueryStopped("the query's process was killed by the system (for want of "
                                "memory, most often); try again later")
        return QueryProcessError(f"the query process stopped unexpectedly ({error}; exit "
                                 f"code {code})")

    def _borrow(self, deadline: float) -> _Child:
        """A free process: an idle one, else a new one while the pool has fewer than
        ``size``, else the first to be free by ``deadline`` (queue.Empty if none is)."""
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
        return self._idle.get(timeout=max(deadline - time.monotonic(), 0))

    def _add(self) -> None:
        """Start a process for one of the slots and make it free (a slot it cannot start in
        is given up)."""
        try:
            pid, connection = self._zygote.spawn(self._argument)
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
            if self.zygote is None:
                self._zygote.close()


def new_zygote(source: OnDisk, limits: PoolLimits) -> Zygote:
    """A zygote whose query processes open ``source`` (or the generation a pool spawns them
    with) under ``limits``; a warning logged when it cannot keep them off the network."""
    memory = None if limits.memory_mb is None else limits.memory_mb * _MB
    zygote = Zygote(partial(serve, source=source, memory_limit=memory))
    if zygote.unconfined is not None:
        logger.warning("query processes can open network connections (%s): only the query "
                       "parser keeps SERVICE out", zygote.unconfined)
    return zygote


@dataclass
class Zygotes:
    """The one zygote of every pool a store makes, one for each generation it serves: made
    with the first pool, which a server makes before its threads start (``Store.prepare``),
    so that a store moving to a new generation under running threads starts its query
    processes from it, never by forking the server again (``graph.store.process.zygote``)."""

    _made: Zygote | None = field(default=None, init=False, repr=False)
    _owner: int = field(default=0, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def get(self, source: OnDisk, limits: PoolLimits) -> Zygote:
        """The zygote, made now (``new_zygote``) if this process has none yet."""
        with self._lock:
            if self._made is None or self._owner != os.getpid():
                self._made, self._owner = new_zygote(source, limits), os.getpid()
            return self._made

    def close(self) -> None:
        """Stop the zygote, once its pools are closed (idempotent)."""
        with self._lock:
            made, self._made = self._made, None
        if made is not None and self._owner == os.getpid():
            made.close()


__all__ = ["LongQueriesBusy", "PoolLimits", "QueryOverMemory", "QueryPool", "QueryProcessError",
           "QueryStopped", "QueryTimeout", "Zygotes", "new_zygote"]
