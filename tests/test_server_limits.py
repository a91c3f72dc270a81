"""The server's own limits on a request's size (``web.server``): a query the app accepts is
never refused for coming by GET, whatever its characters; a request past the limits is
refused by the server, with its status, before any of the app's work.

The longest query text accepted is ``max_query_bytes`` of UTF-8; percent-encoded in a GET's
request line it may take three times that (gunicorn, served before, refused a request line
past 8,190 bytes with a 414, so a query by GET was held to a fraction of what a POST of it
could say).
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest

from graph.settings import Settings
from tests.seeds import SEEDS
from tests.serving import LiveServer, serve

SETTINGS = Settings()


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with serve([str(path) for path in SEEDS], files=False) as live:
        yield live


def _longest_query() -> str:
    """An ASK of exactly ``max_query_bytes`` bytes of UTF-8, two bytes a character in its
    bulk: six bytes of the request line for each of them."""
    head, tail = 'ASK { FILTER("', '" != "") }'
    room = SETTINGS.max_query_bytes - len(head) - len(tail)
    return head + "é" * (room // 2) + "a" * (room % 2) + tail


def _status(server: LiveServer, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    connection = server.connection(timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_longest_query_accepted_is_answered_by_get(server: LiveServer) -> None:
    query = _longest_query()
    assert len(query.encode()) == SETTINGS.max_query_bytes
    path = "/sparql?" + urlencode({"query": query})
    assert len(path) > 3 * SETTINGS.max_query_bytes - 100
    status, body = _status(server, "GET", path,
                           headers={"Accept": "application/sparql-results+json"})
    assert status == 200, body[:300]
    assert json.loads(body)["boolean"] is True


def test_headers_past_the_limit_are_refused(server: LiveServer) -> None:
    status, _ = _status(server, "GET", "/sparql?query=" + "a" * (4 * SETTINGS.max_query_bytes))
    assert status == 431


def test_a_body_past_the_limit_is_refused_at_its_length_before_it_is_sent(
        server: LiveServer) -> None:
    """Only the headers are sent: the answer comes without the body ever being read."""
    with socket.create_connection((server.host, server.port), timeout=10) as connection:
        connection.sendall(b"POST /sparql HTTP/1.1\r\nHost: localhost\r\n"
                           b"Content-Type: application/sparql-query\r\n"
                           b"Content-Length: %d\r\n\r\n" % (SETTINGS.max_request_bytes + 1))
        answer = connection.recv(200)
    assert answer.startswith(b"HTTP/1.1 413 "), answer
