"""A recording HTTP proxy in front of a real engine, for the tests that must see the wire:
which graphs a push really sent, which requests reached the engine, with which
``Authorization``, and how the client behaves when the engine fails, is slow or refuses.

``Proxy(upstream)`` listens on a free loopback port and forwards each request to the engine
at ``upstream`` (``http://127.0.0.1:PORT``) unchanged, unless told otherwise:

- ``require``: the ``Authorization`` header every request must carry; any other gets 401,
  with a body that echoes what it was sent (as a careless engine might, so that a test can
  check that no credential is quoted back to the user);
- ``failures``: statuses to answer, one request each, before forwarding again (503 503:
  two failures, then the engine);
- ``delay``: seconds to wait before answering each request (a slow engine);
- ``hold``: a text; a request whose URL or body holds it waits until ``release`` is set (an
  engine slow at one request alone);
- ``headers``: headers added to every answer of the engine's.
"""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


@dataclass(frozen=True)
class Seen:
    """One request that reached the proxy."""

    method: str
    path: str
    graph: str | None
    """The ``graph`` parameter of a Graph Store request (``default`` for the default graph)."""
    authorization: str | None
    body: bytes
    at: float


@dataclass
class Proxy:
    upstream: str
    require: str | None = None
    failures: list[int] = field(default_factory=list)
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    hold: str | None = None
    release: threading.Event = field(default_factory=threading.Event)
    seen: list[Seen] = field(default_factory=list)
    url: str = ""

    def puts(self) -> list[str | None]:
        """The graphs PUT through the proxy, in order."""
        return [request.graph for request in self.seen if request.method == "PUT"]

    def forget(self) -> None:
        self.seen.clear()


def _handler(proxy: Proxy) -> type[BaseHTTPRequestHandler]:
    target = urlsplit(proxy.upstream)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the tests read ``proxy.seen``."""

        def _any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            query = parse_qs(urlsplit(self.path).query, keep_blank_values=True)
            graph = query["graph"][0] if "graph" in query else (
                "default" if "default" in query else None)
            authorization = self.headers.get("Authorization")
            proxy.seen.append(Seen(self.command, self.path, graph, authorization, body,
                                   time.monotonic()))
            if proxy.delay:
                time.sleep(proxy.delay)
            if proxy.hold is not None and proxy.hold.encode() in self.path.encode() + body:
                proxy.release.wait(120)
            if proxy.require is not None and authorization != proxy.require:
                self._answer(401, b"unauthorized: you sent " + str(authorization).encode(),
                             {"WWW-Authenticate": 'Basic realm="engine"'})
                return
            if proxy.failures:
                self._answer(proxy.failures.pop(0), b"engine busy", {})
                return
            upstream = http.client.HTTPConnection(target.hostname or "", target.port, timeout=60)
            try:
                headers = {name: value for name, value in self.headers.items()
                           if name.lower() not in ("host", "authorization", "connection")}
                upstream.request(self.command, self.path, body or None, headers)
                response = upstream.getresponse()
                data = response.read()
                kept = {name: value for name, value in response.getheaders()
                        if name.lower() == "content-type"} | proxy.headers
                self._answer(response.status, data, kept)
            finally:
                upstream.close()

        def _answer(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _any

    return Handler


class _Quiet(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """A connection the client dropped (a time limit, a killed engine) is no news."""


@contextmanager
def proxy_to(upstream: str, **options: object) -> Iterator[Proxy]:
    """A ``Proxy`` forwarding to ``upstream`` (scheme, host and port), until the block ends."""
    proxy = Proxy(upstream, **options)  # type: ignore[arg-type]
    server = _Quiet(("127.0.0.1", 0), _handler(proxy))
    server.daemon_threads = True
    proxy.url = f"http://127.0.0.1:{server.server_address[1]}"
    with serving(server):
        yield proxy


@contextmanager
def serving(server: ThreadingHTTPServer) -> Iterator[None]:
    """``server`` answering in a thread of its own until the block ends, then closed."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


__all__ = ["Proxy", "Seen", "proxy_to", "serving"]
