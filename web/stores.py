"""The app's one store: registered by ``init_app``, reached by ``get_store()``.

The store is made when the app is (``benchgraph serve`` builds or opens it before the server
starts, so its query processes share it), or on first use when the app was created without
one (the bundled catalog in a memory store). It lives in ``app.extensions``, never in a
module-level variable.

Within a request, ``get_store()`` gives the store's ``reading`` view for that request, made
on its first call; the view's block ends once the response is sent (``Response.call_on_close``:
a dump is streamed after the view function returns), or when the request is torn down without
one. So every answer of a request comes from one build of the store, and a store folder
rebuilt under the server is moved to between requests.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack

from flask import Flask, Response, after_this_request, current_app, g, has_request_context

from graph.settings import Settings
from graph.store.base import Store

_KEY = "benchgraph.store"
_LOCK = "benchgraph.store.lock"
_VIEW = "benchgraph_store_view"
"""The ``g`` attribute holding the request's view of the store."""
_READING = "benchgraph_store_reading"
"""The ``g`` attribute holding the view's block until the request's response has it."""


def init_app(app: Flask, store: Store | None) -> None:
    """Register ``store`` (or the way to make one on first use) with ``app``."""
    app.extensions[_KEY] = store
    app.extensions[_LOCK] = threading.Lock()
    app.teardown_request(_end_unsent)


def get_store() -> Store:
    """The store of the current app: within a request, the request's view of it."""
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
    if not has_request_context():
        return store
    view: Store | None = g.get(_VIEW)
    if view is None:
        reading = ExitStack()
        view = reading.enter_context(store.reading())
        setattr(g, _VIEW, view)
        setattr(g, _READING, reading)
        after_this_request(_end_when_sent)
    return view


def _end_when_sent(response: Response) -> Response:
    """The request's ``reading`` block ends once ``response`` is sent (or dropped)."""
    reading: ExitStack | None = g.pop(_READING, None)
    if reading is not None:
        response.call_on_close(reading.close)
    return response


def _end_unsent(error: BaseException | None) -> None:
    """The request's view is done with; if no response had its block, the block ends now."""
    g.pop(_VIEW, None)
    reading: ExitStack | None = g.pop(_READING, None)
    if reading is not None:
        reading.close()


__all__ = ["get_store", "init_app"]
