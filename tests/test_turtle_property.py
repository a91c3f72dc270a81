"""Property: Turtle and TriG say exactly what N-Triples and N-Quads say, for any terms.

pyoxigraph reads both back: it keeps every lexical form as written (rdflib would normalise
``+007`` to ``7``), so this holds the short forms of ``graph.export.turtle`` (prefixed names, bare
numbers and booleans, ``a``, long strings) to the very same terms.
"""

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Literal, URIRef
from rdflib.namespace import RDF, XSD

from graph.dataset.quads import Quad
from graph.export import prefixes_for, serialize
from graph.export.formats import NQUADS, NTRIPLES, TRIG, TURTLE
from graph.settings import DEFAULT_BASE

NAMESPACES = [*prefixes_for(DEFAULT_BASE).values(), "https://example.org/", "urn:x:"]
LOCAL_NAMES = st.text(
    st.sampled_from("abcXYZ019_-.~%/#:é"), min_size=0, max_size=8
).filter(lambda local: "%" not in local or local.endswith("%20"))


@st.composite
def iris(draw: st.DrawFn, local_names: st.SearchStrategy[str] = LOCAL_NAMES) -> URIRef:
    iri = draw(st.sampled_from(NAMESPACES)) + draw(local_names)
    try:
        ox.NamedNode(iri)
    except ValueError:
        iri = NAMESPACES[0] + "fallback"
    return URIRef(iri)


# Pieces of text that a long string ("""...""") must escape, or must keep as they are: quotes
# in runs of any length, backslashes (also before "n" and before a quote), carriage returns,
# tabs, NUL, other quotes.
AWKWARD = st.sampled_from(
    ['"', '""', '"""', "'''", "\\", "\\n", '\\"', "\r", "\r\n", "\t", "\x00", "n", "é", " "]
)
PIECES = st.lists(st.one_of(AWKWARD, st.text(max_size=3)), max_size=6).map("".join)
MULTILINE = st.tuples(PIECES, PIECES).map("\n".join)
"""A lexical form with a line break (anywhere, also first or last): written as a long string."""
LEXICAL = st.one_of(
    st.sampled_from(["0", "+007", "-3", "1.50", ".5", "5.", "1e5", "true", "false", "True", ""]),
    st.text(st.characters(exclude_categories=("Cs",)), max_size=12),
    MULTILINE,
)
DATATYPES = st.sampled_from(
    [XSD.integer, XSD.decimal, XSD.boolean, XSD.date, XSD.string, RDF.JSON,
     URIRef("https://example.org/unit"), URIRef("urn:x:t")]
)


@st.composite
def literals(draw: st.DrawFn) -> Literal:
    lexical = draw(LEXICAL)
    kind = draw(st.sampled_from(["plain", "typed", "tagged"]))
    if kind == "plain":
        return Literal(lexical)
    if kind == "tagged":
        return Literal(lexical, lang=draw(st.sampled_from(["en", "en-GB", "de-CH-1996"])))
    return Literal(lexical, datatype=draw(DATATYPES), normalize=False)


def quads_of(iri: st.SearchStrategy[URIRef]) -> st.SearchStrategy[list[Quad]]:
    """Lists of quads of these IRIs and any literals. A few subjects and classes recur, so
    that a subject often has several rdf:type statements among its others, in one graph or in
    both."""
    subjects = st.one_of(iri, st.sampled_from([URIRef(NAMESPACES[0] + "s"), URIRef("urn:x:s")]))
    classes = st.sampled_from([URIRef(NAMESPACES[1] + "A"), URIRef("urn:x:B"), URIRef("urn:x:c")])
    graphs = st.sampled_from([URIRef(DEFAULT_BASE + "record/a"), URIRef("urn:x:g")])
    rdf_type = st.just(URIRef(RDF.type))
    return st.lists(
        st.one_of(
            st.tuples(subjects, st.one_of(iri, rdf_type), st.one_of(iri, literals()), graphs),
            st.tuples(subjects, rdf_type, classes, graphs),
        ),
        max_size=25,
    )


QUADS = quads_of(iris())


def read(data: bytes, fmt: ox.RdfFormat) -> set[str]:
    return {str(statement) for statement in ox.parse(data, format=fmt)}


# rdflib warns when it cannot read a value out of a lexical form: such literals are the point
@pytest.mark.filterwarnings("ignore:Parsing weird boolean:UserWarning")
@settings(max_examples=300, deadline=None)
@given(QUADS)
def test_turtle_and_trig_read_back_as_ntriples_and_nquads(quads: list[Quad]) -> None:
    base = DEFAULT_BASE
    triples = read(serialize(quads, NTRIPLES, base=base).data, ox.RdfFormat.N_TRIPLES)
    assert read(serialize(quads, TURTLE, base=base).data, ox.RdfFormat.TURTLE) == triples
    in_graphs = read(serialize(quads, NQUADS, base=base).data, ox.RdfFormat.N_QUADS)
    assert read(serialize(quads, TRIG, base=base).data, ox.RdfFormat.TRIG) == in_graphs
