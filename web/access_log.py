"""One line in the server's log for every request answered (``benchgraph serve --access-log``).

waitress keeps no access log of its own, so this WSGI middleware writes, through ``logging``,
the line gunicorn's access log held: the client's address, the request line, the status, the
bytes of the body sent, the referrer and the user agent, and then the time taken. A line is
written once its response is done (its body sent, or the client gone), so that the time and
the size are the whole answer's. The address is the connection's: behind a proxy it is the
proxy's, and the proxy should keep its own log of client addresses (README, "The web app").

A body that is the server's file wrapper (a dump: ``web.dumps``) is handed on as it is, so
that waitress still sends it from the file in its event loop, holding no thread while a slow
client reads it; its line is written when the app hands it over, with the length its
``Content-Length`` says.

Text from the request (its line, its headers) is written with control characters escaped
(``graph.log_text``): a client cannot forge a line of the log.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from graph.log_text import printable

LOG = logging.getLogger(__name__)
"""Where the lines go: at INFO, which a server's log shows only when asked to."""

ExcInfo = tuple[type[BaseException], BaseException, TracebackType] | tuple[None, None, None]


class AccessLog:
    """``app``, logging one line per request it answers."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse
                 ) -> Iterable[bytes]:
        started = time.monotonic()
        status, length = ["-"], ["-"]

        def recording(line: str, headers: list[tuple[str, str]],
                      exc_info: ExcInfo | None = None) -> Callable[[bytes], object]:
            status[0] = line.split(" ", 1)[0]
            length[0] = next((value for name, value in headers
                              if name.lower() == "content-length"), "-")
            return start_response(line, headers, exc_info)

        body = self.app(environ, recording)
        wrapper = environ.get("wsgi.file_wrapper")
        if isinstance(wrapper, type) and isinstance(body, wrapper):
            _log(environ, status[0], length[0], started)
            return body
        return _Logged(body, lambda sent: _log(environ, status[0], str(sent), started))


class _Logged:
    """A response body that counts the bytes it yields and logs its line when closed (the
    server closes every body once it is done with it, sent whole or not)."""

    def __init__(self, body: Iterable[bytes], done: Callable[[int], None]) -> None:
        self._body = body
        self._done = done
        self._sent = 0

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._body:
            self._sent += len(chunk)
            yield chunk

    def close(self) -> None:
        try:
            close = getattr(self._body, "close", None)
            if close is not None:
                close()
        finally:
            self._done(self._sent)


def _log(environ: WSGIEnvironment, status: str, sent: str, started: float) -> None:
    request = environ.get("REQUEST_URI") or environ.get("PATH_INFO", "")
    if "REQUEST_URI" not in environ and environ.get("QUERY_STRING"):
        request += "?" + environ["QUERY_STRING"]
    line = f"{environ.get('REQUEST_METHOD', '-')} {request} {environ.get('SERVER_PROTOCOL', '-')}"
    LOG.info('%s "%s" %s %s "%s" "%s" %.1f ms', environ.get("REMOTE_ADDR", "-"),
              printable(line), status, sent, printable(environ.get("HTTP_REFERER", "-")),
              printable(environ.get("HTTP_USER_AGENT", "-")),
              (time.monotonic() - started) * 1000)


__all__ = ["LOG", "AccessLog"]
