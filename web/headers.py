"""The headers every response carries, whatever made it: a page, data, a static file, a dump,
an error (the JSON body of an error echoes the request, so it matters there too).

- ``X-Content-Type-Options: nosniff``: a browser reads a body as the type it is served as, so
  a JSON error or a CSV file that holds a record's ``<script>`` is never run as a page.
- ``Content-Security-Policy``: only the site's own scripts run (``script-src 'self'``: the
  YASGUI editor is vendored under ``static/vendor``; no inline script, no event-handler
  attribute, no ``eval``); the pages talk to this site alone (``connect-src``, ``form-action``,
  the rest ``'self'``), embed no plugin, set no ``<base>``, and no other site may frame them
  (``frame-ancestors 'none'``: nothing here is meant to be embedded, so a click cannot be
  hijacked). A ``<script type="application/json">`` data block (the editor's settings, a
  benchmark's schema.org JSON-LD) is data, not script, and the policy has nothing to say of it.
- Styles are the site's own files as well, but for the editor's page: YASGUI writes
  ``<style>`` elements (its result table's column resizer, a cursor while a column is
  dragged) and ``style`` attributes into its tooltips, so the HTML page of ``/sparql`` alone
  allows inline styles (a style cannot run script, and the editor shows a record's text as
  text). A hash per style would break at the next release of the editor. Images may be
  ``data:`` URLs: YASGUI draws one.
- ``Referrer-Policy: same-origin``: following a link off the site (a paper, a leaderboard)
  tells that site nothing, not even this one's address (which may be a host inside a private
  network); within the site the full referrer stays, and so does the ``Origin`` header of the
  editor's own ``POST`` to the endpoint, which ``no-referrer`` would blank to ``null``.

One ``after_request`` hook sets them, after every other hook, on every response Flask sends:
error handlers' responses and ``send_file``'s included.
"""

from __future__ import annotations

from flask import Flask, Response, request

_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
INLINE_STYLES = frozenset({"sparql.endpoint"})
"""The endpoints whose HTML pages may use inline styles (YASGUI's): see the module's
docstring."""


def content_security_policy(inline_styles: bool = False) -> str:
    """The policy of a response; ``inline_styles`` for a page that needs them."""
    policy = dict(_POLICY)
    if inline_styles:
        policy["style-src"] += " 'unsafe-inline'"
    return "; ".join(f"{directive} {sources}" for directive, sources in policy.items())


CSP = content_security_policy()
EDITOR_CSP = content_security_policy(inline_styles=True)
HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}


def init_app(app: Flask) -> None:
    """Register the hook that sets the headers on every response."""
    app.after_request(secure)


def secure(response: Response) -> Response:
    """``response`` with the headers of the module's docstring."""
    response.headers.update(HEADERS)
    editor = request.endpoint in INLINE_STYLES and response.mimetype == "text/html"
    response.headers["Content-Security-Policy"] = EDITOR_CSP if editor else CSP
    return response


__all__ = ["CSP", "EDITOR_CSP", "HEADERS", "INLINE_STYLES", "content_security_policy",
           "init_app", "secure"]
