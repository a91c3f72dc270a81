"""Static files and the wire: a version in every static address, a year of cache life for it,
compressed text, and the site's icon.

- **Versioned addresses.** Every ``url_for('static', filename=...)`` gets ``?v=`` and the
  first ``VERSION_DIGITS`` hex digits of the SHA-256 of the file's bytes (a ``url_defaults``
  hook, so a template names a file as Flask's documentation does and its link carries the
  version). A changed file has a new address, so a browser may keep a file for a year without
  asking again: a static file asked for at its current version is sent with
  ``Cache-Control: public, max-age=31536000, immutable``; at no version or another one (a
  page from before a change), with Flask's ``no-cache``, which its ETag turns into a cheap
  304. Each app keeps the versions it has computed, keyed by a file's size and modification
  time: a page costs a ``stat`` for each file it links, and a file edited under a running
  server gets its new version at once.
- **Compression.** Flask-Compress (a maintained extension; brotli through Google's
  ``brotli`` bindings, zstd, gzip, deflate) compresses every text response the client's
  ``Accept-Encoding`` allows: pages, stylesheets, scripts (the editor's bundle above all),
  JSON, query answers, entity data. A download (a dump, the validation report: sent with
  ``Content-Disposition: attachment``) is sent as stored instead, so that its length, its
  ETag and its ranges stay those of the file, and a dump of gigabytes is never pushed through
  a compressor.
- **The icon.** ``static/favicon.svg``, linked from every page, also answers at
  ``/favicon.ico``, the address browsers and tools ask for by themselves.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, current_app, request, send_from_directory
from flask_compress import Compress
from werkzeug.security import safe_join

VERSION_DIGITS = 16
"""Hex digits of a file's SHA-256 in its address: 64 bits, no collision among a site's files."""
YEAR = 31_536_000
"""A year in seconds: the cache life of a versioned static file."""
ICON = "favicon.svg"
ICON_MAX_AGE = 86_400
"""``/favicon.ico`` has no version in its address: a day, then the browser asks again."""
COMPRESSED_TYPES = (
    "text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml",
    "text/plain", "application/json", "text/csv", "text/tab-separated-values",
    "application/sparql-results+json", "application/sparql-results+xml", "text/turtle",
    "application/n-triples", "application/ld+json", "application/rdf+xml",
)
"""The media types worth compressing: text, which shrinks by a factor of several."""
_EXTENSION = "benchgraph.static_versions"


@dataclass
class StaticVersions:
    """The version of each file of one static folder, as far as it has been asked for."""

    folder: str
    known: dict[str, tuple[tuple[int, int], str]] = field(default_factory=dict)
    """By file name: (size, modification time) when hashed, and the version."""

    def of(self, filename: str) -> str | None:
        """The version of ``filename`` (a path below the folder); None for no regular file."""
        path = safe_join(self.folder, filename)
        if path is None:
            return None
        try:
            found = os.stat(path)
        except OSError:
            return None
        if not stat.S_ISREG(found.st_mode):
            return None
        key = (found.st_size, found.st_mtime_ns)
        kept = self.known.get(filename)
        if kept is not None and kept[0] == key:
            return kept[1]
        with open(path, "rb") as file:
            version = hashlib.file_digest(file, "sha256").hexdigest()[:VERSION_DIGITS]
        self.known[filename] = (key, version)
        return version


def init_app(app: Flask) -> None:
    """Version the static addresses, set their cache life, compress, and serve the icon.
    Call it before any other hook is registered: Flask runs ``after_request`` hooks last
    registered first, and compression must see each response as every other hook left it."""
    app.config.setdefault("COMPRESS_MIMETYPES", list(COMPRESSED_TYPES))
    app.config["COMPRESS_REGISTER"] = False  # compress() below decides what is compressed
    compressor = Compress(app)
    assert app.static_folder is not None  # Flask's default, which the app keeps
    app.extensions[_EXTENSION] = StaticVersions(app.static_folder)
    app.url_defaults(_versioned)
    app.after_request(lambda response: compress(compressor, response))
    app.after_request(cache_life)
    app.add_url_rule("/favicon.ico", "favicon", favicon)


def versions() -> StaticVersions:
    """The current app's static versions."""
    found: StaticVersions = current_app.extensions[_EXTENSION]
    return found


def _versioned(endpoint: str, values: dict[str, Any]) -> None:
    """Add the file's version to the address of a static file (``url_defaults``)."""
    if endpoint != "static" or "v" in values:
        return
    version = versions().of(str(values.get("filename", "")))
    if version is not None:
        values["v"] = version


def cache_life(response: Response) -> Response:
    """A static file at its current version: kept a year, never asked for again."""
    if request.endpoint != "static" or response.status_code not in (200, 304):
        return response
    filename = (request.view_args or {}).get("filename")
    current = versions().of(str(filename)) if filename is not None else None
    if current is not None and request.args.get("v") == current:
        response.cache_control.no_cache = None
        response.cache_control.public = True
        response.cache_control.max_age = YEAR
        response.cache_control.immutable = True
    return response


def compress(compressor: Compress, response: Response) -> Response:
    """``response`` compressed as the client allows, unless it is a download."""
    if response.headers.get("Content-Disposition", "").startswith("attachment"):
        return response
    return compressor.after_request(response)


def favicon() -> Response:
    """The site's icon, at the address browsers ask for without a link."""
    return send_from_directory(versions().folder, ICON, mimetype="image/svg+xml",
                               max_age=ICON_MAX_AGE)


__all__ = ["COMPRESSED_TYPES", "ICON", "VERSION_DIGITS", "YEAR", "StaticVersions",
           "cache_life", "compress", "favicon", "init_app", "versions"]
