"""The build-speed term constructors make exactly the terms rdflib's constructors make."""

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from rdflib import Literal, URIRef
from rdflib.namespace import RDF, XSD

from graph.dataset.terms import iri, plain, typed

CASES: list[tuple[str, URIRef, Any]] = [
    ("https://example.org/a", XSD.anyURI, "https://example.org/a"),
    ("2023", XSD.gYear, None),
    ("2019-01", XSD.gYearMonth, None),
    ("2026-09-08", XSD.date, date(2026, 9, 8)),
    (
        "2026-09-09T16:56:50+00:00",
        XSD.dateTime,
        datetime(2026, 9, 9, 16, 56, 50, tzinfo=UTC),
    ),
    ("5.0", XSD.decimal, Decimal("5.0")),
    ("-0.125", XSD.decimal, Decimal("-0.125")),
    ("42", XSD.integer, 42),
    ("0", XSD.integer, 0),
    ("true", XSD.boolean, True),
    ("false", XSD.boolean, False),
    ('{"key": "page.x", "value": 1}', RDF.JSON, None),
]


def same_term(ours: Literal, theirs: Literal) -> None:
    assert ours == theirs and ours.eq(theirs)
    assert hash(ours) == hash(theirs)
    assert ours.n3() == theirs.n3()
    assert ours.datatype == theirs.datatype and ours.language == theirs.language
    assert ours.value == theirs.value and ours.toPython() == theirs.toPython()
    assert ours.ill_typed == theirs.ill_typed


@pytest.mark.parametrize(("lexical", "datatype", "value"), CASES)
def test_typed_equals_rdflib(lexical: str, datatype: URIRef, value: Any) -> None:
    same_term(typed(lexical, datatype, value), Literal(lexical, datatype=datatype))


@pytest.mark.parametrize("text", ["plain", "", 'quote " and \\ and \n', "<b>#{x}</b>", "日本 🙂"])
def test_plain_equals_rdflib(text: str) -> None:
    same_term(plain(text), Literal(text))


def test_iri_equals_rdflib() -> None:
    ours, theirs = (
        iri("https://w3id.org/benchgraph/benchmark/x"),
        URIRef("https://w3id.org/benchgraph/benchmark/x"),
    )
    assert ours == theirs and hash(ours) == hash(theirs) and ours.n3() == theirs.n3()
    assert type(ours) is URIRef
