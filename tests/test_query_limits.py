"""The limits a local store's query processes hold every query to, as a caller sees them:
memory (a query past its limit is stopped and answered as a time limit is, naming the
limit), time (within limit + 2 s, queued or not), and the share of the processes long
queries may hold (one more is refused at once with Retry-After, and cheap queries are
answered beside them). After each stop, the store answers the next query."""

from __future__ import annotations

import logging
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from graph.build.graphs import GraphInMemory, read
from graph.cli import main
from graph.errors import BenchgraphError, ErrorKind
from graph.settings import Settings
from graph.store.base import Limits
from graph.store.kinds import StoreSpec, build_into, open_store
from graph.store.local import LocalStore
from graph.store.process.stops import QueryTimeout
from graph.store.query_log import LOG
from tests.seeds import SEEDS
from tests.test_admission import long_to_read
from web import create_app

RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
"""Hours of counting, in almost no memory."""
CHEAP = "ASK { ?s a bench:Benchmark }"
MEMORY_MB = 64
"""The smallest memory limit the settings allow."""
STAGGER = 0.3
"""Seconds between the starts of queries sent together, so that their texts are not parsed
at the same moment: rdflib's parser, which admits a query, is not safe to run in two
threads at once."""


def _numbers(count: int) -> str:
    return " ".join(map(str, range(count)))


HUNGRY = (f"SELECT ?s WHERE {{ VALUES ?a {{ {_numbers(100)} }} VALUES ?b {{ {_numbers(100)} }} "
          f"VALUES ?c {{ {_numbers(40)} }} "
          f'BIND(CONCAT(STR(?a), "-", STR(?b), "-", STR(?c), "{"x" * 1000}") AS ?s) }} '
          "ORDER BY ?s")
"""400,000 rows of a kilobyte each, all held to be sorted: well past ``MEMORY_MB`` within a
second, and bounded (some hundreds of megabytes), so that a store without a memory limit
answers it, slowly, without taking the machine's memory."""

Opened = Callable[[Settings, int], LocalStore]


class _Answer(NamedTuple):
    """What a client got, and after how long."""

    seconds: float
    status: int
    retry_after: str | None
    message: str


@pytest.fixture(scope="module")
def folder(seed_build: GraphInMemory, tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = tmp_path_factory.mktemp("limits") / "store"
    build_into(made, seed_build.records, Settings())
    return made


@pytest.fixture(params=["memory", "oxigraph"])
def opened(request: pytest.FixtureRequest, seed_build: GraphInMemory,
           folder: Path) -> Iterator[Opened]:
    """Opens the seeds in a local store of each kind, with the settings given and that many
    query processes; closes what it opened."""
    stores: list[LocalStore] = []

    def open_one(settings: Settings, processes: int) -> LocalStore:
        spec = "memory" if request.param == "memory" else f"oxigraph:{folder}"
        store = open_store(StoreSpec.parse(spec), settings, built=seed_build.records,
                           processes=processes)
        assert isinstance(store, LocalStore)
        stores.append(store)
        return store

    yield open_one
    for store in stores:
        store.close()


def test_a_query_past_its_memory_limit_is_stopped(opened: Opened) -> None:
    store = opened(Settings(query_memory_mb=MEMORY_MB), 1)
    started = time.monotonic()
    with pytest.raises(BenchgraphError) as stopped:
        store.query(HUNGRY, limits=Limits(timeout=60, rows=10))
    assert stopped.value.kind is ErrorKind.LIMIT
    assert stopped.value.message == (f"the query took more than its memory limit of "
                                     f"{MEMORY_MB} MB and was stopped")
    assert time.monotonic() - started < 30
    assert store.query(CHEAP).boolean is True


def _burst(kind: str, folder: Path, freed: int) -> tuple[str | None, str]:
    """In a new interpreter: a store of ``kind`` with the pool's watch blind, asked the
    hungry query after ``freed`` KB were allocated and freed but for one chunk in 50 (which
    keeps that heap mapped); how it ended (the error's kind and message, or None).

    A new interpreter, because a query process is forked from the process that opens the
    store, and the kernel counts mappings, not what is in them: a test process that has run
    other tests may have hundreds of megabytes free in its heap, which a query reuses unseen
    (``graph.store.process.confinement``)."""
    import graph.store.process.pool as pool

    pool.private_memory = lambda pid: None  # type: ignore[attr-defined]
    chunks = [bytes(1024) for _ in range(freed)]
    kept = chunks[::50]
    del chunks
    settings = Settings(query_memory_mb=MEMORY_MB)
    spec = StoreSpec.parse("memory" if kind == "memory" else f"oxigraph:{folder}")
    store = open_store(spec, settings, built=read(list(SEEDS), Settings()), processes=1)
    try:
        store.query(CHEAP)
        del kept
        store.query(HUNGRY, limits=Limits(timeout=60, rows=10))
        return None, "answered"
    except BenchgraphError as error:
        assert store.query(CHEAP).boolean is True
        return error.kind.name, error.message
    finally:
        store.close()


@pytest.mark.parametrize("freed", [0, 600_000], ids=["small-heap", "heap-with-600-MB-free"])
@pytest.mark.parametrize("kind", ["memory", "oxigraph"])
def test_a_burst_past_the_watch_is_stopped_by_the_kernel(kind: str, freed: int,
                                                          folder: Path) -> None:
    """With the pool's watch blind, the process's own cap stops the query (its allocation
    fails, and the process aborts): the caller sees the same error, never a crash. The cap
    counts the free memory the query process's heap came with: a burst reused 600 MB of it
    unseen, and was answered in full."""
    with multiprocessing.get_context("spawn").Pool(1) as apart:
        kind_name, message = apart.apply(_burst, (kind, folder, freed))
    assert kind_name == ErrorKind.LIMIT.name, message
    assert f"memory limit of {MEMORY_MB} MB" in message


def test_the_command_line_names_the_memory_limit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BENCHGRAPH_QUERY_MEMORY_MB", str(MEMORY_MB))
    code = main(["query", "-e", HUNGRY, *map(str, SEEDS)])
    err = capsys.readouterr().err
    assert code == 2
    assert err == (f"benchgraph query: the query took more than its memory limit of "
                   f"{MEMORY_MB} MB and was stopped\n")


def test_a_stopped_query_is_a_warning_in_the_log_naming_its_limit(
    opened: Opened, caplog: pytest.LogCaptureFixture
) -> None:
    """The server's log has a line, at WARNING, for each query a limit stopped: the store,
    what stopped it and why, its time and its text; the next query's line is at INFO."""
    store = opened(Settings(query_memory_mb=MEMORY_MB), 1)
    with caplog.at_level(logging.INFO, logger=LOG.name):
        for text, limits in ((HUNGRY, Limits(timeout=60, rows=10)),
                             (RUNAWAY, Limits(timeout=1, rows=None))):
            with pytest.raises(BenchgraphError):
                store.query(text, limits=limits)
        store.query(CHEAP)
    memory, time_limit, cheap = (record for record in caplog.records
                                 if record.name == LOG.name)
    assert (memory.levelno, time_limit.levelno, cheap.levelno) == (
        logging.WARNING, logging.WARNING, logging.INFO)
    assert memory.getMessage().startswith(f"{store.kind} query: stopped for memory in ")
    assert (f"(the query took more than its memory limit of {MEMORY_MB} MB and was "
            f'stopped): "{HUNGRY[:40]}') in memory.getMessage()
    assert time_limit.getMessage().startswith(f"{store.kind} query: timed out in ")
    assert time_limit.getMessage().endswith(
        f'(the query ran longer than its time limit of 1 s and was stopped): "{RUNAWAY}"')


def test_a_command_prints_its_one_line_and_no_log_line() -> None:
    """The command's stderr is its user's: a query stopped by its memory limit is one line,
    without the log's warning beside it (with no handler, Python's last resort prints it)."""
    done = subprocess.run(
        [sys.executable, "-m", "graph.cli", "query", "-e", HUNGRY, *map(str, SEEDS)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "BENCHGRAPH_QUERY_MEMORY_MB": str(MEMORY_MB)})
    assert done.returncode == 2
    assert done.stderr == (f"benchgraph query: the query took more than its memory limit of "
                           f"{MEMORY_MB} MB and was stopped\n")


def test_the_time_limit_holds_queued_or_not(opened: Opened) -> None:
    """Three runaways with a 2 s limit on two processes: the third waits for a process, and
    that wait counts; each is answered by a LIMIT error within 2 s of its limit."""
    store = opened(Settings(), 2)
    store.query(CHEAP)
    answered: list[tuple[float, ErrorKind | None]] = []

    def runaway() -> None:
        started = time.monotonic()
        try:
            store.query(RUNAWAY, limits=Limits(timeout=2, rows=None))
            answered.append((time.monotonic() - started, None))
        except BenchgraphError as error:
            answered.append((time.monotonic() - started, error.kind))

    threads = [threading.Thread(target=runaway) for _ in range(3)]
    for thread in threads:
        thread.start()
        time.sleep(STAGGER)
    for thread in threads:
        thread.join(timeout=30)
    assert len(answered) == 3
    assert all(kind is ErrorKind.LIMIT for _, kind in answered), answered
    assert all(seconds < 2 + 2 for seconds, _ in answered), answered
    assert store.query(CHEAP).boolean is True


def test_the_time_limit_counts_the_reading_of_a_long_query(opened: Opened) -> None:
    """The limit runs from the call: a query whose text takes longer to parse than its limit
    is stopped at the limit, not after the parse and a limit more."""
    store = opened(Settings(), 1)
    started = time.monotonic()
    text = long_to_read()
    with pytest.raises(QueryTimeout, match="reading its text took that long"):
        store.query(text, limits=Limits(timeout=0.3, rows=None))
    assert time.monotonic() - started < 0.3 + 1
    # given time, the same text waits for the parse under way, and runs
    assert store.query(text, limits=Limits(timeout=60, rows=None)).boolean is True


def test_one_long_query_too_many_is_refused_and_cheap_ones_answer(opened: Opened) -> None:
    """With ``long_queries`` 1, two runaways at once: the one that turns long second is
    stopped then, answered with Retry-After, while the first runs to its limit; a cheap
    query beside them is answered at once."""
    store = opened(Settings(long_queries=1), 3)
    store.query(CHEAP)
    outcomes: list[tuple[float, BenchgraphError]] = []

    def runaway() -> None:
        started = time.monotonic()
        try:
            store.query(RUNAWAY, limits=Limits(timeout=8, rows=None))
        except BenchgraphError as error:
            outcomes.append((time.monotonic() - started, error))

    threads = [threading.Thread(target=runaway) for _ in range(2)]
    for thread in threads:
        thread.start()
        time.sleep(STAGGER)
    time.sleep(1.5)  # both past their first second: one long, one refused
    cheap: list[float] = []
    for _ in range(5):
        started = time.monotonic()
        assert store.query(CHEAP).boolean is True
        cheap.append(time.monotonic() - started)
        time.sleep(0.2)
    assert max(cheap) < 1, cheap
    for thread in threads:
        thread.join(timeout=30)
    assert len(outcomes) == 2
    (refused_after, refused), (stopped_after, stopped) = sorted(outcomes, key=lambda o: o[0])
    assert refused_after < 4, outcomes
    assert refused.kind is ErrorKind.LIMIT
    assert "busy with long queries (1 at once" in refused.message
    assert refused.retry_after is not None and 1 <= refused.retry_after <= 8
    assert "time limit of 8 s" in stopped.message
    assert stopped_after < 8 + 2
    assert store.query(CHEAP).boolean is True


def test_the_endpoint_refuses_a_long_query_too_many_and_pages_answer(
    seed_build: GraphInMemory,
) -> None:
    """On the web, with ``long_queries`` 1: of two runaways from two clients, one is a 503
    with ``Retry-After`` within seconds; meanwhile a benchmark page and a cheap query from a
    third client are answered while the other runaway still runs (how fast is the perf
    suite's to measure, not a test's)."""
    settings = Settings(long_queries=1, query_timeout=20)
    store = open_store(StoreSpec.parse("memory"), settings, built=seed_build.records, processes=3)
    try:
        app = create_app(settings, store, {"TESTING": True})
        json = {"Accept": "application/sparql-results+json"}
        app.test_client().get("/sparql", query_string={"query": CHEAP}, headers=json)
        answers: list[_Answer] = []

        def runaway() -> None:
            started = time.monotonic()
            response = app.test_client().get("/sparql", query_string={"query": RUNAWAY},
                                             headers=json)
            answers.append(_Answer(time.monotonic() - started, response.status_code,
                                   response.headers.get("Retry-After"),
                                   response.get_json()["error"]["message"]))

        threads = [threading.Thread(target=runaway) for _ in range(2)]
        for thread in threads:
            thread.start()
            time.sleep(STAGGER)
        time.sleep(1.5)
        client = app.test_client()
        html = {"Accept": "text/html"}
        for path, query, accept in (("/benchmark/mimic_rrs", {}, html),
                                    ("/sparql", {"query": CHEAP}, json)) * 2:
            assert client.get(path, query_string=query, headers=accept).status_code == 200
            assert len(answers) < 2, f"{path} waited for the runaway's end"
        for thread in threads:
            thread.join(timeout=60)
        refused, stopped = sorted(answers)
        assert refused.seconds < 4, answers
        assert refused.status == 503 and int(refused.retry_after or 0) >= 1, answers
        assert "busy with long queries" in refused.message
        assert stopped.status == 503 and "time limit of 20 s" in stopped.message, answers
    finally:
        store.close()
