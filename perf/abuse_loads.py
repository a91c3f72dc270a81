"""The loads of the abuse section (``perf.abuse_perf``), each a context manager running in
threads of this process until its block ends, and the probe a new client sends meanwhile.

- ``slow_connections``: connections that hold a server's attention and send next to nothing,
  of three kinds: headers a byte a second (never ending), a POST whose ``Content-Length``
  announces a body that comes a byte a second, and connections that send nothing at all;
- ``runaway_queries``: clients that each send a query no server can finish (a cartesian
  product of every triple, three times, sorted) and send it again as soon as it is answered,
  whatever the answer;
- ``memory_guard``: the server's process tree watched a few times a second, and killed whole
  once it holds more than a cap: an engine without a memory limit, running eight runaways,
  would otherwise take the machine's memory (the suite shares it).
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

from perf.load_perf import error_message
from perf.tree_memory import descendants

RUNAWAY = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } ORDER BY ?a ?d ?g"
"""The runaway of issue 34: every triple three times over, sorted, at any catalog size."""
TRICKLE_SECONDS = 1.0
RUNAWAY_TIMEOUT = 300.0
"""How long a runaway client waits for its answer (ours stops it at its time limit)."""
_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 80


def probe(url: str, path: str, accept: str, timeout: float) -> tuple[float, str | None]:
    """A new client's GET of ``path`` on a new connection: seconds until the whole answer was
    read, and what went wrong (None: a 200)."""
    host, port = _address(url)
    started = time.perf_counter()
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Accept": accept})
        response = connection.getresponse()
        response.read()
        error = None if response.status == 200 else f"HTTP {response.status}"
    except (http.client.HTTPException, OSError) as failure:
        error = type(failure).__name__
    finally:
        connection.close()
    return time.perf_counter() - started, error


_SLOW_STARTS: dict[str, tuple[bytes, bytes]] = {
    "headers a byte a second": (b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ", b"a"),
    "a body held open": (b"POST /sparql HTTP/1.1\r\nHost: localhost\r\nContent-Type: "
                         b"application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n"
                         b"query=", b"A"),
    "idle": (b"", b""),
}
"""Each kind of slow connection: what it sends first, and then once a TRICKLE_SECONDS."""


@contextmanager
def slow_connections(url: str, each: int) -> Iterator[Counter[str]]:
    """``each`` connections of every kind in ``_SLOW_STARTS`` to ``url`` until the block ends;
    it is given how many of each kind the server closed (or refused) meanwhile."""
    host, port = _address(url)
    closed: Counter[str] = Counter()
    open_ones: list[tuple[str, socket.socket]] = []
    for kind, (first, _) in _SLOW_STARTS.items():
        for _ in range(each):
            try:
                connection = socket.create_connection((host, port), timeout=10)
                connection.sendall(first)
                open_ones.append((kind, connection))
            except OSError:
                closed[kind] += 1
    alive = list(open_ones)

    def trickle() -> bool:
        nonlocal alive
        still = []
        for kind, connection in alive:
            try:
                connection.sendall(_SLOW_STARTS[kind][1])
                still.append((kind, connection))
            except OSError:
                closed[kind] += 1
        alive = still
        return True

    try:
        with _repeating(trickle, TRICKLE_SECONDS):
            yield closed
    finally:
        for _, connection in open_ones:
            connection.close()


@contextmanager
def _repeating(step: Callable[[], bool], every: float) -> Iterator[None]:
    """``step`` run in a thread of its own every ``every`` seconds until the block ends, or
    until it answers False."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(every) and step():
            pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@dataclass
class Runaways:
    """What the runaway clients got back: each answer's kind (``HTTP 503``, a broken
    connection) and how long it took."""

    answers: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    first_said: dict[str, str] = field(default_factory=dict)
    """What the first answer of each kind but a 200 said."""
    lock: threading.Lock = field(default_factory=threading.Lock)


@contextmanager
def runaway_queries(url: str, sparql_path: str, clients: int) -> Iterator[Runaways]:
    """``clients`` threads, each on its own connection, sending RUNAWAY to ``url`` and again
    as soon as it is answered, until the block ends."""
    host, port = _address(url)
    path = f"{sparql_path}?query={quote(RUNAWAY)}"
    got = Runaways()
    stop = threading.Event()
    connections: list[http.client.HTTPConnection] = []

    def client() -> None:
        while not stop.is_set():
            connection = http.client.HTTPConnection(host, port, timeout=RUNAWAY_TIMEOUT)
            with got.lock:
                connections.append(connection)
            started = time.perf_counter()
            try:
                connection.request("GET", path,
                                   headers={"Accept": "application/sparql-results+json"})
                response = connection.getresponse()
                answer, said = f"HTTP {response.status}", error_message(response.read())
            except (http.client.HTTPException, OSError) as failure:
                answer, said = type(failure).__name__, str(failure)
                stop.wait(0.1)  # a server that refuses connections is not asked in a loop
            finally:
                connection.close()
            if not stop.is_set():
                with got.lock:
                    got.answers[answer] += 1
                    got.seconds.append(time.perf_counter() - started)
                    if answer != "HTTP 200":
                        got.first_said.setdefault(answer, said)

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    try:
        yield got
    finally:
        stop.set()
        with got.lock:
            for connection in connections:
                if connection.sock is not None:  # wakes a client waiting on its answer
                    try:
                        connection.sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
        for thread in threads:
            thread.join(10)


@dataclass
class Guard:
    """Set once the tree passed its cap and was killed: seconds after the guard started."""

    tripped_after: float | None = None


@contextmanager
def memory_guard(root: int, cap_bytes: int, interval: float = 0.05) -> Iterator[Guard]:
    """Until the block ends, the RSS of ``root``'s tree summed every ``interval`` seconds
    (``/proc/PID/statm``: cheap enough to read that often); past ``cap_bytes``, SIGKILL to
    the process group ``root`` leads (a server started in a session of its own)."""
    guard = Guard()
    started = time.perf_counter()

    def watch() -> bool:
        if sum(_rss(pid) for pid in descendants(root)) <= cap_bytes:
            return True
        guard.tripped_after = time.perf_counter() - started
        _kill_group(root)
        return False

    with _repeating(watch, interval):
        yield guard


def _rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * _PAGE_SIZE
    except (OSError, IndexError, ValueError):
        return 0


def _kill_group(root: int) -> None:
    try:
        os.killpg(root, signal.SIGKILL)
    except ProcessLookupError:
        pass


Probe = tuple[str, str, str]
"""A new client's request: its name, its path, its ``Accept``."""


def cheap_probes(sparql_path: str, pages: bool) -> list[Probe]:
    """A cheap query on the endpoint, and with ``pages`` the home page and a static file."""
    probes = [("ASK {}", f"{sparql_path}?query={quote('ASK {}')}",
               "application/sparql-results+json")]
    if pages:
        probes += [("home page", "/", "text/html"),
                   ("static file", "/static/benchgraph.css", "text/css")]
    return probes


__all__ = ["RUNAWAY", "Guard", "Probe", "Runaways", "cheap_probes", "memory_guard", "probe",
           "runaway_queries", "slow_connections"]
