"""Every query a store runs writes one line to the server's log, on every kind of store: its
store's kind, what came of it (so many rows, refused and why), its time, and its text on one
line, which nothing a client sends can break into two. ``benchgraph serve`` writes the lines
on stderr, at the level ``--log-level`` asks for. (The lines of queries a limit stopped:
``tests/test_query_limits.py``.)"""

from __future__ import annotations

import io
import logging
import re

import pytest

from graph.cli import main
from graph.sparql.errors import ReadOnlyError
from graph.store.base import Limits, Store
from graph.store.query_log import LOG, SHOWN_CHARS
from tests.seeds import SEEDS
from tests.serving import serve

CATALOG = list(SEEDS)
"""The catalog of the module's stores (``conftest.built``)."""
ANSWERED = "SELECT ?s WHERE { ?s a bench:Benchmark }"
SERVICE = "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }"
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
LINE = ("[2030-01-01 00:00:00 +0000] [1] [WARNING] graph.store.query_log: memory query: "
        "timed out")
"""A line a client would like the log to show: the start of one of the server's own."""
NAMED = {"memory": "memory", "oxigraph": "oxigraph", "sparql": "sparql", "virtuoso": "sparql"}
"""How the log names each kind of store the suites run on (``tests.store_kinds``)."""


def _lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == LOG.name]


def test_an_answered_query_writes_its_rows_time_and_text(
        store: Store, store_kind: str, caplog: pytest.LogCaptureFixture) -> None:
    kind = NAMED[store_kind]
    with caplog.at_level(logging.INFO, logger=LOG.name):
        answer = store.query(ANSWERED)
        store.query(ANSWERED, limits=Limits(timeout=30, rows=1))
        store.query("ASK { ?s a bench:Benchmark }")
    (whole, cut, asked) = _lines(caplog)
    assert whole.levelno == logging.INFO
    assert whole.getMessage().startswith(f"{kind} query: {len(answer.rows)} rows in ")
    assert whole.getMessage().endswith(f' ms: "{ANSWERED}"')
    assert cut.getMessage().startswith(f"{kind} query: 1 row, cut at the row limit, in ")
    assert asked.getMessage().startswith(f"{kind} query: answered true in ")


def test_a_refused_query_writes_why_at_info(
        store: Store, store_kind: str, caplog: pytest.LogCaptureFixture) -> None:
    """A SERVICE is refused before anything runs it: a client's mistake, not the server's
    trouble."""
    with caplog.at_level(logging.INFO, logger=LOG.name), pytest.raises(ReadOnlyError):
        store.query(SERVICE)
    (refused,) = _lines(caplog)
    kind = NAMED[store_kind]
    assert refused.levelno == logging.INFO
    message = refused.getMessage()
    assert message.startswith(f"{kind} query: refused in "), message
    assert "(the query: SERVICE is not allowed: " in message
    assert message.endswith(f'"{SERVICE}"')


def test_a_query_cannot_write_a_line_of_its_own(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    """A line break, a terminal's escape or a Unicode line separator in the text (here in a
    string, where SPARQL takes them as they are) stays on the query's one line, a space or
    escaped; a long text is cut."""
    forged = f'ASK {{ BIND("""\r\n{LINE}\x1b[2K\u2028{LINE} {"x" * 500}""" AS ?x) }}'
    with caplog.at_level(logging.INFO, logger=LOG.name):
        assert store.query(forged).boolean is True
    (asked,) = _lines(caplog)
    message = asked.getMessage()
    assert message.isprintable(), message
    shown = io.StringIO()
    handler = logging.StreamHandler(shown)
    handler.setFormatter(logging.Formatter("[%(levelname)s] %(name)s: %(message)s"))
    handler.handle(asked)
    assert len(shown.getvalue().splitlines()) == 1
    assert f'"ASK {{ BIND(""" {LINE}\\x1b[2K {LINE} xxx' in message
    text = message.split('"', 1)[1]
    assert text.endswith('x…"') and len(text) < SHOWN_CHARS + 10


def test_serve_writes_each_query_on_stderr() -> None:
    with serve([*map(str, SEEDS)], files=False) as server:
        assert server.ask(ANSWERED) == 200
    logged = "".join(server.stderr)
    line = re.escape("[INFO] graph.store.query_log: memory query: ") + \
        r"\d+ rows? in [\d.]+ ms: " + re.escape(f'"{ANSWERED}"\n')
    assert re.search(line, logged), logged


def test_serve_at_warning_writes_only_the_queries_a_limit_stopped() -> None:
    with serve([*map(str, SEEDS), "--log-level", "WARNING", "--query-timeout", "1"],
               files=False) as server:
        assert server.ask(ANSWERED) == 200
        assert server.ask(RUNAWAY) == 503
    logged = "".join(server.stderr)
    assert ANSWERED not in logged and "[INFO]" not in logged, logged
    assert "[WARNING] graph.store.query_log: memory query: timed out in " in logged, logged
    assert f'(the query ran longer than its time limit of 1 s and was stopped): "{RUNAWAY}"' \
        in logged


def test_a_log_level_serve_does_not_know_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--log-level", "loud"]) == 2
    assert capsys.readouterr().err == (
        "benchgraph serve: bad setting: --log-level 'loud': input should be 'debug', 'info', "
        "'warning' or 'error'\n")
