"""``/``: what the graph holds, a search box, the recently reviewed records, when the graph
was built and what that build changed, and where to go.

"Recent records" are ordered by their own freshness dates (the latest day a record
describing a benchmark was reviewed or researched, ``bench:reviewed`` / ``bench:researched``),
not by the build time: every record of one build shares that, so it would order nothing.
A record without such a date (a directory page has none) is not listed. They come from the
benchmark list's index (``Artefacts.browse``, sorted ``-updated``), so the page costs no SPARQL.

The last build (``Store.build_facts``): when it was made, and the records it added, changed
and removed against the build the store held before (``BuildChanges``), the first
``SHOWN`` of each kind on the page; all of them, as data, at ``/changes.json``, which the page
names in ``<link rel="alternate">`` and a ``Link`` header.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, url_for

from graph.search import BrowseRequest
from graph.sparql.named import load_named_queries
from graph.store.base import BuildFacts
from graph.store.changes import ChangeKind, RecordChange
from graph.store.errors import StorePreparing
from web.data_view import Alternate, DataView
from web.labels import fetch_labels
from web.links import iri_href
from web.negotiation import JSON_TYPE
from web.stores import get_store

bp = Blueprint("home", __name__)

RECENT = 8
SHOWN = 5
"""Records of each kind of change the page names; ``/changes.json`` has them all."""


@dataclass(frozen=True)
class ShownChange:
    """One kind of change as the page shows it: the first records, linked where they still
    are in the graph (a removed record is not), and how many more there are."""

    kind: ChangeKind
    records: list[tuple[str, str | None]]
    """Each record's label and link."""
    more: int


@dataclass(frozen=True)
class ShownBuild:
    """The last build as the page shows it."""

    facts: BuildFacts
    changes: list[ShownChange]

    @property
    def built_at(self) -> str:
        return _readable(self.facts.built_at)

    @property
    def previous(self) -> str | None:
        previous = self.facts.changes.previous
        return None if previous is None else _readable(previous)


def _readable(moment: str) -> str:
    """An ISO 8601 time as a person reads it: ``YYYY-MM-DD HH:MM UTC`` (as written when it
    is not one)."""
    try:
        when = datetime.fromisoformat(moment)
    except ValueError:
        return moment
    return (when.astimezone(UTC) if when.tzinfo else when).strftime("%Y-%m-%d %H:%M UTC")


def _shown_build(facts: BuildFacts, base: str) -> ShownBuild:
    return ShownBuild(facts, [
        ShownChange(kind, [(record.label, _href(kind, record, base)) for record in found[:SHOWN]],
                    len(found) - min(len(found), SHOWN))
        for kind, found in facts.changes.kinds() if found])


def _href(kind: ChangeKind, record: RecordChange, base: str) -> str | None:
    """Where a changed record's page is: none for a removed one, no longer in the graph."""
    return None if kind == "removed" else iri_href(record.graph, base)


@bp.route("/changes.json")
def changes() -> Response:
    """The last build's date and every record it added, changed and removed, each with its
    graph, its file and its page (``href``; none for a removed record)."""
    store = get_store()
    facts = store.build_facts()
    body: dict[str, Any] = {"built_at": facts.built_at, "records": len(facts.records),
                            **facts.changes.to_json()}
    for kind, found in facts.changes.kinds():
        for data, record in zip(body[kind], found, strict=True):
            data["label"] = record.label
            data["href"] = _href(kind, record, store.base)
    return jsonify(body)


@bp.route("/")
def index() -> Response:
    view = DataView()
    store = get_store()
    counts = store.counts()
    labels = fetch_labels(store, [str(iri) for iri in counts.per_class])
    classes = [(labels.text(str(iri)), iri_href(str(iri), store.base), count)
               for iri, count in counts.per_class.items()]
    preparing: str | None = None
    try:
        listed = store.artefacts().browse(BrowseRequest(sort="-updated", limit=RECENT,
                                                        facet_size=0))
    except StorePreparing as waiting:  # a sparql: store still making its index: say so
        listed, preparing = None, waiting.message
    facts = store.build_facts()
    alternate = url_for("home.changes")
    forms = (Alternate("changes", JSON_TYPE, alternate, "What the last build changed"),)
    return view.respond(lambda: render_template(
        "home/index.html",
        counts=counts,
        classes=classes,
        records=len(facts.records),
        build=_shown_build(facts, store.base),
        changes_href=alternate,
        benchmarks=None if listed is None else listed.total,
        recent=[] if listed is None else [row for row in listed.rows if row.updated],
        preparing=preparing,
        href=lambda iri: iri_href(iri, store.base),
        queries=load_named_queries().values(),
        alternates=forms,
    ), alternates=forms)


__all__ = ["bp"]
