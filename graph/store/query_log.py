"""One line in the server's log for each query a store runs: the kind of store, what came of
the query, how long it took, and a short form of its text.

``logged`` wraps the ``query`` of every kind of store (``graph.store.local``,
``graph.store.remote.store``): the one place every query passes through, whoever asks it
(the endpoint, a page, a command), and where each way it can end is known, from an answer to
a query process killed under it. Its time counts from the call, so the admission
(``graph.sparql.admission``) and the wait for a free query process are in it. The outcomes:

- INFO: answered (so many rows or triples, and whether the row limit cut them; true or
  false), or refused as the client sent it: an update, a SERVICE, too long or too deep, a
  syntax error (the error's message says which): the client's mistake, not the server's
  trouble;
- WARNING: stopped by a limit (timed out, stopped for memory, too many long queries), its
  process killed or dead, or the store failed to answer: what an operator may have to act on.
  The query pool that stops a query says nothing itself: the error it raises names the limit,
  and this line shows it.

The text shown is the query as the caller gave it, on one line: its first ``SHOWN_CHARS``
characters, white space run together and control characters escaped, and the error's message
the same way (``graph.log_text``), so that nothing a client sends can write a line of its own
into the log.

The lines reach the server's log (``benchgraph serve --log-level``: ``web.server.log_to``);
a command that queries shows none of them: its user reads its stderr.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from graph.log_text import shortened
from graph.sparql.errors import QueryError
from graph.sparql.result import QueryResult
from graph.store.process.stops import (
    LongQueriesBusy,
    QueryOverMemory,
    QueryProcessError,
    QueryStopped,
    QueryTimeout,
)

LOG = logging.getLogger(__name__)
SHOWN_CHARS = 200
"""Characters of a query's text (and of an error's message) a line shows."""

_ENDS: tuple[tuple[type[Exception], int, str], ...] = (
    (QueryTimeout, logging.WARNING, "timed out"),
    (QueryOverMemory, logging.WARNING, "stopped for memory"),
    (LongQueriesBusy, logging.WARNING, "stopped: too many long queries"),
    (QueryStopped, logging.WARNING, "stopped"),
    (QueryProcessError, logging.WARNING, "failed in its query process"),
    (QueryError, logging.INFO, "refused"),
)
"""What a query that raised came to, by the first class its error is an instance of: the
line's level and words. Any other error: WARNING, ``failed``."""


class _Kinded(Protocol):
    @property
    def kind(self) -> str:
        """The kind of store (``graph.store.kinds``), as the log names it."""
        ...


S = TypeVar("S", bound=_Kinded)
P = ParamSpec("P")


def logged(query: Callable[Concatenate[S, str, P], QueryResult]
           ) -> Callable[Concatenate[S, str, P], QueryResult]:
    """A store's ``query(text, ...)`` that writes its line once it has answered or raised."""

    @functools.wraps(query)
    def run(store: S, text: str, /, *args: P.args, **kwargs: P.kwargs) -> QueryResult:
        started = time.perf_counter()
        try:
            result = query(store, text, *args, **kwargs)
        except Exception as error:
            level, outcome = _ended(error)
            _write(level, store.kind, outcome, started, text, error)
            raise
        _write(logging.INFO, store.kind, _answered(result), started, text)
        return result

    return run


def _ended(error: Exception) -> tuple[int, str]:
    return next(((level, words) for kind, level, words in _ENDS if isinstance(error, kind)),
                (logging.WARNING, "failed"))


def _answered(result: QueryResult) -> str:
    if result.boolean is not None:
        return f"answered {str(result.boolean).lower()}"
    unit = "triple" if result.is_graph else "row"
    counted = f"{result.count:,} {unit}{'' if result.count == 1 else 's'}"
    return f"{counted}, cut at the row limit," if result.truncated else counted


def _write(level: int, kind: str, outcome: str, started: float, text: str,
           error: Exception | None = None) -> None:
    if not LOG.isEnabledFor(level):
        return  # a long text is not shortened for nothing
    because = "" if error is None else \
        f" ({shortened(str(error) or type(error).__name__, SHOWN_CHARS)})"
    LOG.log(level, '%s query: %s in %.1f ms%s: "%s"', kind, outcome,
            (time.perf_counter() - started) * 1000, because, shortened(text, SHOWN_CHARS))


__all__ = ["LOG", "SHOWN_CHARS", "logged"]
