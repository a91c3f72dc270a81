"""``web.server.serve`` freezes what the process made before it starts the query processes
and its threads, so that full garbage collections do not walk the app, the store and every
module; and ``prepare`` (which forks the query processes' zygote) runs while the process has
no thread of the server's yet: a process forked from one that runs threads inherits every
lock they held."""

from __future__ import annotations

import gc
import os
import signal
import threading
import urllib.request

from flask import Flask

from web import server


def test_the_process_is_frozen_and_has_no_server_thread_when_it_prepares() -> None:
    app = Flask(__name__)
    app.add_url_rule("/", "home", lambda: "home")
    seen: dict[str, object] = {}
    threads_before = set(threading.enumerate())

    def prepare() -> None:
        seen["frozen when prepared"] = gc.get_freeze_count()
        seen["new threads when prepared"] = set(threading.enumerate()) - threads_before

    def ask_then_stop(url: str) -> None:
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                seen["answer"] = answer.read()
        finally:
            os.kill(os.getpid(), signal.SIGINT)  # stops it, as Ctrl-C does

    def announce(url: str) -> None:  # the server answers once this returns
        threading.Thread(target=ask_then_stop, args=(url,), daemon=True).start()

    assert gc.get_freeze_count() == 0
    try:
        server.serve(app, server.ServerOptions("127.0.0.1", 0, 2, 1024 * 1024, 65536),
                     announce, prepare)
        assert seen["frozen when prepared"] > 1000  # every module imported, at least
    finally:
        gc.unfreeze()
    assert seen["new threads when prepared"] == set()
    assert seen["answer"] == b"home"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # given back
