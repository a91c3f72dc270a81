"""A push stopped anywhere is made whole by the next push: the engine then holds exactly the
quads (every graph's, compared as sets) that one clean push of the same version leaves in
an empty engine, and its manifest lists the same graphs, finished.

The stops are chosen, not timed: the push's client dies (an exception no code of the push
catches, as a SIGKILL would end it) before its Nth request, or halfway through sending the
Nth request's body, so that the engine sees a request cut short; every N of a push that
changes, adds and removes records is tried. And a real ``benchgraph push`` process is
killed (SIGKILL) while the engine is on a request the test holds at a proxy. The next push
is of the same version, or of the version before (so that a graph the stopped push added
must go again, and the graphs it was removing must come back)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

import pyoxigraph as ox
import pytest

from graph.build.graphs import build
from graph.settings import Settings
from graph.store.remote import push as remote_push
from graph.store.remote.client import Answer, Body, Client, Credentials, Endpoint
from graph.store.remote.layout import PushManifest
from graph.store.remote.manifest import engine_for, find_manifest
from graph.store.remote.push import PushOutcome, push
from tests.engines import ENGINES, RunningEngine, oxigraph_server
from tests.proxy import Proxy, proxy_to
from tests.store_kinds import LocalBuild, local_build
from tests.system_tools import OXIGRAPH, needs
from tests.test_push import BASE, RECORDS, REMOTE_KINDS, data, quads, settings_for, write_catalog

pytestmark = [pytest.mark.engine, pytest.mark.slow, needs(OXIGRAPH)]

OLD = RECORDS
NEW = {**{name: text for name, text in RECORDS.items()
          if name not in ("bench_5", "bench_6", "bench_7")},
       "bench_1": RECORDS["bench_1"].replace("A summary", "Another summary"),
       "bench_2": RECORDS["bench_2"].replace("A summary", "Another summary"),
       "bench_8": "Bench 8\nA summary of bench 8.\n- Made by\n- Lab 9\n"}
"""The version pushed after ``OLD``: three records removed, two changed, one added."""


class Killed(BaseException):
    """The push's process dies here: no code of the push runs after it."""


@dataclass
class Dying:
    """Where the push's client dies: before its ``at``-th request, or (``cut``) halfway
    through sending that request's body, after which the engine sees the connection close."""

    at: int
    cut: bool = False


class DyingClient(Client):
    """A client that counts its requests and dies at ``dying`` (never, when None)."""

    def __init__(self, dying: Dying | None) -> None:
        super().__init__(Credentials(), timeout=60, retries=0)
        self.dying = dying
        self.requests = 0

    def request(self, endpoint: Endpoint, method: str, what: str, *,
                params: Sequence[tuple[str, str]] = (), headers: dict[str, str] | None = None,
                body: Body | None = None, deadline: float | None = None) -> Answer:
        self.requests += 1
        if self.dying is not None and self.requests == self.dying.at:
            if not self.dying.cut or body is None:
                raise Killed(f"before request {self.requests}: {what}")
            body = Body(_half_then_death(body), body.size)
        return super().request(endpoint, method, what, params=params, headers=headers,
                               body=body, deadline=deadline)


def _half_then_death(body: Body) -> Callable[[], Iterable[bytes]]:
    def chunks() -> Iterator[bytes]:
        whole = b"".join(body.chunks())
        yield whole[:len(whole) // 2]
        raise Killed("halfway through a request's body")
    return chunks


def push_with(engine: RunningEngine, local: LocalBuild, client: Client) -> PushOutcome:
    """``local`` pushed into ``engine`` by ``client`` (the same local store for every push
    of a version: a push only reads it)."""
    remote = replace(engine_for(engine.query, settings_for(engine)), client=client)
    try:
        return push(remote, local.generation, local.manifest)
    finally:
        remote.close()


def manifest_of(engine: RunningEngine) -> PushManifest:
    remote = engine_for(engine.query, settings_for(engine))
    try:
        found = find_manifest(remote, BASE)
    finally:
        remote.close()
    assert found is not None
    return found


def dataset_of(engine: RunningEngine) -> bytes:
    """Every quad the engine holds, as N-Quads (Oxigraph's Graph Store: the whole store)."""
    request = urllib.request.Request(engine.store, headers={"Accept": "application/n-quads"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return bytes(answer.read())


def restored(engine: RunningEngine, dataset: bytes) -> None:
    """The engine made to hold ``dataset`` and nothing else (a ``PUT`` of the whole store):
    what a push left, put back in one request rather than pushed again."""
    request = urllib.request.Request(engine.store, data=dataset, method="PUT",
                                     headers={"Content-Type": "application/n-quads"})
    with urllib.request.urlopen(request, timeout=60):
        pass


@dataclass(frozen=True)
class Clean:
    """What one push of a version into an empty engine leaves: its quads and manifest."""

    quads: set[ox.Quad]
    graphs: dict[str, str]


def clean_push(folder: Path, built: LocalBuild) -> Clean:
    with oxigraph_server(folder) as fresh:
        push_with(fresh, built, DyingClient(None))
        return Clean(data(quads(fresh)), manifest_of(fresh).graphs)


def difference(held: set[ox.Quad], clean: set[ox.Quad]) -> str:
    """Per graph, how many quads the engine holds that a clean push does not, and lacks."""
    graphs = sorted({str(quad.graph_name) for quad in held ^ clean})
    return "; ".join(
        f"{graph}: +{sum(str(q.graph_name) == graph for q in held - clean)} "
        f"-{sum(str(q.graph_name) == graph for q in clean - held)}" for graph in graphs)


def assert_whole(engine: RunningEngine, clean: Clean, where: str) -> None:
    held = data(quads(engine))
    assert held == clean.quads, f"{where}: {difference(held, clean.quads)}"
    manifest = manifest_of(engine)
    assert manifest.complete, where
    assert manifest.graphs == clean.graphs, where


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, LocalBuild]]:
    settings = Settings()
    folder = tmp_path_factory.mktemp("catalogs")
    with ExitStack() as stack:
        yield {version: stack.enter_context(local_build(
                   build([write_catalog(folder / version, records)], settings), settings))
               for version, records in (("old", OLD), ("new", NEW))}


@pytest.fixture(scope="module")
def clean(builds: dict[str, LocalBuild],
          tmp_path_factory: pytest.TempPathFactory) -> dict[str, Clean]:
    folder = tmp_path_factory.mktemp("clean")
    return {version: clean_push(folder / version, built) for version, built in builds.items()}


@pytest.mark.parametrize("checkpoint", [1, 200])
@pytest.mark.parametrize("cut", [False, True], ids=["between-requests", "mid-request"])
def test_a_push_stopped_at_any_request_is_made_whole_by_the_next(
        tmp_path: Path, builds: dict[str, LocalBuild], clean: dict[str, Clean],
        monkeypatch: pytest.MonkeyPatch, checkpoint: int, cut: bool) -> None:
    """``OLD`` pushed, then ``NEW`` pushed and stopped at its Nth request, for every N; then
    a push of ``NEW`` again, or of ``OLD`` again: each leaves what a clean push does."""
    monkeypatch.setattr(remote_push, "CHECKPOINT_GRAPHS", checkpoint)
    with oxigraph_server(tmp_path / "engine") as engine:
        counting = DyingClient(None)
        push_with(engine, builds["old"], DyingClient(None))
        old = dataset_of(engine)
        push_with(engine, builds["new"], counting)
        assert_whole(engine, clean["new"], "uninterrupted")
        restored(engine, old)
        assert_whole(engine, clean["old"], "the old push put back")
        requests = counting.requests
        assert requests >= 8  # the manifest read and written, the graphs sent and removed
        for at in range(1, requests + 1):
            for then in ("new", "old"):
                where = f"stopped at request {at} of {requests}, then {then} pushed"
                restored(engine, old)
                with pytest.raises(Killed):
                    push_with(engine, builds["new"], DyingClient(Dying(at, cut)))
                push_with(engine, builds[then], DyingClient(None))
                assert_whole(engine, clean[then], where)


def test_the_push_after_one_stopped_says_what_it_removes(
        tmp_path: Path, builds: dict[str, LocalBuild], clean: dict[str, Clean]) -> None:
    """Stopped once every graph went, before the removed records' graphs were deleted: the
    next push of the same version removes them, and says so."""
    with oxigraph_server(tmp_path / "engine") as engine:
        push_with(engine, builds["old"], DyingClient(None))
        old = dataset_of(engine)
        counting = DyingClient(None)
        whole = push_with(engine, builds["new"], counting)
        assert len(whole.deleted) == 3
        restored(engine, old)
        before_deleting = counting.requests - len(whole.deleted)  # then the final manifest
        with pytest.raises(Killed):
            push_with(engine, builds["new"], DyingClient(Dying(before_deleting)))
        again = push_with(engine, builds["new"], DyingClient(None))
        assert sorted(again.deleted) == sorted(whole.deleted)
        assert_whole(engine, clean["new"], "the next push")


KILLED_AT = {
    "a-removed-graphs-delete": "record%2Fbench_6",
    "an-added-graphs-put": "record%2Fbench_8",
}
"""Requests at which the push process is killed, by a text their URL holds."""


@pytest.fixture(params=REMOTE_KINDS)
def any_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningEngine]:
    with ENGINES[request.param](tmp_path / "engine") as running:
        yield running


CleanQuads = Callable[[RunningEngine, dict[str, str]], set[ox.Quad]]
"""The quads one ``benchgraph push`` of some records leaves in a new engine of another's
kind."""


@pytest.fixture(scope="module")
def clean_quads(tmp_path_factory: pytest.TempPathFactory) -> CleanQuads:
    """``CleanQuads``, each pushed once a kind of engine and a version in the module, not
    once a test."""
    made: dict[tuple[str, frozenset[tuple[str, str]]], set[ox.Quad]] = {}

    def pushed(like: RunningEngine, records: dict[str, str]) -> set[ox.Quad]:
        kind = "sparql" if like.store.endswith("/store") else "virtuoso"  # Oxigraph's is /store
        key = (kind, frozenset(records.items()))
        if key not in made:
            folder = tmp_path_factory.mktemp(f"clean-{kind}")
            with ENGINES[kind](folder / "engine") as fresh:
                assert run_push(fresh, write_catalog(folder / "catalog", records)).returncode == 0
                made[key] = data(quads(fresh))
        return made[key]

    return pushed


@pytest.mark.parametrize("held", list(KILLED_AT))
def test_a_push_process_killed_is_made_whole_by_the_next(
        tmp_path: Path, any_engine: RunningEngine, held: str, clean_quads: CleanQuads) -> None:
    """``benchgraph push`` of ``NEW`` is SIGKILLed while the engine is on one of its
    requests (held at a proxy, then dropped, as the network would); the next ``push`` (of
    ``NEW``, and then of ``OLD``) leaves what a clean push does, on every engine."""
    catalog = tmp_path / "catalog"
    with proxy_to(any_engine.origin) as proxy:
        watched = any_engine.through(proxy.url)
        assert run_push(watched, write_catalog(catalog, OLD)).returncode == 0
        proxy.forget()
        proxy.hold = KILLED_AT[held]
        process = start_push(watched, write_catalog(catalog, NEW))
        try:
            wait_for(proxy, KILLED_AT[held])
            process.send_signal(signal.SIGKILL)
        finally:
            process.kill()
            process.wait(30)
        drop_the_held_request(proxy)
        for version in (NEW, OLD):
            done = run_push(watched, write_catalog(catalog, version))
            assert done.returncode == 0, done.stderr
            if version is NEW:
                assert ", 3 removed, " in done.stderr  # the graphs of bench_5, 6 and 7
            clean = clean_quads(any_engine, version)
            held_quads = data(quads(any_engine))
            assert held_quads == clean, difference(held_quads, clean)


def push_words(engine: RunningEngine, catalog: Path) -> list[str]:
    return [sys.executable, "-m", "graph.cli", "push", "--store", engine.spec,
            "--graph-store", engine.store, str(catalog)]


def run_push(engine: RunningEngine, catalog: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(push_words(engine, catalog), capture_output=True, text=True,
                          timeout=300, env=_env())


def start_push(engine: RunningEngine, catalog: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(push_words(engine, catalog), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=_env())


def _env() -> dict[str, str]:
    return {name: value for name, value in os.environ.items()
            if not name.startswith("BENCHGRAPH_")} | {"BENCHGRAPH_REMOTE_RETRIES": "0"}


def wait_for(proxy: Proxy, text: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not any(text in seen.path for seen in proxy.seen):
        assert time.monotonic() < deadline, f"no request for {text} reached the proxy"
        time.sleep(0.02)


def drop_the_held_request(proxy: Proxy) -> None:
    """The held request is answered 503 to the dead process, never reaching the engine."""
    proxy.failures.append(503)
    proxy.release.set()
    deadline = time.monotonic() + 30
    while proxy.failures:
        assert time.monotonic() < deadline, "the held request was never let go"
        time.sleep(0.02)
    proxy.hold = None
