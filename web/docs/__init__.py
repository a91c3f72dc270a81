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
page's own address (``Vary: Accept``; ``web.data_view``).
"""

from __future__ import annotations

from collections.abc import Callable

import pyoxigraph as ox
from flask import Blueprint, Flask, Response, abort, render_template, url_for

from graph.errors import BenchgraphError, ErrorKind
from graph.export.formats import TURTLE
from graph.store.base import Store
from graph.validation.report import Severity, ValidationReport
from web.data_view import Alternate, Body, DataView, alternates
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
from web.negotiation import GRAPH_OFFERS, JSON, Offer, offer_of, write_triples
from web.params import MAX_PAGE, whole_number
from web.stores import get_store

bp = Blueprint("docs", __name__)

_TURTLE = offer_of(TURTLE)
_VALIDATION_OFFERS = (JSON, _TURTLE)
"""The validation report's own JSON form, and the W3C SHACL report in Turtle."""


def init_app(app: Flask) -> None:
    """Register the blueprint and what its pages keep per app."""
    docs_ontology.init_app(app)
    app.register_blueprint(bp)


class NotValidated(BenchgraphError):
    """The store was built without validating: it has no report to show."""

    kind = ErrorKind.NOT_FOUND


# -- the ontology ---------------------------------------------------------------------------

@bp.route("/ontology")
@bp.route("/ontology.<suffix>", endpoint="ontology_data")
def ontology(suffix: str | None = None) -> Response:
    view = DataView(GRAPH_OFFERS, suffix)
    forms = alternates(GRAPH_OFFERS, lambda name: url_for("docs.ontology_data", suffix=name))
    return view.respond(lambda: render_template(
        "docs/ontology.html", doc=ontology_doc(), usage=usage(get_store()), alternates=forms,
    ), _ontology_as, forms)


def _ontology_as(offer: Offer) -> bytes:
    turtle = ontology_turtle()
    if offer is _TURTLE:
        return turtle
    assert offer.format is not None  # every graph offer is one of the registry's formats
    triples = list(ox.parse(turtle, format=ox.RdfFormat.TURTLE))
    return write_triples(triples, offer.format, get_store().base)


@bp.route("/ontology/<path:rest>")
def ontology_document(rest: str) -> Response:
    """The ontology's own IRI with a path (its version, its vocabularies): its place on the
    page."""
    return _see_other(docs_ontology.documents(), f"ontology/{rest}", "docs.ontology")


# -- the shapes -----------------------------------------------------------------------------

@bp.route("/shapes")
@bp.route("/shapes.ttl", endpoint="shapes_data", defaults={"suffix": _TURTLE.name})
def shapes(suffix: str | None = None) -> Response:
    view = DataView((_TURTLE,), suffix)
    forms = alternates(view.offers, lambda name: url_for("docs.shapes_data"))
    return view.respond(lambda: render_template("docs/shapes.html", files=shapes_doc(),
                                                alternates=forms),
                        lambda offer: shapes_turtle(), forms)


@bp.route("/shapes/<path:rest>")
def shapes_document(rest: str) -> Response:
    """A shapes file's IRI (``…/shapes/core``, and its version's): its section of the page."""
    return _see_other(docs_shapes.documents(), f"shapes/{rest}", "docs.shapes")


# -- the validation report ------------------------------------------------------------------

@bp.route("/validation")
@bp.route("/validation.<suffix>", endpoint="validation_data")
def validation(suffix: str | None = None) -> Response:
    view = DataView(_VALIDATION_OFFERS, suffix)
    store = get_store()
    report = None if view.form else store.artefacts().validation()
    forms = _validation_alternates() if view.form or report else ()
    return view.respond(lambda: _validation_page(store, report, forms), _validation_file, forms)


def _validation_page(store: Store, report: ValidationReport | None,
                     forms: tuple[Alternate, ...]) -> str:
    if report is None:
        return render_template("docs/validation.html", report=None, store=store)
    kept = summary(report)
    paging = Paging.of(whole_number("page", MAX_PAGE), len(kept.groups), RECORDS_PER_PAGE)
    return render_template(
        "docs/validation.html", report=report, counts=_severity_counts(report),
        shapes=kept.shapes, groups=grouped(kept.groups[paging.window(RECORDS_PER_PAGE)], store),
        paging=paging, alternates=forms, pager=_pager("docs.validation"))


def _validation_file(offer: Offer) -> Body:
    kept = get_store().artefacts().validation_file(".json" if offer is JSON else ".ttl")
    if kept is None:
        raise NotValidated("this store was built without validating, so it keeps no report")
    return stream_file(kept, offer.content_type, f"benchgraph-validation.{offer.name}")


@bp.route("/validation/shape/<name>")
def validation_shape(name: str) -> Response:
    view = DataView()
    store = get_store()
    report = _report(store)
    results = shape_results(report, name)
    known = any(shape.anchor == name for file in shapes_doc()
                for node in file.node_shapes + file.shared for shape in (node, *node.properties))
    if not results and not known:
        abort(404, f"there is no shape called {name!r}: the shapes are listed at /shapes")
    paging = Paging.of(whole_number("page", MAX_PAGE), len(results), RESULTS_PER_PAGE)
    shown = views(results[paging.window(RESULTS_PER_PAGE)], store)
    forms = _validation_alternates()
    return view.respond(lambda: render_template(
        "docs/validation_shape.html", name=name, results=shown, paging=paging,
        total=len(results), alternates=forms, pager=_pager("docs.validation_shape", name=name),
    ), alternates=forms)


def _validation_alternates() -> tuple[Alternate, ...]:
    return alternates(_VALIDATION_OFFERS,
                      lambda name: url_for("docs.validation_data", suffix=name))


def _report(store: Store) -> ValidationReport:
    report = store.artefacts().validation()
    if report is None:
        raise NotValidated("this store was built without validating, so it keeps no report")
    return report


def _severity_counts(report: ValidationReport) -> list[tuple[Severity, int]]:
    return [(severity, report.count(severity)) for severity in Severity]


# -- shared ---------------------------------------------------------------------------------

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
