"""Real SPARQL engines for the tests, started on free loopback ports and stopped after.

- **Oxigraph**: the ``oxigraph`` server binary of ``pip install oxigraph`` (a test extra),
  one server per store a test opens, on a folder of its own: ``oxigraph serve --location
  DIR --bind 127.0.0.1:PORT``. Started in well under a second.
- **Virtuoso** open source (Debian's ``virtuoso-opensource``, which ``.ci/run`` installs):
  one server per store too, on a copy of a database made once per session (a fresh
  database takes Virtuoso some 15 s to make, a copy 2 s to open), in which the anonymous
  ``SPARQL`` user may write through ``/sparql-graph-crud`` (the ``SPARQL_UPDATE`` role) and
  answers are not capped (``ResultSetMaxRows``) nor cut at a time of Virtuoso's own
  (``MaxQueryExecutionTime`` 0: the time limit is ours).

A missing program skips the kind's tests, saying which and how to install it, or fails them
under ``CI=true`` (``tests.system_tools``).
"""

from __future__ import annotations

import atexit
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.system_tools import OXIGRAPH, VIRTUOSO, VIRTUOSO_ISQL, require

START_SECONDS = 30.0


@dataclass
class RunningEngine:
    """An engine's query URL and Graph Store URL (and, for one the tests started, its
    process, so that a test can kill it and start it again on the same data)."""

    query: str
    store: str
    process: subprocess.Popen[bytes] | None = None
    location: Path | None = None
    port: int = 0
    options: tuple[str, ...] = ()
    """Options the engine was started with (``oxigraph serve``'s)."""

    @property
    def spec(self) -> str:
        return f"sparql:{self.query}"

    @property
    def origin(self) -> str:
        """``http://host:port`` of the engine."""
        return "/".join(self.query.split("/", 3)[:3])

    def through(self, origin: str) -> RunningEngine:
        """The same engine's URLs reached through ``origin`` (a proxy in front of it)."""
        return RunningEngine(self.query.replace(self.origin, origin, 1),
                             self.store.replace(self.origin, origin, 1))

    def kill(self) -> None:
        """Kill the engine at once (SIGKILL), as a crash would."""
        assert self.process is not None, "only an engine the tests started can be killed"
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def restart(self) -> None:
        """Start the killed engine again on the same folder and port."""
        assert self.location is not None
        self.process = (_start_oxigraph(self.location, self.port, self.options)
                        if self.query.endswith("/query")
                        else _start_virtuoso(self.location))
        wait_until_answering(self.query, self.process)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start_oxigraph(location: Path, port: int, options: tuple[str, ...] = ()
                    ) -> subprocess.Popen[bytes]:
    [oxigraph] = require(OXIGRAPH)
    location.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [oxigraph, "serve", "--location", str(location), "--bind", f"127.0.0.1:{port}",
         *options],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return process


def wait_until_answering(query_url: str, process: subprocess.Popen[bytes] | None = None,
                         seconds: float = START_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the engine exited {process.returncode} before it answered")
        try:
            with urllib.request.urlopen(f"{query_url}?query=ASK%7B%7D", timeout=2):
                return
        except (urllib.error.URLError, OSError):
            time.sleep(0.05)
    raise AssertionError(f"{query_url} never answered")


@contextmanager
def oxigraph_server(location: Path, *options: str) -> Iterator[RunningEngine]:
    """``oxigraph serve`` on ``location`` and a free loopback port, until the block ends;
    ``options``: more of its own (``--timeout-s 1``)."""
    require(OXIGRAPH)
    port = free_port()
    process = _start_oxigraph(location, port, options)
    engine = RunningEngine(f"http://127.0.0.1:{port}/query", f"http://127.0.0.1:{port}/store",
                           process, location, port, options)
    with _stopped_after(engine):
        wait_until_answering(engine.query, process)
        yield engine


@contextmanager
def _stopped_after(engine: RunningEngine) -> Iterator[None]:
    try:
        yield
    finally:
        if engine.process is not None and engine.process.poll() is None:
            engine.process.terminate()
            try:
                engine.process.wait(20)
            except subprocess.TimeoutExpired:
                engine.process.kill()
                engine.process.wait()


_VIRTUOSO_INI = """[Database]
DatabaseFile = {dir}/virtuoso.db
ErrorLogFile = {dir}/virtuoso.log
LockFile = {dir}/virtuoso.lck
TransactionFile = {dir}/virtuoso.trx
xa_persistent_file = {dir}/virtuoso.pxa
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = {dir}/virtuoso-temp.db
TransactionFile = {dir}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{sql}
DisableUnixSocket = 1
CaseMode = 2
DirsAllowed = .
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
[HTTPServer]
ServerPort = 127.0.0.1:{http}
ServerThreads = 10
MaxKeepAlives = 10
KeepAliveTimeout = 10
Charset = UTF-8
EnabledGzipContent = 0
[SPARQL]
ResultSetMaxRows = 10000000
MaxQueryExecutionTime = 0
MaxQueryCostEstimationTime = 0
"""
_template: list[Path] = []


def _start_virtuoso(location: Path) -> subprocess.Popen[bytes]:
    [virtuoso] = require(VIRTUOSO)
    return subprocess.Popen([virtuoso, "-f", "-c", str(location / "virtuoso.ini")],
                            cwd=location, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _configure_virtuoso(location: Path) -> tuple[int, int]:
    """A virtuoso.ini in ``location`` on two free ports: (SQL, HTTP)."""
    sql, http = free_port(), free_port()
    (location / "virtuoso.ini").write_text(
        _VIRTUOSO_INI.format(dir=location, sql=sql, http=http), encoding="utf-8")
    return sql, http


def _virtuoso_template() -> Path:
    """A fresh Virtuoso database, made once, shut down clean: what each server copies.

    Made on fresh ports again when its SQL port never takes a connection: another worker's
    server may take a port between ``free_port`` and Virtuoso's bind, and then the HTTP port
    that answered may not be this Virtuoso's at all."""
    if _template:
        return _template[0]
    folder = Path(tempfile.mkdtemp(prefix="benchgraph-virtuoso-"))
    atexit.register(shutil.rmtree, folder, True)
    failures: list[str] = []
    for _ in range(3):
        sql, http = _configure_virtuoso(folder)
        process = _start_virtuoso(folder)
        try:
            wait_until_answering(f"http://127.0.0.1:{http}/sparql", process, seconds=120)
            failure = _isql(sql, 'GRANT SPARQL_UPDATE TO "SPARQL"; checkpoint;')
            if failure is None:
                _isql(sql, "shutdown;")  # the server may drop the connection before it answers
                process.wait(60)
                _template.append(folder)
                return folder
            failures.append(failure)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    raise AssertionError("Virtuoso's template database was not made:\n" + "\n".join(failures))


def _isql(port: int, statements: str, seconds: float = 20.0) -> str | None:
    """Run ``statements`` through ``isql`` on the SQL ``port``, trying again while it cannot
    connect: None once they ran, else what ``isql`` said last."""
    [isql] = require(VIRTUOSO_ISQL)
    deadline = time.monotonic() + seconds
    while True:
        done = subprocess.run([isql, str(port), "dba", "dba", f"exec={statements}"],
                              capture_output=True, text=True, timeout=60)
        if done.returncode == 0:
            return None
        said = f"isql exited {done.returncode}: {done.stdout.strip()} {done.stderr.strip()}"
        if "Connect failed" not in said or time.monotonic() > deadline:
            return said
        time.sleep(0.5)


@contextmanager
def virtuoso_server(location: Path) -> Iterator[RunningEngine]:
    """Virtuoso on a copy of the template database in ``location``, on free loopback ports,
    until the block ends."""
    require(VIRTUOSO, VIRTUOSO_ISQL)
    template = _virtuoso_template()
    location.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template / "virtuoso.db", location / "virtuoso.db")
    _, http = _configure_virtuoso(location)
    engine = RunningEngine(f"http://127.0.0.1:{http}/sparql",
                           f"http://127.0.0.1:{http}/sparql-graph-crud",
                           _start_virtuoso(location), location, http)
    with _stopped_after(engine):
        wait_until_answering(engine.query, engine.process)
        yield engine


ENGINES = {"sparql": oxigraph_server, "virtuoso": virtuoso_server}
"""The engine behind each remote kind of store (``tests.store_kinds``)."""


__all__ = ["ENGINES", "RunningEngine",
           "free_port", "oxigraph_server", "virtuoso_server", "wait_until_answering"]
