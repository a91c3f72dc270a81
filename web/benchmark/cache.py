"""Values computed from one build of the store, kept until the store holds another.

A benchmark's results are read by three requests in a row (its page, the chart the page
embeds, the chart's data), and a chart is rendered by a JavaScript engine: both are worth
keeping. What is kept is keyed by the build the request's view of the store holds (its
``BuildFacts``: when it was built, from how many records), so a store folder rebuilt under a
running server (``graph.store.following``) is never answered from the build before it: the
first request that sees the new build drops everything kept of the old one.

The app keeps one ``GenerationCache`` (in ``app.extensions``), of at most ``ENTRIES`` values,
the least recently used dropped first. Two requests that miss the same value at once both
compute it; the second's replaces the first's, which is the same.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

from flask import current_app

from graph.store.base import Store

T = TypeVar("T")
ENTRIES = 256
"""Values kept at most: a benchmark's results, a chart's data, a chart."""
_KEY = "benchgraph.generation_cache"
_LOCK = threading.Lock()


class GenerationCache:
    """Values by key, for one build of the store at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._build: tuple[str, str, int] | None = None
        self._values: OrderedDict[Hashable, object] = OrderedDict()

    def get(self, store: Store, key: Hashable, make: Callable[[], T]) -> T:
        """The value of ``key`` for the build ``store`` holds, made by ``make`` if not kept."""
        facts = store.build_facts()
        build = (store.base, facts.built_at, len(facts.records))
        with self._lock:
            if build != self._build:
                self._build, self._values = build, OrderedDict()
            if key in self._values:
                self._values.move_to_end(key)
                found: T = self._values[key]  # type: ignore[assignment]
                return found
        value = make()
        with self._lock:
            if build == self._build:
                self._values[key] = value
                while len(self._values) > ENTRIES:
                    self._values.popitem(last=False)
        return value


def generation_cache() -> GenerationCache:
    """The current app's cache (made on first use)."""
    extensions = current_app.extensions
    with _LOCK:
        cache = extensions.get(_KEY)
        if cache is None:
            cache = extensions[_KEY] = GenerationCache()
    assert isinstance(cache, GenerationCache)
    return cache


__all__ = ["ENTRIES", "GenerationCache", "generation_cache"]
