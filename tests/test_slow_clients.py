"""Slow clients do not stop the server: with 50 connections that send their headers a byte at
a time, or hold a request's body open, or sit idle before their first request, a new
client's cheap query, a page and a static file are each answered within a second.

A server that hands a connection to a thread as soon as its first byte arrives (gunicorn's
gthread worker) has every thread reading a slow request, and a new client waits for as long
as they last. ``benchgraph serve`` must read each request whole before any thread sees it
(``web.server``). The limit of a second is generous for what is asked, on a busy machine
too; a server that slow clients stop answers nothing at all.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from urllib.parse import quote

import pytest

from tests.seeds import SEEDS
from tests.serving import LiveServer, serve

SLOW = 50
"""Slow connections of one kind held open at once."""
TRIES = 5
"""New requests of each kind sent while they are open; every one must be answered in time."""
ANSWER_SECONDS = 1.0
TRICKLE_SECONDS = 1.0
"""How often a trickling connection sends its next byte."""

CHEAP = [
    ("/sparql?query=" + quote("ASK {}"), "application/sparql-results+json"),
    ("/", "text/html"),
    ("/static/benchgraph.css", "text/css"),
]
"""What a new client asks while the slow ones hold their connections: a cheap query on the
endpoint, the home page, a static file."""


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with serve([str(path) for path in SEEDS]) as live:
        yield live


def _headers_a_byte_at_a_time(connection: socket.socket) -> Callable[[], None]:
    """A request whose header lines never end: one more byte every TRICKLE_SECONDS."""
    connection.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
    return lambda: connection.sendall(b"a")


def _body_held_open(connection: socket.socket) -> Callable[[], None]:
    """A POST whose headers announce a body that never comes whole: a byte now and then."""
    connection.sendall(b"POST /sparql HTTP/1.1\r\nHost: localhost\r\n"
                       b"Content-Type: application/x-www-form-urlencoded\r\n"
                       b"Content-Length: 100000\r\n\r\nquery=")
    return lambda: connection.sendall(b"A")


def _idle(connection: socket.socket) -> Callable[[], None]:
    """A connection that sends nothing at all."""
    return lambda: None


@contextmanager
def _slow_connections(server: LiveServer, start: Callable[[socket.socket], Callable[[], None]],
                      count: int = SLOW) -> Iterator[None]:
    """``count`` connections opened with ``start``, each fed by the step it returns every
    TRICKLE_SECONDS, until the block ends."""
    connections, steps = [], []
    for _ in range(count):
        connection = socket.create_connection((server.host, server.port), timeout=5)
        connections.append(connection)
        steps.append(start(connection))
    stop = threading.Event()

    def trickle() -> None:
        while not stop.wait(TRICKLE_SECONDS):
            for step in steps:
                try:
                    step()
                except OSError:  # the server closed it: one slow client fewer
                    pass

    feeder = threading.Thread(target=trickle, daemon=True)
    feeder.start()
    try:
        time.sleep(2 * TRICKLE_SECONDS)  # every connection has reached the server
        yield
    finally:
        stop.set()
        feeder.join()
        for connection in connections:
            connection.close()


def _answer_seconds(server: LiveServer, path: str, accept: str) -> float:
    """Seconds a new connection takes to get ``path`` answered whole (200); the limit
    (a few times ANSWER_SECONDS) when it is not answered by then."""
    started = time.monotonic()
    connection = server.connection(timeout=4 * ANSWER_SECONDS)
    try:
        connection.request("GET", path, headers={"Accept": accept})
        response = connection.getresponse()
        response.read()
        assert response.status == 200, (path, response.status)
    except TimeoutError:
        return 4 * ANSWER_SECONDS
    finally:
        connection.close()
    return time.monotonic() - started


@pytest.mark.parametrize("start", [_headers_a_byte_at_a_time, _body_held_open, _idle],
                         ids=["headers a byte at a time", "body held open", "idle"])
def test_a_new_client_is_answered_while_slow_connections_are_open(
        server: LiveServer, start: Callable[[socket.socket], Callable[[], None]]) -> None:
    with _slow_connections(server, start):
        for _ in range(TRIES):
            for path, accept in CHEAP:
                seconds = _answer_seconds(server, path, accept)
                assert seconds < ANSWER_SECONDS, \
                    f"{path} took {seconds:.2f} s with {SLOW} slow connections open"


def test_a_new_client_is_answered_while_slow_connections_of_every_kind_are_open(
        server: LiveServer) -> None:
    with _slow_connections(server, _headers_a_byte_at_a_time), \
            _slow_connections(server, _body_held_open), _slow_connections(server, _idle):
        for _ in range(TRIES):
            for path, accept in CHEAP:
                seconds = _answer_seconds(server, path, accept)
                assert seconds < ANSWER_SECONDS, \
                    f"{path} took {seconds:.2f} s with {3 * SLOW} slow connections open"
