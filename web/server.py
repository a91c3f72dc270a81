"""Serving the app with gunicorn, a production WSGI server (``benchgraph serve``).

gunicorn's master process makes the app (``preload_app``: the store is built or opened once,
before any worker exists) and forks ``workers`` processes, each answering ``threads``
requests at once (the ``gthread`` worker). A worker's threads run their queries in query
processes of that worker (``graph.store.pool``), which the time limit can kill: neither
gunicorn's own worker timeout (a gthread worker is never timed out while busy) nor killing a
sync worker (its client gets an empty reply) is a query limit.

The master prints the address once it listens, and stops cleanly on Ctrl-C (SIGINT) or
SIGTERM, to it alone or to every process of the server; the caller then closes the store.
"""

from __future__ import annotations

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
