"""Shared fixtures: the bundled seeds built once per session, as quads, as a memory store and as
an rdflib Dataset (for the validator's tests); a live ``benchgraph serve`` of them on every kind
of store; the seeds and the crawl catalog in a validated store; and, for a test module that
names its catalog folders in ``CATALOG``, that catalog built, in a store of each kind in turn
(``store_kind``: memory, oxigraph:DIR, sparql: over a real engine), in an app and behind a
client."""

import fcntl
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from rdflib import Dataset

from graph.build.graphs import GraphInMemory, build
from graph.export import to_dataset
from graph.resources import data_dir
from graph.settings import Settings
from graph.store.base import Store
from graph.store.disk import MANIFEST
from graph.store.kinds import StoreSpec, build_into, open_store
from graph.store.local import LocalStore
from tests.engines import ENGINES
from tests.seeds import SEEDS
from tests.serving import LiveServer, serve
from tests.store_kinds import STORE_KINDS, SharedEngines, mark_deviations, opened, push_into
from tests.system_tools import check_needs
from web import create_app

DATA = Path(__file__).parent / "data"
CRAWL_CATALOG = DATA / "crawl_catalog"
"""Synthetic records of both kinds and hostile ones (its README says how it was made)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_deviations(items)
    # pytest-xdist hands the modules to the workers (``--dist loadfile``) by their number of
    # tests, most first, a stable sort of this order: among modules of as many tests, the
    # slow ones (a whole workflow in one or two tests) start first rather than last.
    # (perf/decisions/test-suite-workers.md: the orders tried, and their times.)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_runtest_setup(item: pytest.Item) -> None:
    check_needs(item)


@pytest.fixture(scope="session")
def settings() -> Settings:
    return Settings()


@pytest.fixture(scope="session")
def seed_build(settings: Settings) -> GraphInMemory:
    return build(list(SEEDS), settings)


@pytest.fixture(scope="session")
def bundled_build(settings: Settings) -> GraphInMemory:
    """The bundled catalog built once per test process: several test modules read it, and its
    build is the slowest fixture they share. Read it, never change it."""
    return build([data_dir("catalog")], settings)


@pytest.fixture(scope="session")
def bundled_folder(request: pytest.FixtureRequest, settings: Settings,
                   tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled catalog in a validated store folder, built once a run: what ``benchgraph
    serve`` serves with no arguments (its memory store is such a folder), and what the
    commands that read the catalog without being about its loading open (``--store
    oxigraph:DIR``). The workers of one run (pytest-xdist) share it, the first to ask
    building it while the others wait: they only read it, as the processes of a server do.
    Read it, never change it."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if base.name.startswith("popen-gw") else base  # the run's, or ours
    folder = shared / "bundled-store"
    with (shared / "bundled-store.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / MANIFEST).is_file():
            bundled: GraphInMemory = request.getfixturevalue("bundled_build")
            build_into(folder, bundled.records, settings, validate=True)
    return folder


@pytest.fixture(scope="session")
def bundled_store(bundled_folder: Path, settings: Settings) -> Iterator[Store]:
    """``bundled_folder`` opened."""
    store = open_store(StoreSpec("oxigraph", str(bundled_folder)), settings)
    yield store
    store.close()


@pytest.fixture(scope="session")
def seed_store(seed_build: GraphInMemory, settings: Settings) -> Iterator[Store]:
    """The seeds in a memory store: what commands and pages query."""
    store = open_store(StoreSpec.parse("memory"), settings, built=seed_build.records)
    yield store
    store.close()


@pytest.fixture(scope="session")
def seed_dataset(seed_build: GraphInMemory) -> Dataset:
    """The seeds' graph; queries see the union of all named graphs."""
    return to_dataset(seed_build.quads)


@pytest.fixture()
def no_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No BENCHGRAPH_* variable from the caller's environment leaks into a test."""
    import os

    for name in list(os.environ):
        if name.startswith("BENCHGRAPH_"):
            monkeypatch.delenv(name)
    yield


@pytest.fixture(scope="session", params=STORE_KINDS)
def live_server(request: pytest.FixtureRequest, seed_build: GraphInMemory, settings: Settings,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """``benchgraph serve --port 0`` on the seeds, one for the whole session on each kind of
    store (memory; an oxigraph:DIR store built from them; a sparql: store over each real
    engine they were pushed to): the protocol conformance tests and the client tests talk
    HTTP to it."""
    kind: str = request.param
    if kind == "memory":
        with serve(list(map(str, SEEDS))) as server:
            yield server
        return
    folder = tmp_path_factory.mktemp(f"served-{kind}")
    if kind == "oxigraph":
        build_into(folder / "store", seed_build.records, settings, validate=True)
        with serve(["--store", f"oxigraph:{folder / 'store'}"]) as server:
            yield server
        return
    with ENGINES[kind](folder / "engine") as engine:
        push_into(engine, seed_build, settings, validate=True)
        with serve(["--store", engine.spec]) as server:
            yield server


@pytest.fixture(scope="session")
def crawl_paths() -> list[Path]:
    """The seeds and the crawl catalog: what the crawler, the docs pages and the browser see."""
    return [*SEEDS, CRAWL_CATALOG]


@pytest.fixture(scope="session")
def crawl_store(settings: Settings, crawl_paths: list[Path]) -> Iterator[LocalStore]:
    """The crawl paths in a memory store, validated as ``benchgraph serve`` validates."""
    store = open_store(StoreSpec.parse("memory"), settings, crawl_paths, validate=True)
    yield store
    store.close()


@pytest.fixture(scope="module")
def built(request: pytest.FixtureRequest, settings: Settings) -> GraphInMemory:
    """The ``CATALOG`` folders of the requesting test module, built (the bundled catalog's
    build is the test process's one, ``bundled_build``)."""
    named: Path | list[Path] = request.module.CATALOG
    catalog = [named] if isinstance(named, Path) else named
    if catalog == [data_dir("catalog")]:
        bundled: GraphInMemory = request.getfixturevalue("bundled_build")
        return bundled
    return build(catalog, settings)


@pytest.fixture(scope="module", params=STORE_KINDS)
def store_kind(request: pytest.FixtureRequest) -> str:
    """Each kind of store in turn (``tests.store_kinds``): a module whose tests take ``store``
    (or open their own store with ``opened(store_kind, ...)``) runs them all on every kind,
    the sparql one against a real engine."""
    kind: str = request.param
    return kind


@pytest.fixture(scope="session")
def shared_engines(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedEngines]:
    """The engines the store suites share in this process (``tests.store_kinds``)."""
    with ExitStack() as stack:
        yield SharedEngines(stack, tmp_path_factory.mktemp("shared-engines"))


@pytest.fixture(scope="module")
def store(built: GraphInMemory, settings: Settings, store_kind: str,
          tmp_path_factory: pytest.TempPathFactory,
          shared_engines: SharedEngines) -> Iterator[Store]:
    """The module's catalog in a store of each kind in turn; a remote kind's pushed into the
    engine of that kind the whole process shares (these suites only read)."""
    with opened(store_kind, built, tmp_path_factory.mktemp(store_kind), settings,
                engines=shared_engines) as made:
        yield made


@pytest.fixture(scope="module")
def app(store: Store, settings: Settings) -> Flask:
    return create_app(settings, store, {"TESTING": True})


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()
