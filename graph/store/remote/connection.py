"""An HTTP connection to an engine on which a request's deadline bounds the whole request.

A socket timeout bounds one call, and starts again with the next: ``http.client`` reads a
status line, each header and each chunk's size line by as many ``recv`` calls as the bytes
come in, so an engine that trickles its answer a byte at a time (or sends its headers and
then stalls, or a 5xx whose body never ends) kept a query waiting long past its time limit.
Here the deadline is one time, kept on the connection (``Deadline``), and every step of a
request is given only what is left of it: connecting (``connect``), each write
(``send``: ``sendall`` honours a timeout as a total since Python 3.5), and each read of the
answer, status line and headers included (``_Response`` reads its socket through
``_DeadlineReader``). Past the deadline a step raises ``TimeoutError`` and the request is
abandoned with its connection.

What it does not bound: the name lookup of the engine's host (the system resolver has no
timeout to give), and, where the host has several addresses, the standard library's
``create_connection`` gives each the time left.
"""

from __future__ import annotations

import http.client
import io
import math
import select
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, SupportsRead


@dataclass
class Deadline:
    """When the request under way on a connection gives up (``time.monotonic``; before the
    first request sets it, none: every step fails)."""

    at: float = -math.inf

    def left(self) -> float:
        """Seconds left; ``TimeoutError`` when there are none."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError("the time limit is up")
        return left


class _DeadlineReader(io.RawIOBase):
    """The socket's bytes, each ``recv`` waiting only for what is left of ``deadline``."""

    def __init__(self, sock: socket.socket, deadline: Deadline) -> None:
        super().__init__()
        self._sock = sock
        self._raw = sock.makefile("rb", buffering=0)  # holds the socket open, as http.client's
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        self._sock.settimeout(self._deadline.left())
        return self._raw.readinto(buffer)

    def close(self) -> None:
        if not self.closed:
            self._raw.close()
        super().close()


class _Response(http.client.HTTPResponse):
    """An answer read within its connection's deadline (``deadline``, one per connection:
    ``BoundedConnection`` makes a subclass for each)."""

    deadline: ClassVar[Deadline]

    def __init__(self, sock: socket.socket, debuglevel: int = 0, method: str | None = None,
                 url: str | None = None) -> None:
        super().__init__(sock, debuglevel, method, url)
        self.fp.close()
        self.fp = io.BufferedReader(_DeadlineReader(sock, self.deadline))


class BoundedConnection(http.client.HTTPConnection):
    """A connection whose every step gives up at ``deadline`` (see the module's docstring):
    set ``deadline.at`` before each request, and after its answer to read more of it."""

    def __init__(self, host: str, port: int, **options: Any) -> None:
        super().__init__(host, port, **options)
        self.deadline = Deadline()
        self.response_class = type("Response", (_Response,),
                                   {"deadline": self.deadline, "__module__": __name__})

    def connect(self) -> None:
        self.timeout = self.deadline.left()
        super().connect()

    def send(self, data: ReadableBuffer | SupportsRead[bytes] | Iterable[ReadableBuffer] | str
             ) -> None:
        if self.sock is None:
            self.connect()
        assert self.sock is not None
        self.sock.settimeout(self.deadline.left())
        super().send(data)


class BoundedTLSConnection(BoundedConnection, http.client.HTTPSConnection):
    """``BoundedConnection`` over TLS (the handshake is given the time left when it starts;
    each of its reads waits at most that)."""


def open_connection(scheme: str, host: str, port: int) -> BoundedConnection:
    kind = BoundedTLSConnection if scheme == "https" else BoundedConnection
    return kind(host, port)


def dropped(connection: http.client.HTTPConnection) -> bool:
    """Whether a kept-alive ``connection``, between requests, can carry no other: its socket
    has something to read though nothing was asked (the peer closed it, or wrote on it
    unasked)."""
    if connection.sock is None:
        return False
    poll = select.poll()
    poll.register(connection.sock, select.POLLIN)
    return bool(poll.poll(0))


__all__ = ["BoundedConnection", "BoundedTLSConnection", "Deadline", "dropped",
           "open_connection"]
