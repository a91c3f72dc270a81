"""gunicorn's master freezes what it made before it forks a worker (``web.server``), so that
a worker's full garbage collections do not walk the app, the store and every module."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from flask import Flask

from web import server


def test_the_master_freezes_its_objects_before_each_worker_is_forked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    given: dict[str, Any] = {}

    class Gunicorn:
        def __init__(self, app: Flask, settings: dict[str, Any]) -> None:
            given.update(settings)

        def run(self) -> None:
            """Not served: only its settings are read."""

    monkeypatch.setattr(server, "_Gunicorn", Gunicorn)
    server.serve(Flask(__name__), server.ServerOptions("127.0.0.1", 0, 1, 1), print)
    assert gc.get_freeze_count() == 0
    try:
        given["pre_fork"](None, None)
        assert gc.get_freeze_count() > 1000  # every module imported, at least
    finally:
        gc.unfreeze()
