"""Reaching an engine from the settings, and reading what the last push left in it.

The manifest is found by what it is, not by where: the statements whose predicate is
``push:manifest``, the parts of its JSON, in the graph their subjects name (``{base}push``).
So ``serve --store sparql:URL`` needs only the URL, whatever base the push used; an engine
holding pushes of several bases needs ``--base`` to choose.
"""

from __future__ import annotations

from typing import Any

import pyoxigraph as ox

from graph.settings import Settings
from graph.store.errors import StoreError
from graph.store.remote.client import Client, Credentials, Endpoint
from graph.store.remote.engine import Dataset, Engine
from graph.store.remote.layout import (
    FORMAT,
    MANIFEST_PREDICATE,
    REPORT_PREDICATE,
    Names,
    PushManifest,
    part_of,
    read_json,
)


def engine_for(query_url: str, settings: Settings, base: str | None = None) -> Engine:
    """The engine at ``query_url``, its Graph Store at ``settings.graph_store`` (default: the
    query URL), with the settings' credentials, time limit and retries, and a connection
    kept for each of the server's ``threads``."""
    credentials = Credentials(settings.remote_user,
                              settings.remote_password.get_secret_value(),
                              settings.remote_token.get_secret_value())
    client = Client(credentials, settings.remote_timeout, settings.remote_retries,
                    settings.threads)
    query = Endpoint.parse(query_url, "--store sparql:URL")
    store = Endpoint.parse(settings.graph_store, "--graph-store") if settings.graph_store \
        else query
    return Engine(query, store, client, base or settings.base)


def find_manifest(engine: Engine, base: str | None) -> PushManifest | None:
    """The manifest the last push of ``base`` (None: of any base, when there is one) left;
    None when the engine holds none. StoreError when it cannot be read, or when there are
    several and no base chooses."""
    text = f"SELECT ?g ?part ?text WHERE {{ GRAPH ?g {{ ?part {MANIFEST_PREDICATE} ?text }} }}"
    parts: dict[str, list[tuple[str, ox.Literal]]] = {}
    for graph, part, value in engine.rows(text, Dataset(), timeout=engine.client.timeout):
        if isinstance(graph, ox.NamedNode) and isinstance(part, ox.NamedNode) and \
                isinstance(value, ox.Literal) and part_of(part.value, graph.value):
            parts.setdefault(graph.value, []).append((part.value, value))
    found: dict[str, PushManifest] = {}
    for name, texts in parts.items():
        manifest = _manifest(texts, engine)
        if name == Names(manifest.facts.base).manifest:
            found[manifest.facts.base] = manifest
    if base is not None:
        return found.get(base)
    if len(found) > 1:
        raise StoreError(f"{engine.query_url.url} holds pushes of several bases "
                         f"({', '.join(sorted(found))}): give --base")
    return next(iter(found.values()), None)


def _manifest(parts: list[tuple[str, ox.Literal]], engine: Engine) -> PushManifest:
    try:
        data = read_json(parts)
        if data.get("format") != FORMAT:
            raise StoreError(f"{engine.query_url.url} was pushed by another version of "
                             "benchgraph: push again")
        return PushManifest.from_json(data)
    except (ValueError, KeyError, TypeError) as error:
        raise StoreError(f"the manifest in {engine.query_url.url} cannot be read "
                         f"({error}): push again") from None


def open_manifest(engine: Engine, settings: Settings) -> PushManifest:
    """The manifest a store over ``engine`` serves: StoreError when there is none, when the
    last push did not finish, or (with ``--base`` given) when it is of another base."""
    expected = settings.base if "base" in settings.model_fields_set else None
    manifest = find_manifest(engine, expected)
    where = engine.query_url.url
    if manifest is None:
        of = f" of the base {expected}" if expected else ""
        raise StoreError(f"{where} holds no benchgraph push{of}: load it with "
                         f"`benchgraph push --store sparql:{where}`")
    if not manifest.complete:
        raise StoreError(f"the last push to {where} did not finish, so its graphs may be of "
                         f"two builds: push again")
    return manifest


def read_report(engine: Engine, names: Names) -> dict[str, Any]:
    """The validation report's JSON form, as the push kept it."""
    text = (f"SELECT ?part ?text WHERE {{ GRAPH <{names.validation}> "
            f"{{ ?part {REPORT_PREDICATE} ?text }} }}")
    parts = [(part.value, value)
             for part, value in engine.rows(text, Dataset(), timeout=engine.client.timeout)
             if isinstance(part, ox.NamedNode) and isinstance(value, ox.Literal)
             and part_of(part.value, names.validation)]
    if not parts:
        raise StoreError(f"{engine.query_url.url} holds no validation report, though its "
                         "manifest says it was validated: push again")
    try:
        return read_json(parts)
    except ValueError as error:
        raise StoreError(f"the validation report in {engine.query_url.url} cannot be read "
                         f"({error}): push again") from None


__all__ = ["engine_for", "find_manifest", "open_manifest", "read_report"]
