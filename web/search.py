"""``/search?q=``: the named nodes a text finds, ranked (``graph.search.ranking``).

The address is a page with the query in its box, each hit's kind and a link to its page; a
client asks for JSON by the ``.json`` suffix, ``format=json`` or ``Accept``
(``web.data_view``), advertised by ``<link rel="alternate">`` and a ``Link``
header. A query with no words finds nothing (a page with the box, or an empty list); one
too long to mean anything, or a bad page number, is a 400 with the reason (``SearchError``,
through the app's one error handler).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from graph.search import SearchHit
from graph.search.ranking import MAX_QUERY_CHARS
from web.data_view import DataView, alternates
from web.links import iri_href
from web.negotiation import JSON, Offer
from web.params import whole_number
from web.stores import get_store

bp = Blueprint("search", __name__)

PAGE_SIZE = 20
MAX_PAGE = 500
"""The last page of hits a search shows: past it, ranking says little."""


@dataclass(frozen=True)
class ShownHit:
    """A hit as the page shows it: with where its label links."""

    hit: SearchHit
    href: str | None


@bp.app_context_processor
def _search_box() -> dict[str, int]:
    """What every page's search box needs (``search/form.html``)."""
    return {"search_max_chars": MAX_QUERY_CHARS}


@bp.route("/search")
@bp.route("/search.<suffix>")
def search(suffix: str | None = None) -> Response:
    view = DataView((JSON,), suffix)
    text = request.args.get("q", "")
    page = whole_number("page", MAX_PAGE)
    store = get_store()
    results = store.artefacts().search(text, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
    hits = [ShownHit(hit, iri_href(hit.iri, store.base)) for hit in results.hits]
    pages = _pages(text, page, results.total)
    forms = alternates(view.offers, lambda name: url_for(
        "search.search", suffix=name, q=text or None, page=page if page > 1 else None))

    def data(offer: Offer) -> Response:
        body: dict[str, Any] = results.to_json()
        for shown, found in zip(hits, body["hits"], strict=True):
            found["href"] = shown.href
        return jsonify(body | pages)

    return view.respond(lambda: render_template(
        "search/results.html", query=text, results=results, hits=hits, pages=pages,
        alternate=forms[0].href, alternates=forms,
    ), data, forms)


def _pages(text: str, page: int, total: int) -> dict[str, str | None]:
    last = max(1, -(-total // PAGE_SIZE))
    previous = url_for("search.search", q=text, page=page - 1) if page > 1 else None
    following = (url_for("search.search", q=text, page=page + 1)
                 if page < min(last, MAX_PAGE) else None)
    return {"previous": previous, "next": following}


__all__ = ["PAGE_SIZE", "bp"]
