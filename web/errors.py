"""One error shape for the whole app.

A ``BenchgraphError`` (the user's doing: a bad query, parameter or request, a limit reached)
becomes its kind's HTTP status, with ``Retry-After`` when the error gives one; an HTTP error
Flask raises itself (404, 405, 413) keeps its own. A browser gets an HTML error page, any
other client a JSON body ``{"error": {"status", "title", "message"}}``. Anything else is a
bug: a 500, logged. A 406 (``web.data_view``: an ``Accept`` that takes nothing the address
gives) varies by ``Accept``.

What a client reads is about its request, never about the server's insides. An error of the
kinds that speak of the server's own things, ``STORE`` (a store folder, its files, the engine
behind a ``sparql:`` store) and ``INPUT`` (the files the server reads: named queries, shapes),
names folders, files and addresses in its message, as the command line should; in a response
that message goes to the server's log, and the client is told which of its requests could not
be answered and that the log says why. ``STORE`` stays a 503; ``INPUT`` in a request is a file
of the server's that cannot be used, which no client caused and no wait mends: a 500. A store
still making what was asked for (``StorePreparing``) is the one store error whose words are
for the client: a 503 with ``Retry-After``, as it says.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from graph.errors import BenchgraphError, ErrorKind
from graph.store.errors import StorePreparing
from web.negotiation import is_browser

_LOG = logging.getLogger(__name__)

_TITLES = {400: "Bad request", 403: "Forbidden", 404: "Not found", 405: "Method not allowed",
           406: "Not acceptable", 413: "Request too large", 415: "Unsupported media type",
           500: "Internal error", 503: "Service unavailable", 504: "Gateway timeout"}


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """The error in the shape the client reads."""
    title = _TITLES.get(status, "Error")
    if is_browser():
        body = render_template("errors/error.html", status=status, title=title, message=message)
        response = Response(body, status=status, mimetype="text/html")
    else:
        response = jsonify(error={"status": status, "title": title, "message": message})
        response.status_code = status
    response.headers.update(headers or {})
    if status == 406:  # about the Accept header: another one gets another answer
        response.vary.add("Accept")
    return response


def client_view(error: BenchgraphError) -> tuple[int, str]:
    """The status and the message a client gets for ``error`` (see the module's docstring);
    the message of an error about the server's own things is logged instead."""
    if error.kind not in (ErrorKind.STORE, ErrorKind.INPUT) or isinstance(error, StorePreparing):
        return error.kind.http_status, error.message
    _LOG.error("%s %s: %s", request.method, request.path, error.message)
    if error.kind is ErrorKind.STORE:
        return 503, (f"the store behind this server could not answer {request.path}; the "
                     "server's log says why")
    return 500, (f"a file of this server's could not be used to answer {request.path}; the "
                 "server's log says which, and why")


def init_app(app: Flask) -> None:
    """Register the one handler for user errors and HTTP errors."""

    @app.errorhandler(BenchgraphError)
    def user_error(error: BenchgraphError) -> Response:
        retry = error.retry_after
        status, message = client_view(error)
        return error_response(status, message,
                              None if retry is None else {"Retry-After": str(retry)})

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        if isinstance(error, InternalServerError):
            return error_response(500, "Something went wrong on the server; it has been logged.")
        headers = dict(error.get_headers())
        headers.pop("Content-Type", None)
        return error_response(error.code or 500, error.description or "", headers)


__all__ = ["client_view", "error_response", "init_app"]
