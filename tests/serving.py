"""A live ``benchgraph serve`` for the tests that talk HTTP to it, as its clients would.

The server is the real command in its own process (waitress's event loop and threads, and
the query processes forked by its zygote), on a free port (``--port 0``). The address comes
from the line the command prints on stderr once it listens; the server counts as ready when
its endpoint has answered a request. It is stopped as a person stops it, with Ctrl-C (SIGINT),
and must then exit 0 having printed no traceback: a server that cannot stop cleanly is a
failure too. ``serve(stop=...)`` sends another signal (SIGTERM, as a service manager does),
and ``serve(stop_group=...)`` sends the signal to the whole process group instead, as a
terminal's Ctrl-C does and as a service manager stopping a unit does (SIGTERM to every
process of it).
"""
from __future__ import annotations

import http.client
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

LISTENING = re.compile(r"benchgraph serve: listening on (http://\S+/) \(Ctrl-C to stop\)")
START_SECONDS = 120.0
"""How long the bundled catalog may take to build and the server to start."""
STOP_SECONDS = 30.0


@dataclass(frozen=True)
class LiveServer:
    """A running server: its base URL (``http://127.0.0.1:PORT/``) and what it printed."""

    url: str
    stderr: list[str]

    @property
    def endpoint(self) -> str:
        """The SPARQL endpoint's URL."""
        return self.url + "sparql"

    @property
    def host(self) -> str:
        return urlsplit(self.url).hostname or ""

    @property
    def port(self) -> int:
        return urlsplit(self.url).port or 80

    def connection(self, timeout: float = 30.0) -> http.client.HTTPConnection:
        """A new HTTP/1.1 connection to the server."""
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def ask(self, query: str, timeout: float = 30.0) -> int:
        """The status the endpoint answers ``query`` with (GET, for SPARQL JSON results), its
        body read."""
        connection = self.connection(timeout=timeout)
        try:
            connection.request("GET", "/sparql?query=" + quote(query),
                               headers={"Accept": "application/sparql-results+json"})
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()


def _command() -> list[str]:
    """``benchgraph``, the console script installed beside this Python."""
    script = Path(sys.executable).with_name("benchgraph")
    return [str(script)] if script.exists() else [sys.executable, "-m", "graph.cli"]


@contextmanager
def serve(arguments: Sequence[str] = (), stop_group: signal.Signals | None = None, *,
          files: bool = True, stop: signal.Signals = signal.SIGINT) -> Iterator[LiveServer]:
    """``benchgraph serve --port 0 ARGUMENTS...`` until the block ends, once it answers a
    query and (with ``files``) has its dumps; then ``stop`` (Ctrl-C) to the server's process
    (or ``stop_group`` to every process of the server), and the exit status must be 0 with
    no traceback printed."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("BENCHGRAPH_")}
    process = subprocess.Popen(
        [*_command(), "serve", "--port", "0", *arguments],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, env=env, start_new_session=True,  # its own group: see _stop
    )
    lines: list[str] = []
    urls: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_read_stderr, args=(process, lines, urls), daemon=True)
    reader.start()
    try:
        server = LiveServer(_wait_for_url(process, urls, lines), lines)
        _wait_until_answering(server, process, files)
        yield server
    finally:
        status = _stop(process, stop, stop_group)
        reader.join(STOP_SECONDS)
    assert status == 0, f"benchgraph serve exited {status} on Ctrl-C:\n" + "".join(lines)
    printed = "".join(lines)
    assert "Traceback" not in printed and "Exception ignored" not in printed, printed


def _read_stderr(process: subprocess.Popen[str], lines: list[str], urls: queue.Queue[str]) -> None:
    """Keep every line (the pipe must never fill up) and hand on the address once."""
    assert process.stderr is not None
    for line in process.stderr:
        lines.append(line)
        found = LISTENING.search(line)
        if found:
            urls.put(found.group(1))


def _wait_for_url(process: subprocess.Popen[str], urls: queue.Queue[str],
                  lines: list[str]) -> str:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        try:
            return urls.get(timeout=0.2)
        except queue.Empty:
            if process.poll() is not None:
                break
    raise AssertionError("benchgraph serve printed no address:\n" + "".join(lines))


def _wait_until_answering(server: LiveServer, process: subprocess.Popen[str],
                          files: bool) -> None:
    """Until the server answers a query, and with ``files`` has its dumps (a ``sparql:``
    store makes them in a process of its own after it starts answering: a 503 until then)."""
    deadline = time.monotonic() + START_SECONDS
    asked = [("GET", "/sparql", "text/turtle"), ("HEAD", "/dump.nt", "*/*")][:2 if files else 1]
    while asked and process.poll() is None and time.monotonic() < deadline:
        method, path, accept = asked[0]
        connection = server.connection(timeout=5)
        try:
            connection.request(method, path, headers={"Accept": accept})
            if connection.getresponse().status == 200:
                asked.pop(0)
                continue
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(0.2)
    if asked:
        raise AssertionError(f"benchgraph serve never answered {asked[0][1]}:\n"
                             + "".join(server.stderr))


def _stop(process: subprocess.Popen[str], stop: signal.Signals,
          group_signal: signal.Signals | None = None) -> int:
    """``stop`` to the server's process (or ``group_signal`` to its whole process group); its
    exit status. A server still running after STOP_SECONDS is killed with its whole process
    group (the server and the processes it forked), and that counts as a failure."""
    if process.poll() is None:
        if group_signal is None:
            process.send_signal(stop)
        else:
            os.killpg(process.pid, group_signal)
    try:
        return process.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return -signal.SIGKILL


__all__ = ["LiveServer", "serve"]
