"""The limits a query pool holds each query to, beside its time limit, and the errors a
query stopped by any of them is answered with (``graph.store.process.pool``).

A query stopped by a limit is a ``QueryStopped``, a ``BenchgraphError`` of kind LIMIT: a 503
on the web (with ``Retry-After`` where waiting helps), the CLI's one line, exit code 2. The
message names the limit, so that a user knows what to change: a time limit, a memory limit,
or a server busy with long queries. A query process that dies in a way no query should make
it is a ``QueryProcessError``: a bug, never the user's doing, and shown as one.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.errors import BenchgraphError, ErrorKind


@dataclass(frozen=True)
class PoolLimits:
    """What a pool holds each query to, beside its time limit."""

    memory_mb: int | None = None
    """Megabytes a query process may hold beyond its start; None: no limit."""
    long_queries: int | None = None
    """Queries that may be long at once; None: as many as the pool has processes."""
    long_after: float = 1.0
    """Seconds after which a running query is long."""


class QueryStopped(BenchgraphError):
    """A query stopped by a limit it runs under."""

    kind = ErrorKind.LIMIT


class QueryTimeout(QueryStopped):
    """A query stopped by its time limit, or one that found no free query process in time."""


class QueryOverMemory(QueryStopped):
    """A query whose process took more memory than its limit, or than the system had."""

    @classmethod
    def of(cls, limit_mb: int | None) -> QueryOverMemory:
        """The error of a query stopped at ``limit_mb`` (None: no limit was set)."""
        if limit_mb is None:
            return cls("the query took more memory than the system could give and was stopped")
        return cls(f"the query took more than its memory limit of {limit_mb:,} MB and was "
                   "stopped")


class LongQueriesBusy(QueryStopped):
    """A query that ran long while as many long queries as the pool allows were running."""

    @classmethod
    def of(cls, limits: PoolLimits, retry_after: int) -> LongQueriesBusy:
        """The error of a query refused at ``limits.long_queries`` long queries, asked to come
        back in ``retry_after`` seconds (when the first of them ends, at the latest)."""
        cap = limits.long_queries
        busy = cls(f"the server is busy with long queries ({cap} at once, its most); this one "
                   f"ran past {limits.long_after:g} s and was stopped: try again later, or "
                   "ask for less")
        busy.retry_after = retry_after
        return busy


class QueryProcessError(RuntimeError):
    """A query process that died or failed in a way no query should make it: a bug, or the
    system killed it; never the user's doing."""


__all__ = ["LongQueriesBusy", "PoolLimits", "QueryOverMemory", "QueryProcessError",
           "QueryStopped", "QueryTimeout"]
