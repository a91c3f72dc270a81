"""``/``: what the graph holds, a search box, the recently reviewed records, and where to go.

"Recent records" are ordered by their own freshness dates (the latest day a record
describing a benchmark was reviewed or researched, ``bench:reviewed`` / ``bench:researched``),
not by the build time: every record of one build shares that, so it would order nothing.
A record without such a date (a directory page has none) is not listed. They come from the
benchmark list's index (``Store.browse``, sorted ``-updated``), so the page costs no SPARQL.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from graph.search import BrowseRequest
from graph.sparql.named import load_named_queries
from graph.store.errors import StorePreparing
from web.labels import fetch_labels
from web.links import iri_href
from web.stores import get_store

bp = Blueprint("home", __name__)

RECENT = 8


@bp.route("/")
def index() -> str:
    store = get_store()
    counts = store.counts()
    labels = fetch_labels(store, [str(iri) for iri in counts.per_class])
    classes = [(labels.text(str(iri)), iri_href(str(iri), store.base), count)
               for iri, count in counts.per_class.items()]
    preparing: str | None = None
    try:
        listed = store.browse(BrowseRequest(sort="-updated", limit=RECENT, facet_size=0))
    except StorePreparing as waiting:  # a sparql: store still making its index: say so
        listed, preparing = None, waiting.message
    return render_template(
        "home/index.html",
        counts=counts,
        classes=classes,
        records=len(store.record_graphs()),
        benchmarks=None if listed is None else listed.total,
        recent=[] if listed is None else [row for row in listed.rows if row.updated],
        preparing=preparing,
        href=lambda iri: iri_href(iri, store.base),
        queries=load_named_queries().values(),
    )


__all__ = ["bp"]
