"""``/results``: every result of the graph, browsed as the benchmarks are (``web.browse``):
facets, a sort, pages; ``.csv`` and ``.json`` (or ``Accept``) of the same view.

The view is in the URL (``web.listing``: ``?benchmark=benchmark/gsm8k&ran_by=-``, a sort of
``web.results.query.SORTS``, ``page``, ``size``, ``more``), with this list's facets
(``web.results.facets``). The key ``-`` chooses the results that state no value of a facet,
shown as "not stated (N)" wherever some do.

A row is a claim as its source makes it (DESIGN.md, "Results and models"): the benchmark,
the model, the metric and subset, the settings ("not stated" where none is: such a result is
never ranked with others), the score as published with its unit and standard error, who ran
it and when ("not stated" where the source does not say), and where it was read (the
package and file). ``.json`` is the page as shown (its rows, the total, every facet's
counts, the links to the pages before and after), in the shape of ``/benchmarks.json``;
``.csv`` is every row of the view, in its order (the facets and the page do not apply to a
table file), streamed a chunk of results at a time.

Everything comes from SPARQL on the store, every chosen value bound as a term
(``web.results.query``): the view's results (ordered here), what the page shows of them, the
facet counts (asked beside the results, in a thread of the request, so a page takes about
the time of the longer of the two), and the labels of the nodes shown (``web.labels``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pyoxigraph as ox
from flask import Blueprint, Response, current_app, jsonify, render_template

from graph.search import FacetCount, FacetCounts, ValueRef
from graph.search.facets import NOT_STATED
from graph.settings import Settings
from graph.store.base import Limits, Store
from graph.store.kinds import limits_from
from web.data_view import DataView
from web.labels import Labels, fetch_labels
from web.links import Cell, cell, iri_href
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
from web.results.facets import (
    CATALOG_RECORD,
    FACET_NAMES,
    FACETS,
    ResultFacet,
    Selection,
    check_selection,
    iri_of,
    node_of,
    value_key,
    value_label,
)
from web.results.query import (
    DETAIL_CHUNK,
    SORTS,
    ResultRow,
    counts,
    details,
    nodes_of,
    ordered,
)
from web.stores import get_store

bp = Blueprint("results", __name__)

SHAPE = ListShape("results.listing", FACET_NAMES, tuple(SORTS), page_size=50, max_size=200)
FACET_SIZE = 10
"""Values a facet shows (the most frequent; the chosen ones always) until ``more`` asks for
every one."""
_CSV_COLUMNS = ("result", "benchmark", "benchmark_label", "model", "model_label", "metric",
                "subset", "settings", "score", "unit", "normalised_score", "standard_error",
                "ci_low", "ci_high", "ci_level", "samples_scored", "ran_by", "date",
                "date_stated_as", "source", "package", "stated_in", "reported_as", "harness",
                "harness_version", "source_table")


@bp.route("/results")
@bp.route("/results.<suffix>")
def listing(suffix: str | None = None) -> Response:
    asked = DataView(OFFERS, suffix)
    view = read_view(SHAPE)
    check_selection(view.selection)
    store = get_store()
    limits = _limits()
    if asked.form is TABLE:
        every = ordered(store, view.selection, view.sort, limits)
        return asked.respond(data=lambda offer: table_response(_csv(store, every),
                                                               "results.csv"),
                             alternates=view.alternates())
    # The counts do not wait for the rows: two queries at once, a page in about the time of
    # one. The store's query processes are started first, from this thread alone, as a
    # server starts them before its threads (a zygote forked beside a running thread inherits
    # its locks: graph.store.process.zygote); once started, this costs a lock.
    store.prepare()
    with ThreadPoolExecutor(max_workers=1) as beside:
        counting = beside.submit(counts, store, view.selection, limits)
        results = ordered(store, view.selection, view.sort, limits)
        paging = Paging.of(view.page, len(results), view.size)
        view = replace(view, page=paging.page)
        rows = details(store, results[paging.window(view.size)])
        counted = counting.result()
    labels = fetch_labels(store, {iri for row in rows for iri in row.nodes()}
                          | nodes_of(counted) | _chosen_nodes(view.selection, store.base))
    facets = _facets(counted, view, labels, store.base)
    forms = view.alternates()
    return asked.respond(lambda: render_template(
        "results/list.html", rows=rows, total=len(results), facet_counts=facets, view=view,
        sorts=SORTS, paging=paging, chips=chips(facets, view),
        node=_node_cells(rows, labels, store.base).__getitem__,
        href=lambda iri: iri_href(iri, store.base), alternates=forms,
    ), lambda offer: jsonify(_json(rows, facets, view, paging, labels, store.base)), forms)


def _limits() -> Limits:
    """The settings' limits, but every row: the view's results, one IRI each, are its total
    and its pages, so none may be cut (the time limit still holds)."""
    settings: Settings = current_app.config["BENCHGRAPH_SETTINGS"]
    return replace(limits_from(settings), rows=None)


def _chosen_nodes(selection: Selection, base: str) -> set[str]:
    """The IRIs of the chosen values, to be labelled even where no result has them."""
    return {node.value for keys in selection.values() for key in keys
            if (node := node_of(key, base)) is not None}


def _node_cells(rows: Iterable[ResultRow], labels: Labels, base: str) -> dict[str, Cell]:
    """The nodes the rows show, each once, as labelled links (a page names few benchmarks,
    packages and roles many times)."""
    return {iri: cell(ox.NamedNode(iri), base, label=labels.text(iri))
            for row in rows for iri in row.nodes()}


def _facets(counted: dict[str, list[tuple[ox.NamedNode | ox.Literal | None, int]]],
            view: View, labels: Labels, base: str) -> tuple[FacetCounts, ...]:
    """Each facet's values under the other facets' choices: the most frequent first (then by
    label), the chosen ones always, "not stated" apart."""
    return tuple(_facet(facet, counted[facet.name], view, labels, base) for facet in FACETS)


def _facet(facet: ResultFacet, values: list[tuple[ox.NamedNode | ox.Literal | None, int]],
           view: View, labels: Labels, base: str) -> FacetCounts:
    picked = view.selection.get(facet.name, ())

    def ref(key: str, term: str) -> ValueRef:
        label = value_label(facet, key) or labels.get(iri_of(key, base))
        return ValueRef(facet.name, key, label or key, term)

    unstated = next((count for term, count in values if term is None), 0)
    stated = [FacetCount(ref(key, str(term)), count, key in picked)
              for term, count in values if term is not None
              for key in (value_key(facet, term, base),)]
    ranked = sorted(stated, key=lambda c: (-c.count, c.value.label.casefold(), c.value.key))
    every = facet.name in view.more
    shown = [count for position, count in enumerate(ranked)
             if every or position < FACET_SIZE or count.selected]
    held = {count.value.key for count in stated} | {NOT_STATED}
    unknown = [FacetCount(ref(key, ""), 0, True) for key in picked if key not in held]
    return FacetCounts(facet.name, facet.title, (*shown, *unknown),
                       hidden=len(ranked) - len(shown),
                       not_stated=FacetCount(ref(NOT_STATED, ""), unstated, NOT_STATED in picked))


def _json(rows: list[ResultRow], facets: tuple[FacetCounts, ...], view: View,
          paging: Paging, labels: Labels, base: str) -> dict[str, Any]:
    return {
        "total": paging.total, "page": paging.page, "size": view.size, "sort": view.sort,
        "selection": view.selection,
        "rows": [_row_json(row, labels, base) for row in rows],
        "facets": {counts.name: facet_json(counts) for counts in facets},
    } | page_links(view, paging)


def _node_json(iri: str | None, labels: Labels, base: str) -> dict[str, Any] | None:
    if iri is None:
        return None
    return {"iri": iri, "label": labels.text(iri), "href": iri_href(iri, base)}


def _row_json(row: ResultRow, labels: Labels, base: str) -> dict[str, Any]:
    """A row as the JSON gives it: nodes with their label and page, values as published
    (lexical forms, so no digit is lost), None where the source states nothing."""
    return {
        "iri": row.iri, "href": iri_href(row.iri, base),
        "benchmark": _node_json(row.benchmark, labels, base),
        "model": _node_json(row.model, labels, base),
        "metric": row.metric, "subset": row.subset, "settings": row.settings,
        "score": row.score, "unit": row.unit, "normalised_score": row.normalised,
        "standard_error": row.stderr, "ci_low": row.ci_low, "ci_high": row.ci_high,
        "ci_level": row.ci_level, "samples_scored": row.samples,
        "ran_by": _node_json(row.ran_by, labels, base),
        "date": row.date, "date_stated_as": row.date_stated_as,
        "source": _source(row, labels), "package": _node_json(row.package, labels, base),
        "stated_in": row.stated_in, "reported_as": row.reported_as,
        "harness": _node_json(row.harness, labels, base),
        "harness_version": row.harness_version, "source_table": row.table,
    }


def _source(row: ResultRow, labels: Labels) -> str:
    """Where the result was read: its package's label, or a catalog record."""
    return labels.text(row.package) if row.package else CATALOG_RECORD


def _csv(store: Store, results: list[str]) -> Iterator[str]:
    """The rows as CSV, a chunk of results at a time."""

    def rows() -> Iterator[tuple[object, ...]]:
        for start in range(0, len(results), DETAIL_CHUNK):
            chunk = details(store, results[start:start + DETAIL_CHUNK])
            labels = fetch_labels(store, {iri for row in chunk for iri in row.nodes()})
            for row in chunk:
                yield (row.iri, row.benchmark, labels.text(row.benchmark), row.model,
                       labels.text(row.model), row.metric, row.subset, row.settings,
                       row.score, row.unit, row.normalised, row.stderr, row.ci_low,
                       row.ci_high, row.ci_level, row.samples,
                       labels.text(row.ran_by) if row.ran_by else None, row.date,
                       row.date_stated_as, _source(row, labels), row.package, row.stated_in,
                       row.reported_as, row.harness, row.harness_version, row.table)

    return csv_lines(_CSV_COLUMNS, rows())


__all__ = ["FACET_SIZE", "SHAPE", "bp"]
