"""One error shape for the whole app.

A ``BenchgraphError`` (the user's doing: a bad query, parameter or request, a limit reached)
becomes its kind's HTTP status, with ``Retry-After`` when the error gives one; an HTTP error
Flask raises itself (404, 405, 413) keeps its own. A browser gets an HTML error page, any
other client a JSON body ``{"error": {"status", "title", "message"}}``. Anything else is a
bug: a 500, logged.
"""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from graph.errors import BenchgraphError

_TITLES = {400: "Bad request", 403: "Forbidden", 404: "Not found", 405: "Method not allowed",
           406: "Not acceptable", 413: "Request too large", 415: "Unsupported media type",
           500: "Internal error", 503: "Service unavailable", 504: "Gateway timeout"}


def wants_html() -> bool:
    """Whether the client is a browser that prefers a page to data."""
    accept = request.accept_mimetypes
    best = accept.best_match(["text/html", "application/json"])
    return best == "text/html" and accept["text/html"] > accept["application/json"]


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    """The error in the shape the client reads."""
    title = _TITLES.get(status, "Error")
    if wants_html():
        body = render_template("errors/error.html", status=status, title=title, message=message)
        response = Response(body, status=status, mimetype="text/html")
    else:
        response = jsonify(error={"status": status, "title": title, "message": message})
        response.status_code = status
    response.headers.update(headers or {})
    return response


def init_app(app: Flask) -> None:
    """Register the one handler for user errors and HTTP errors."""

    @app.errorhandler(BenchgraphError)
    def user_error(error: BenchgraphError) -> Response:
        retry = error.retry_after
        return error_response(error.kind.http_status, error.message,
                              None if retry is None else {"Retry-After": str(retry)})

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        if isinstance(error, InternalServerError):
            return error_response(500, "Something went wrong on the server; it has been logged.")
        headers = dict(error.get_headers())
        headers.pop("Content-Type", None)
        return error_response(error.code or 500, error.description or "", headers)


__all__ = ["error_response", "init_app", "wants_html"]
