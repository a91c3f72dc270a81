"""``/dump.ttl``, ``.nt``, ``.trig``, ``.nq``, ``.jsonld``: the whole graph, and ``/dumps``, the
page that lists them.

Each dump is a file the store writes from its engine's data the first time it is asked for
(``Artefacts.dump``), then streamed from disk as it is: the server's file wrapper (waitress sends
it from the file a block at a time) and never the whole file in the server's memory. The
response says what it is
(Content-Type from the one format table, Content-Length, ``Content-Disposition`` with a file
name) and carries the build's generation as its ETag, so a client that has it already gets a
304; ranges are served too.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, Response, abort, render_template, send_file, url_for

from graph.export.formats import Format
from graph.store.base import StoredFile
from graph.store.errors import StoreError
from graph.store.files import DUMP_FORMATS
from web.data_view import DataView
from web.negotiation import content_type
from web.stores import get_store

bp = Blueprint("dumps", __name__)

DOWNLOAD_STEM = "benchgraph"
_BY_SUFFIX = {fmt.extension.removeprefix("."): fmt for fmt in DUMP_FORMATS}


@dataclass(frozen=True)
class DumpLink:
    """One dump as the ``/dumps`` page lists it."""

    format: Format
    href: str
    keeps_graphs: bool


def stream_file(kept: StoredFile, content_type: str, download_name: str) -> Response:
    """``kept`` streamed from disk, with its length, its version as a strong ETag, and a file
    name to save it under; a conditional or range request is answered as HTTP says.

    A file the store named that cannot be opened (gone with its generation, unreadable) is
    the store's failure, a StoreError: its path goes to the server's log, and the client
    learns only that this address could not be served (``web.errors``)."""
    try:
        return _send(kept, content_type, download_name)
    except OSError as error:
        raise StoreError(f"{kept.path} cannot be read: {error.strerror or error}") from None


def _send(kept: StoredFile, content_type: str, download_name: str) -> Response:
    response = send_file(kept.path, download_name=download_name, as_attachment=True,
                         etag=kept.version, conditional=True, last_modified=None, max_age=0)
    response.headers["Content-Type"] = content_type  # as given: send_file would add a charset
    response.headers["Cache-Control"] = "no-cache"  # reusable, but ask first: a rebuild changes it
    return response


def media_type_of(fmt: Format) -> str:
    """The Content-Type of a dump in ``fmt``: the one every answer in that format carries."""
    return content_type(fmt)


@bp.route("/dump.<suffix>")
def dump(suffix: str) -> Response:
    fmt = _BY_SUFFIX.get(suffix)
    if fmt is None:
        abort(404, f"there is no dump in .{suffix}: the dumps are "
                   + ", ".join(f"dump.{name}" for name in _BY_SUFFIX))
    return stream_file(get_store().artefacts().dump(fmt), media_type_of(fmt),
                       f"{DOWNLOAD_STEM}{fmt.extension}")


@bp.route("/dumps")
def listing() -> Response:
    view = DataView()
    store = get_store()
    links = [DumpLink(fmt, url_for("dumps.dump", suffix=suffix), fmt.keeps_graphs)
             for suffix, fmt in _BY_SUFFIX.items()]
    return view.respond(lambda: render_template(
        "docs/dumps.html", links=links, counts=store.counts(),
        records=len(store.build_facts().records)))


__all__ = ["bp", "media_type_of", "stream_file"]
