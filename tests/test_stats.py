"""``graph_stats`` and ``statement_counts``: distinct statements by part, and distinct nodes with
the ontology's graph left out; ``updated_stats`` from the statements of the changed subjects."""

import random
from collections.abc import Iterable

import pyoxigraph as ox
import pytest
from rdflib import Literal, URIRef
from rdflib.term import Node

from graph.build.stats import (
    StatementCounts,
    about,
    count_record_graphs,
    graph_stats,
    statement_counts,
    updated_stats,
)
from graph.dataset.oxigraph import to_oxigraph
from graph.namespace import BENCH, ONTOLOGY_IRI, RDF, RDFS

EX = "https://example.org/"
BUILD = URIRef(EX + "build")  # the build graph of base EX
A, B, T1, T2 = (URIRef(EX + name) for name in ("a", "b", "t1", "t2"))
G1, G2 = URIRef(EX + "g1"), URIRef(EX + "g2")
# vocabulary members, which the closed BENCH namespace does not name
MEDHELM, GATED, HELM = (URIRef(f"{ONTOLOGY_IRI}#{name}") for name in ("MedHELM", "Gated", "HELM"))

Quad = tuple[Node, Node, Node, URIRef]


def store_of(quads: Iterable[Quad]) -> ox.Store:
    """A store as a build makes it: each quad in its named graph, and their merge in the
    default graph."""
    store = ox.Store()
    for quad in quads:
        s, p, o, g = map(to_oxigraph, quad)
        assert not isinstance(s, ox.Literal) and isinstance(p, ox.NamedNode)
        assert isinstance(g, ox.NamedNode)
        store.add(ox.Quad(s, p, o, g))
        store.add(ox.Quad(s, p, o, ox.DefaultGraph()))
    return store


def test_counts_distinct_things_outside_the_ontology_graph() -> None:
    quads = [
        (A, RDF.type, BENCH.Benchmark, G1),
        (A, RDF.type, BENCH.Benchmark, G2),  # the same triple in another graph: once
        (B, RDF.type, BENCH.Benchmark, G2),
        (A, BENCH.inSuite, MEDHELM, G1),
        (A, BENCH.accessLevel, GATED, G1),
        (B, BENCH.accessLevel, GATED, G2),
        (T1, RDF.type, BENCH.HarnessTask, G1),
        (T1, BENCH.harness, HELM, G1),
        (T2, BENCH.harness, HELM, G1),  # no type: no class
        (A, RDF.type, Literal("not a class"), G1),  # a literal is no class
        (BENCH.Benchmark, RDF.type, URIRef("http://www.w3.org/2002/07/owl#Class"), ONTOLOGY_IRI),
        (BENCH.Benchmark, RDFS.label, Literal("Benchmark"), ONTOLOGY_IRI),
    ]
    stats = graph_stats(store_of(quads), EX)
    assert stats.statements == StatementCounts("triples", 9, 0, 2, 2)
    assert stats.per_class == {BENCH.Benchmark: 2, BENCH.HarnessTask: 1}


def test_what_the_ontology_also_states_counts_and_what_only_it_states_does_not() -> None:
    """A data graph's statement counts though the ontology states it too; one that only the
    ontology states makes no node of a class."""
    quads = [
        (A, RDF.type, BENCH.Benchmark, G1),
        (A, RDF.type, BENCH.Benchmark, ONTOLOGY_IRI),  # and a record: counts
        (B, RDF.type, BENCH.Benchmark, ONTOLOGY_IRI),  # only the ontology: not
        (T1, RDF.type, BENCH.HarnessTask, BUILD),  # the build graph is data
        (T1, BENCH.harness, HELM, G1),
        (T2, RDF.type, BENCH.HarnessTask, ONTOLOGY_IRI),  # a task only to the ontology
        (T2, BENCH.harness, HELM, G2),
    ]
    stats = graph_stats(store_of(quads), EX)
    assert stats.per_class == {BENCH.Benchmark: 1, BENCH.HarnessTask: 1}
    assert stats.statements == StatementCounts("triples", 3, 1, 2, 2)


def test_the_sections_are_most_frequent_first_then_by_iri() -> None:
    quads = [(URIRef(f"{EX}n{i}"), RDF.type, URIRef(f"{EX}{kind}"), G1)
             for i, kind in enumerate(["c", "b", "a", "a", "b", "d"])]
    assert list(graph_stats(store_of(quads), EX).per_class) == [
        URIRef(f"{EX}{kind}") for kind in ("a", "b", "c", "d")]


def test_an_empty_graph_counts_nothing() -> None:
    stats = graph_stats(ox.Store(), EX)
    assert (stats.statements.total, stats.per_class) == (0, {})
    assert statement_counts(ox.Store(), EX, keep_graphs=True).total == 0


def test_statements_by_part_add_up_to_what_a_writer_writes() -> None:
    label = (A, RDFS.label, Literal("A"))
    quads = [
        (*label, G1), (*label, G2),  # two records state it: one triple, two quads
        (*label, ONTOLOGY_IRI),  # the ontology too: still a triple of the records
        (A, BENCH.catalogued, Literal(True), BUILD),
        (A, BENCH.catalogued, Literal(True), BUILD),  # a repeat counts once
        (BENCH.Benchmark, RDFS.label, Literal("Benchmark"), ONTOLOGY_IRI),
    ]
    store = store_of(quads)
    triples = statement_counts(store, EX)
    assert triples == StatementCounts("triples", records=1, build=1, ontology=1, record_graphs=2)
    assert triples.total == 3
    quads_kept = statement_counts(store, EX, keep_graphs=True)
    assert (quads_kept.records, quads_kept.build, quads_kept.ontology) == (2, 1, 2)
    assert quads_kept.total == 5


def test_a_graph_emptied_is_no_record_graph() -> None:
    """A store still names a graph whose statements were all removed: it is not counted."""
    store = store_of([(A, RDFS.label, Literal("A"), G1), (B, RDFS.label, Literal("B"), G2),
                      (A, BENCH.catalogued, Literal(True), BUILD)])
    for quad in list(store.quads_for_pattern(None, None, None, ox.NamedNode(str(G2)))):
        store.remove(quad)
    assert ox.NamedNode(str(G2)) in set(store.named_graphs())
    assert count_record_graphs(store, EX) == 1
    assert statement_counts(store, EX).record_graphs == 1


@pytest.mark.parametrize("seed", range(6))
def test_each_triple_counts_in_its_first_part(seed: int) -> None:
    """Over triples repeated within and across the records' graphs, the build graph and the
    ontology, each triple counts once, in the first of records, build graph, ontology that
    holds it; each graph's quads count in its own part."""
    rng = random.Random(seed)
    nodes = [URIRef(f"{EX}n{i}") for i in range(12)]
    graphs = [BUILD, ONTOLOGY_IRI, G1, G2, T1]
    quads = [(rng.choice(nodes), rng.choice(nodes[:4]), rng.choice(nodes), rng.choice(graphs))
             for _ in range(2_000)]
    store = store_of(quads)
    first: dict[tuple[Node, Node, Node], int] = {}
    for s, p, o, g in quads:  # the first part of each triple, by hand
        part = 1 if g == BUILD else 2 if g == ONTOLOGY_IRI else 0
        first[s, p, o] = min(part, first.get((s, p, o), 2))
    counted = statement_counts(store, EX)
    assert [counted.records, counted.build, counted.ontology] == [
        list(first.values()).count(part) for part in range(3)]
    assert counted.record_graphs == 3
    kept = statement_counts(store, EX, keep_graphs=True)
    own = {(s, p, o, g) for s, p, o, g in quads}
    assert [kept.records, kept.build, kept.ontology] == [
        sum(1 for q in own if q[3] not in (BUILD, ONTOLOGY_IRI)),
        sum(1 for q in own if q[3] == BUILD), sum(1 for q in own if q[3] == ONTOLOGY_IRI)]


def test_about_holds_the_subjects_statements_and_their_merge() -> None:
    quads = [(A, RDFS.label, Literal("A"), G1), (A, RDFS.label, Literal("A"), G2),
             (A, BENCH.catalogued, Literal(True), BUILD), (B, RDFS.label, Literal("B"), G1),
             (T1, RDFS.label, Literal("T1"), G2)]
    found = about(store_of(quads), [ox.NamedNode(str(A)), ox.NamedNode(str(T1))])
    assert set(found) == set(store_of([q for q in quads if q[0] in (A, T1)]))
    assert len(list(found.quads_for_pattern(None, None, None, ox.DefaultGraph()))) == 3


@pytest.mark.parametrize("seed", range(6))
def test_counts_updated_for_some_subjects_are_the_counts_made_again(seed: int) -> None:
    """``updated_stats``: the counts of a store whose statements differ from another's only
    in those of some subjects, from the other's and the two stores' statements about those
    subjects (``about``), are what ``graph_stats`` counts afresh over the whole changed store,
    in the same order; whatever the change (a type, a suite, a harness task, a statement
    moved between parts, a subject or a record graph gone or new)."""
    rng = random.Random(seed)
    nodes = [URIRef(f"{EX}n{i}") for i in range(12)]
    graphs = [G1, G2, URIRef(EX + "g3"), BUILD, ONTOLOGY_IRI]
    said = [(RDF.type, BENCH.Benchmark), (RDF.type, BENCH.HarnessTask),
            (BENCH.inSuite, MEDHELM), (BENCH.accessLevel, GATED), (BENCH.harness, HELM),
            (RDFS.label, Literal("x")), (BENCH.catalogued, Literal(True))]

    def statements(count: int) -> list[Quad]:
        return [(rng.choice(nodes), *rng.choice(said), rng.choice(graphs)) for _ in range(count)]

    old_quads = statements(60)
    changed = set(rng.sample(nodes, 3))
    new_quads = [q for q in old_quads if q[0] not in changed or rng.random() < 0.5]
    new_quads += [q for q in statements(40) if q[0] in changed]
    one, other = sorted(changed)[:2]  # a record graph and a class gone, others new
    old_quads += [(one, RDFS.label, Literal("only here"), URIRef(EX + "gone")),
                  (one, RDF.type, URIRef(EX + "Rare"), G1)]
    new_quads += [(other, RDF.type, URIRef(EX + "New"), URIRef(EX + "new")),
                  (other, RDFS.label, Literal("new"), URIRef(EX + "newer"))]
    old, new = store_of(old_quads), store_of(new_quads)
    subjects = [ox.NamedNode(str(node)) for node in changed]
    updated = updated_stats(graph_stats(old, EX), about(old, subjects), about(new, subjects),
                            count_record_graphs(new, EX), EX)
    afresh = graph_stats(new, EX)
    assert updated == afresh
    assert updated.to_json() == afresh.to_json()  # the same order too
