"""Talking HTTP to a remote SPARQL engine: the SPARQL 1.1 Protocol to read, the Graph Store
HTTP Protocol to load, nothing else.

The standard library's ``http.client`` is enough: one persistent connection per thread (a
push sends thousands of small PUTs, and a new TCP connection for each cost more than the
PUT on a loopback engine), request bodies sent as they are made, answers read as they come
(the row limit stops reading; the time limit closes the socket). ``requests`` would add a
dependency for none of that.

- **Deadlines**: every request has one, a time and not a socket timeout that each byte
  read would start again (``graph.store.remote.connection``): the caller's (a query's time
  limit), or ``timeout`` seconds from when it is sent. Connecting, sending, the answer's
  status line, headers and body, the retries and the waits between them, and the reading of
  a refusal all fit within it, whatever the engine does.

- **Credentials** come from settings (``BENCHGRAPH_REMOTE_USER`` / ``_PASSWORD``, or
  ``BENCHGRAPH_REMOTE_TOKEN`` for a bearer token), never from the command line, and a URL
  holding ``user:password@`` is refused. They reach only the ``Authorization`` header: no
  message, log line or ``repr`` carries them (an engine's own answer is quoted only after
  every credential is blanked out of it).
- **Retries**: a request whose connection failed, or that the engine answered with a 5xx,
  is tried again after 0.25 s, 0.5 s, 1 s ... (``retries`` times); a 4xx is the request's
  fault and is never retried. Every request here is idempotent (a query, a PUT, a DELETE).
- **A kept connection the engine has given up on** is not used again (``dropped``): an
  engine may close one that sat idle, and ``oxigraph serve`` (0.5) does worse: past its 60 s
  socket timeout it writes an unasked 500 "Resource temporarily unavailable (os error 11)"
  on it and stops reading, so the next request on it read that 500 as its answer (a retry,
  and its backoff, for nothing: perf/decisions/remote-idle-connection-check.md). A socket
  with something to read before any request was sent is such a connection, so it is closed
  and a new one opened (as ``urllib3`` does).
"""

from __future__ import annotations

import base64
import http.client
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

from graph.errors import BenchgraphError, ErrorKind
from graph.store.remote.connection import BoundedConnection, dropped, open_connection

_FIRST_WAIT = 0.25
_QUOTED = 300
"""Characters of an engine's error answer quoted in a message."""
_REFUSAL_SECONDS = 5.0
"""The longest an engine's error answer is read, to be quoted."""


@dataclass(frozen=True)
class Body:
    """A request body, made afresh chunk by chunk each time it is sent (a retry sends it
    again), and its size, which goes ahead of it as ``Content-Length``: so a large body (the
    merge of a large catalog is gigabytes) is sent without ever being held whole."""

    chunks: Callable[[], Iterable[bytes]]
    size: int

    @classmethod
    def of(cls, data: bytes) -> Body:
        return cls(lambda: (data,), len(data))


class RemoteError(BenchgraphError):
    """An engine that could not be reached, or refused a request: the message says which
    engine (its URL, without credentials), what was asked and what it answered."""

    kind = ErrorKind.STORE

    def __init__(self, message: str, status: int | None = None, said: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.said = said
        """The engine's own words, without its address: what a client of ours may read."""


class RemoteTimeout(RemoteError):
    """The engine did not answer within the time given."""

    kind = ErrorKind.LIMIT


class EngineLimit(RemoteTimeout):
    """The engine stopped the query at a limit of its own and sent what it had found so far
    as if it were the answer (Virtuoso's "anytime query", marked only by an ``X-SQL-State``
    header): refused, since part of an answer read as the whole is wrong."""


@dataclass(frozen=True)
class Credentials:
    """Basic auth (``user`` and ``password``) or a bearer ``token``; or none."""

    user: str = field(default="", repr=False)
    password: str = field(default="", repr=False)
    token: str = field(default="", repr=False)

    def header(self) -> str | None:
        if self.token:
            return f"Bearer {self.token}"
        if self.user:
            pair = f"{self.user}:{self.password}".encode()
            return f"Basic {base64.b64encode(pair).decode('ascii')}"
        return None

    def secrets(self) -> tuple[str, ...]:
        """Every form a credential could take in an engine's answer."""
        header = self.header()
        forms = (self.password, self.token, header or "", (header or "").partition(" ")[2])
        return tuple(form for form in forms if len(form) >= 3)


@dataclass(frozen=True)
class Endpoint:
    """One URL of an engine: where requests go, and how messages name it."""

    url: str
    scheme: str
    host: str
    port: int
    path: str

    @classmethod
    def parse(cls, url: str, what: str) -> Endpoint:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise BenchgraphError(f"{what} {url!r}: give an http(s) URL", ErrorKind.USAGE)
        if parts.username is not None or parts.password is not None:
            raise BenchgraphError(
                f"{what}: a URL with credentials in it is refused; give them in "
                "BENCHGRAPH_REMOTE_USER and BENCHGRAPH_REMOTE_PASSWORD (or "
                "BENCHGRAPH_REMOTE_TOKEN)", ErrorKind.USAGE)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        shown = f"{parts.scheme}://{parts.hostname}:{port}{parts.path or '/'}"
        return cls(shown, parts.scheme, parts.hostname, port, path)

    def target(self, params: Sequence[tuple[str, str]]) -> str:
        """The request target with ``params`` added to the URL's own query."""
        if not params:
            return self.path
        return self.path + ("&" if "?" in self.path else "?") + urlencode(params)


@dataclass(frozen=True)
class Answer:
    """An engine's answer, its body still to be read from ``response``."""

    status: int
    content_type: str
    response: http.client.HTTPResponse
    connection: BoundedConnection

    def header(self, name: str) -> str | None:
        return self.response.getheader(name)

    def set_deadline(self, deadline: float) -> None:
        """Reads of the body give up at ``deadline``."""
        self.connection.deadline.at = deadline

    def read(self) -> bytes:
        return self.response.read()

    def close(self) -> None:
        """Done with the answer: an unread body is abandoned with its connection."""
        if not self.response.isclosed():
            self.response.close()
            self.connection.close()


class Client:
    """Requests to one engine, with its credentials, time limit and retries; a connection per
    thread (and per process: a forked web worker opens its own)."""

    def __init__(self, credentials: Credentials, timeout: float, retries: int) -> None:
        self._credentials = credentials
        self.timeout = timeout
        self.retries = retries
        self._local = threading.local()

    def __repr__(self) -> str:
        return f"Client(timeout={self.timeout}, retries={self.retries})"

    def request(self, endpoint: Endpoint, method: str, what: str, *,
                params: Sequence[tuple[str, str]] = (), headers: dict[str, str] | None = None,
                body: Body | None = None, deadline: float | None = None) -> Answer:
        """Send a request (again on a connection failure or a 5xx, while tries and the
        ``deadline`` allow; by default ``timeout`` seconds from now) and return the answer
        once its status is 2xx; RemoteError otherwise, naming ``what`` was asked, and
        RemoteTimeout when the deadline passed first. The caller reads and closes the answer,
        whose reads give up at the same deadline until it sets another."""
        if deadline is None:
            deadline = time.monotonic() + self.timeout
        wait = _FIRST_WAIT
        for attempt in range(self.retries + 1):
            last = attempt == self.retries
            try:
                answer = self._send(endpoint, method, params, headers or {}, body, deadline)
            except TimeoutError:
                raise RemoteTimeout(f"{what}: {endpoint.url} did not answer in time") from None
            except (OSError, http.client.HTTPException) as error:
                failure: RemoteError = RemoteError(
                    f"{what}: {endpoint.url} could not be reached ({self._clean(str(error))})")
            else:
                if 200 <= answer.status < 300:
                    return answer
                failure = self._refusal(endpoint, what, answer, deadline)
                if answer.status < 500:
                    raise failure
            if last or not _time_for(wait, deadline):
                raise failure
            time.sleep(wait)
            wait *= 2
        raise AssertionError("unreachable")

    def _send(self, endpoint: Endpoint, method: str, params: Sequence[tuple[str, str]],
              headers: dict[str, str], body: Body | None, deadline: float) -> Answer:
        connection = self._connection(endpoint, deadline)
        sent = dict(headers)
        authorization = self._credentials.header()
        if authorization is not None:
            sent["Authorization"] = authorization
        try:
            connection.putrequest(method, endpoint.target(params), skip_accept_encoding=True)
            sent["Content-Length"] = str(0 if body is None else body.size)
            for name, value in sent.items():
                connection.putheader(name, value)
            connection.endheaders()
            for chunk in () if body is None else body.chunks():
                connection.send(chunk)
            response = connection.getresponse()
        except BaseException:
            connection.close()
            raise
        return Answer(response.status, response.getheader("Content-Type") or "", response,
                      connection)

    def _connection(self, endpoint: Endpoint, deadline: float) -> BoundedConnection:
        """This thread's connection to the engine's host, kept open between requests, its
        every step bounded by ``deadline``."""
        key = (os.getpid(), endpoint.scheme, endpoint.host, endpoint.port)
        connections: dict[tuple[int, str, str, int], BoundedConnection]
        connections = self._local.__dict__.setdefault("connections", {})
        connection = connections.get(key)
        if connection is not None and dropped(connection):
            connection.close()  # http.client opens it again for the next request
        if connection is None:
            connection = connections[key] = open_connection(endpoint.scheme, endpoint.host,
                                                            endpoint.port)
        connection.deadline.at = deadline
        return connection

    def _refusal(self, endpoint: Endpoint, what: str, answer: Answer,
                 deadline: float) -> RemoteError:
        """The engine's refusal, quoting what it said in the first seconds of its body (and
        no later than ``deadline``)."""
        try:
            answer.set_deadline(min(time.monotonic() + _REFUSAL_SECONDS, deadline))
            text = answer.read()[:4 * _QUOTED].decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            text = ""
        finally:
            answer.close()
        said = " ".join(self._clean(text).split())[:_QUOTED]
        reason = answer.response.reason
        return RemoteError(f"{what}: {endpoint.url} answered {answer.status} {reason}"
                           + (f": {said}" if said else ""), answer.status, said or reason)

    def _clean(self, text: str) -> str:
        """``text`` with every credential blanked out."""
        for secret in self._credentials.secrets():
            text = text.replace(secret, "***")
        return text

    def close(self) -> None:
        """Close this thread's connections."""
        for connection in self._local.__dict__.pop("connections", {}).values():
            connection.close()


def _time_for(wait: float, deadline: float) -> bool:
    return time.monotonic() + wait < deadline


def timed_out(error: BaseException) -> bool:
    """Whether a read failed because its deadline passed."""
    return isinstance(error, (TimeoutError, socket.timeout))


__all__ = ["Answer", "Body", "Client", "Credentials", "Endpoint", "EngineLimit", "RemoteError",
           "RemoteTimeout", "dropped", "timed_out"]
