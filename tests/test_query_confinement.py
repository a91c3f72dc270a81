"""The second wall: a query process cannot open a network connection, whatever query reaches
it. The first wall, the parser's refusal of SERVICE (``graph.sparql.admission``), is taken
down here (every text is admitted as it is), and a SERVICE to a trap HTTP server on loopback
is run on both local kinds of store: the trap hears nothing, the caller gets an error, not
a hang, and the store answers the next query."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph.build.graphs import GraphInMemory
from graph.errors import BenchgraphError
from graph.settings import Settings
from graph.sparql.admission import Admitted
from graph.store.kinds import StoreSpec, build_into, open_store
from graph.store.local import LocalStore
from graph.store.process import confinement
from tests.test_service_trap import Trap, trapping

LOCAL_KINDS = ["memory", "oxigraph"]


@pytest.fixture()
def trap() -> Iterator[Trap]:
    with trapping() as server:
        yield server


@pytest.fixture()
def no_parser_wall(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text admitted as it is, SERVICE and all: only the query process stands."""

    def admit_anything(text: str, source: str, max_bytes: int,
                       within: float | None = None) -> Admitted:
        form = "ASK" if text.lstrip().upper().startswith("ASK") else "SELECT"
        return Admitted(text, form, names_graphs=False)  # type: ignore[arg-type]

    monkeypatch.setattr("graph.sparql.admission.admit", admit_anything)


def _opened(kind: str, seed_build: GraphInMemory, folder: Path) -> LocalStore:
    settings = Settings()
    if kind == "memory":
        store = open_store(StoreSpec.parse("memory"), settings, built=seed_build.records)
    else:
        build_into(folder / "store", seed_build.records, settings)
        store = open_store(StoreSpec.parse(f"oxigraph:{folder / 'store'}"), settings)
    assert isinstance(store, LocalStore)
    return store


@pytest.mark.parametrize("kind", LOCAL_KINDS)
def test_a_query_process_cannot_reach_the_network(
    kind: str, seed_build: GraphInMemory, tmp_path: Path, trap: Trap, no_parser_wall: None
) -> None:
    store = _opened(kind, seed_build, tmp_path)
    try:
        for text in (f"SELECT * WHERE {{ SERVICE <{trap.url}> {{ ?a ?b ?c }} }}",
                     f"SELECT * WHERE {{ ?s ?p ?o . SERVICE <{trap.url}> {{ ?a ?b ?c }} }} "
                     "LIMIT 1",
                     f"ASK {{ SERVICE <{trap.url}> {{ ?a ?b ?c }} }}"):
            started = time.monotonic()
            with pytest.raises(BenchgraphError) as refused:
                store.query(text)
            assert time.monotonic() - started < 10, text
            assert "network connection" in refused.value.message, refused.value.message
        # SILENT asks the engine to carry on without the endpoint's rows: it does, unheard.
        silent = f"SELECT ?a WHERE {{ SERVICE SILENT <{trap.url}> {{ ?a ?b ?c }} }}"
        assert store.query(silent).rows == ((None,),)
        assert trap.heard == []
        assert store.query("ASK { ?s a bench:Benchmark }").boolean is True
    finally:
        store.close()


def test_without_a_wall_one_warning_and_queries_still_answer(
    seed_build: GraphInMemory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Where no filter can be loaded (here: no libseccomp by that name), the pool says so
    once, in the log, and queries run as before: the parser stays the wall."""
    monkeypatch.setattr(confinement, "_LIBRARY", "libseccomp-absent.so.0")
    with caplog.at_level(logging.WARNING, logger="graph.store.process.pool"):
        store = _opened("memory", seed_build, tmp_path)
        try:
            for _ in range(3):
                assert store.query("ASK { ?s a bench:Benchmark }").boolean is True
        finally:
            store.close()
    warnings = [record.getMessage() for record in caplog.records
                if record.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings
    assert "network connections" in warnings[0] and "libseccomp" in warnings[0], warnings
