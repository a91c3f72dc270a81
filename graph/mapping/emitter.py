"""``Statements``: the quads of one named graph, and the typed-literal rules in one place.

Every ``add_*`` method skips ``None``: a JSON ``null`` or empty string means "unknown"
and adds no triple.
"""

from datetime import date, datetime
from decimal import Decimal

from rdflib import Literal, URIRef
from rdflib.namespace import RDF, XSD

from graph.quads import Object, Quad

_PARTIAL_DATE_TYPES = {4: XSD.gYear, 7: XSD.gYearMonth, 10: XSD.date}


class Statements:
    """Collects the statements of one named graph."""

    def __init__(self, graph: URIRef) -> None:
        self.graph = graph
        self.quads: list[Quad] = []

    def add(self, subject: URIRef, predicate: URIRef, obj: Object | None) -> None:
        if obj is not None:
            self.quads.append((subject, predicate, obj, self.graph))

    def add_type(self, subject: URIRef, rdf_class: URIRef) -> None:
        self.add(subject, RDF.type, rdf_class)

    def add_text(self, subject: URIRef, predicate: URIRef, value: str | None) -> None:
        """A plain string (``xsd:string``), verbatim."""
        if value is not None:
            self.add(subject, predicate, Literal(value))

    def add_texts(self, subject: URIRef, predicate: URIRef, values: list[str]) -> None:
        for value in values:
            self.add_text(subject, predicate, value)

    def add_url(self, subject: URIRef, predicate: URIRef, url: str | None) -> None:
        """A web address, as an ``xsd:anyURI`` literal (kept verbatim, never dereferenced)."""
        if url is not None:
            self.add(subject, predicate, Literal(url, datatype=XSD.anyURI))

    def add_decimal(self, subject: URIRef, predicate: URIRef, value: Decimal | None) -> None:
        if value is not None:
            self.add(subject, predicate, Literal(_decimal_lexical(value), datatype=XSD.decimal))

    def add_integer(self, subject: URIRef, predicate: URIRef, value: int | None) -> None:
        if value is not None:
            self.add(subject, predicate, Literal(str(value), datatype=XSD.integer))

    def add_typed(
        self, subject: URIRef, predicate: URIRef, value: int | None, datatype: URIRef
    ) -> None:
        if value is not None:
            self.add(subject, predicate, Literal(str(value), datatype=datatype))

    def add_boolean(self, subject: URIRef, predicate: URIRef, value: bool | None) -> None:
        if value is not None:
            self.add(
                subject, predicate, Literal("true" if value else "false", datatype=XSD.boolean)
            )

    def add_date(self, subject: URIRef, predicate: URIRef, value: date | None) -> None:
        if value is not None:
            self.add(subject, predicate, Literal(value.isoformat(), datatype=XSD.date))

    def add_datetime(self, subject: URIRef, predicate: URIRef, value: datetime | None) -> None:
        if value is not None:
            self.add(subject, predicate, Literal(value.isoformat(), datatype=XSD.dateTime))

    def add_partial_date(self, subject: URIRef, predicate: URIRef, value: str | None) -> None:
        """``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` as ``xsd:gYear``, ``gYearMonth`` or ``date``."""
        if value is not None:
            self.add(subject, predicate, Literal(value, datatype=_PARTIAL_DATE_TYPES[len(value)]))


def _decimal_lexical(value: Decimal) -> str:
    """The canonical-ish ``xsd:decimal`` form: no exponent, at least one digit after the point."""
    text = format(value, "f")
    return text if "." in text else f"{text}.0"
