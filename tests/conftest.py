"""Shared fixtures: the bundled seeds built once per session, as quads, as a memory store and as
an rdflib Dataset (for the validator's tests); a live ``benchgraph serve`` of them; the seeds
and the crawl catalog in a validated store; and, for a test module that names its catalog
folders in ``CATALOG``, that catalog built, in a memory store, in an app and behind a client."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from rdflib import Dataset

from graph.build import BuildResult, build
from graph.export import to_dataset
from graph.settings import Settings
from graph.store.base import Store
from graph.store.kinds import StoreSpec, open_store
from graph.store.local import LocalStore
from tests.seeds import SEEDS
from tests.serving import LiveServer, serve
from web import create_app

DATA = Path(__file__).parent / "data"
CRAWL_CATALOG = DATA / "crawl_catalog"
"""Synthetic records of both kinds and hostile ones (its README says how it was made)."""


@pytest.fixture(scope="session")
def settings() -> Settings:
    return Settings()


@pytest.fixture(scope="session")
def seed_build(settings: Settings) -> BuildResult:
    return build(list(SEEDS), settings)


@pytest.fixture(scope="session")
def seed_store(seed_build: BuildResult, settings: Settings) -> Iterator[Store]:
    """The seeds in a memory store: what commands and pages query."""
    store = open_store(StoreSpec.parse("memory"), settings, built=seed_build)
    yield store
    store.close()


@pytest.fixture(scope="session")
def seed_dataset(seed_build: BuildResult) -> Dataset:
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


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    """``benchgraph serve --port 0`` on the bundled catalog, one for the whole session: the
    protocol conformance tests and the client tests talk HTTP to it."""
    with serve() as server:
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
def built(request: pytest.FixtureRequest, settings: Settings) -> BuildResult:
    """The ``CATALOG`` folders of the requesting test module, built."""
    catalog: list[Path] = request.module.CATALOG
    return build(catalog, settings)


@pytest.fixture(scope="module")
def store(built: BuildResult, settings: Settings) -> Iterator[LocalStore]:
    """The module's catalog in a memory store."""
    opened = open_store(StoreSpec.parse("memory"), settings, built=built)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def app(store: LocalStore, settings: Settings) -> Flask:
    return create_app(settings, store, {"TESTING": True})


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()
