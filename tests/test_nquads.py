"""The mapping's N-Quads lines (``graph.mapping.nquads``): every kind of term in the form the
engine reads back as the same RDF term, a quad's triple in the default graph for a full
build, refusals named, and lines handed out a block at a time."""

import io

import pyoxigraph as ox
import pytest
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import RDF, XSD

from graph.dataset.oxigraph import to_oxigraph
from graph.mapping import nquads
from graph.mapping.nquads import NQuads

EX = "https://example.org/"
S, P, G = URIRef(EX + "s"), URIRef(EX + "p"), URIRef(EX + "g")
OBJECTS = [
    URIRef(EX + "o"),
    Literal("plain \"quoted\" \\ back\nline\ttab\x00nul é ☃"),
    Literal("typed string", datatype=XSD.string),
    Literal("12.50", datatype=XSD.decimal),
    Literal("2026", datatype=XSD.gYear),
    Literal("{\"a\": 1}", datatype=RDF.JSON),
    Literal("Hallo", lang="de-AT"),
]


def lines_of(objects: list[object], *, merge: bool) -> bytes:
    out = io.BytesIO()
    writer = NQuads(out.write, merge=merge)
    for obj in objects:
        writer.add((writer.iri(S), writer.iri(P), writer.object(obj), writer.iri(G)))  # type: ignore[arg-type]
    writer.flush()
    return out.getvalue()


def test_every_kind_of_term_is_read_back_as_the_same_term() -> None:
    read = list(ox.parse(lines_of(OBJECTS, merge=False), format=ox.RdfFormat.N_QUADS))
    assert [quad.object for quad in read] == [to_oxigraph(obj) for obj in OBJECTS]
    assert {quad.graph_name for quad in read} == {ox.NamedNode(str(G))}


def test_a_typed_string_is_the_plain_literal_and_a_tag_is_lower_case() -> None:
    writer = NQuads(io.BytesIO().write, merge=False)
    assert writer.object(Literal("a", datatype=XSD.string)) == writer.plain("a") == '"a"'
    assert writer.object(Literal("a", lang="en-US")) == '"a"@en-us'
    assert writer.typed("1", XSD.integer) == f'"1"^^<{XSD.integer}>'


def test_a_full_build_states_each_triple_in_the_default_graph_too() -> None:
    store = ox.Store()
    store.load(lines_of(OBJECTS[:2], merge=True), format=ox.RdfFormat.N_QUADS)
    named = [quad for quad in store if quad.graph_name != ox.DefaultGraph()]
    merged = [quad for quad in store if quad.graph_name == ox.DefaultGraph()]
    assert len(named) == len(merged) == 2
    assert {quad.triple for quad in named} == {quad.triple for quad in merged}


def test_a_bad_iri_and_a_blank_node_are_refused_by_name() -> None:
    writer = NQuads(io.BytesIO().write, merge=False)
    with pytest.raises(ValueError, match="not a valid IRI: 'not an iri'"):
        writer.iri(URIRef("not an iri"))
    with pytest.raises(TypeError, match="expected an IRI"):
        writer.object(BNode("b"))  # type: ignore[arg-type]


def test_lines_go_out_a_block_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nquads, "BLOCK_BYTES", 200)
    blocks: list[bytes] = []
    writer = NQuads(blocks.append, merge=False)
    for number in range(20):
        writer.add((writer.iri(S), writer.iri(P), writer.plain(str(number)), writer.iri(G)))
    assert len(blocks) > 1 and all(len(block) < 400 for block in blocks)
    writer.flush()
    assert b"".join(blocks).count(b"\n") == writer.count == 20
