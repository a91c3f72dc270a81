"""The app's one store: registered by ``init_app``, reached by ``get_store()``.

The store is made when the app is (``benchgraph serve`` builds or opens it before the server
starts, so a gunicorn worker inherits it), or on first use when the app was created without
one (the bundled catalog in a memory store). It lives in ``app.extensions``, never in a
module-level variable.
"""

from __future__ import annotations

import threading

from flask import Flask, current_app

from graph.settings import Settings
from graph.store.base import Store

_KEY = "benchgraph.store"
_LOCK = "benchgraph.store.lock"


def init_app(app: Flask, store: Store | None) -> None:
    """Register ``store`` (or the way to make one on first use) with ``app``."""
    app.extensions[_KEY] = store
    app.extensions[_LOCK] = threading.Lock()


def get_store() -> Store:
    """The store of the current app."""
    extensions = current_app.extensions
    store: Store | None = extensions[_KEY]
    if store is None:
        with extensions[_LOCK]:
            store = extensions[_KEY]
            if store is None:
                from graph.store.kinds import StoreSpec, open_store

                settings: Settings = current_app.config["BENCHGRAPH_SETTINGS"]
                store = extensions[_KEY] = open_store(StoreSpec.parse(settings.store), settings,
                                                      validate=True)
    return store


__all__ = ["get_store", "init_app"]
