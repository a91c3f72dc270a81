"""The one base class of every error a user can cause, and the kinds it comes in.

Every exception benchgraph raises for a user's mistake (a bad argument, an unreadable input,
a query that cannot run, a limit reached) is a ``BenchgraphError`` carrying its ``kind``: the
command line catches it once and prints one line with the kind's exit code, and the web app
turns it into the kind's HTTP status. Any other exception is a bug, and shows as one.
"""

from enum import Enum
from typing import Any


class ErrorKind(Enum):
    """What went wrong, as the exit code and the HTTP status a user meets it by."""

    USAGE = ("usage", 2, 400)
    """A bad argument, parameter, option or setting."""
    INPUT = ("input", 2, 400)
    """Input that cannot be used: a missing PATH, a bad query file, an unreadable record."""
    QUERY = ("query", 2, 400)
    """A query that cannot run as given: its syntax, an update, a format that cannot hold it."""
    NOT_FOUND = ("not found", 2, 404)
    """A thing asked for by name that does not exist (a named query, a node)."""
    LIMIT = ("limit", 2, 503)
    """A query or request over a time, row or size limit."""
    STORE = ("store", 2, 503)
    """A store that cannot be opened or used as asked (missing, built with another base)."""

    def __init__(self, label: str, exit_code: int, http_status: int) -> None:
        self.label = label
        self.exit_code = exit_code
        self.http_status = http_status


class BenchgraphError(Exception):
    """An error a user can cause and fix: ``message`` is one line in plain words."""

    kind: ErrorKind = ErrorKind.USAGE
    """The default kind of a subclass; an instance may carry another."""
    retry_after: int | None = None
    """Seconds after which asking again may succeed (an HTTP ``Retry-After``), where waiting
    helps: a store still making what was asked for."""

    def __init__(self, message: str, kind: ErrorKind | None = None) -> None:
        super().__init__(message)
        self.message = message
        if kind is not None:
            self.kind = kind

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class, message and kind, whatever its class's own ``__init__``
        takes: it crosses from a child process to its parent (``graph.system.child``)."""
        return _unpickled, (type(self), self.message, self.kind), self.__dict__


def _unpickled(cls: type[BenchgraphError], message: str, kind: ErrorKind) -> BenchgraphError:
    error = cls.__new__(cls)
    BenchgraphError.__init__(error, message, kind)
    return error


__all__ = ["BenchgraphError", "ErrorKind"]
