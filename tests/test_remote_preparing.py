"""A ``sparql:`` store opened as ``serve`` opens it answers at once, while a process of its
own makes its search index and dumps from the engine: until they are there, what needs them
is a 503 with ``Retry-After`` saying so (the home page and the dumps list say it and still
answer), then they answer; a maker that fails is named with its reason; closing the store
stops the maker and removes what it made. A real ``serve`` answers queries before the
files are made."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote_plus

import pytest
from flask.testing import FlaskClient

from graph.build.graphs import GraphInMemory
from graph.settings import Settings
from graph.store.errors import StoreError
from graph.store.kinds import StoreSpec, open_store
from graph.store.remote.store import RemoteStore
from tests.engines import RunningEngine, oxigraph_server
from tests.proxy import proxy_to
from tests.serving import LiveServer, serve
from tests.store_kinds import prepared, push_into
from tests.system_tools import OXIGRAPH, needs
from web import create_app

pytestmark = [pytest.mark.engine, needs(OXIGRAPH)]

JSON = {"Accept": "application/json"}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory, seed_build: GraphInMemory,
           settings: Settings) -> Iterator[RunningEngine]:
    with oxigraph_server(tmp_path_factory.mktemp("engine")) as running:
        push_into(running, seed_build, settings, validate=True)
        yield running


def _held_until(flag: Path, make: Callable[[RemoteStore, Path], Path]
                ) -> Callable[[RemoteStore, Path], Path]:
    """``make``, once ``flag`` exists (the forked maker waits for the test to say go)."""
    def held(store: RemoteStore, folder: Path) -> Path:
        while not flag.exists():
            time.sleep(0.02)
        return make(store, folder)

    return held


def _opened(engine: RunningEngine, settings: Settings) -> tuple[RemoteStore, FlaskClient]:
    store = open_store(StoreSpec.parse(engine.spec), settings)
    assert isinstance(store, RemoteStore)
    return store, create_app(settings, store, {"TESTING": True}).test_client()


def test_it_answers_while_its_files_are_made_then_serves_them(
        engine: RunningEngine, settings: Settings, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    flag = tmp_path / "go"
    monkeypatch.setattr(RemoteStore, "_make_into", _held_until(flag, RemoteStore._make_into))
    store, client = _opened(engine, settings)
    try:
        # what needs only the engine answers at once
        answer = client.get("/sparql?query=ASK%20%7B%20%3Fs%20%3Fp%20%3Fo%20%7D", headers=JSON)
        assert answer.status_code == 200 and answer.get_json()["boolean"] is True
        assert client.get("/benchmark/mimic_rrs").status_code == 200
        # what needs the files says it is being made, and when to ask again
        for path in ("/search?q=mimic", "/benchmarks", "/dump.ttl", "/validation.json"):
            waiting = client.get(path, headers=JSON)
            assert waiting.status_code == 503, path
            assert waiting.headers["Retry-After"] == "5", path
            assert "being made from the engine" in waiting.get_json()["error"]["message"], path
        assert client.get("/dumps").status_code == 200  # the list of the dumps answers
        shown = client.get("/")  # the home page answers, and says so
        assert shown.status_code == 200
        assert "being made from the engine" in shown.get_data(as_text=True)
        flag.touch()
        prepared(store, 60)
        assert client.get("/search?q=mimic", headers=JSON).status_code == 200
        dump = client.get("/dump.ttl")
        assert dump.status_code == 200 and b"mimic_rrs" in dump.get_data()
        home = client.get("/").get_data(as_text=True)
        assert "being made from the engine" not in home
        assert re.search(r"Browse all \d+ benchmarks", home)
    finally:
        store.close()


def test_a_maker_that_fails_is_named_with_its_reason(
        engine: RunningEngine, settings: Settings, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    def broken(store: RemoteStore, folder: Path) -> Path:
        raise StoreError("the engine gave 3 statements of 1,590")

    monkeypatch.setattr(RemoteStore, "_make_into", broken)
    store, client = _opened(engine, settings)
    try:
        deadline = time.monotonic() + 30
        while True:
            answer = client.get("/search?q=mimic", headers=JSON)
            message = answer.get_json()["error"]["message"]
            if "being made" not in message or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert answer.status_code == 503 and "Retry-After" not in answer.headers
        # the store's words are the operator's (they may name its folders): the server's log
        assert message == ("the store behind this server could not answer /search; the "
                           "server's log says why")
        assert ("the search index and the downloads could not be made from the engine: the "
                "engine gave 3 statements of 1,590") in caplog.text
    finally:
        store.close()


def test_closing_the_store_stops_the_maker_and_removes_its_folder(
        engine: RunningEngine, settings: Settings, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RemoteStore, "_make_into",
                        _held_until(tmp_path / "never", RemoteStore._make_into))
    store, _ = _opened(engine, settings)
    preparation = store._preparation
    assert preparation is not None
    os.kill(preparation.maker.pid, 0)  # running
    store.close()
    with pytest.raises(ProcessLookupError):
        os.kill(preparation.maker.pid, 0)
    assert not preparation.root.exists()


def test_serve_answers_queries_before_its_files_are_made(engine: RunningEngine) -> None:
    """``benchgraph serve --store sparql:URL`` as a user starts it, in front of an engine
    that holds back the query reading the data graphs (a proxy): it listens and answers a
    query, and a search is a 503 saying why; once the engine answers, the search does."""
    with proxy_to(engine.origin, hold=_READING_BACK) as proxy, \
            serve(["--store", f"sparql:{proxy.url}/query"], files=False) as server:
        assert _status(server, "/sparql?query=ASK%20%7B%7D") == 200
        assert _status(server, "/search?q=mimic") == 503
        assert any(_READING_BACK.encode() in seen.body
                   for seen in proxy.seen)  # the maker is waiting on the engine
        proxy.release.set()
        deadline = time.monotonic() + 60
        while _status(server, "/search?q=mimic") == 503 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _status(server, "/search?q=mimic") == 200


_READING_BACK = quote_plus("VALUES ?g {")
"""What only the queries reading the data graphs back send (``remote.read_back``), as it
is in the body of the form they are posted in."""


def _status(server: LiveServer, path: str) -> int:
    connection = server.connection(timeout=10)
    try:
        connection.request("GET", path, headers=JSON)
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()
