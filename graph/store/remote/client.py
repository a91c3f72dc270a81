"""Talking HTTP to a remote SPARQL engine: the SPARQL 1.1 Protocol to read, the Graph Store
HTTP Protocol to load, nothing else.

urllib3 does the HTTP: a pool of kept connections for each engine host, shared by the
threads (a push sends thousands of small PUTs, and a new TCP connection for each cost more
than the PUT on a loopback engine), the retries and their waits (``Retry``); request bodies
are sent as they are made, answers read as they come (the row limit stops reading; the time
limit closes the socket).

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
- **Retries** (``_Retries``): a request whose connection failed, or that the engine answered
  with a 5xx, is tried again after 0.25 s, 0.5 s, 1 s ... (``retries`` times; urllib3 would
  try again at once after the first failure), while the wait ends before the deadline; each
  retry is logged at WARNING, saying which engine and why. A 4xx is the request's fault and
  is never retried, nor is a redirect followed. Every request here may be sent twice, the
  query sent by POST too (a query is read-only: ``graph.sparql.admission`` admits no update);
  a PUT and a DELETE are idempotent. A refusal that is retried is not read (its connection is
  closed: its body may come as slowly as the engine likes); the last one is quoted. When the
  deadline passes on a retry of a refusal, the error is that refusal, not a timeout: what the
  engine said is the cause, and a busy machine must not turn one into the other.
- **A kept connection the engine has given up on** is not used again (urllib3 drops one
  whose socket has something to read before a request is sent): an engine may close one that
  sat idle, and ``oxigraph serve`` (0.5) does worse: past its 60 s socket timeout it writes an
  unasked 500 "Resource temporarily unavailable (os error 11)" on it and stops reading
  (perf/decisions/remote-idle-connection-check.md).
"""

from __future__ import annotations

import base64
import http.client
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Self
from urllib.parse import urlencode, urlsplit

from urllib3 import BaseHTTPResponse, Retry
from urllib3.connectionpool import ConnectionPool
from urllib3.exceptions import (
    HTTPError,
    MaxRetryError,
    ProtocolError,
    ReadTimeoutError,
    ResponseError,
)

from graph.errors import BenchgraphError, ErrorKind
from graph.store.remote.connection import BoundedConnection, DeadlineTimeout, EnginePools

_LOG = logging.getLogger(__name__)
_FIRST_WAIT = 0.25
_FAILURES = frozenset(range(500, 600))
"""The answers tried again: the engine's failures."""
_QUOTED = 300
"""Characters of an engine's error answer quoted in a message."""
_REFUSAL_SECONDS = 5.0
"""The longest an engine's error answer is read, to be quoted."""


@dataclass(frozen=True)
class Body:
    """A request body, made afresh chunk by chunk each time it is sent (a retry sends it
    again: urllib3 iterates it once for each try), and its size, which goes ahead of it as
    ``Content-Length``: so a large body (the merge of a large catalog is gigabytes) is sent
    without ever being held whole."""

    chunks: Callable[[], Iterable[bytes]]
    size: int

    @classmethod
    def of(cls, data: bytes) -> Body:
        return cls(lambda: (data,), len(data))

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.chunks())


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
    """An engine's answer, its body still to be read from ``response``: ``what`` was asked of
    the engine at ``url``, for messages."""

    response: BaseHTTPResponse
    what: str
    url: str

    @property
    def status(self) -> int:
        return self.response.status

    @property
    def content_type(self) -> str:
        return self.response.headers.get("Content-Type") or ""

    def header(self, name: str) -> str | None:
        return self.response.headers.get(name)

    def set_deadline(self, deadline: float) -> None:
        """Reads of the body give up at ``deadline``."""
        connection = self.response.connection
        if isinstance(connection, BoundedConnection):  # None once the body is read whole
            connection.deadline.at = deadline

    def read1(self, size: int) -> bytes:
        """At most ``size`` bytes of the body, as soon as some have come; RemoteTimeout past
        the deadline, RemoteError when the engine broke off."""
        with self._reading():
            return self.response.read1(size)

    def read(self, size: int | None = None) -> bytes:
        """The body (its first ``size`` bytes), as ``read1`` fails."""
        with self._reading():
            return self.response.read(size)

    @contextmanager
    def _reading(self) -> Iterator[None]:
        try:
            yield
        except (HTTPError, http.client.HTTPException, OSError) as error:
            if _timed_out(error):
                raise RemoteTimeout(f"{self.what}: {self.url} did not answer in time") from None
            raise RemoteError(f"{self.what}: reading the answer of {self.url} failed "
                              f"({_why(error)})") from None

    def close(self) -> None:
        """Done with the answer: an unread body is abandoned with its connection."""
        if not self.response.closed:
            self.response.close()
        self.response.release_conn()


class _Retries(Retry):
    """urllib3's ``Retry`` of one request, ``what`` was asked of the engine at ``url``: the
    waits of the module's docstring, none that would end past ``deadline``, each retry logged;
    a refusal retried is closed unread."""

    def __init__(self, *, deadline: float, what: str, url: str, **options: Any) -> None:
        super().__init__(**options)
        self.deadline = deadline
        self.what = what
        self.url = url

    def new(self, **options: Any) -> Self:
        return super().new(deadline=self.deadline, what=self.what, url=self.url, **options)

    def get_backoff_time(self) -> float:
        """``backoff_factor``, doubled at each failure after the first."""
        if not self.history:
            return 0.0
        return float(min(self.backoff_max, self.backoff_factor * 2 ** (len(self.history) - 1)))

    def increment(self, method: str | None = None, url: str | None = None,
                  response: BaseHTTPResponse | None = None, error: Exception | None = None,
                  _pool: ConnectionPool | None = None,
                  _stacktrace: TracebackType | None = None) -> Self:
        try:
            retry = super().increment(method, url, response, error, _pool, _stacktrace)
        except MaxRetryError as spent:  # no try left
            given_up = self._given_up(_pool, url, spent.reason)
            raise given_up from given_up.reason
        wait = retry.get_backoff_time()
        why = (f"could not be reached ({_why(error)})" if error is not None
               else f"answered {response.status if response is not None else None}")
        if time.monotonic() + wait >= self.deadline:
            given_up = self._given_up(_pool, url, error or ResponseError(why))
            raise given_up from given_up.reason
        _LOG.warning("%s: %s %s; trying again in %.2f s (retry %d, %s more allowed)",
                     self.what, self.url, why, wait, len(retry.history), retry.total)
        if response is not None:
            response.close()
        return retry

    def _given_up(self, pool: ConnectionPool | None, url: str | None,
                  reason: Exception | None) -> MaxRetryError:
        """The request given up for ``reason``; but when the deadline passed on a retry of a
        refusal, for that refusal (the latest of the tries before, in ``history``)."""
        refusals = [entry.status for entry in self.history if entry.status is not None]
        if refusals and reason is not None and _timed_out(reason):
            reason = _Refused(refusals[-1])
        return MaxRetryError(pool, url, reason)  # type: ignore[arg-type]


class _Refused(ResponseError):
    """The engine's refusal of a request it was asked again until the deadline passed."""

    def __init__(self, status: int) -> None:
        super().__init__(f"answered {status}")
        self.status = status


class Client:
    """Requests to engines, with their credentials, time limit and retries, over urllib3's
    pools, which keep ``kept`` idle connections to each engine host (one for each thread that
    asks at once: more are opened, and closed after) and are a process's own (a forked child
    opens its own connections)."""

    def __init__(self, credentials: Credentials, timeout: float, retries: int,
                 kept: int = 16) -> None:
        self._credentials = credentials
        self.timeout = timeout
        self.retries = retries
        self._kept = kept
        self._pid = os.getpid()
        self._pools = EnginePools(kept)

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
        sent = dict(headers or {}, **{"Content-Length": str(0 if body is None else body.size)})
        authorization = self._credentials.header()
        if authorization is not None:
            sent["Authorization"] = authorization
        retries = _Retries(deadline=deadline, what=what, url=endpoint.url, total=self.retries,
                           allowed_methods=None, status_forcelist=_FAILURES,
                           backoff_factor=_FIRST_WAIT, raise_on_status=False,
                           respect_retry_after_header=False)
        pool = self._pool_manager().connection_from_host(endpoint.host, endpoint.port,
                                                         endpoint.scheme)
        try:
            response = pool.urlopen(method, endpoint.target(params), body=body, headers=sent,
                                    retries=retries, timeout=DeadlineTimeout(deadline),
                                    redirect=False, preload_content=False, release_conn=False)
        except HTTPError as error:
            refused = _cause(error)
            if isinstance(refused, _Refused):
                raise RemoteError(f"{what}: {endpoint.url} answered {refused.status}, and was "
                                  "still being asked again when the time was up",
                                  refused.status) from None
            if _timed_out(error):
                raise RemoteTimeout(f"{what}: {endpoint.url} did not answer in time") from None
            raise RemoteError(f"{what}: {endpoint.url} could not be reached "
                              f"({self._clean(_why(error))})") from None
        answer = Answer(response, what, endpoint.url)
        if 200 <= answer.status < 300:
            return answer
        raise self._refusal(answer, deadline)

    def _pool_manager(self) -> EnginePools:
        """This process's pools: a forked child leaves its parent's connections alone."""
        if self._pid != os.getpid():
            self._pid, self._pools = os.getpid(), EnginePools(self._kept)
        return self._pools

    def _refusal(self, answer: Answer, deadline: float) -> RemoteError:
        """The engine's refusal, quoting what it said in the first seconds of its body (and
        no later than ``deadline``)."""
        try:
            answer.set_deadline(min(time.monotonic() + _REFUSAL_SECONDS, deadline))
            text = answer.read(4 * _QUOTED).decode("utf-8", "replace")
        except RemoteError:
            text = ""
        finally:
            answer.close()
        said = " ".join(self._clean(text).split())[:_QUOTED]
        reason = answer.response.reason or ""
        return RemoteError(f"{answer.what}: {answer.url} answered {answer.status} {reason}"
                           + (f": {said}" if said else ""), answer.status, said or reason)

    def _clean(self, text: str) -> str:
        """``text`` with every credential blanked out."""
        for secret in self._credentials.secrets():
            text = text.replace(secret, "***")
        return text

    def close(self) -> None:
        """Close the connections kept (those of this process)."""
        if self._pid == os.getpid():
            self._pools.clear()


def _cause(error: BaseException) -> BaseException:
    """What failed, as the system or ``http.client`` raised it, under urllib3's wrapping."""
    if isinstance(error, ProtocolError) and isinstance(error.args[-1], BaseException):
        return _cause(error.args[-1])  # urllib3 wraps some without a __cause__
    return error if error.__cause__ is None else _cause(error.__cause__)


def _why(error: BaseException) -> str:
    cause = _cause(error)
    return str(cause) or type(cause).__name__


def _timed_out(error: BaseException) -> bool:
    """Whether a request failed because its deadline passed (a timeout here is always the
    deadline's: ``graph.store.remote.connection``)."""
    return isinstance(_cause(error), (TimeoutError, ReadTimeoutError))


__all__ = ["Answer", "Body", "Client", "Credentials", "Endpoint", "EngineLimit", "RemoteError",
           "RemoteTimeout"]
