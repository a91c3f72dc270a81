"""urllib3's connections to an engine, on which a request's deadline bounds the whole request.

urllib3 keeps the connections (a pool per engine host, shared by threads; one the engine
has closed or written on unasked is not used again) and retries; its ``Timeout(total=...)``
is no bound on a request, though: it becomes a socket timeout, which each ``recv`` starts
again. ``http.client``, under urllib3, reads a status line, each header and each chunk's size
line by as many ``recv`` calls as the bytes come in, so an engine that trickles its answer a
byte at a time (or sends its headers and then stalls, or a 5xx whose body never ends) held a
query long past its time limit.

So here the deadline is one time, kept on the connection (``Deadline``). urllib3 tells a
connection, before each step of a request, how long the step may take (``timeout``, set
from the request's ``Timeout``, whose total is what is left of the deadline:
``DeadlineTimeout``); a ``BoundedConnection`` takes that as the moment the request gives up,
and gives every step only what is left of it: connecting, each write (``send``:
``sendall`` honours a timeout as a total), and each read of the answer, status line and
headers included, body to its last byte (``_Response`` reads its socket through
``_DeadlineReader``). Past the deadline a step raises ``TimeoutError`` and the request is
abandoned with its connection.

What it does not bound: the name lookup of the engine's host (the system resolver has no
timeout to give); where the host has several addresses, urllib3 gives each the time left;
and each read of a TLS handshake waits at most the time left when the handshake starts.
"""

from __future__ import annotations

import http.client
import io
import math
import socket
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from urllib3 import HTTPConnectionPool, HTTPSConnectionPool, PoolManager, Timeout
from urllib3.connection import HTTPConnection, HTTPSConnection

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer, SupportsRead

_NO_TIME = 1e-3
"""What urllib3 is given for a step begun with no time left: it fails at once."""


@dataclass
class Deadline:
    """When the request under way on a connection gives up (``time.monotonic``; before the
    first request sets it, never)."""

    at: float = math.inf

    def left(self) -> float | None:
        """Seconds left (None: no limit); ``TimeoutError`` when there are none."""
        if self.at == math.inf:
            return None
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError("the time limit is up")
        return left


class DeadlineTimeout(Timeout):
    """urllib3's ``Timeout`` of a request that gives up at ``deadline``: each attempt (urllib3
    takes a ``clone`` for each, retries included) has what is left of it."""

    def __init__(self, deadline: float) -> None:
        super().__init__(total=max(deadline - time.monotonic(), _NO_TIME))
        self.deadline = deadline

    def clone(self) -> DeadlineTimeout:
        return DeadlineTimeout(self.deadline)


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


class BoundedConnection(HTTPConnection):
    """A connection whose every step gives up at ``deadline`` (see the module's docstring).
    urllib3 sets it through ``timeout``; to read more of an answer after ``urlopen`` has
    returned it, set ``deadline.at``."""

    def __init__(self, *args: Any, **options: Any) -> None:
        self.deadline = Deadline()
        super().__init__(*args, **options)
        self.response_class = type("Response", (_Response,),
                                   {"deadline": self.deadline, "__module__": __name__})

    @property
    def timeout(self) -> float | None:
        """What is left of the deadline: what urllib3 and ``http.client`` give a socket."""
        try:
            return self.deadline.left()
        except TimeoutError:
            return _NO_TIME

    @timeout.setter
    def timeout(self, seconds: object) -> None:
        """The time urllib3 gives the next step, taken as when the request gives up (a
        ``float``; anything else, as urllib3's default, is no limit)."""
        self.deadline.at = (time.monotonic() + seconds if isinstance(seconds, (int, float))
                            else math.inf)

    def send(self, data: ReadableBuffer | SupportsRead[bytes] | Iterable[ReadableBuffer] | str
             ) -> None:
        if self.sock is not None:
            self.sock.settimeout(self.deadline.left())
        super().send(data)


class BoundedTLSConnection(BoundedConnection, HTTPSConnection):
    """``BoundedConnection`` over TLS."""


class _Pool(HTTPConnectionPool):
    ConnectionCls = BoundedConnection


class _TLSPool(HTTPSConnectionPool):
    ConnectionCls = BoundedTLSConnection


class EnginePools(PoolManager):
    """urllib3's pools, one for each engine host, of ``BoundedConnection`` s, each keeping
    ``kept`` idle connections (more are opened when more threads ask at once)."""

    def __init__(self, kept: int) -> None:
        super().__init__(maxsize=kept, block=False)
        self.pool_classes_by_scheme = {"http": _Pool, "https": _TLSPool}


__all__ = ["BoundedConnection", "BoundedTLSConnection", "Deadline", "DeadlineTimeout",
           "EnginePools"]
