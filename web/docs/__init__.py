"""``/ontology``, ``/shapes``, ``/validation``: the ontology, the shapes and the validation
report as pages a person reads, and as data.

- ``/ontology``: every class and property (label, comment, domain, range, how many nodes use
  it), each at an anchor of its local name, so ``https://w3id.org/benchgraph/ontology#Term``
  lands on its entry; the vocabularies' members link to their own pages
  (``/vocabulary/<Name>``). ``/ontology.ttl`` is the files of ``ontology/`` as they are;
  ``.nt``, ``.jsonld`` and ``.rdf`` the same statements in those formats.
- ``/shapes``: each shape with its name, message, severity, target and constraints;
  ``/shapes.ttl`` the files of ``shapes/`` as they are. The shapes' namespace
  (``https://w3id.org/benchgraph/shapes#``) is under the base, so a shape's IRI lands on its
  entry too; the files' own IRIs (``…/shapes/core``) and the ontology's (``…/ontology/0.1.0``,
  ``…/ontology/vocabularies``) answer 303 to their place on the page.
- ``/validation``: the report the store kept from its build, by shape and by record (a page
  of records at a time), ``/validation/shape/<name>`` one shape's results; ``.json`` its JSON
  form, ``.ttl`` the W3C SHACL report, both streamed as the store keeps them.

Each page names its data forms in ``<link rel="alternate">`` and a ``Link`` header; a client
that asks for one of them by ``Accept`` (preferring it to HTML) or ``format=`` gets it from the
page's own address (``Vary: Accept``; ``web.negotiation.page_or_data``).
"""

from __future__ import annotations

from collections.abc import Callable

import pyoxigraph as ox
from flask import Blueprint, Flask, Response, abort, render_template, url_for

from graph.errors import BenchgraphError, ErrorKind
from graph.export.formats import TURTLE
from graph.store.base import Store
from graph.validation.report import Severity, ValidationReport
from web.docs import ontology as docs_ontology
from web.docs import shapes as docs_shapes
from web.docs.ontology import ontology_doc, ontology_turtle, usage
from web.docs.shapes import shapes_doc, shapes_turtle
from web.docs.validation import (
    RECORDS_PER_PAGE,
    RESULTS_PER_PAGE,
    grouped,
    shape_results,
    summary,
    views,
)
from web.dumps import stream_file
from web.listing import Paging
from web.negotiation import (
    GRAPH_OFFERS,
    HTML,
    JSON,
    Offer,
    content_type,
    link_header,
    offer_of,
    page_or_data,
    write_triples,
)
from web.params import MAX_PAGE, whole_number
from web.stores import get_store

bp = Blueprint("docs", __name__)

_TURTLE = offer_of(TURTLE)
_VALIDATION_OFFERS = (JSON, _TURTLE)
"""The validation report's own JSON form, and the W3C SHACL report in Turtle."""
Alternates = list[tuple[Offer, str]]
"""Each data form of a page, and its address."""


def init_app(app: Flask) -> None:
    """Register the blueprint and what its pages keep per app."""
    docs_ontology.init_app(app)
    app.register_blueprint(bp)


class NotValidated(BenchgraphError):
    """The store was built without validating: it has no report to show."""

    kind = ErrorKind.NOT_FOUND


# -- the ontology ---------------------------------------------------------------------------

@bp.route("/ontology")
def ontology() -> Response:
    alternates = [(offer, url_for("docs.ontology_data", suffix=offer.name))
                  for offer in GRAPH_OFFERS]
    chosen = page_or_data(GRAPH_OFFERS)
    if chosen is not None:
        return _ontology_as(chosen)
    store = get_store()
    page = render_template("docs/ontology.html", doc=ontology_doc(), usage=usage(store),
                           alternates=alternates)
    return _page(page, alternates)


@bp.route("/ontology.<suffix>")
def ontology_data(suffix: str) -> Response:
    chosen = page_or_data(GRAPH_OFFERS, suffix)
    assert chosen is not None  # a suffix names data, or is a 404
    return _ontology_as(chosen)


def _ontology_as(offer: Offer) -> Response:
    turtle = ontology_turtle()
    if offer is _TURTLE:
        return _data(turtle, offer)
    assert offer.format is not None  # every graph offer is one of the registry's formats
    triples = list(ox.parse(turtle, format=ox.RdfFormat.TURTLE))
    return _data(write_triples(triples, offer.format, get_store().base), offer)


@bp.route("/ontology/<path:rest>")
def ontology_document(rest: str) -> Response:
    """The ontology's own IRI with a path (its version, its vocabularies): its place on the
    page."""
    return _see_other(docs_ontology.documents(), f"ontology/{rest}", "docs.ontology")


# -- the shapes -----------------------------------------------------------------------------

@bp.route("/shapes")
def shapes() -> Response:
    alternates = [(_TURTLE, url_for("docs.shapes_data"))]
    if page_or_data([_TURTLE]) is not None:
        return shapes_data()
    return _page(render_template("docs/shapes.html", files=shapes_doc(), alternates=alternates),
                 alternates)


@bp.route("/shapes.ttl")
def shapes_data() -> Response:
    return _data(shapes_turtle(), _TURTLE)


@bp.route("/shapes/<path:rest>")
def shapes_document(rest: str) -> Response:
    """A shapes file's IRI (``…/shapes/core``, and its version's): its section of the page."""
    return _see_other(docs_shapes.documents(), f"shapes/{rest}", "docs.shapes")


# -- the validation report ------------------------------------------------------------------

@bp.route("/validation")
def validation() -> Response:
    alternates = _validation_alternates()
    chosen = page_or_data(_VALIDATION_OFFERS)
    if chosen is not None:
        return validation_data(chosen.name)
    store = get_store()
    report = store.validation()
    if report is None:
        return _page(render_template("docs/validation.html", report=None, store=store,
                                     alternates=[]), [])
    kept = summary(report)
    paging = Paging.of(whole_number("page", MAX_PAGE), len(kept.groups), RECORDS_PER_PAGE)
    page = render_template(
        "docs/validation.html", report=report, counts=_severity_counts(report),
        shapes=kept.shapes, groups=grouped(kept.groups[paging.window(RECORDS_PER_PAGE)], store),
        paging=paging, alternates=alternates, pager=_pager("docs.validation"))
    return _page(page, alternates)


@bp.route("/validation/shape/<name>")
def validation_shape(name: str) -> Response:
    store = get_store()
    report = _report(store)
    results = shape_results(report, name)
    known = any(shape.anchor == name for file in shapes_doc()
                for node in file.node_shapes + file.shared for shape in (node, *node.properties))
    if not results and not known:
        abort(404, f"there is no shape called {name!r}: the shapes are listed at /shapes")
    paging = Paging.of(whole_number("page", MAX_PAGE), len(results), RESULTS_PER_PAGE)
    shown = views(results[paging.window(RESULTS_PER_PAGE)], store)
    alternates = _validation_alternates()
    page = render_template("docs/validation_shape.html", name=name, results=shown,
                           paging=paging, total=len(results), alternates=alternates,
                           pager=_pager("docs.validation_shape", name=name))
    return _page(page, alternates)


@bp.route("/validation.<suffix>")
def validation_data(suffix: str) -> Response:
    offer = page_or_data(_VALIDATION_OFFERS, suffix)
    assert offer is not None  # a suffix names data, or is a 404
    kept = get_store().validation_file(".json" if offer is JSON else ".ttl")
    if kept is None:
        raise NotValidated("this store was built without validating, so it keeps no report")
    return stream_file(kept, _content_type(offer), f"benchgraph-validation.{offer.name}")


def _validation_alternates() -> Alternates:
    return [(offer, url_for("docs.validation_data", suffix=offer.name))
            for offer in _VALIDATION_OFFERS]


def _report(store: Store) -> ValidationReport:
    report = store.validation()
    if report is None:
        raise NotValidated("this store was built without validating, so it keeps no report")
    return report


def _severity_counts(report: ValidationReport) -> list[tuple[Severity, int]]:
    return [(severity, report.count(severity)) for severity in Severity]


# -- shared ---------------------------------------------------------------------------------

def _content_type(offer: Offer) -> str:
    return offer.media_type if offer.format is None else content_type(offer.format)


def _page(html: str, alternates: Alternates) -> Response:
    response = Response(html, mimetype=HTML)
    if alternates:
        response.headers["Link"] = link_header((offer.media_type, href)
                                               for offer, href in alternates)
    response.vary.add("Accept")
    return response


def _data(body: bytes, offer: Offer) -> Response:
    response = Response(body, content_type=_content_type(offer))
    response.vary.add("Accept")
    return response


def _see_other(anchors: dict[str, str], rest: str, endpoint: str) -> Response:
    """303 to the anchor of ``endpoint``'s page that documents the IRI ``{base}{rest}``."""
    anchor = anchors.get(get_store().base + rest)
    if anchor is None:
        abort(404, f"/{rest} is not a part of this documentation")
    target = url_for(endpoint) + (f"#{anchor}" if anchor else "")
    return Response(status=303, headers={"Location": target})


def _pager(endpoint: str, name: str | None = None) -> Callable[[int], str]:
    """The address of page ``number`` of the list at ``endpoint``."""
    if name is None:
        return lambda number: url_for(endpoint, page=number)
    return lambda number: url_for(endpoint, name=name, page=number)


__all__ = ["NotValidated", "bp", "init_app"]
