"""A real server for the sections to time, and a kept-alive client of it.

Every section that measures over HTTP starts its server here: ``benchgraph serve`` (waitress,
as a user runs it) or, as a baseline, ``oxigraph serve-read-only`` (Oxigraph's own HTTP
server, from pip ``oxigraph``) over the same store folder. The server's output is read to
the end by a thread into ``serve.log`` in the section's work folder: a pipe nobody reads
fills, and then a server blocked writing its log stops answering.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlencode, urlsplit

from urllib3.util import wait_for_read

from perf.common import PerfError, progress, run_process, stop

START_SECONDS = 600.0
"""The most a server may take to answer its first query (a memory store builds first)."""
FILES_SECONDS = 3600.0
"""The most a ``sparql:`` store may take to make its search index and dumps: about 12
minutes at 100,000 records (perf, 2026-12-04), more than ``START_SECONDS``."""
_LISTENING = re.compile(r"listening on (http://\S+/)")
_READY_QUERY = "ASK {}"
_RESULTS_JSON = "application/sparql-results+json"
_T = TypeVar("_T")


def _drained(response: http.client.HTTPResponse) -> int:
    """The size of ``response``'s body, read and let go of a MiB at a time."""
    size = 0
    while chunk := response.read(2**20):
        size += len(chunk)
    return size


def said(body: bytes) -> str:
    """The start of an answer's body as text, for an error message (an engine's error is
    text; a body cut mid-character, or not text at all, still reads)."""
    return body[:300].decode("utf-8", "replace")


@dataclass(frozen=True)
class Served:
    """A running server: its address, its SPARQL path, and how long it took to be useful."""

    url: str
    """The base URL, ending in a slash."""
    sparql_path: str
    listening_seconds: float
    """From the start of the process to the address being printed (or the port opening)."""
    ready_seconds: float
    """From the start of the process to the first query answered."""
    pid: int = 0
    """The server's process (the root of its tree: ``benchgraph serve``, say)."""


class Client:
    """One kept-alive HTTP/1.1 connection to a server; a connection the server closed is
    opened again once, and one it gave up on between requests before it is used
    (its socket has something to read though nothing was asked, urllib3's test: ``oxigraph
    serve`` writes an unasked 500 "os error 11" on a connection idle for 60 s, which three
    all runs at 100,000 records took for the answer to ``top-results``)."""

    def __init__(self, base_url: str, timeout: float = 120.0) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.timeout = timeout
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def get(self, path: str, accept: str = "text/html") -> tuple[int, bytes]:
        return self._ask(path, accept, http.client.HTTPResponse.read)

    def get_size(self, path: str, accept: str = "text/html") -> tuple[int, int]:
        """``get`` without keeping the body: its status and its size, read a MiB at a time.
        The whole dump of 100,000 records is 830 MB, and a process that once held it hands
        that peak on to every process it starts after (Linux keeps ``ru_maxrss`` across fork
        and exec): the phases of the sections run after the pages section read it as theirs."""
        return self._ask(path, accept, _drained)

    def _ask(self, path: str, accept: str, read: Callable[[http.client.HTTPResponse], _T]
             ) -> tuple[int, _T]:
        socket = self.connection.sock
        if socket is not None and wait_for_read(socket, timeout=0.0):
            self.connection.close()
        for attempt in (1, 2):
            try:
                self.connection.request("GET", path, headers={"Accept": accept})
                response = self.connection.getresponse()
                return response.status, read(response)
            except (http.client.HTTPException, OSError):
                self.connection.close()  # e.g. a kept-alive connection the server closed
                self.connection = http.client.HTTPConnection(self.host, self.port,
                                                             timeout=self.timeout)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def sparql(self, sparql_path: str, query: str, accept: str = _RESULTS_JSON
               ) -> tuple[int, bytes]:
        return self.get(f"{sparql_path}?{urlencode({'query': query})}", accept)

    def select(self, sparql_path: str, query: str) -> list[dict[str, str]]:
        """The rows of a SELECT, each variable's value as a string; an error is a PerfError."""
        status, body = self.sparql(sparql_path, query)
        if status != 200:
            raise PerfError(f"the query answered {status}: {said(body)}")
        return [{name: cell["value"] for name, cell in row.items()}
                for row in json.loads(body)["results"]["bindings"]]

    def close(self) -> None:
        self.connection.close()


def benchgraph_command(store_arguments: Sequence[str]) -> list[str]:
    """``benchgraph serve`` on a free port, as this interpreter runs it."""
    return [sys.executable, "-m", "graph.cli", "serve", *store_arguments, "--port", "0"]


@contextmanager
def serving_benchgraph(store_arguments: Sequence[str], workdir: Path, *,
                       environment: dict[str, str] | None = None) -> Iterator[Served]:
    """``benchgraph serve STORE_ARGUMENTS`` until the block ends, started without any
    ``BENCHGRAPH_`` setting of this shell but those in ``environment``."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("BENCHGRAPH_")}
    with _serving(benchgraph_command(store_arguments), workdir, "/sparql",
                  {**env, **(environment or {})}, port=None) as served:
        yield served


OXIGRAPH_QUERY_PATH = "/query"
"""Where ``oxigraph serve`` and ``serve-read-only`` answer SPARQL queries."""


@contextmanager
def serving_oxigraph(location: Path, workdir: Path, *, writable: bool = False
                     ) -> Iterator[Served]:
    """``oxigraph serve-read-only`` of ``location`` (one store generation) until the block
    ends; with ``writable``, ``oxigraph serve`` of it (a folder made if it is missing), which
    takes the Graph Store Protocol at ``/store`` (``benchgraph push``)."""
    binary = shutil.which("oxigraph", path=str(Path(sys.executable).parent)) or \
        shutil.which("oxigraph")
    if binary is None:
        raise PerfError("the oxigraph server is not installed (pip install oxigraph)")
    port = _free_port()
    command = [binary, "serve" if writable else "serve-read-only", "--location", str(location),
               "--bind", f"127.0.0.1:{port}"]
    with _serving(command, workdir, OXIGRAPH_QUERY_PATH, dict(os.environ), port=port) as served:
        yield served


STORE_LABELS = {"memory": "memory", "oxigraph": "oxigraph:DIR", "sparql": "sparql:URL"}
"""Each kind of store (``perf.common.STORE_KINDS``) as ``benchgraph --store`` writes it."""


@contextmanager
def serving_store(kind: str, catalog: Path, store: Path, workdir: Path, *,
                  baseline: bool = True) -> Iterator[tuple[Served, Served | None]]:
    """``benchgraph serve`` of the catalog as the kind of store ``kind`` names, until the
    block ends, and the engine it is in front of, where it has one of its own: the record
    files built into memory (none); the store folder ``store`` (``oxigraph serve-read-only``
    of its generation, unless ``baseline`` is false); a real ``oxigraph serve`` the catalog
    is pushed into first, untimed (that server)."""
    if kind == "sparql":
        with pushed_engine(catalog, workdir) as pushed, serving_benchgraph(
                ["--store", f"sparql:{pushed.engine.url}{OXIGRAPH_QUERY_PATH.lstrip('/')}"],
                workdir) as served:
            progress(f"engine: search index and dumps made in {files_made(served):.1f} s")
            yield served, pushed.engine
    elif kind == "oxigraph":
        from graph.store.disk import read_manifest

        generation = store / read_manifest(store).generation
        with serving_benchgraph(["--store", f"oxigraph:{store}"], workdir) as served:
            if not baseline:
                yield served, None
                return
            with serving_oxigraph(generation, workdir) as engine:
                yield served, engine
    elif kind == "memory":
        with serving_benchgraph([str(catalog)], workdir) as served:
            yield served, None
    else:
        raise PerfError(f"not a kind of store: {kind}")


def files_made(served: Served, seconds: float = FILES_SECONDS) -> float:
    """Seconds from ``served``'s first answer until it has its search index: a ``sparql:``
    store makes it (and its dumps) in a process of its own, a 503 "being made" until then.
    PerfError when they could not be made, or not in ``seconds``."""
    started = time.perf_counter()
    client = Client(served.url, timeout=START_SECONDS)
    try:
        while time.perf_counter() - started < seconds:
            status, body = client.get("/search?q=a", "application/json")
            if status == 200:
                return time.perf_counter() - started
            if status != 503 or b"being made" not in body:
                raise PerfError(f"/search answered {status} while its files were made: "
                                f"{said(body)}")
            time.sleep(0.1)
    finally:
        client.close()
    raise PerfError(f"the store's files were not made in {seconds:g} s")


@dataclass(frozen=True)
class Pushed:
    """An engine the catalog was pushed into (``pushed_engine``)."""

    engine: Served
    seconds: float
    """How long ``benchgraph push --validate`` took, here or in the section that made it."""
    peak_mb: float
    """Its peak RSS: of its own process or its build's child, the larger (``ru_maxrss``)."""


@contextmanager
def pushed_engine(catalog: Path, workdir: Path) -> Iterator[Pushed]:
    """A writable ``oxigraph serve`` on a loopback port, holding the catalog as ``benchgraph
    push --validate`` leaves it there (the report too, as a store folder keeps it), until the
    block ends. The engine's folder is kept in ``workdir`` and served again by the next
    section that asks for the same catalog: a push of 10,000 records takes over a minute,
    of 100,000 over twenty."""
    from graph.cli.common import EXIT_OK, EXIT_REJECTED

    folder, marker = _pushed(workdir)
    made = json.loads(marker.read_text(encoding="utf-8")) if marker.exists() else {}
    if made.get("catalog") != str(catalog):
        made = {}
        release_pushed_engine(workdir)
    with serving_oxigraph(folder, workdir, writable=True) as engine:
        if made:
            progress(f"engine: serving again the push of {catalog.name} a section made")
        else:
            progress(f"engine: benchgraph push --validate of {catalog.name} (untimed)")
            command = [sys.executable, "-m", "graph.cli", "push", str(catalog), "--validate",
                       "--store", f"sparql:{engine.url}{OXIGRAPH_QUERY_PATH.lstrip('/')}",
                       "--graph-store", f"{engine.url}store"]
            log = workdir / "push.log"  # a synthetic catalog has files rejected: its defects
            finished = run_process(command, log)
            if finished.code not in (EXIT_OK, EXIT_REJECTED):
                raise PerfError(f"benchgraph push failed: "
                                f"{log.read_text(errors='replace')[-500:]}")
            made = {"catalog": str(catalog), "seconds": round(finished.seconds, 2),
                    "peak_mb": round(finished.peak_rss_bytes / 2**20, 1)}
            marker.write_text(json.dumps(made), encoding="utf-8")
        yield Pushed(engine, made["seconds"], made["peak_mb"])


def release_pushed_engine(workdir: Path) -> None:
    """Deletes the engine folder ``pushed_engine`` kept in ``workdir`` for later sections."""
    folder, marker = _pushed(workdir)
    marker.unlink(missing_ok=True)
    shutil.rmtree(folder, ignore_errors=True)


def _pushed(workdir: Path) -> tuple[Path, Path]:
    """The pushed engine's folder in ``workdir``, and the file saying which catalog it holds."""
    return workdir / "engine", workdir / "engine-pushed.json"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def _serving(command: list[str], workdir: Path, sparql_path: str, env: dict[str, str], *,
             port: int | None) -> Iterator[Served]:
    """Run ``command`` until the block ends. Its address is the one it prints (``port`` None)
    or 127.0.0.1:``port``; it is ready when it answers ``ASK {}``."""
    name = Path(command[0]).name if port is not None else "benchgraph"
    log = (workdir / f"serve-{name}.log").open("a", encoding="utf-8")
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE,
                               text=True, env=env, start_new_session=True)
    found: list[tuple[str, float]] = []
    printed = threading.Event()

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            log.write(line)
            match = _LISTENING.search(line)
            if match and not found:
                found.append((match.group(1), time.perf_counter() - started))
                printed.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if port is not None:
            found.append((f"http://127.0.0.1:{port}/", 0.0))
            printed.set()
        if not printed.wait(START_SECONDS) or process.poll() is not None:
            raise PerfError(f"{' '.join(command[:3])} did not start: see {log.name}")
        url, listening = found[0]
        ready = _first_answer(url, sparql_path, process, started)
        if port is not None:
            listening = ready  # a server that prints no address: the port is its readiness
        yield Served(url, sparql_path, listening, ready, process.pid)
    finally:
        stop(process, group=True)
        reader.join(10)
        log.close()


def _first_answer(url: str, sparql_path: str, process: subprocess.Popen[str],
                  started: float) -> float:
    """Seconds from ``started`` to the server's first answer to a query, asked every 10 ms."""
    client = Client(url, timeout=START_SECONDS)
    try:
        while time.perf_counter() - started < START_SECONDS:
            if process.poll() is not None:
                raise PerfError(f"the server exited ({process.returncode}) before it answered")
            try:
                status, body = client.sparql(sparql_path, _READY_QUERY)
            except (http.client.HTTPException, OSError):  # not listening yet
                time.sleep(0.01)
                continue
            if status != 200:
                raise PerfError(f"the server's first answer was {status}: {said(body)}")
            return time.perf_counter() - started
        raise PerfError("the server did not answer in time")
    finally:
        client.close()
