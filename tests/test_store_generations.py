"""A store folder rebuilt while it is served: the server moves to the new generation at a
request boundary, no request fails because a build finished, and a build removes no
generation that a reader still reads.

The builds are the real command (``benchgraph build --store oxigraph:DIR``, in a process of its
own); the server is an app over a store opened in this process (``open_store``, the Flask test
client: a request can be held open across a build), and a live ``benchgraph serve``
(``tests.serving``) asked without a pause by a client while the folder is rebuilt under it.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

from graph.export.formats import NQUADS
from graph.settings import Settings
from graph.store.disk import read_manifest
from graph.store.kinds import StoreSpec, open_store
from graph.store.local import LocalStore
from tests.seeds import SEEDS
from tests.serving import LiveServer, _command, serve
from web import create_app

SEARCH = Path(__file__).parent / "data" / "search"
FIRST = [*SEEDS]
SECOND = [*SEEDS, SEARCH / "clinic_chat.json"]
THIRD = [*SEEDS, SEARCH / "clinic_chat.json", SEARCH / "stanford_quiz.json"]
BUILD_SECONDS = 300.0
ASK_CLINIC = "ASK { ?b <http://purl.org/dc/terms/identifier> \"clinic_chat\" }"
ASK_QUIZ = "ASK { ?b <http://purl.org/dc/terms/identifier> \"stanford_quiz\" }"


def _build(folder: Path, paths: list[Path], *options: str) -> str:
    """``benchgraph build PATHS --store oxigraph:FOLDER OPTIONS``, which must succeed; what it
    printed."""
    done = subprocess.run(
        [*_command(), "build", *map(str, paths), "--store", f"oxigraph:{folder}", *options],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=BUILD_SECONDS)
    assert done.returncode == 0, done.stderr
    return done.stderr


def _generations(folder: Path) -> set[str]:
    return {entry.name for entry in folder.iterdir() if entry.name.startswith("generation-")}


def _finds(store: LocalStore, benchmark: str) -> bool:
    """Whether searching for ``benchmark``'s words finds it."""
    hits = store.artefacts().search(benchmark.replace("_", " ")).hits
    return any(hit.iri.endswith(f"/benchmark/{benchmark}") for hit in hits)


def _asks(store: LocalStore, text: str) -> bool:
    answer = store.query(text).boolean
    assert answer is not None
    return answer


@pytest.fixture(scope="module")
def first_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of the seeds whose current generation an incremental build wrote, built once:
    each test rebuilds a copy of its own."""
    target = tmp_path_factory.mktemp("generations") / "store"
    _build(target, [SEEDS[0]])
    _build(target, FIRST, "--verbose")
    return target


@pytest.fixture()
def folder(first_folder: Path, tmp_path: Path) -> Path:
    """A copy of ``first_folder`` for one test to rebuild."""
    return Path(shutil.copytree(first_folder, tmp_path / "store"))


@pytest.fixture()
def store(folder: Path) -> Iterator[LocalStore]:
    opened = open_store(StoreSpec.parse(f"oxigraph:{folder}"), Settings())
    assert isinstance(opened, LocalStore)
    yield opened
    opened.close()


@pytest.fixture()
def client(store: LocalStore) -> FlaskClient:
    return create_app(Settings(), store).test_client()


def test_a_store_follows_its_folder_to_each_new_generation(folder: Path,
                                                           store: LocalStore) -> None:
    assert not _asks(store, ASK_CLINIC)
    assert not _finds(store, "clinic_chat")
    records = len(store.build_facts().records)
    _build(folder, SECOND, "--full")
    assert _asks(store, ASK_CLINIC)
    assert _finds(store, "clinic_chat")
    assert len(store.build_facts().records) == records + 1
    assert b"clinic_chat" in store.artefacts().dump(NQUADS).path.read_bytes()
    _build(folder, THIRD)  # incremental
    assert _asks(store, ASK_QUIZ)
    assert store.counts() == read_manifest(folder).counts


def test_a_rebuild_under_another_base_is_not_moved_to(folder: Path, store: LocalStore,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    """The pages a server made link to its base IRI: a folder rebuilt with another one is
    not served (the log says why), and what it served stays whole."""
    base = store.base
    _build(folder, SECOND, "--full", "--base", "https://example.org/")
    with caplog.at_level("WARNING", logger="graph.store.following"):
        assert not _asks(store, ASK_CLINIC)
        assert store.base == base and store.artefacts().dump(NQUADS).size > 0
    assert "https://example.org/" in caplog.text and "cannot be served" in caplog.text


def test_what_a_reader_began_on_one_generation_it_finishes_on_it(folder: Path,
                                                                 store: LocalStore) -> None:
    old = _generations(folder)
    with store.reading() as view:
        assert isinstance(view, LocalStore)
        before = view.artefacts().dump(NQUADS)
        records = len(view.build_facts().records)
        _build(folder, SECOND, "--full")
        assert _asks(store, ASK_CLINIC)  # the store has moved on
        assert not _asks(view, ASK_CLINIC)  # the view answers from the generation it began on
        assert not _finds(view, "clinic_chat")
        assert len(view.build_facts().records) == records
        with before.path.open("rb") as dump:
            assert b"clinic_chat" not in dump.read()
        _build(folder, THIRD)
        assert old <= _generations(folder), "a generation being read was removed"
    assert _asks(store, ASK_CLINIC) and _finds(store, "clinic_chat")
    _build(folder, FIRST, "--full")
    assert not old & _generations(folder), "a generation no longer read was kept"


def test_a_dump_being_sent_is_sent_whole_while_the_folder_is_rebuilt(
        folder: Path, client: FlaskClient) -> None:
    with client.get("/dump.nq") as whole:
        expected = whole.get_data()
    old = _generations(folder)
    response = client.get("/dump.nq", buffered=False)
    body: Iterator[bytes] = iter(response.response)  # type: ignore[arg-type]
    first = next(body)
    _build(folder, SECOND, "--full")
    assert old <= _generations(folder), "a generation being read was removed"
    rest = b"".join(body)
    response.close()
    assert first + rest == expected
    with client.get("/dump.nq") as after:
        assert after.status_code == 200 and b"clinic_chat" in after.get_data()
    _build(folder, THIRD)  # the generation nothing reads any more goes now
    assert not old & _generations(folder)


@pytest.mark.parametrize("options", [("--full",), ()], ids=["full", "incremental"])
def test_every_page_answers_after_a_rebuild_and_shows_the_new_data(
        folder: Path, client: FlaskClient, options: tuple[str, ...]) -> None:
    pages = ["/", "/benchmarks", "/search?q=mimic", "/dump.nq", "/dumps", "/benchmark/mimic_rrs",
             "/validation", "/sparql?query=" + quote(ASK_CLINIC)]
    for page in pages:  # as a program that names no type asks: a page, a dump, an answer
        with client.get(page, headers={"Accept": "*/*"}) as answer:
            assert answer.status_code == 200, (page, answer.get_data(as_text=True)[:500])
    _build(folder, SECOND, *options)
    for page in pages:
        with client.get(page, headers={"Accept": "*/*"}) as answer:
            assert answer.status_code == 200, (page, answer.get_data(as_text=True)[:500])
    with client.get("/sparql?query=" + quote(ASK_CLINIC),
                    headers={"Accept": "application/sparql-results+json"}) as answer:
        assert answer.get_json()["boolean"] is True
    with client.get("/search?q=clinic+chat") as answer:
        assert "Clinic Chat" in answer.get_data(as_text=True)
    with client.get("/benchmark/clinic_chat") as answer:
        assert answer.status_code == 200


def test_the_query_processes_of_a_generation_left_behind_are_stopped(
        folder: Path, store: LocalStore) -> None:
    assert not _asks(store, ASK_CLINIC)
    before = _descendants(os.getpid())
    for paths, options in ((SECOND, ("--full",)), (THIRD, ()), (FIRST, ("--full",))):
        _build(folder, paths, *options)
        _asks(store, ASK_CLINIC)
    deadline = time.monotonic() + 30
    while len(_descendants(os.getpid())) > len(before) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(_descendants(os.getpid())) <= len(before)
    # the current one, and the one the store read while the last build ran (left for the next)
    assert len(_generations(folder)) <= 2


def test_a_move_to_a_new_generation_forks_nothing_from_the_serving_process(
        folder: Path, store: LocalStore) -> None:
    """Forking a process whose threads run is not safe (a child inherits the locks they
    held): the new generation's query processes come from the zygote the store forked at
    first, told which generation to open, and the process itself gains no child."""
    assert not _asks(store, ASK_CLINIC)
    children = _children(os.getpid())
    _build(folder, SECOND, "--full")
    assert _asks(store, ASK_CLINIC)
    assert _children(os.getpid()) == children


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    return {child for child in _descendants(pid) if _parent(child) == pid}


def _parent(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return next((int(line.split()[1]) for line in status.splitlines()
                 if line.startswith("PPid:")), None)


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("PPid:"):
                    parents[int(entry)] = int(line.split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


# --- a live server, asked without a pause while its folder is rebuilt ----------------------

_ASKED = [
    ("/sparql?query=" + quote("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"),
     "application/sparql-results+json"),
    ("/search?q=mimic", "text/html"),
    ("/benchmarks", "text/html"),
    ("/", "text/html"),
    ("/dump.nq", "*/*"),
    ("/benchmark/mimic_rrs", "text/html"),
    ("/validation", "text/html"),
]


class _Asker(threading.Thread):
    """Asks the server for each of ``_ASKED`` in turn until stopped; keeps every answer that
    was not a whole 200."""

    def __init__(self, server: LiveServer) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.errors: list[str] = []
        self.rounds = 0
        self._stopping = threading.Event()

    def run(self) -> None:
        while not self._stopping.is_set():
            for path, accept in _ASKED:
                self._ask(path, accept)
            self.rounds += 1

    def _ask(self, path: str, accept: str) -> None:
        connection = self.server.connection(timeout=60)
        try:
            connection.request("GET", path, headers={"Accept": accept})
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                self.errors.append(f"{path}: {response.status} {body[:300]!r}")
        except (OSError, http.client.HTTPException) as error:
            self.errors.append(f"{path}: {error!r}")
        finally:
            connection.close()

    def wait_rounds(self, count: int) -> None:
        """Until ``count`` more whole rounds have been asked."""
        target = self.rounds + count
        deadline = time.monotonic() + BUILD_SECONDS
        while self.rounds < target and time.monotonic() < deadline and self.is_alive():
            time.sleep(0.05)
        assert self.rounds >= target, "the client stopped asking"

    def stop(self) -> None:
        self._stopping.set()
        self.join(120)


def _asked_json(server: LiveServer, text: str) -> bool:
    connection = server.connection(timeout=60)
    try:
        connection.request("GET", "/sparql?query=" + quote(text),
                           headers={"Accept": "application/sparql-results+json"})
        response = connection.getresponse()
        assert response.status == 200
        answer: bool = json.loads(response.read())["boolean"]
        return answer
    finally:
        connection.close()


def test_a_live_server_answers_every_request_while_its_folder_is_rebuilt(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    _build(folder, FIRST)
    with serve(["--store", f"oxigraph:{folder}"]) as server:
        asker = _Asker(server)
        asker.start()
        try:
            asker.wait_rounds(2)
            assert not _asked_json(server, ASK_CLINIC)
            _build(folder, SECOND, "--full")
            asker.wait_rounds(2)
            assert _asked_json(server, ASK_CLINIC)
            _build(folder, THIRD)  # incremental
            asker.wait_rounds(2)
            assert _asked_json(server, ASK_QUIZ)
            _build(folder, FIRST, "--full")
            asker.wait_rounds(2)
            assert not _asked_json(server, ASK_QUIZ)
        finally:
            asker.stop()
    assert asker.errors == []
