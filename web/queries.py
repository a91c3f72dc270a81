"""``/queries``: the named queries as pages (a form for the parameters, the query, its rows)
and as data (``.json``, ``.csv``, ``.tsv``, ``.xml``; ``.ttl``, ``.nt``, ``.jsonld``, ``.rdf``
for CONSTRUCT), by suffix or ``Accept``. The parameters are in the URL, so every result is a
permalink; a bad one is a 400 with the reason."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from graph.dataset.oxigraph import to_oxigraph
from graph.settings import Settings
from graph.sparql.engine import bind_parameters
from graph.sparql.named import find_named_query, load_named_queries
from graph.store.base import BindingTerm
from graph.store.kinds import limits_from
from web.errors import wants_html
from web.links import cell
from web.negotiation import choose, content_type, formats_for, write
from web.sparql import TRUNCATED_HEADER
from web.stores import get_store

bp = Blueprint("queries", __name__)


@bp.route("/queries")
def listing() -> str:
    return render_template("queries/list.html", queries=load_named_queries().values())


@bp.route("/queries/<name>")
def query(name: str) -> Response:
    stem, dot, suffix = name.partition(".")
    named = find_named_query(stem)
    if named is None:
        abort(404, f"there is no named query {stem!r}; see /queries")
    store = get_store()
    values = {key: value for key, value in request.args.items() if key != "format" and value}
    bindings = {key: _ox(term) for key, term in bind_parameters(named, values, store.base).items()}
    settings: Settings = current_app.config["BENCHGRAPH_SETTINGS"]
    result = store.query(named.text, bindings=bindings, limits=limits_from(settings))
    as_data = dot or request.args.get("format") or not wants_html()
    if as_data:
        fmt = choose(formats_for(result), suffix or request.args.get("format"))
        response = Response(write(result, fmt, store.base), content_type=content_type(fmt))
    else:
        response = Response(render_template(
            "queries/query.html", query=named, values=values, result=result,
            cell=lambda term: cell(term, store.base),
            editor=url_for("sparql.endpoint") + "#" + urlencode({"query": named.text}),
            formats=formats_for(result), row_limit=settings.row_limit,
        ), mimetype="text/html")
    response.vary.add("Accept")
    if result.truncated:
        response.headers[TRUNCATED_HEADER] = str(settings.row_limit)
    return response


def _ox(term: object) -> BindingTerm:
    converted = to_oxigraph(term)  # type: ignore[arg-type]
    return converted



__all__ = ["bp"]
