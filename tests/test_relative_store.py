"""A store folder named by a relative path (``oxigraph:store``) is the same folder from
wherever it is used: the web app's files (dumps, the validation report) are served whatever
the process's working directory, and whatever Flask takes a relative path against."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from graph.build.graphs import GraphInMemory
from graph.settings import Settings
from graph.store.kinds import StoreSpec, build_into, open_store
from web import create_app


@pytest.fixture
def relative_client(tmp_path: Path, seed_build: GraphInMemory, settings: Settings,
                    monkeypatch: pytest.MonkeyPatch) -> Iterator[FlaskClient]:
    """The app over ``oxigraph:store``, opened in ``tmp_path``, asked from another folder."""
    build_into(tmp_path / "store", seed_build.records, settings, validate=True)
    monkeypatch.chdir(tmp_path)
    relative = settings.model_copy(update={"store": "oxigraph:store"})
    store = open_store(StoreSpec.parse(relative.store), relative)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    try:
        yield create_app(relative, store, {"TESTING": True}).test_client()
    finally:
        store.close()


def test_a_relative_store_folder_is_made_absolute_once(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    spec = StoreSpec.parse("oxigraph:store/../store")
    assert spec.location == str(tmp_path / "store")
    assert StoreSpec.parse(f"oxigraph:{spec.location}") == spec


@pytest.mark.parametrize("path", ["/dump.nq", "/dump.ttl", "/validation.json",
                                  "/validation.ttl"])
def test_files_of_a_relative_store_are_served(relative_client: FlaskClient, path: str) -> None:
    response = relative_client.get(path)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert response.get_data()


def test_a_relative_store_from_the_environment_is_served(
    tmp_path: Path, seed_build: GraphInMemory, settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As ``BENCHGRAPH_STORE=oxigraph:store`` gives it to an app that opens its store when
    first asked."""
    build_into(tmp_path / "store", seed_build.records, settings)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BENCHGRAPH_STORE", "oxigraph:store")
    app = create_app(Settings(), None, {"TESTING": True})
    response = app.test_client().get("/dump.nt")
    assert response.status_code == 200
    assert response.get_data().count(b"\n") > 100


def test_a_relative_store_setting_names_the_folder_it_named_when_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read from the environment, a relative ``oxigraph:DIR`` names the folder below the
    working directory of the moment the settings are read, wherever it is opened later."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BENCHGRAPH_STORE", "oxigraph:store")
    settings = Settings()
    monkeypatch.chdir("/")
    assert settings.store == f"oxigraph:{tmp_path / 'store'}"
