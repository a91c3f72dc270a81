"""``graph_stats`` and ``statement_counts``: distinct statements by part, and distinct nodes with
the ontology's graph left out."""

import numpy as np
from rdflib import Literal, URIRef

from graph.dataset.table import QuadTable, TermTable
from graph.namespace import BENCH, ONTOLOGY_IRI, RDF, RDFS
from graph.stats import StatementCounts, graph_stats, statement_counts
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
    """``graph_stats`` reads the table's own 32-bit ids: at its peak it holds under 60 bytes a
    quad (copying each column as 64-bit ids first held 90 here; a build's peak at 100,000
    records, 4.3 GB, was in this step), and counts as before."""
    terms = TermTable()
    ids = [terms.iri(URIRef(f"{EX}{i}")) for i in range(3_000)]
    chosen = np.random.default_rng(0).choice(np.asarray(ids), size=(120_000, 4))
    table = QuadTable.of_rows(terms, chosen)
    stats, _, peak = traced(lambda: graph_stats(table, "https://example.org/"))
    assert peak < 60 * len(table), peak / len(table)
    distinct = len({tuple(row) for row in chosen[:, :3].tolist()})
    assert stats.statements.records == distinct
