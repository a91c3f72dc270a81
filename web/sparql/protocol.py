"""Reading a request the way the W3C SPARQL 1.1 Protocol says it is sent.

Three ways to send a query: ``GET ?query=``, ``POST`` of an HTML form
(``application/x-www-form-urlencoded``, ``query=`` in the body), and ``POST`` of the query
itself (``application/sparql-query``). The dataset is ``default-graph-uri`` and
``named-graph-uri`` (in the URL, or in the form body). Each way of getting it wrong is
refused with a 4xx that says what was wrong: two ``query`` parameters, a body in another
media type, a parameter or a body that is not UTF-8 (decided on the bytes, the same way for
the URL and a form: ``web.params``), a ``default-graph-uri`` or ``named-graph-uri`` that is
not an absolute IRI; and every update (``update=``, a ``application/sparql-update`` body),
since this endpoint is read-only.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyoxigraph as ox
from flask import request
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import UnsupportedMediaType

from graph.errors import BenchgraphError, ErrorKind
from graph.store.base import QueryDataset
from web.params import form_pairs

FORM = "application/x-www-form-urlencoded"
QUERY = "application/sparql-query"
UPDATE = "application/sparql-update"
READ_ONLY = ("SPARQL Update is not accepted: this endpoint is read-only (send SELECT, ASK, "
             "CONSTRUCT or DESCRIBE as 'query')")


@dataclass(frozen=True)
class ProtocolRequest:
    """What a request to the endpoint asks: a query (None: no query at all) over a dataset
    (None: the store's own)."""

    query: str | None
    dataset: QueryDataset | None
    format: str | None
    """A ``format`` parameter, for links that cannot set ``Accept``."""


def read_request() -> ProtocolRequest:
    """The request as the protocol reads it; BenchgraphError (400) or 415 when it breaks it."""
    parameters = MultiDict(request.args)
    if request.method == "POST":
        body = _post_parameters()
        if body is None:  # the query itself is the body
            if "query" in parameters:
                raise _bad("give the query once: in the body or as 'query', not both")
            parameters.add("query", _utf8(request.get_data(), "'query' (the request's body)"))
        else:
            parameters.update(body)
    if "update" in parameters:
        raise BenchgraphError(READ_ONLY, ErrorKind.QUERY)
    queries = parameters.getlist("query")
    if len(queries) > 1:
        raise _bad(f"'query' is given {len(queries)} times: send one query per request")
    default_graphs = _graph_iris(parameters, "default-graph-uri")
    named_graphs = _graph_iris(parameters, "named-graph-uri")
    dataset = None
    if default_graphs or named_graphs:
        dataset = QueryDataset(tuple(default_graphs), tuple(named_graphs))
    return ProtocolRequest(queries[0] if queries else None, dataset, parameters.get("format"))


def _post_parameters() -> MultiDict[str, str] | None:
    """The parameters in a form body; None when the body is the query itself."""
    mimetype = request.mimetype
    charset = request.mimetype_params.get("charset")
    if charset is not None and charset.lower().replace("-", "") != "utf8":
        raise _bad(f"the body is in {charset}; the protocol's bodies are UTF-8")
    if mimetype == FORM:
        return MultiDict(form_pairs(request.get_data()))
    if mimetype == QUERY:
        return None
    if mimetype == UPDATE:
        raise BenchgraphError(READ_ONLY, ErrorKind.QUERY)
    if not mimetype:
        raise _bad(f"a POST needs a Content-Type: {FORM} (query=...) or {QUERY} (the query "
                   "itself)")
    raise UnsupportedMediaType(f"a POST body in {mimetype} is not a SPARQL request: send {FORM} "
                               f"or {QUERY}")


def _utf8(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _bad(f"{what} is not UTF-8 (byte {error.start})") from None


def _graph_iris(parameters: MultiDict[str, str], name: str) -> list[str]:
    """The graphs a dataset parameter names: each an absolute IRI, or a 400 naming it."""
    iris = parameters.getlist(name)
    for iri in iris:
        try:
            ox.NamedNode(iri)
        except ValueError:
            raise _bad(f"{name} {iri[:80]!r} is not an absolute IRI") from None
    return iris


def _bad(message: str) -> BenchgraphError:
    return BenchgraphError(message, ErrorKind.USAGE)


__all__ = ["ProtocolRequest", "read_request"]
