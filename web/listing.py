"""A faceted list as its URL states it: what ``/benchmarks`` (``web.browse``) and ``/results``
(``web.results``) share.

The view is in the URL, so every view is a permalink: one parameter per facet, repeated for
several values (OR within a facet, AND across), ``sort``, ``page``, ``size``, and
``more=FACET`` to list every value of a facet. The key ``-`` (``NOT_STATED``) chooses what
states no value of a facet. A list is described once (``ListShape``); its ``View`` writes the
parameters in one order, so that one view has one URL.

Beside the view: the chips that take a chosen value away, the JSON of a facet's counts, the
view's other forms (its JSON and its CSV, ``OFFERS``) and the page links to them, and CSV
written a line at a time (a list's table file is streamed, never held whole).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Response, request, url_for

from graph.errors import BenchgraphError, ErrorKind
from graph.search import FacetCount, FacetCounts
from web.data_view import Alternate, alternates
from web.negotiation import JSON, TABLE
from web.params import MAX_PAGE, one_of, whole_number

OFFERS = (JSON, TABLE)
"""What a list answers in besides its page: the page as JSON, every row as CSV."""


@dataclass(frozen=True)
class Paging:
    """Which slice of a long list a page shows."""

    page: int
    pages: int
    total: int

    @classmethod
    def of(cls, page: int, total: int, size: int) -> Paging:
        pages = max(1, -(-total // size))
        return cls(min(max(page, 1), pages), pages, total)

    def window(self, size: int) -> slice:
        return slice((self.page - 1) * size, self.page * size)


@dataclass(frozen=True)
class ListShape:
    """What a faceted list offers: its endpoint, its facets (in the URL's order), its sorts
    and the size of its pages."""

    endpoint: str
    facets: tuple[str, ...]
    sorts: tuple[str, ...]
    page_size: int
    max_size: int

    @property
    def default_sort(self) -> str:
        return self.sorts[0]


@dataclass(frozen=True)
class View:
    """What the URL asks to see of a list."""

    shape: ListShape
    selection: dict[str, tuple[str, ...]]
    sort: str
    page: int
    size: int
    more: frozenset[str]

    def params(self, **change: Any) -> dict[str, Any]:
        """This view's URL parameters, with ``change`` applied (a value of None drops one),
        always in one order: facets, ``sort``, ``page``, ``size``, ``more``; a default is
        left out."""
        params: dict[str, Any] = {name: list(self.selection.get(name, ()))
                                  for name in self.shape.facets}
        params |= {"sort": self.sort, "page": self.page, "size": self.size,
                   "more": sorted(self.more)}
        params |= change
        defaults = {"sort": self.shape.default_sort, "page": 1, "size": self.shape.page_size}
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

    def cleared(self) -> dict[str, Any]:
        """The parameters with no value chosen."""
        return self.params(page=None, **{name: None for name in self.selection})

    def href(self, suffix: str | None = None, **change: Any) -> str:
        """This view's address (as ``.json`` or ``.csv`` with ``suffix``), ``change`` applied."""
        return url_for(self.shape.endpoint, suffix=suffix, **self.params(**change))

    def page_href(self, number: int, suffix: str | None = None) -> str:
        return self.href(suffix, page=number)

    def alternates(self) -> tuple[Alternate, ...]:
        """This view as JSON and as CSV."""
        return alternates(OFFERS, self.href)


def read_view(shape: ListShape) -> View:
    """The view of a ``shape`` list the request's parameters name; BenchgraphError (a 400)
    for a bad one."""
    args = request.args
    selection = {name: tuple(dict.fromkeys(v for v in args.getlist(name) if v))
                 for name in shape.facets}
    more = frozenset(v for v in args.getlist("more") if v)
    unknown = more - set(shape.facets)
    if unknown:
        raise BenchgraphError(f"more must name a facet ({', '.join(shape.facets)}), not "
                              f"{min(unknown)[:40]!r}", ErrorKind.USAGE)
    return View(shape, {k: v for k, v in selection.items() if v},
                one_of("sort", shape.sorts, shape.default_sort), whole_number("page", MAX_PAGE),
                whole_number("size", shape.max_size, default=shape.page_size), more)


def chips(facets: Iterable[FacetCounts], view: View) -> list[tuple[str, str, dict[str, Any]]]:
    """Each value chosen: its facet's title, its label, and the view without it."""
    return [(counts.title, count.value.label, view.toggled(counts.name, count.value.key))
            for counts in facets for count in (*counts.values, counts.not_stated)
            if count.selected]


def facet_json(counts: FacetCounts) -> dict[str, Any]:
    """A facet's counts as the lists' JSON gives them: its values, and "not stated" apart."""
    return {"title": counts.title, "hidden": counts.hidden,
            "values": [_count_json(count) for count in counts.values],
            "not_stated": _count_json(counts.not_stated)}


def _count_json(count: FacetCount) -> dict[str, Any]:
    return {"key": count.value.key, "label": count.value.label, "count": count.count,
            "selected": count.selected}


def page_links(view: View, paging: Paging) -> dict[str, str | None]:
    """The JSON's links to the pages before and after this one."""
    return {"previous": view.page_href(paging.page - 1, "json") if paging.page > 1 else None,
            "next": view.page_href(paging.page + 1, "json") if paging.page < paging.pages
            else None}


def csv_lines(header: Iterable[str], rows: Iterable[Iterable[object]]) -> Iterator[str]:
    """The header and rows as CSV (RFC 4180, CRLF line ends, None as empty), a line at a
    time."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values: Iterable[object]) -> str:
        writer.writerow(["" if value is None else value for value in values])
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    yield line(header)
    for row in rows:
        yield line(row)


def table_response(lines: Iterator[str], filename: str) -> Response:
    """A list's CSV, streamed, named ``filename`` for a browser that saves it."""
    response = Response(lines, content_type=TABLE.content_type)
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


__all__ = ["OFFERS", "ListShape", "Paging", "View", "chips", "csv_lines", "facet_json",
           "page_links", "read_view", "table_response"]
