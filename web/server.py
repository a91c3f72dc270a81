"""Serving the app with waitress, a production WSGI server (``benchgraph serve``).

One process. waitress reads and writes every connection in one event loop and hands a request
to one of its threads only once it holds the request whole, headers and body. A client that
sends its headers a byte at a time, holds a body open or sits idle before its first request
costs a socket and a buffer, never a thread, so slow clients cannot keep a new one waiting
(``tests/test_slow_clients.py``; gunicorn's gthread worker, served before, gave a thread to a
connection at its first byte, and six slow clients stopped the server). The heavy work is not
done in this process: each query runs in a query process (``graph.store.process.pool``) that its
time
and memory limits can kill, forked by a zygote (``graph.store.process.zygote``). A thread mostly
waits on its query's answer, so one process of threads is enough, and no web worker is ever
timed out or killed with the requests beside it.

The limits, each set here on purpose (waitress's defaults in brackets):

- ``threads`` (the setting ``threads``, 16; [4]): requests handled at once. A thread that
  waits on a query process holds no CPU, and there are more threads than query processes
  (the setting ``query_processes``) so that pages and static files, which need none, are
  answered while every query process is busy. A request past them waits, whole, in a queue.
- ``connection_limit`` 1000 [100]: connections open at once. A slow client costs a socket,
  so the limit is far above the slow clients one address can be expected to open; past it
  waitress stops accepting until some close, and new connections wait in the kernel's
  backlog (1024). Each connection may take three file descriptors (its socket, and a
  temporary file for each of its request and response buffers when they overflow), so the
  soft limit of open files is raised to hold them, and the connection limit lowered where
  the hard limit cannot.
- ``channel_timeout`` 30 s [120]: a connection with no whole request in hand that has sent
  nothing for this long is closed: idle before its first request, idle between requests, or
  stopped halfway through its headers or body. One still answering (a long query) is not.
- ``cleanup_interval`` 5 s [30]: how often connections are checked for that timeout.
- ``max_request_header_size`` [256 KiB]: three times ``max_query_bytes`` (the longest query
  text accepted, percent-encoded at worst into the request line of a GET) and 16 KiB for
  the other headers: a query the app would take is never refused for coming by GET, and a
  longer request is a 431 before any thread sees it.
- ``max_request_body_size`` [1 GiB]: the setting ``max_request_bytes``; a longer body is a
  413 at its ``Content-Length``, before it is read.
- ``inbuf_overflow`` 64 KiB [512 KiB]: a request body past this waits in a temporary file,
  not in memory, until it is whole: slow clients posting at once hold at most this much
  memory each, whatever the bodies they announce.
- ``asyncore_use_poll``: ``poll`` rather than ``select``, which fails on a descriptor
  numbered past 1024: there are more connections than that.
- ``ident`` ``benchgraph`` [waitress]: the ``Server`` header names no server and no version.
- ``expose_tracebacks`` stays off, ``url_scheme`` stays ``http``, and ``trusted_proxy`` stays
  unset: no ``X-Forwarded-*`` header from a client is believed (README, "The web app", on
  what a proxy in front should do).

The address is printed once the socket listens. Ctrl-C (SIGINT) or SIGTERM, to this process
or to its whole group, stops the server cleanly: it stops accepting, lets the requests under
way finish for up to ``GRACE_SECONDS``, and returns; the caller then closes the store.

Everything this process made is frozen out of the cyclic garbage collector before the zygote
is forked and the threads start (``gc.freeze``, as Python's documentation advises for a
forking server): the app, the store, every module imported. A large page makes thousands of
short-lived objects, so full collections come often, and each walked that whole heap
(perf/decisions/server-objects-frozen.md). A frozen object is
never collected, which costs nothing here: these objects live as long as the server. And the
query processes forked from it share its memory: a collection there no longer writes to every
page the server holds.
"""

from __future__ import annotations

import errno
import gc
import logging
import resource
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any, TextIO

from flask import Flask
from waitress import wasyncore
from waitress.server import create_server

from graph.errors import BenchgraphError, ErrorKind
from graph.settings import LogLevel
from web.access_log import LOG as ACCESS_LOG
from web.access_log import AccessLog

CONNECTION_LIMIT = 1000
CHANNEL_TIMEOUT = 30
CLEANUP_INTERVAL = 5
HEADER_ROOM = 16 * 1024
"""Bytes of request headers allowed besides a GET's query string."""
INBUF_OVERFLOW = 64 * 1024
LOOP_SECONDS = 1
"""The most the event loop waits without looking at its connections' timeouts."""
GRACE_SECONDS = 5.0
"""How long the requests under way may take to finish once the server is stopped."""
BACKLOG = 1024
"""Connections the kernel holds for the server before it accepts them (waitress's default,
which it sets again when it starts listening)."""
_FILES_PER_CONNECTION = 3
_FILES_BESIDES = 256
"""Files the process needs besides its connections: the store's, the query processes'
sockets, the listening socket, the logs."""


@dataclass(frozen=True)
class ServerOptions:
    """Where to serve, and how much at once."""

    host: str
    port: int
    threads: int
    max_request_bytes: int
    max_query_bytes: int
    access_log: bool = False


def serve(
    app: Flask, options: ServerOptions, announce: Callable[[str], None],
    prepare: Callable[[], None] | None = None, listener: socket.socket | None = None,
) -> None:
    """Serve ``app`` until stopped by SIGINT or SIGTERM; ``announce`` gets the base URL once
    the socket listens. ``prepare`` (starting the query processes) runs before any thread
    of the server exists, after this process's objects were frozen. ``listener`` is the
    socket ``listen`` made for ``options``' address (a command that has work to do first
    takes the port before it: ``benchgraph serve``); else it is made here. It is closed
    when the server stops."""
    stopping: list[int] = []
    server: Any = None

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.append(signum)
        if server is not None:
            server.pull_trigger()  # wakes the event loop now

    if listener is None:
        listener = listen(options.host, options.port)
    previous = {stop_signal: signal.signal(stop_signal, stop)
                for stop_signal in (signal.SIGINT, signal.SIGTERM)}
    try:
        gc.freeze()
        if prepare is not None:
            prepare()
        connections: dict[int, Any] = {}
        server = create_server(
            AccessLog(app) if options.access_log else app,
            map=connections,
            sockets=[listener],
            threads=options.threads,
            connection_limit=_connection_limit(CONNECTION_LIMIT),
            channel_timeout=CHANNEL_TIMEOUT,
            cleanup_interval=CLEANUP_INTERVAL,
            max_request_header_size=3 * options.max_query_bytes + HEADER_ROOM,
            max_request_body_size=options.max_request_bytes,
            inbuf_overflow=INBUF_OVERFLOW,
            asyncore_use_poll=True,
            asyncore_loop_timeout=LOOP_SECONDS,
            ident="benchgraph",
            expose_tracebacks=False,
            url_scheme="http",
        )
        announce(_url(listener))
        while not stopping:
            wasyncore.loop(timeout=LOOP_SECONDS, use_poll=True, map=connections, count=1)
        _finish(server, connections)
    finally:
        listener.close()
        for stop_signal, handler in previous.items():
            signal.signal(stop_signal, handler)


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (the first address ``host`` names; port 0: any
    free one) and listening, so that no other process can take the port from then on (one
    bound alone could share it with a socket of ``SO_REUSEADDR`` not yet listening). A port
    in use, or a host that names no address of this machine, is the user's to fix: one
    line, ``port 5000 is in use; pass --port N``."""
    try:
        family, kind, protocol, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        listener = socket.socket(family, kind, protocol)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(address)
            listener.listen(BACKLOG)
        except OSError:
            listener.close()
            raise
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise BenchgraphError(f"port {port} is in use; pass --port N",
                                  ErrorKind.USAGE) from None
        raise BenchgraphError(f"cannot listen on {_host_port(host, port)}: "
                              f"{error.strerror or error}", ErrorKind.USAGE) from None
    return listener


def _connection_limit(wanted: int) -> int:
    """``wanted`` connections, or fewer where the hard limit of open files cannot hold them
    (each may take three files); the soft limit raised to hold them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted * _FILES_PER_CONNECTION + _FILES_BESIDES
    if hard != resource.RLIM_INFINITY and hard < needed:
        needed = hard
    if soft != resource.RLIM_INFINITY and soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    return max(1, min(wanted, (needed - _FILES_BESIDES) // _FILES_PER_CONNECTION))


def _finish(server: Any, connections: dict[int, Any]) -> None:
    """Stop accepting, then run the event loop until the requests under way are answered
    and their answers sent, for GRACE_SECONDS at most; then stop the threads."""
    wasyncore.dispatcher.close(server)  # the listening socket; the loop's trigger stays
    tasks = server.task_dispatcher
    deadline = time.monotonic() + GRACE_SECONDS
    while time.monotonic() < deadline and (
            tasks.active_count or tasks.queue
            or any(channel.writable() for channel in list(connections.values()))):
        wasyncore.loop(timeout=0.05, use_poll=True, map=connections, count=1)
    tasks.shutdown(cancel_pending=True, timeout=1)


def _url(listener: socket.socket) -> str:
    host, port = listener.getsockname()[:2]
    return f"http://{_host_port(host, port)}/"


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def log_to(stream: TextIO, level: LogLevel = "info", access_log: bool = False) -> None:
    """The server's log on ``stream``: what every logger (the store's, waitress's, the app's)
    writes at ``level`` and above, a line for each query at ``info`` (``graph.store.query_log``);
    and, with ``access_log``, a line per request whatever the level (``web.access_log``)."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter(
        "[%(asctime)s] [%(process)d] [%(levelname)s] %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level.upper())
    if access_log:
        ACCESS_LOG.setLevel(logging.INFO)


def print_address(stream: TextIO = sys.stderr) -> Callable[[str], None]:
    """An ``announce`` that prints the address for a person."""

    def announce(url: str) -> None:
        print(f"benchgraph serve: listening on {url} (Ctrl-C to stop)", file=stream, flush=True)

    return announce


__all__ = ["ServerOptions", "listen", "log_to", "print_address", "serve"]
