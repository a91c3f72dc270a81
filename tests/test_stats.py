"""``graph_stats`` and ``statement_counts``: distinct statements by part, and distinct nodes with
the ontology's graph left out."""

import numpy as np
import pytest
from rdflib import Literal, URIRef

import graph.build.stats as stats_module
from graph.build.stats import StatementCounts, graph_stats, statement_counts
from graph.dataset.table import SUBJECT, QuadTable, TermTable
from graph.namespace import BENCH, ONTOLOGY_IRI, RDF, RDFS
from tests.memory import traced

EX = "https://example.org/"
BUILD = URIRef(EX + "build")  # the build graph of base EX
A, B, T1, T2 = (URIRef(EX + name) for name in ("a", "b", "t1", "t2"))
G1, G2 = URIRef(EX + "g1"), URIRef(EX + "g2")
# vocabulary members, which the closed BENCH namespace does not name
MEDHELM, GATED, HELM = (URIRef(f"{ONTOLOGY_IRI}#{name}") for name in ("MedHELM", "Gated", "HELM"))


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
        (T2, BENCH.harness, HELM, G1),  # not typed a task: not counted
        (A, RDF.type, Literal("not a class"), G1),  # a literal is no class
        (BENCH.Benchmark, RDF.type, URIRef("http://www.w3.org/2002/07/owl#Class"), ONTOLOGY_IRI),
        (BENCH.Benchmark, RDFS.label, Literal("Benchmark"), ONTOLOGY_IRI),
    ]
    stats = graph_stats(QuadTable.of(quads), EX)
    assert stats.statements == StatementCounts("triples", 9, 0, 2, 2)
    assert stats.per_class == {BENCH.Benchmark: 2, BENCH.HarnessTask: 1}
    assert stats.per_suite == {MEDHELM: 1}
    assert stats.per_access_level == {GATED: 2}
    assert stats.per_harness == {HELM: 1}


def test_an_empty_graph_counts_nothing() -> None:
    stats = graph_stats(QuadTable(), EX)
    assert (stats.statements.total, stats.per_class, stats.per_harness) == (0, {}, {})


def test_statements_by_part_add_up_to_what_a_writer_writes() -> None:
    label = (A, RDFS.label, Literal("A"))
    quads = [
        (*label, G1), (*label, G2),  # two records state it: one triple, two quads
        (*label, ONTOLOGY_IRI),  # the ontology too: still a triple of the records
        (A, BENCH.catalogued, Literal(True), BUILD),
        (A, BENCH.catalogued, Literal(True), BUILD),  # a repeat counts once
        (BENCH.Benchmark, RDFS.label, Literal("Benchmark"), ONTOLOGY_IRI),
    ]
    table = QuadTable.of(quads)
    triples = statement_counts(table, EX)
    assert triples == StatementCounts("triples", records=1, build=1, ontology=1, record_graphs=2)
    assert triples.total == 3
    quads_kept = statement_counts(table, EX, keep_graphs=True)
    assert (quads_kept.records, quads_kept.build, quads_kept.ontology) == (2, 1, 2)
    assert quads_kept.total == 5


def test_the_counts_read_the_table_in_place() -> None:
    """``graph_stats`` reads the table's own 32-bit ids and sorts one 64-bit key a row, in
    place: at its peak it holds under 20 bytes a quad (sorting the columns packed as 64-bit
    copies held 42 here; a build's peak at 30,000 records was in this step), and counts as
    before."""
    terms = TermTable()
    ids = np.asarray([terms.iri(URIRef(f"{EX}{i}")) for i in range(3_000)])
    rng = np.random.default_rng(0)
    chosen = rng.choice(ids, size=(200_000, 4))  # over three runs of _first_parts
    chosen[:, 1] = rng.choice(ids[:40], size=len(chosen))  # a few dozen predicates
    table = QuadTable.of_rows(terms, chosen)
    stats, _, peak = traced(lambda: graph_stats(table, "https://example.org/"))
    assert peak < 20 * len(table), peak / len(table)
    distinct = len({tuple(row) for row in chosen[:, :3].tolist()})
    assert stats.statements.records == distinct


@pytest.mark.parametrize("seed", range(6))
def test_the_packed_keys_count_as_the_sorted_rows(seed: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The one-key count (``_triple_keys``) and the sorted rows it stands in for (used when a
    key would not fit) agree, over triples repeated within and across the records' graphs,
    the build graph and the ontology, and across the runs ``_first_parts`` reads."""
    rng = np.random.default_rng(seed)
    terms = TermTable()
    nodes = np.asarray([terms.iri(URIRef(f"{EX}n{i}")) for i in range(60)])
    graphs = np.asarray([terms.iri(g) for g in (BUILD, ONTOLOGY_IRI, G1, G2, T1)])
    rows = np.column_stack([rng.choice(nodes, 150_000), rng.choice(nodes[:7], 150_000),
                            rng.choice(nodes, 150_000), rng.choice(graphs, 150_000)])
    table = QuadTable.of_rows(terms, rows)
    packed = statement_counts(table, EX)
    monkeypatch.setattr(stats_module, "_triple_keys", lambda *args: None)
    assert statement_counts(table, EX) == packed
    assert packed.record_graphs == 3
    expected = {}
    for s, p, o, g in rows.tolist():  # the first part of each triple, by hand
        part = 1 if g == graphs[0] else 2 if g == graphs[1] else 0
        expected[s, p, o] = min(part, expected.get((s, p, o), 2))
    by_part = [list(expected.values()).count(part) for part in range(3)]
    assert [packed.records, packed.build, packed.ontology] == by_part


@pytest.mark.parametrize("seed", range(6))
def test_counts_updated_for_some_subjects_are_the_counts_made_again(seed: int) -> None:
    """``updated_stats``: the counts of a table whose statements differ from another's only
    in those of some subjects, from the other's, are what ``graph_stats`` counts afresh, in
    the same order; whatever the change (a type, a suite, a harness task, a statement moved
    between parts, a subject or a record graph gone or new)."""
    rng = np.random.default_rng(seed)
    nodes = [URIRef(f"{EX}n{i}") for i in range(12)]
    graphs = [G1, G2, URIRef(EX + "g3"), BUILD, ONTOLOGY_IRI]
    said = [(RDF.type, BENCH.Benchmark), (RDF.type, BENCH.HarnessTask),
            (BENCH.inSuite, MEDHELM), (BENCH.accessLevel, GATED), (BENCH.harness, HELM),
            (RDFS.label, Literal("x")), (BENCH.catalogued, Literal(True))]

    def statements(count: int) -> list[tuple[URIRef, URIRef, object, URIRef]]:
        return [(nodes[rng.integers(12)], *said[rng.integers(len(said))],
                 graphs[rng.integers(len(graphs))]) for _ in range(count)]

    old_quads = statements(60)
    changed = {nodes[i] for i in rng.choice(12, size=3, replace=False)}
    new_quads = [q for q in old_quads if q[0] not in changed or rng.random() < 0.5]
    new_quads += [q for q in statements(40) if q[0] in changed]
    one, other = sorted(changed)[:2]  # a record graph and a class gone, others new
    old_quads += [(one, RDFS.label, Literal("only here"), URIRef(EX + "gone")),
                  (one, RDF.type, URIRef(EX + "Rare"), G1)]
    new_quads += [(other, RDF.type, URIRef(EX + "New"), URIRef(EX + "new")),
                  (other, RDFS.label, Literal("new"), URIRef(EX + "newer"))]
    terms = TermTable()
    old, new = QuadTable(terms), QuadTable(terms)
    old.extend(old_quads)
    new.extend(new_quads)
    subjects = np.asarray(sorted(terms.iri(node) for node in changed), dtype=np.int64)
    updated = stats_module.updated_stats(graph_stats(old, EX), old, new, subjects, EX)
    afresh = graph_stats(new, EX)
    assert updated == afresh
    assert updated.to_json() == afresh.to_json()  # the same order too
    about = old.select(np.isin(old.held_rows()[:, SUBJECT], subjects))  # all it reads of old
    assert stats_module.updated_stats(graph_stats(old, EX), about, new, subjects, EX) == afresh
