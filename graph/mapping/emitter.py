"""``Statements``: the quads of one named graph, and the typed-literal rules in one place.

Every ``add_*`` method skips ``None``: a JSON ``null`` or empty string means "unknown"
and adds no triple.
"""

from datetime import date, datetime
from decimal import Decimal

from rdflib import Literal, URIRef

from graph.mapping.terms import plain, typed
from graph.namespace import RDF, XSD
from graph.quads import Object, Quad

_TYPE = RDF.type
_STRING_TYPES = {4: XSD.gYear, 7: XSD.gYearMonth}
_ANY_URI, _DECIMAL, _INTEGER, _BOOLEAN = XSD.anyURI, XSD.decimal, XSD.integer, XSD.boolean
_DATE, _DATE_TIME = XSD.date, XSD.dateTime
TRUE = typed("true", _BOOLEAN, True)
FALSE = typed("false", _BOOLEAN, False)


class Statements:
    """Collects the statements of one named graph."""

    def __init__(self, graph: URIRef) -> None:
        self.graph = graph
        self.quads: list[Quad] = []

    def add(self, subject: URIRef, predicate: URIRef, obj: Object | None) -> None:
        if obj is not None:
            self.quads.append((subject, predicate, obj, self.graph))

    def add_type(self, subject: URIRef, rdf_class: URIRef) -> None:
        self.quads.append((subject, _TYPE, rdf_class, self.graph))

    def add_text(self, subject: URIRef, predicate: URIRef, value: str | None) -> None:
        """A plain string (``xsd:string``), verbatim."""
        if value is not None:
            self.quads.append((subject, predicate, plain(value), self.graph))

    def add_texts(self, subject: URIRef, predicate: URIRef, values: list[str]) -> None:
        for value in values:
            self.quads.append((subject, predicate, plain(value), self.graph))

    def add_url(self, subject: URIRef, predicate: URIRef, url: str | None) -> None:
        """A web address, as an ``xsd:anyURI`` literal (kept verbatim, never dereferenced)."""
        if url is not None:
            self.add(subject, predicate, typed(url, _ANY_URI, url))

    def add_decimal(self, subject: URIRef, predicate: URIRef, value: Decimal | None) -> None:
        if value is not None:
            lexical = _decimal_lexical(value)
            self.add(subject, predicate, typed(lexical, _DECIMAL, Decimal(lexical)))

    def add_integer(
        self, subject: URIRef, predicate: URIRef, value: int | None, datatype: URIRef = _INTEGER
    ) -> None:
        """An integer, as ``xsd:integer`` unless ``datatype`` names a narrower type."""
        if value is not None:
            self.add(subject, predicate, typed(str(value), datatype, value))

    def add_boolean(self, subject: URIRef, predicate: URIRef, value: bool | None) -> None:
        if value is not None:
            self.add(subject, predicate, TRUE if value else FALSE)

    def add_date(self, subject: URIRef, predicate: URIRef, value: date | None) -> None:
        if value is not None:
            self.add(subject, predicate, typed(value.isoformat(), _DATE, value))

    def add_datetime(self, subject: URIRef, predicate: URIRef, value: datetime | None) -> None:
        if value is not None:
            self.add(subject, predicate, typed(value.isoformat(), _DATE_TIME, value))

    def add_partial_date(self, subject: URIRef, predicate: URIRef, value: str | None) -> None:
        """``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` as ``xsd:gYear``, ``gYearMonth`` or ``date``."""
        if value is None:
            return
        if len(value) == 10:
            self.add_date(subject, predicate, date.fromisoformat(value))
        else:
            self.add(subject, predicate, typed(value, _STRING_TYPES[len(value)], None))

    def add_year(self, subject: URIRef, predicate: URIRef, year: int | None) -> None:
        if year is not None:
            self.add(subject, predicate, typed(f"{year:04d}", XSD.gYear, None))

    def add_json(self, subject: URIRef, predicate: URIRef, text: str) -> None:
        """A JSON text as an ``rdf:JSON`` literal."""
        self.add(subject, predicate, typed(text, RDF.JSON, None))


def _decimal_lexical(value: Decimal) -> str:
    """The canonical-ish ``xsd:decimal`` form: no exponent, at least one digit after the point."""
    text = format(value, "f")
    return text if "." in text else f"{text}.0"


__all__ = ["FALSE", "TRUE", "Literal", "Statements"]
