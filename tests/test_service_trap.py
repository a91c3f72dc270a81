"""No query makes anything fetch a URL: a trap HTTP server on loopback, which answers as a
SPARQL endpoint would, is named by SERVICE in every spelling, sent by GET, form POST and
direct POST to the endpoint of every kind of store, and by the command line. The trap must
hear nothing, and every answer is a 400 that says why (never a 5xx)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote, urlencode

import pytest
from flask.testing import FlaskClient

from graph.cli import main
from tests.proxy import serving
from tests.seeds import SEEDS

CATALOG = list(SEEDS)
HOLE = "http://127.0.0.1:9/sparql"
"""Where the unit tests' forms point; each is sent here with the trap's own address."""


class Trap(ThreadingHTTPServer):
    """An HTTP server that writes down every request it gets and answers each with one row."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.heard: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/sparql"


class _Handler(BaseHTTPRequestHandler):
    server: Trap

    def _answer(self) -> None:
        self.server.heard.append(f"{self.command} {self.path}")
        body = json.dumps({"head": {"vars": ["a"]},
                           "results": {"bindings": [{"a": {"type": "literal", "value": "x"}}]}})
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def trapping() -> Iterator[Trap]:
    """A trap listening on loopback while the block runs."""
    server = Trap()
    with serving(server):
        yield server


@pytest.fixture(scope="module")
def trap() -> Iterator[Trap]:
    with trapping() as server:
        yield server


def _forms() -> dict[str, str]:
    from tests.test_admission import GLUED_INTO_ONE_NAME, SERVICE_FORMS

    return {**SERVICE_FORMS, **{f"glued {n}": text for n, text in enumerate(GLUED_INTO_ONE_NAME)}}


FORMS = _forms()


def _send(client: FlaskClient, method: str, text: str) -> tuple[int, str]:
    headers = {"Accept": "application/sparql-results+json"}
    if method == "GET":
        answer = client.get("/sparql?query=" + quote(text), headers=headers)
    elif method == "form POST":
        answer = client.post("/sparql", data=urlencode({"query": text}), headers={
            **headers, "Content-Type": "application/x-www-form-urlencoded"})
    else:
        answer = client.post("/sparql", data=text.encode(), headers={
            **headers, "Content-Type": "application/sparql-query"})
    return answer.status_code, answer.get_data(as_text=True)


@pytest.mark.parametrize("method", ["GET", "form POST", "direct POST"])
def test_the_endpoint_never_fetches_a_service(client: FlaskClient, trap: Trap,
                                              method: str) -> None:
    answers = {}
    for name, form in FORMS.items():
        answers[name] = _send(client, method, form.replace(HOLE, trap.url))
    assert trap.heard == []
    assert {name: status for name, (status, _body) in answers.items()} == \
        dict.fromkeys(FORMS, 400)
    for name, (_status, body) in answers.items():
        message = json.loads(body)["error"]["message"]
        assert "SERVICE is not allowed" in message or "syntax error" in message, name


def test_the_command_line_never_fetches_a_service(trap: Trap,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for name, form in FORMS.items():
        code = main(["query", "-e", form.replace(HOLE, trap.url), *map(str, SEEDS)])
        err = capsys.readouterr().err
        assert code == 2, name
        assert err.startswith("benchgraph query: ") and len(err.strip().splitlines()) == 1, err
    assert trap.heard == []
