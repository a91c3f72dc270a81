"""The errors of a store that a user meets: a store that cannot be opened or used as asked
(``StoreError``), and what needs files a store is still making (``StorePreparing``: a
``sparql:`` store makes its search index and dumps while it answers,
``graph.store.remote.prepared``)."""

from __future__ import annotations

from graph.errors import BenchgraphError, ErrorKind

RETRY_AFTER = 5
"""Seconds a client is asked to wait before it asks again for what is being made."""


class StoreError(BenchgraphError):
    """A store that cannot be opened or built as asked."""

    kind = ErrorKind.STORE


class StorePreparing(StoreError):
    """What was asked for needs the files still being made: a 503, asked again later."""

    retry_after = RETRY_AFTER


__all__ = ["RETRY_AFTER", "StoreError", "StorePreparing"]
