"""``/benchmarks``: the benchmark list with facets, sorts and pages; ``.csv`` and ``.json``.

The view is in the URL (``web.listing``: ``?tag=tag/radiology&tag=tag/summarization&access=
bench:Gated``, a sort of ``graph.search.SORTS``, ``page``, ``size``, ``more``). Values are
the keys the index gives (``graph.search.facets``); the store binds them as parameters,
never as query text. The key ``-`` (``NOT_STATED``) chooses the benchmarks that state no
value of a facet: each facet shows it as "not stated (N)" where some of the view's
benchmarks state none.

``.json`` is the page as shown (its rows, the total, every facet's counts, and the links to
the pages before and after), for clients that page; ``.csv`` is every row of the view, in
its order, for a spreadsheet (the facets and the page do not apply to a table file). Each
facet of the JSON has its ``values`` stated and, apart, ``not_stated``: the same key, label,
count and choice for its benchmarks that state none (a count of 0 when all do). The
counts and rows come from the index built with the store (``Artefacts.browse``): live SPARQL
took longer than a page may for the counts alone (perf/decisions/facets-from-the-index.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, jsonify, render_template

from graph.search import SORTS, BrowsePage, BrowseRequest, BrowseRow
from graph.search.facets import FACETS
from graph.store.base import Store
from web.data_view import DataView
from web.links import iri_href
from web.listing import (
    OFFERS,
    ListShape,
    Paging,
    View,
    chips,
    csv_lines,
    facet_json,
    page_links,
    read_view,
    table_response,
)
from web.negotiation import TABLE
from web.stores import get_store

bp = Blueprint("browse", __name__)

FACET_NAMES = tuple(facet.name for facet in FACETS)
SHAPE = ListShape("browse.listing", FACET_NAMES, tuple(SORTS), page_size=50, max_size=200)
_LISTED = tuple(name for name in FACET_NAMES if name != "catalogued")
"""The facets a row lists (``catalogued`` is a column of its own)."""
_CSV_COLUMNS = ("iri", "identifier", "label", "status", "released", "access", "suite",
                "harness", "category", "tag", "publisher", "catalogued", "results",
                "updated", "summary")


@bp.route("/benchmarks")
@bp.route("/benchmarks.<suffix>")
def listing(suffix: str | None = None) -> Response:
    asked = DataView(OFFERS, suffix)
    view = read_view(SHAPE)
    store = get_store()
    artefacts = store.artefacts()
    if asked.form is TABLE:
        every = artefacts.browse(BrowseRequest(view.selection, view.sort, limit=None,
                                               facet_size=0))
        return asked.respond(data=lambda offer: table_response(_csv(every.rows),
                                                               "benchmarks.csv"),
                             alternates=view.alternates())
    page = _page(store, view)
    paging = Paging.of(view.page, page.total, view.size)
    if paging.page != view.page:  # past the last page: the last one
        view = replace(view, page=paging.page)
        page = _page(store, view)
    forms = view.alternates()
    return asked.respond(lambda: render_template(
        "browse/list.html", page=page, view=view, sorts=SORTS, paging=paging,
        href=lambda iri: iri_href(iri, store.base), chips=chips(page.facets, view),
        alternates=forms,
    ), lambda offer: jsonify(_json(page, view, paging, store.base)), forms)


def _page(store: Store, view: View) -> BrowsePage:
    return store.artefacts().browse(BrowseRequest(view.selection, view.sort, limit=view.size,
                                      offset=(view.page - 1) * view.size, expanded=view.more))


def _json(page: BrowsePage, view: View, paging: Paging, base: str) -> dict[str, Any]:
    return {
        "total": page.total, "page": view.page, "size": view.size, "sort": view.sort,
        "selection": view.selection,
        "rows": [row.to_json(FACET_NAMES) | {"href": iri_href(row.iri, base)}
                 for row in page.rows],
        "facets": {counts.name: facet_json(counts) for counts in page.facets},
    } | page_links(view, paging)


def _csv(rows: tuple[BrowseRow, ...]) -> Iterator[str]:
    """The rows as CSV, a line at a time."""

    def values(row: BrowseRow) -> list[object]:
        listed = {name: "; ".join(v.label for v in row.of(name)) for name in _LISTED}
        return [row.iri, row.identifier, row.label, listed["status"], row.released,
                listed["access"], listed["suite"], listed["harness"], listed["category"],
                listed["tag"], listed["publisher"], "true" if row.catalogued else "false",
                row.results, row.updated, row.summary]

    return csv_lines(_CSV_COLUMNS, map(values, rows))


__all__ = ["FACET_NAMES", "SHAPE", "bp"]
