"""Validating the graph with the SHACL shapes: the typed report curators act on.

    report = validate(store, settings)  # a build's pyoxigraph store, or rdflib quads
    report.conforms, report.by_record(), report.by_shape(), report.to_graph()

Every named graph is checked on its own (a record, with the build's facts about its
nodes and the ontology with its vocabularies); the shapes marked ``bsh:checkedAcrossRecords``
are checked once over everything. After an incremental build, ``ValidationSession.update_store``
re-checks only what the change may touch. The implementation is in ``graph/validation/``.
"""

from collections.abc import Iterable

import pyoxigraph as ox

from graph.dataset.quads import Quad
from graph.settings import Settings
from graph.validation.report import Severity, ValidationReport, ValidationResult
from graph.validation.session import ValidationSession
from graph.validation.shapes import ShapeInfo, ShapesError, ShapeSet, bundled_shapes


def validate(data: ox.Store | Iterable[Quad], settings: Settings | None = None,
             shapes: ShapeSet | None = None) -> ValidationReport:
    """Validate ``data`` and return the report: a build's pyoxigraph store (its named
    graphs), checked graph by graph without ever holding the whole catalog as rdflib quads,
    or rdflib quads (as ``BuildResult.quads`` gives them). Both give the same report.

    ``settings`` gives the base IRI (hence the build graph's name); ``shapes`` defaults to
    the bundled ``shapes/*.ttl``.
    """
    session = ValidationSession(settings, shapes)
    if isinstance(data, ox.Store):
        return session.validate_store(data)
    return session.validate(data)


__all__ = [
    "Severity",
    "ShapeInfo",
    "ShapeSet",
    "ShapesError",
    "ValidationReport",
    "ValidationResult",
    "ValidationSession",
    "bundled_shapes",
    "validate",
]
