"""``/``: what the graph holds, and where to go from here."""

from __future__ import annotations

from flask import Blueprint, render_template

from graph.namespace import curie
from graph.sparql.named import load_named_queries
from web.stores import get_store

bp = Blueprint("home", __name__)


@bp.route("/")
def index() -> str:
    store = get_store()
    counts = store.counts()
    classes = [(curie(str(iri)), count) for iri, count in counts.per_class.items()]
    return render_template(
        "home/index.html",
        counts=counts,
        classes=classes,
        records=len(store.record_graphs()),
        queries=load_named_queries().values(),
    )


__all__ = ["bp"]
