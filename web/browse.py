"""``/benchmarks``: the benchmark list with facets, sorts and pages; ``.csv`` and ``.json``.

The view is in the URL, so every view is a permalink: one parameter per facet, repeated for
several values (``?tag=tag/radiology&tag=tag/summarization&access=bench:Gated``: OR within
a facet, AND across), ``sort`` (``graph.search.browse.SORTS``), ``page`` and ``size``, and
``more=FACET`` to list every value of a facet. Values are the keys the index gives
(``graph.search.facets``); the store binds them as parameters, never as query text. The key
``-`` (``NOT_STATED``) chooses the benchmarks that state no value of a facet: each facet
shows it as "not stated (N)" where some of the view's benchmarks state none.

``.json`` is the page as shown (its rows, the total, every facet's counts, and the links to
the pages before and after), for clients that page; ``.csv`` is every row of the view, in
its order, for a spreadsheet (the facets and the page do not apply to a table file). Each
facet of the JSON has its ``values`` stated and, apart, ``not_stated``: the same key, label,
count and choice for its benchmarks that state none (a count of 0 when all do). The
counts and rows come from the index built with the store (``Store.browse``): live SPARQL
took 0.3-1.1 s for the counts alone at 10,000 records.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from graph.errors import BenchgraphError, ErrorKind
from graph.export.formats import CSV
from graph.search import SORTS, BrowsePage, BrowseRequest, BrowseRow, FacetCount, FacetCounts
from graph.search.facets import FACETS
from web.links import iri_href
from web.negotiation import JSON, TABLE, content_type, page_or_data
from web.params import MAX_PAGE, one_of, whole_number
from web.stores import get_store

bp = Blueprint("browse", __name__)

PAGE_SIZE = 50
MAX_SIZE = 200
FACET_NAMES = tuple(facet.name for facet in FACETS)
_LISTED = tuple(name for name in FACET_NAMES if name != "catalogued")
"""The facets a row lists (``catalogued`` is a column of its own)."""
_CSV_COLUMNS = ("iri", "identifier", "label", "status", "released", "access", "suite",
                "harness", "category", "tag", "publisher", "catalogued", "results",
                "updated", "summary")


@dataclass(frozen=True)
class View:
    """What the URL asks to see."""

    selection: dict[str, tuple[str, ...]]
    sort: str
    page: int
    size: int
    more: frozenset[str]

    def params(self, **change: Any) -> dict[str, Any]:
        """This view's URL parameters, with ``change`` applied (a value of None drops one),
        always in one order: facets, ``sort``, ``page``, ``size``, ``more``."""
        params: dict[str, Any] = {name: list(self.selection.get(name, ())) for name in FACET_NAMES}
        params |= {"sort": self.sort, "page": self.page, "size": self.size,
                   "more": sorted(self.more)}
        params |= change
        defaults = {"sort": "name", "page": 1, "size": PAGE_SIZE}
        return {name: value for name, value in params.items()
                if value not in (None, []) and defaults.get(name) != value}

    def toggled(self, facet: str, key: str) -> dict[str, Any]:
        """The parameters with ``key`` chosen in ``facet``, or no longer chosen; back to page 1."""
        keys = list(self.selection.get(facet, ()))
        keys = [k for k in keys if k != key] if key in keys else [*keys, key]
        return self.params(**{facet: keys, "page": None})


    def expanded(self, facet: str, every: bool) -> dict[str, Any]:
        """The parameters with every value of ``facet`` listed, or only the most frequent."""
        more = self.more | {facet} if every else self.more - {facet}
        return self.params(more=sorted(more))


def read_view() -> View:
    """The view the request's parameters name; BenchgraphError (a 400) for a bad one."""
    args = request.args
    selection = {name: tuple(dict.fromkeys(v for v in args.getlist(name) if v))
                 for name in FACET_NAMES}
    sort = one_of("sort", SORTS, "name")
    more = frozenset(v for v in args.getlist("more") if v)
    unknown = more - set(FACET_NAMES)
    if unknown:
        raise BenchgraphError(f"more must name a facet ({', '.join(FACET_NAMES)}), not "
                              f"{min(unknown)[:40]!r}", ErrorKind.USAGE)
    return View({k: v for k, v in selection.items() if v}, sort, whole_number("page", MAX_PAGE),
                whole_number("size", MAX_SIZE, default=PAGE_SIZE), more)


@bp.route("/benchmarks")
@bp.route("/benchmarks.<suffix>")
def listing(suffix: str | None = None) -> Response:
    fmt = page_or_data((JSON, TABLE), suffix)
    view = read_view()
    store = get_store()
    if fmt is TABLE:
        page = store.browse(BrowseRequest(view.selection, view.sort, limit=None, facet_size=0))
        response = Response(_csv(page.rows), content_type=content_type(CSV))
        response.headers["Content-Disposition"] = 'inline; filename="benchmarks.csv"'
    else:
        page = store.browse(BrowseRequest(view.selection, view.sort, limit=view.size,
                                          offset=(view.page - 1) * view.size,
                                          expanded=view.more))
        if fmt is JSON:
            response = jsonify(_json(page, view, store.base))
        else:
            response = Response(render_template(
                "browse/list.html", page=page, view=view, sorts=SORTS,
                pager=_pager(view, page.total), href=lambda iri: iri_href(iri, store.base),
                chips=_chips(page, view),
                clear={name: None for name in view.selection},
            ), mimetype="text/html")
    alternate = url_for("browse.listing", suffix="json", **view.params())
    response.vary.add("Accept")
    response.headers["Link"] = (f'<{alternate}>; rel="alternate"; type="application/json", '
                                f'<{url_for("browse.listing", suffix="csv", **view.params())}>'
                                '; rel="alternate"; type="text/csv"')
    return response


def _pager(view: View, total: int, suffix: str | None = None) -> dict[str, Any]:
    """The last page's number and the links to the pages before and after this one."""
    last = max(1, -(-total // view.size))

    def at(number: int) -> str:
        return url_for("browse.listing", suffix=suffix, **view.params(page=number))

    return {"last": last,
            "previous": at(view.page - 1) if view.page > 1 else None,
            "next": at(view.page + 1) if view.page < last else None}


def _chips(page: BrowsePage, view: View) -> list[tuple[str, str, dict[str, Any]]]:
    """Each value chosen: its facet's title, its label, and the view without it."""
    return [(counts.title, count.value.label, view.toggled(counts.name, count.value.key))
            for counts in page.facets for count in (*counts.values, counts.not_stated)
            if count.selected]


def _json(page: BrowsePage, view: View, base: str) -> dict[str, Any]:
    pager = _pager(view, page.total, suffix="json")
    return {
        "total": page.total, "page": view.page, "size": view.size, "sort": view.sort,
        "selection": view.selection,
        "rows": [row.to_json(FACET_NAMES) | {"href": iri_href(row.iri, base)}
                 for row in page.rows],
        "facets": {counts.name: _facet_json(counts) for counts in page.facets},
        "previous": pager["previous"], "next": pager["next"],
    }


def _facet_json(counts: FacetCounts) -> dict[str, Any]:
    return {"title": counts.title, "hidden": counts.hidden,
            "values": [_count_json(count) for count in counts.values],
            "not_stated": _count_json(counts.not_stated)}


def _count_json(count: FacetCount) -> dict[str, Any]:
    return {"key": count.value.key, "label": count.value.label, "count": count.count,
            "selected": count.selected}


def _csv(rows: tuple[BrowseRow, ...]) -> Iterator[str]:
    """The rows as CSV (RFC 4180, CRLF line ends), a line at a time."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values: list[object]) -> str:
        writer.writerow(values)
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    yield line(list(_CSV_COLUMNS))
    for row in rows:
        listed = {name: "; ".join(v.label for v in row.of(name)) for name in _LISTED}
        yield line([row.iri, row.identifier, row.label, listed["status"], row.released,
                    listed["access"], listed["suite"], listed["harness"], listed["category"],
                    listed["tag"], listed["publisher"], "true" if row.catalogued else "false",
                    row.results, row.updated, row.summary])


__all__ = ["FACET_NAMES", "PAGE_SIZE", "View", "bp", "read_view"]
