"""The dumps: every format, the statements ``benchgraph build -o FILE`` writes as the engine
holds them, written from the store when first asked for, kept in its generation folder and
streamed from there with their headers."""

import time
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest
from flask import Flask
from flask.testing import FlaskClient

from graph.build.graphs import GraphInMemory
from graph.cli import main
from graph.export.formats import TURTLE, Format
from graph.settings import Settings
from graph.store import disk
from graph.store.disk import read_manifest
from graph.store.errors import StoreError
from graph.store.files import DUMP_FORMATS as FORMATS
from graph.store.files import dump_name
from graph.store.kinds import StoreSpec, build_into, open_store
from graph.store.local import LocalStore
from web import create_app

SUFFIXES = {fmt.extension.removeprefix("."): fmt for fmt in FORMATS}


@pytest.fixture(scope="module")
def app(settings: Settings, crawl_store: LocalStore) -> Flask:
    return create_app(settings, crawl_store)


@pytest.fixture(scope="module")
def built_files(tmp_path_factory: pytest.TempPathFactory, crawl_paths: list[Path],
                no_env_module: None) -> dict[str, Path]:
    """``benchgraph build PATHS -o benchgraph.SUFFIX`` for each format, as a user runs it."""
    folder = tmp_path_factory.mktemp("cli")
    files = {}
    for suffix in SUFFIXES:
        output = folder / f"benchgraph.{suffix}"
        code = main(["build", *map(str, crawl_paths), "-o", str(output)])
        assert code in (0, 2), code  # 2: the crawl catalog has files the build rejects
        files[suffix] = output
    return files


@pytest.fixture(scope="module")
def no_env_module() -> Iterator[None]:
    """No BENCHGRAPH_* variable of the caller's changes what the CLI builds."""
    with pytest.MonkeyPatch.context() as patch:
        import os

        for name in [n for n in os.environ if n.startswith("BENCHGRAPH_")]:
            patch.delenv(name)
        yield


def as_held(data: bytes, fmt: Format) -> set[ox.Quad]:
    """The statements of a document in ``fmt`` as an Oxigraph store holds them (in the forms
    it keeps literals in)."""
    holder = ox.Store()
    holder.load(data, format=ox.RdfFormat.from_media_type(fmt.media_type))
    return set(holder)


@pytest.mark.parametrize("suffix", sorted(SUFFIXES))
def test_a_dump_holds_the_statements_of_the_build_output(
    client: FlaskClient, built_files: dict[str, Path], suffix: str
) -> None:
    response = client.get(f"/dump.{suffix}")
    assert response.status_code == 200
    fmt = SUFFIXES[suffix]
    assert as_held(response.data, fmt) == as_held(built_files[suffix].read_bytes(), fmt)


@pytest.mark.parametrize("suffix", sorted(SUFFIXES))
def test_dump_headers(client: FlaskClient, crawl_store: LocalStore, suffix: str) -> None:
    fmt: Format = SUFFIXES[suffix]
    kept = crawl_store.artefacts().dump(fmt)
    response = client.get(f"/dump.{suffix}")
    media_type, _, parameters = response.headers["Content-Type"].partition(";")
    assert media_type == fmt.media_type
    assert parameters.strip() in ("", "charset=utf-8")
    assert int(response.headers["Content-Length"]) == kept.path.stat().st_size
    assert response.headers["ETag"] == f'"{crawl_store.loaded()[0].name}"'
    assert response.headers["Content-Disposition"] == f"attachment; filename=benchgraph.{suffix}"


def test_dump_is_streamed_from_its_file(app: Flask, crawl_store: LocalStore) -> None:
    """The response body is the file, read as it is sent: never the whole of it in memory."""
    with app.test_request_context("/dump.nt"):
        response = app.full_dispatch_request()
        try:
            assert response.direct_passthrough  # a file wrapper, not a body
            assert not isinstance(response.response, (bytes, list))
        finally:
            response.close()


def test_conditional_and_range_requests(client: FlaskClient) -> None:
    first = client.get("/dump.ttl")
    tag = first.headers["ETag"]
    again = client.get("/dump.ttl", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b""
    part = client.get("/dump.ttl", headers={"Range": "bytes=0-99"})
    assert part.status_code == 206
    assert part.data == first.data[:100]
    head = client.head("/dump.ttl")
    assert head.status_code == 200 and head.headers["Content-Length"] == str(len(first.data))


def test_unknown_dump_is_a_404_naming_the_dumps(client: FlaskClient) -> None:
    response = client.get("/dump.xml", headers={"Accept": "application/json"})
    assert response.status_code == 404
    assert "dump.ttl" in response.get_json()["error"]["message"]


def test_dumps_page_lists_every_dump(client: FlaskClient, crawl_store: LocalStore) -> None:
    page = client.get("/dumps").get_data(as_text=True)
    for suffix, fmt in SUFFIXES.items():
        assert f'href="/dump.{suffix}"' in page
        assert fmt.label in page


def test_a_store_writes_a_dump_once_when_first_asked_for(
    tmp_path: Path, seed_build: GraphInMemory, settings: Settings
) -> None:
    manifest = build_into(tmp_path / "store", seed_build.records, settings)[1]
    generation = tmp_path / "store" / manifest.generation
    assert not list(generation.glob("*dump*"))  # nothing written before it is asked for
    assert not (generation / "validation.json").exists()  # not asked to validate
    store = open_store(StoreSpec.parse(f"oxigraph:{tmp_path / 'store'}"), settings)
    try:  # the Oxigraph data is whole
        count = store.query("SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }").rows[0][0]
        assert count is not None and int(count.value) == manifest.quads
        artefacts = store.artefacts()
        assert artefacts.validation() is None and artefacts.validation_file(".json") is None
        made = store.artefacts().dump(TURTLE)
        assert made.path == generation / dump_name(TURTLE)
        written = made.path.stat().st_mtime_ns
        assert [path.name for path in generation.glob("*dump*")] == [dump_name(TURTLE)]
    finally:
        store.close()
    again = open_store(StoreSpec.parse(f"oxigraph:{tmp_path / 'store'}"), settings)
    try:  # another process serving the folder finds it made
        assert again.artefacts().dump(TURTLE).path.stat().st_mtime_ns == written
    finally:
        again.close()


def test_a_store_build_leaves_no_file_of_its_statements(
    tmp_path: Path, seed_build: GraphInMemory, settings: Settings
) -> None:
    """A build streams its statements into the store's writing process: no file of them is
    written beside the store, and no dump until one is asked for."""
    manifest = build_into(tmp_path / "store", seed_build.records, settings)[1]
    generation = tmp_path / "store" / manifest.generation
    assert not [path for path in generation.rglob("*")
                if path.suffix in (".nq", ".nt", ".ttl", ".trig", ".jsonld")]


def test_a_store_of_the_earlier_format_is_refused(
    tmp_path: Path, seed_build: GraphInMemory, settings: Settings
) -> None:
    """A store folder written before generations kept their files cannot serve them."""
    folder = tmp_path / "store"
    build_into(folder, seed_build.records, settings)
    manifest = folder / disk.MANIFEST
    manifest.write_text(manifest.read_text().replace('"format": 2', '"format": 1'))
    with pytest.raises(StoreError, match="another version"):
        read_manifest(folder)


def test_a_dump_still_being_written_is_a_503_and_the_server_answers_meanwhile(
    tmp_path: Path, seed_build: GraphInMemory, settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A request waits for a dump being written only ``DUMP_WAIT`` seconds (a large graph's
    takes minutes): then it is told to come back, holding no server thread, and one process
    goes on writing it, whoever asks meanwhile."""
    from graph.store import files, following

    monkeypatch.setattr(following, "DUMP_WAIT", 0.0)
    started = []
    start = files.DumpWriting.start.__func__  # type: ignore[attr-defined]

    def counted(cls: type[files.DumpWriting], *args: object) -> files.DumpWriting:
        started.append(args)
        return start(cls, *args)  # type: ignore[no-any-return]

    monkeypatch.setattr(files.DumpWriting, "start", classmethod(counted))
    build_into(tmp_path / "store", seed_build.records, settings)
    store = open_store(StoreSpec.parse(f"oxigraph:{tmp_path / 'store'}"), settings)
    try:
        client = create_app(settings, store).test_client()
        first = client.get("/dump.nt", headers={"Accept": "application/json"})
        assert first.status_code == 503 and first.headers["Retry-After"] == "5"
        assert "being written" in first.get_json()["error"]["message"]
        assert client.get("/", headers={"Accept": "text/html"}).status_code == 200
        deadline = time.monotonic() + 60
        while (answer := client.get("/dump.nt")).status_code == 503:
            assert time.monotonic() < deadline, "the dump was never written"
            time.sleep(0.05)
        assert answer.status_code == 200 and len(started) == 1
        assert as_held(answer.get_data(), SUFFIXES["nt"]) == as_held(
            store.artefacts().dump(SUFFIXES["nt"]).path.read_bytes(), SUFFIXES["nt"])
    finally:
        store.close()
