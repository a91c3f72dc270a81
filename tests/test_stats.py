"""``graph_stats``: distinct statements and nodes, the ontology's graph left out."""

from rdflib import Literal, URIRef

from graph.dataset.table import QuadTable
from graph.namespace import BENCH, ONTOLOGY_IRI, RDF, RDFS
from graph.stats import graph_stats

EX = "https://example.org/"
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
    stats = graph_stats(QuadTable.of(quads))
    assert stats.triples == 9
    assert stats.per_class == {BENCH.Benchmark: 2, BENCH.HarnessTask: 1}
    assert stats.per_suite == {MEDHELM: 1}
    assert stats.per_access_level == {GATED: 2}
    assert stats.per_harness == {HELM: 1}


def test_an_empty_graph_counts_nothing() -> None:
    stats = graph_stats(QuadTable())
    assert (stats.triples, stats.per_class, stats.per_harness) == (0, {}, {})
