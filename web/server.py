"""Serving the app with gunicorn, a production WSGI server (``benchgraph serve``).

gunicorn's master process makes the app (``preload_app``: the store is built or opened once,
before any worker exists) and forks ``workers`` processes, each answering ``threads``
requests at once (the ``gthread`` worker). A worker's threads run their queries in query
processes of that worker (``graph.store.pool``), which the time limit can kill: neither
gunicorn's own worker timeout (a gthread worker is never timed out while busy) nor killing a
sync worker (its client gets an empty reply) is a query limit.

The master prints the address once it listens, and stops cleanly on Ctrl-C (SIGINT) or
SIGTERM, to it alone or to every process of the server; the caller then closes the store.

Everything the master made is frozen out of the cyclic garbage collector before a worker is
forked (``gc.freeze``, as Python's documentation advises for a forking server): the app,
the store, every module imported. A large page makes thousands of short-lived objects, so
full collections come often, and each walked that whole heap: at 100,000 records the
largest publisher's page took 91.5 ms at p50 and 328.0 ms at p99 (perf, 2026-12-05). In
one process at 10,000 records the same page's p99 went from 55.9 to 17.9 ms once frozen
(p50 15.1 ms both; its full collections from 498 to 29 ms over 200 requests). A frozen
object is never collected, which costs nothing here: the master's objects live as long as
the server, and a worker's collections no longer write to the memory it shares with the
master.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from flask import Flask
from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter


@dataclass(frozen=True)
class ServerOptions:
    """Where and how wide to serve."""

    host: str
    port: int
    workers: int
    threads: int
    access_log: bool = False


class _Gunicorn(BaseApplication):  # type: ignore[misc]
    def __init__(self, app: Flask, settings: dict[str, Any]) -> None:
        self._app = app
        self._settings = settings
        super().__init__(prog="benchgraph serve")

    def load_config(self) -> None:
        for key, value in self._settings.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return self._app


REQUEST_LINE_LIMIT = 8190
"""The longest request line gunicorn reads (its largest bounded value; its default, 4094,
refused a GET of the named query ``harness-conflicts``, 6.5 kB encoded, with a 414). A
longer query is for POST, whose body ``max_request_bytes`` bounds."""


def serve(
    app: Flask, options: ServerOptions, announce: Callable[[str], None],
    prepare: Callable[[], None] | None = None,
) -> None:
    """Serve ``app`` until interrupted; ``announce`` gets the base URL once it listens, and
    ``prepare`` runs in each worker before it takes requests (starting its query processes)."""

    def when_ready(server: Arbiter) -> None:
        host, port = server.LISTENERS[0].sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        announce(f"http://{shown}:{port}/")

    settings: dict[str, Any] = {
        "bind": [_bind(options.host, options.port)],
        "workers": options.workers,
        "worker_class": "gthread",
        "threads": options.threads,
        "preload_app": True,
        "when_ready": when_ready,
        "pre_fork": freeze_before_fork,
        "post_fork": _own_group,
        "post_worker_init": (lambda worker: prepare()) if prepare else (lambda worker: None),
        "accesslog": "-" if options.access_log else None,
        "errorlog": "-",
        "loglevel": "warning",
        "graceful_timeout": 5,
        "limit_request_line": REQUEST_LINE_LIMIT,
        "control_socket_disable": True,
    }
    try:
        _Gunicorn(app, settings).run()
    except SystemExit as stop:  # the arbiter's way of saying it stopped
        if stop.code not in (None, 0):
            raise


def freeze_before_fork(server: Arbiter | None, worker: object) -> None:
    """gunicorn's ``pre_fork``, in the master: move every object it holds out of the
    collector's reach (the module docstring says why)."""
    gc.freeze()


def _own_group(server: Arbiter, worker: object) -> None:
    """Put a new worker (and the query processes it forks) in a process group of its own, so
    that a terminal's Ctrl-C, which signals the whole foreground group, reaches the master
    alone; the master then stops each worker once. Signalled by the terminal and again by
    the master, a worker ran its handler a second time after closing its wakeup pipe
    (gunicorn's gthread worker: "Exception ignored ... Bad file descriptor" on stderr)."""
    os.setpgid(0, 0)


def _bind(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def print_address(stream: TextIO = sys.stderr) -> Callable[[str], None]:
    """An ``announce`` that prints the address for a person."""

    def announce(url: str) -> None:
        print(f"benchgraph serve: listening on {url} (Ctrl-C to stop)", file=stream, flush=True)

    return announce


__all__ = ["ServerOptions", "print_address", "serve"]
