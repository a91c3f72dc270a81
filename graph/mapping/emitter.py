"""``Statements``: the quads of one named graph, and the typed-literal rules in one place.

Every ``add_*`` method skips ``None``: a JSON ``null`` or empty string means "unknown"
and adds no triple. The typed ones state a value kept as written (a ``Verbatim``: a field
-level defect of the record) as a plain string instead, never as a typed literal.
"""

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal

from rdflib import Literal, URIRef

from graph.dataset.quads import Object
from graph.dataset.terms import typed
from graph.ingest.records.verbatim import Verbatim
from graph.mapping.nquads import NQuads
from graph.namespace import RDF, XSD

_TYPE = RDF.type
_STRING_TYPES = {4: XSD.gYear, 7: XSD.gYearMonth}
_ANY_URI, _DECIMAL, _INTEGER, _BOOLEAN = XSD.anyURI, XSD.decimal, XSD.integer, XSD.boolean
_DATE, _DATE_TIME = XSD.date, XSD.dateTime
TRUE = typed("true", _BOOLEAN, True)
FALSE = typed("false", _BOOLEAN, False)


class Statements:
    """States the quads of one named graph as N-Quads lines (``graph.mapping.nquads``), each term
    in its N-Triples form.

    This runs for every quad of a build: each method is one Python frame, and the forms it
    asks for are remembered ones or C-level escapes."""

    def __init__(self, out: NQuads, graph: URIRef, source_file: str | None = None) -> None:
        self.graph = graph
        self.source_file = source_file
        """The record file the graph's statements come from (what a result cites)."""
        self._out = out
        self._iri, self._plain, self._typed, self._object = (
            out.iri, out.plain, out.typed, out.object
        )
        self._graph = out.iri(graph)
        self._type = out.iri(_TYPE)
        self._add = out.add
        self._occurrences: dict[object, int] = {}

    def stated(self) -> int:
        """How many quads have been stated so far: compare before and after some statements
        to see whether any was made."""
        return self._out.count

    def occurrence(self, key: object) -> int:
        """1 the first time this graph is asked about ``key``, then 2, 3…: tells apart parts
        that would otherwise share an IRI (two results for one model in one record)."""
        count = self._occurrences[key] = self._occurrences.get(key, 0) + 1
        return count

    def add(self, subject: URIRef, predicate: URIRef, obj: Object | None) -> None:
        if obj is not None:
            iri = self._iri
            self._add((iri(subject), iri(predicate), self._object(obj), self._graph))

    def add_type(self, subject: URIRef, rdf_class: URIRef) -> None:
        iri = self._iri
        self._add((iri(subject), self._type, iri(rdf_class), self._graph))

    def add_text(self, subject: URIRef, predicate: URIRef, value: str | None) -> None:
        """A plain string (``xsd:string``), verbatim."""
        if value is not None:
            iri = self._iri
            self._add((iri(subject), iri(predicate), self._plain(value), self._graph))

    def add_texts(self, subject: URIRef, predicate: URIRef, values: Iterable[str]) -> None:
        for value in values:
            self.add_text(subject, predicate, value)

    def _add_typed(self, subject: URIRef, predicate: URIRef, lexical: str, datatype: URIRef
                   ) -> None:
        iri = self._iri
        obj = self._typed(lexical, datatype)
        self._add((iri(subject), iri(predicate), obj, self._graph))

    def _add_verbatim(self, subject: URIRef, predicate: URIRef, kept: Verbatim) -> None:
        iri = self._iri
        self._add((iri(subject), iri(predicate), self._plain(str(kept)), self._graph))

    def add_url(self, subject: URIRef, predicate: URIRef, url: str | None) -> None:
        """A web address, as an ``xsd:anyURI`` literal (kept verbatim, never dereferenced);
        one that is not http(s) as a plain string."""
        if url is not None:
            if isinstance(url, Verbatim):
                self._add_verbatim(subject, predicate, url)
            else:
                self._add_typed(subject, predicate, url, _ANY_URI)

    def add_decimal(self, subject: URIRef, predicate: URIRef, value: Decimal | None) -> None:
        if value is not None:
            self._add_typed(subject, predicate, _decimal_lexical(value), _DECIMAL)

    def add_integer(self, subject: URIRef, predicate: URIRef, value: int | None) -> None:
        """A whole number, always as ``xsd:integer`` in its canonical form, even where the
        ontology's range is ``xsd:nonNegativeInteger`` or ``xsd:positiveInteger``: Oxigraph
        keeps a literal of a type derived from ``xsd:integer`` as an ``xsd:integer`` (its
        issue #526), so a narrower type stated here would be lost by every store, its
        answers and its dumps. An ``xsd:integer`` in the range's value space is consistent
        with the range; the shapes hold the bound (``sh:minInclusive``)."""
        if value is not None:
            self._add_typed(subject, predicate, str(value), _INTEGER)

    def add_boolean(self, subject: URIRef, predicate: URIRef, value: bool | None) -> None:
        if value is not None:
            self.add(subject, predicate, TRUE if value else FALSE)

    def add_date(
        self, subject: URIRef, predicate: URIRef, value: date | Verbatim | None
    ) -> None:
        if isinstance(value, date):
            self._add_typed(subject, predicate, value.isoformat(), _DATE)
        elif value is not None:
            self._add_verbatim(subject, predicate, value)

    def add_datetime(
        self, subject: URIRef, predicate: URIRef, value: datetime | Verbatim | None
    ) -> None:
        if isinstance(value, datetime):
            self._add_typed(subject, predicate, value.isoformat(), _DATE_TIME)
        elif value is not None:
            self._add_verbatim(subject, predicate, value)

    def add_partial_date(self, subject: URIRef, predicate: URIRef, value: str | None) -> None:
        """``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` as ``xsd:gYear``, ``gYearMonth`` or ``date``;
        a date kept as written as a plain string."""
        if value is None:
            return
        if isinstance(value, Verbatim):
            self._add_verbatim(subject, predicate, value)
        elif len(value) == 10:
            self.add_date(subject, predicate, date.fromisoformat(value))
        else:
            self._add_typed(subject, predicate, value, _STRING_TYPES[len(value)])

    def add_year(self, subject: URIRef, predicate: URIRef, year: int | None) -> None:
        if year is not None:
            self._add_typed(subject, predicate, f"{year:04d}", XSD.gYear)

    def add_json(self, subject: URIRef, predicate: URIRef, text: str) -> None:
        """A JSON text as an ``rdf:JSON`` literal."""
        self._add_typed(subject, predicate, text, RDF.JSON)


def _decimal_lexical(value: Decimal) -> str:
    """The canonical-ish ``xsd:decimal`` form: no exponent, at least one digit after the point."""
    text = format(value, "f")
    return text if "." in text else f"{text}.0"


__all__ = ["FALSE", "TRUE", "Literal", "Statements"]
