"""``/queries``: the named queries as pages (a form for the parameters, the query, its rows)
and as data (``.json``, ``.csv``, ``.tsv``, ``.xml``; ``.ttl``, ``.nt``, ``.jsonld``, ``.rdf``
for CONSTRUCT), by suffix or ``Accept``. The parameters are in the URL, so every result is a
permalink; a bad one is a 400 with the reason.

A page shows what the data say, a little more readably: a value that names a node of its row
(``#+ link:``, a benchmark's id beside its IRI) links to the node's page in place of the IRI's
column; a list of IRIs (``#+ links:``) is one link an item; and where the query counts what it
could not judge (``NAME.unjudged.rq``), the page says how many ("36 of 37 MedHELM benchmarks
state no access level"). Its "open in the editor" link opens the query as it ran: the same
text with the same values bound by the same ``VALUES`` block (``admit_bound``), so the editor
gives the page's rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from graph.export.formats import GRAPH_FORMS
from graph.settings import Settings
from graph.sparql.admission import admit, admit_bound
from graph.sparql.named import NamedQuery, find_named_query, load_named_queries
from graph.sparql.parameters import BoundTerm, bind_parameters
from graph.sparql.result import QueryResult
from graph.sparql.unjudged import count_unjudged
from graph.store.kinds import limits_from
from web.data_view import DataView, alternates
from web.links import Cell, cell, listed, naming
from web.negotiation import GRAPH_OFFERS, RESULT_OFFERS, Offer, write
from web.sparql import TRUNCATED_HEADER
from web.stores import get_store

bp = Blueprint("queries", __name__)


@dataclass(frozen=True)
class Column:
    """One column of a named query's table as its page shows it."""

    name: str
    at: int
    """Where the column's value is in a row."""
    node_at: int | None = None
    """Where the node the value names is in the row (``#+ link:``), if it names one."""
    listed: bool = False
    """The value is a list of IRIs (``#+ links:``), shown one link an item."""

    def cells(self, row: Sequence[object], base: str) -> tuple[Cell, ...]:
        term = row[self.at]
        if self.listed:
            return listed(term, base)
        if self.node_at is not None:
            return (naming(term, row[self.node_at], base),)
        return (cell(term, base),)


def shown_columns(query: NamedQuery, variables: Sequence[str]) -> tuple[Column, ...]:
    """The columns of ``query``'s answer that its page shows: every variable in order but
    those holding the node another column names, which that column links instead."""
    at = {name: index for index, name in enumerate(variables)}
    nodes = {link.column: at[link.node] for link in query.node_links
             if link.column in at and link.node in at}
    hidden = set(nodes.values())
    return tuple(Column(name, index, nodes.get(name), name in query.links)
                 for index, name in enumerate(variables) if index not in hidden)


@bp.route("/queries")
def listing() -> Response:
    return DataView().respond(lambda: render_template("queries/list.html",
                                                      queries=load_named_queries().values()))


@bp.route("/queries/<name>")
def query(name: str) -> Response:
    stem, dot, wanted = name.partition(".")
    named = find_named_query(stem)
    if named is None:
        abort(404, f"there is no named query {stem!r}; see /queries")
    store = get_store()
    settings: Settings = current_app.config["BENCHGRAPH_SETTINGS"]
    values = {key: value for key, value in request.args.items() if key != "format" and value}
    form = admit(named.text, named.name, settings.max_query_bytes).form
    view = DataView(GRAPH_OFFERS if form in GRAPH_FORMS else RESULT_OFFERS,
                    wanted if dot else None)
    missing = [p.name for p in named.parameters if p.required and p.name not in values]
    if missing and view.form is None:  # a person arriving at the page: the form first
        return view.respond(lambda: render_template(
            "queries/query.html", query=named, values=values, result=None, missing=missing,
            editor=_editor_link(named, {}, settings), row_limit=settings.row_limit))
    bindings = bind_parameters(named, values, store.base)
    limits = limits_from(settings)
    result = store.query(named.text, bindings=bindings, limits=limits)
    query = f"?{urlencode(values)}" if values else ""
    forms = alternates(view.offers, lambda suffix: url_for(
        "queries.query", name=f"{named.name}.{suffix}") + query)
    response = view.respond(lambda: render_template(
        "queries/query.html", query=named, values=values, result=result,
        cell=lambda term: cell(term, store.base), base=store.base,
        columns=shown_columns(named, result.variables),
        unjudged=count_unjudged(named, values, store, limits),
        editor=_editor_link(named, bindings, settings), missing=(), alternates=forms,
        row_limit=settings.row_limit,
    ), lambda offer: _write(result, offer, store.base), forms)
    if result.truncated:
        response.headers[TRUNCATED_HEADER] = str(settings.row_limit)
    return response


def _write(result: QueryResult, offer: Offer, base: str) -> bytes:
    assert offer.format is not None  # a query's every offer is one of the registry's formats
    return write(result, offer.format, base)


def _editor_link(named: NamedQuery, bindings: Mapping[str, BoundTerm], settings: Settings) -> str:
    """The editor, with the query open in a tab of its own as it runs: its values bound by a
    ``VALUES`` block, as every store binds them (``graph.sparql.admission.admit_bound``)."""
    text = admit_bound(named.text, bindings, named.name, settings.max_query_bytes).text
    return url_for("sparql.endpoint") + "#" + urlencode({"query": text})


__all__ = ["Column", "bp", "shown_columns"]
