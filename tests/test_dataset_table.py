"""The build's table of terms and quads, and the canonical order every writer starts from."""

import random
import tracemalloc

import numpy as np
import pyoxigraph as ox
import pytest
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import RDF, RDFS, XSD

from graph.dataset import canonical as canonical_module
from graph.dataset import table as table_module
from graph.dataset.canonical import canonical, without_graphs
from graph.dataset.oxigraph import to_rdflib
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT, QuadTable, TermTable
from graph.export import serialize
from graph.export.formats import NQUADS, NTRIPLES
from tests.memory import traced

EX = "https://example.org/"
A, B, C = URIRef(EX + "a"), URIRef(EX + "b"), URIRef(EX + "c")
G1, G2 = URIRef(EX + "g1"), URIRef(EX + "g2")


def test_a_term_stated_any_way_has_one_id() -> None:
    terms = TermTable()
    assert terms.plain("x") == terms.object(Literal("x")) == terms.object(
        Literal("x", datatype=XSD.string)
    )
    assert terms.typed("2", XSD.integer) == terms.object(Literal("2", datatype=XSD.integer))
    assert terms.object(Literal("a", lang="en-US")) == terms.object(Literal("a", lang="en-us"))
    assert terms.iri(A) == terms.object(URIRef(str(A))) != terms.plain(str(A))
    assert len(terms) == 5
    assert terms.ntriples[terms.plain("x")] == '"x"'
    assert terms.terms[terms.plain("x")] == Literal("x")  # the first one stated


def test_only_iris_and_literals_get_ids() -> None:
    terms = TermTable()
    for bad in (BNode("b"), Literal("x"), "plain str"):
        with pytest.raises(TypeError):
            terms.iri(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        terms.object(BNode("b"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a valid IRI"):
        terms.iri(URIRef("no scheme"))


def test_quads_come_back_in_the_order_stated_repeats_included() -> None:
    quads = [(A, RDF.type, B, G1), (A, RDFS.label, Literal("a"), G1), (A, RDF.type, B, G1)]
    table = QuadTable.of(quads)
    assert len(table) == 3
    assert table.quads() == quads
    terms = table.terms
    assert list(table.column(SUBJECT)) == [terms.iri(A)] * 3
    assert list(table.column(GRAPH)) == [terms.iri(G1)] * 3
    assert list(table.column(PREDICATE))[1] == terms.iri(RDFS.label)
    assert list(table.column(OBJECT))[1] == terms.plain("a")



def test_a_selection_of_rows_is_a_table_that_grows_like_any() -> None:
    """``select`` copies the kept rows straight into the new table's buffer; quads
    added to it after (an incremental build maps its changed records into it) and rows added
    at its end (its build graph) land in that table."""
    quads = random_quads(3, 200)
    whole = QuadTable.of(quads)
    keep = whole.held_rows()[:, GRAPH] == whole.terms.iri(G1)
    part = whole.select(keep)
    assert part.quads() == [quad for quad in quads if quad[3] == G1]
    part.extend([(A, RDF.type, C, G2)])
    terms = part.terms
    part.add((terms.iri(B), terms.iri(RDF.type), terms.iri(C), terms.iri(G2)))  # as mapping does
    part.add_rows(whole.held_rows()[~keep][:2])
    assert part.quads() == [*(quad for quad in quads if quad[3] == G1), (A, RDF.type, C, G2),
                            (B, RDF.type, C, G2), *[quad for quad in quads if quad[3] == G2][:2]]
    assert whole.quads() == quads  # the table it was selected from is as it was
    empty = whole.select(keep & False)
    assert len(empty) == 0


@pytest.mark.parametrize("block", [1, 7, 1 << 20])
def test_a_table_kept_where_flagged_holds_those_quads_in_order_and_grows_like_any(
    monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    """``keep_where`` moves the kept rows to the front of the table's own buffer, a block at a
    time (an incremental build makes its table so, in place of the kept one): whatever the
    block, the quads kept are those flagged, in their order, and the table still grows."""
    monkeypatch.setattr(table_module, "_BLOCK_ROWS", block)
    quads = random_quads(5, 300)
    table = QuadTable.of(quads)
    flags = [index % 3 != 0 and quad[3] == G2 for index, quad in enumerate(quads)]
    table.keep_where(np.asarray(flags))
    kept = [quad for quad, flag in zip(quads, flags, strict=True) if flag]
    assert table.quads() == kept
    terms = table.terms
    table.add((terms.iri(B), terms.iri(RDF.type), terms.iri(C), terms.iri(G1)))
    assert table.quads() == [*kept, (B, RDF.type, C, G1)]
    with pytest.raises(ValueError, match="flags for"):
        table.keep_where(np.ones(3, dtype=np.bool_))
    view = table.held_rows()
    with pytest.raises(BufferError):  # no row moved under a view that still reads them
        table.keep_where(np.arange(len(table)) % 2 == 1)
    assert table.quads() == [*kept, (B, RDF.type, C, G1)]
    del view
    table.keep_where(np.zeros(len(table), dtype=np.bool_))
    assert len(table) == 0

def random_quads(seed: int, count: int) -> list[tuple[URIRef, URIRef, URIRef | Literal, URIRef]]:
    rng = random.Random(seed)
    nodes = [URIRef(f"{EX}n{rng.randrange(40)}") for _ in range(60)]
    objects: list[URIRef | Literal] = [*nodes, *(Literal(f"v{i % 17}") for i in range(30))]
    return [
        (rng.choice(nodes), rng.choice(nodes[:5]), rng.choice(objects), rng.choice((G1, G2)))
        for _ in range(count)
    ]


@pytest.mark.parametrize("keep_graphs", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_canonical_lines_are_the_sorted_distinct_ntriples_lines(
    seed: int, keep_graphs: bool
) -> None:
    quads = random_quads(seed, 400)
    table = QuadTable.of(quads)
    written = serialize(table, NQUADS if keep_graphs else NTRIPLES)
    text, count = written.data, written.statements
    lines = set()
    for s, p, o, g in quads:
        parts = [s.n3(), p.n3(), o.n3()] + ([g.n3()] if keep_graphs else [])
        lines.add(" ".join(parts) + " .\n")
    expected = sorted(lines, key=lambda line: line.split(" ")[3:4] + line.split(" ")[:3]
                      if keep_graphs else line)
    assert count == len(lines)
    assert text.decode().splitlines(keepends=True) == expected


@pytest.mark.parametrize("keep_graphs", [False, True])
def test_both_sorts_agree(monkeypatch: pytest.MonkeyPatch, keep_graphs: bool) -> None:
    """One packed key per statement, or two keys when a build has too many terms for one."""
    table = QuadTable.of(random_quads(7, 1000))
    packed = canonical(table, keep_graphs=keep_graphs)
    monkeypatch.setattr(canonical_module, "_PACKED_LIMIT", 0)
    two_keys = canonical(table, keep_graphs=keep_graphs)
    assert packed.columns.keys() == two_keys.columns.keys()
    for position, column in packed.columns.items():
        assert column.tolist() == two_keys.columns[position].tolist()


@pytest.mark.parametrize("packed", [True, False])
def test_the_triples_of_canonical_quads_are_the_canonical_triples(
        monkeypatch: pytest.MonkeyPatch, packed: bool) -> None:
    """The merge a push sends is made from the quads' sort: the same statements, the same
    ranks, as a sort of the triples alone (the quads state some triples in both graphs)."""
    if not packed:
        monkeypatch.setattr(canonical_module, "_PACKED_LIMIT", 0)
    table = QuadTable.of(random_quads(11, 1000))
    triples = canonical(table, keep_graphs=False)
    made = without_graphs(canonical(table, keep_graphs=True))
    assert len(made) < len(canonical(table, keep_graphs=True))
    assert made.words == triples.words
    assert made.columns.keys() == triples.columns.keys()
    for position, column in triples.columns.items():
        assert made.columns[position].tolist() == column.tolist()


def test_an_empty_table_has_no_statements() -> None:
    assert serialize(QuadTable(), NQUADS).data == b""
    assert len(canonical(QuadTable(), keep_graphs=False)) == 0


FORMS_OF = [
    A,
    URIRef("https://example.org/a%20b?q=1#f"),
    Literal("x"),
    Literal('q " \\ \n\r\t\b\f \x00 \x7f'),
    Literal("\\u0022 stays six characters"),
    Literal("日本 🙂"),
    Literal("a", lang="en-US"),
    Literal("5.0", datatype=XSD.decimal),
    Literal("abc", datatype=XSD.integer),
]


@pytest.mark.parametrize("term", FORMS_OF)
def test_a_terms_form_is_pyoxigraphs_text_for_it(term: URIRef | Literal) -> None:
    """``form`` is how a term reaches pyoxigraph: parsed, it is the very term; in a query's
    VALUES block, it is the term a store loaded from the same text holds (pyoxigraph keeps a
    decimal as its value, so ``"5.0"`` comes back ``"5"`` either way)."""
    form = TermTable().form(term)
    triple = f"<urn:s> <urn:p> {form} .\n"
    [quad] = ox.parse(triple, format=ox.RdfFormat.N_TRIPLES)
    assert to_rdflib(quad.object) == term and str(to_rdflib(quad.object)) == str(term)
    store = ox.Store()
    store.load(triple, format=ox.RdfFormat.N_TRIPLES)
    [stored] = store.query("SELECT ?x WHERE { ?s ?p ?x }")
    [bound] = store.query(f"SELECT ?x WHERE {{ VALUES ?x {{ {form} }} ?s ?p ?x }}")
    assert bound["x"] == stored["x"]


def test_a_frozen_table_keeps_its_terms_and_finds_iris_but_looks_up_nothing() -> None:
    quads = [(A, RDFS.label, Literal("a", lang="en-US"), G1),
             (A, RDFS.comment, Literal("7", datatype=XSD.integer), G1),
             (B, RDFS.label, Literal("b"), G2)]
    table = QuadTable.of(quads)
    ids = {term: table.terms.find_iri(term) for term in (A, B, G1, RDFS.label)}
    forms = list(table.terms.ntriples)
    table.terms.freeze()
    assert table.quads() == quads and table.terms.ntriples == forms
    assert {term: table.terms.find_iri(term) for term in ids} == ids
    assert table.terms.find_iri(C) is None
    stated = table.terms.terms[table.column(OBJECT)[0]]
    assert isinstance(stated, Literal) and stated.language == "en-US"  # as stated
    typed = table.terms.terms[table.column(OBJECT)[1]]
    assert typed == quads[1][2] and typed.value == 7  # type: ignore[union-attr]
    assert not table.terms.terms.made  # made from their forms again, and not kept
    for look_up in (lambda: table.terms.iri(A), lambda: table.terms.plain("b"),
                    lambda: table.terms.object(Literal("7", datatype=XSD.integer)),
                    lambda: table.terms.form(C)):
        with pytest.raises(RuntimeError, match="frozen"):
            look_up()



def test_freezing_a_table_lets_go_of_its_lookups() -> None:
    """The lookups (term to id) hold about as much as the forms: freezing frees them. No
    rdflib term of an IRI or a plain literal is kept either way."""
    tracemalloc.start()
    try:
        table = QuadTable.of([(URIRef(f"{EX}s{i}"), RDFS.label, Literal(f"label {i}"), G1)
                              for i in range(20_000)])
        built = tracemalloc.get_traced_memory()[0]
        table.terms.freeze()
        frozen = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert not table.terms.terms.made  # no typed or tagged literal: no term kept
    assert built - frozen > built / 3, (built, frozen)


def test_a_plain_literal_is_held_once_by_the_table() -> None:
    """A plain literal is looked up by its form, the very string the table stores: interning
    long texts holds them about once (by their text, the lookup's key held each a second
    time until the freeze: 0.4 GB of a build's peak at 100,000 records)."""
    texts = [f"{i} " + "a summary of a benchmark, " * 12 for i in range(5_000)]
    text_bytes = sum(map(len, texts))
    terms = TermTable()
    tracemalloc.start()
    try:
        for text in texts:
            terms.plain(text + ".")  # a string of the caller's, gone once the call returns
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert [terms.plain(text + ".") for text in texts] == list(range(len(texts)))
    assert held < 1.5 * text_bytes, (held, text_bytes)


def test_a_snapshot_makes_no_copy_of_the_forms() -> None:
    """What the state keeps of the terms is their forms and kinds: a snapshot takes the
    forms as they are (it made every literal's lexical form anew: at 100,000 records, most
    of a 0.4 GB step as the store's state was written)."""
    terms = TermTable()
    for i in range(20_000):
        terms.plain(f"{i} " + "words of a summary " * 5)
    text = sum(map(len, terms.ntriples))
    snapshot, _, peak = traced(terms.snapshot)
    assert snapshot.ntriples == terms.ntriples and snapshot.kinds == b"P" * 20_000
    assert peak < text / 10, (peak, text)


def test_a_typed_literal_is_held_as_its_form_alone() -> None:
    """50,000 typed literals: the table holds each in under 250 bytes (its N-Triples form,
    about 100 of them, its id and its entry in the lookup). Keyed by (text, datatype), with
    the literal made of them kept until the freeze, each held 534."""
    terms = TermTable()

    def fill() -> None:
        for number in range(50_000):
            terms.typed(str(number * 7919), XSD.integer)

    _, held, _ = traced(fill)
    assert len(terms) == 50_000
    assert terms.terms[7] == Literal("55433", datatype=XSD.integer)
    assert held < 250 * 50_000, held / 50_000
