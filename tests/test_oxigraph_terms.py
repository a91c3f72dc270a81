"""pyoxigraph terms read from a store become the very rdflib terms rdflib makes of them
(``graph.dataset.oxigraph.RdflibTerms``): equal, with the same hash, Python value, datatype,
language and well-typedness (what pyshacl compares), for every kind of literal the mapping
writes."""

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pyoxigraph as ox
import pytest
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import RDF, XSD

from graph.dataset.oxigraph import RdflibTerms, made_directly, to_oxigraph, to_rdflib
from graph.dataset.quads import Quad

EX = "https://example.org/"
GRAPH = URIRef(f"{EX}graph")

# (the lexical form the mapping writes, its datatype or language tag, the Python value)
WRITTEN: list[tuple[str, URIRef | str | None, Any]] = [
    ("plain text", None, "plain text"),
    ('quote " and \\ and \n and 日本 🙂', None, 'quote " and \\ and \n and 日本 🙂'),
    ("", None, ""),
    ("https://example.org/a?b=1#c", XSD.anyURI, "https://example.org/a?b=1#c"),
    ("5.0", XSD.decimal, Decimal(5)),
    ("0.95", XSD.decimal, Decimal("0.95")),
    ("-0.125", XSD.decimal, Decimal("-0.125")),
    ("42", XSD.integer, 42),
    ("0", XSD.integer, 0),
    ("-7", XSD.integer, -7),
    ("true", XSD.boolean, True),
    ("false", XSD.boolean, False),
    ("2026-09-08", XSD.date, date(2026, 9, 8)),
    ("2026-09-09T16:56:50+00:00", XSD.dateTime, datetime(2026, 9, 9, 16, 56, 50, tzinfo=UTC)),
    ("2023", XSD.gYear, None),
    ("2019-01", XSD.gYearMonth, None),
    ('{"key": "page.x", "value": 1}', RDF.JSON, None),
    ("a label", "en", "a label"),
    ("an other label", "en-US", "an other label"),
]


def literal_of(lexical: str, kind: URIRef | str | None) -> Literal:
    if isinstance(kind, URIRef):
        return Literal(lexical, datatype=kind)
    return Literal(lexical, lang=kind)


def held(term: Literal) -> ox.Literal:
    """The literal as a store holds it (a store may write a value in its own form)."""
    store = ox.Store()
    node = ox.NamedNode(f"{EX}s")
    store.add(ox.Quad(node, node, to_oxigraph(term), ox.NamedNode(GRAPH)))
    (quad,) = store
    assert isinstance(quad.object, ox.Literal)
    return quad.object


def same_term(ours: Any, theirs: Any) -> None:
    assert type(ours) is type(theirs)
    assert ours == theirs and hash(ours) == hash(theirs) and str(ours) == str(theirs)
    if isinstance(theirs, Literal):
        assert ours.eq(theirs) and ours.n3() == theirs.n3()
        assert ours.datatype == theirs.datatype and ours.language == theirs.language
        assert ours.value == theirs.value and type(ours.value) is type(theirs.value)
        assert ours.ill_typed == theirs.ill_typed


@pytest.mark.parametrize(("lexical", "kind", "value"), WRITTEN)
def test_every_literal_the_mapping_writes_comes_back_as_rdflib_makes_it(
        lexical: str, kind: URIRef | str | None, value: Any) -> None:
    stored = held(literal_of(lexical, kind))
    theirs = (Literal(stored.value, lang=stored.language) if stored.language
              else literal_of(stored.value, None if stored.datatype == ox.NamedNode(XSD.string)
                              else URIRef(stored.datatype.value)))
    ours = RdflibTerms()(stored)
    assert isinstance(ours, Literal)
    same_term(ours, theirs)
    same_term(ours, to_rdflib(stored))
    assert ours.value == value
    assert ours == literal_of(lexical, kind) or kind == XSD.decimal  # a decimal: 5.0 as 5


@pytest.mark.parametrize("term", [
    ox.NamedNode(f"{EX}a"), ox.NamedNode("urn:x-benchgraph:record-copy:1:x"),
    ox.BlankNode("b0"), ox.Literal("abc", datatype=ox.NamedNode(XSD.integer)),
    ox.Literal("1.0E3", datatype=ox.NamedNode(XSD.double)),
    ox.Literal("2026-09-09T16:56:50Z", datatype=ox.NamedNode(XSD.dateTime)),
    ox.Literal("x", datatype=ox.NamedNode(f"{EX}unknown")),
    ox.Literal("x", datatype=ox.NamedNode(XSD.string))])
def test_other_terms_come_back_as_rdflib_makes_them(term: ox.NamedNode | ox.BlankNode
                                                    | ox.Literal) -> None:
    """IRIs and blank nodes, an ill-typed literal (``sh:datatype`` reports it), a time zone
    ``Z`` (rdflib writes it ``+00:00``), a datatype rdflib does not know, and a literal typed
    ``xsd:string`` (a plain one: the same RDF term)."""
    ours, theirs = made_directly(term), to_rdflib(term)
    if isinstance(theirs, BNode):
        assert type(ours) is BNode and str(ours) == str(theirs)
    else:
        same_term(ours, theirs)
    if isinstance(term, ox.Literal) and term.value == "abc":
        assert isinstance(ours, Literal) and ours.ill_typed


def test_a_term_met_again_is_the_same_object_until_let_go() -> None:
    terms = RdflibTerms(kept=2)
    a, b, c = (ox.NamedNode(f"{EX}{name}") for name in "abc")
    first = terms(a)
    assert terms(ox.NamedNode(f"{EX}a")) is first and terms(b) == URIRef(f"{EX}b")
    terms(c)  # a third term: the two kept are let go
    assert terms(a) == first and terms(a) is not first


def test_a_stores_quads_become_the_quads_to_rdflib_makes() -> None:
    """``RdflibTerms.quads`` of a store's statements, triples or quads."""
    s, p = URIRef(f"{EX}s"), URIRef(f"{EX}p")
    quads: list[Quad] = [(s, p, literal_of(lexical, kind), GRAPH)
                         for lexical, kind, _ in WRITTEN] + [(s, p, URIRef(f"{EX}o"), GRAPH)]
    store = ox.Store()
    subject, predicate, graph = (ox.NamedNode(term) for term in (s, p, GRAPH))
    store.extend(ox.Quad(subject, predicate, to_oxigraph(o), graph) for _, _, o, _ in quads)
    statements = list(store.quads_for_pattern(None, None, None, ox.NamedNode(GRAPH)))
    expected = [(to_rdflib(q.subject), to_rdflib(q.predicate), to_rdflib(q.object), GRAPH)
                for q in statements]
    terms = RdflibTerms()
    assert terms.quads(statements, GRAPH) == expected
    triples = list(ox.parse(store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.NamedNode(
        GRAPH)), format=ox.RdfFormat.N_TRIPLES))
    assert set(terms.quads(triples, GRAPH)) == set(expected)
    assert len(expected) == len(quads)
