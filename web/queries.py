"""``/queries``: the named queries as pages (a form for the parameters, the query, its rows)
and as data (``.json``, ``.csv``, ``.tsv``, ``.xml``; ``.ttl``, ``.nt``, ``.jsonld``, ``.rdf``
for CONSTRUCT), by suffix or ``Accept``. The parameters are in the URL, so every result is a
permalink; a bad one is a 400 with the reason."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from graph.export.formats import Format
from graph.settings import Settings
from graph.sparql.named import find_named_query, load_named_queries
from graph.sparql.parameters import bind_parameters
from graph.store.kinds import limits_from
from web.errors import wants_html
from web.links import cell, listed
from web.negotiation import choose, content_type, formats_for, suffix_of, write
from web.sparql import TRUNCATED_HEADER
from web.stores import get_store

bp = Blueprint("queries", __name__)


@bp.route("/queries")
def listing() -> str:
    return render_template("queries/list.html", queries=load_named_queries().values())


@bp.route("/queries/<name>")
def query(name: str) -> Response:
    stem, dot, wanted = name.partition(".")
    named = find_named_query(stem)
    if named is None:
        abort(404, f"there is no named query {stem!r}; see /queries")
    store = get_store()
    values = {key: value for key, value in request.args.items() if key != "format" and value}
    as_data = bool(dot or request.args.get("format") or not wants_html())
    missing = [p.name for p in named.parameters if p.required and p.name not in values]
    settings: Settings = current_app.config["BENCHGRAPH_SETTINGS"]
    if missing and not as_data:  # a person arriving at the page: the form first
        return Response(render_template(
            "queries/query.html", query=named, values=values, result=None, missing=missing,
            editor=_editor_link(named.text), formats=(), row_limit=settings.row_limit,
        ), mimetype="text/html")
    bindings = bind_parameters(named, values, store.base)
    result = store.query(named.text, bindings=bindings, limits=limits_from(settings))
    if as_data:
        fmt = choose(formats_for(result), wanted or request.args.get("format"))
        response = Response(write(result, fmt, store.base), content_type=content_type(fmt))
    else:
        response = Response(render_template(
            "queries/query.html", query=named, values=values, result=result,
            cell=lambda term: cell(term, store.base),
            listed=lambda term: listed(term, store.base),
            editor=_editor_link(named.text), missing=(),
            formats=_as_data(named.name, formats_for(result), values),
            row_limit=settings.row_limit,
        ), mimetype="text/html")
    response.vary.add("Accept")
    if result.truncated:
        response.headers[TRUNCATED_HEADER] = str(settings.row_limit)
    return response

def _as_data(name: str, formats: tuple[Format, ...],
             values: dict[str, str]) -> list[tuple[Format, str, str]]:
    """Each format of the answer, what its link is called, and the link (the same values)."""
    query = f"?{urlencode(values)}" if values else ""
    return [(fmt, suffix_of(fmt), url_for("queries.query", name=f"{name}.{suffix_of(fmt)}") + query)
            for fmt in formats]


def _editor_link(text: str) -> str:
    """The editor, with ``text`` open in a tab of its own."""
    return url_for("sparql.endpoint") + "#" + urlencode({"query": text})


__all__ = ["bp"]
