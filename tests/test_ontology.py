"""The ontology, the closed namespace and the mapping never drift apart."""

from pathlib import Path

import pytest
from rdflib import Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS, SKOS

from graph.build import build
from graph.namespace import BENCH, BENCH_IRI, BENCH_TERMS, ONTOLOGY_IRI
from graph.resources import data_dir
from graph.settings import Settings

from .conftest import DATA


@pytest.fixture(scope="module")
def ontology() -> Graph:
    graph = Graph()
    for name in ("bench.ttl", "vocabularies.ttl"):
        graph.parse(data_dir("ontology") / name, format="turtle")
    return graph


def bench_terms(graph: Graph) -> set[URIRef]:
    return {s for s in graph.subjects() if isinstance(s, URIRef) and s.startswith(BENCH_IRI)}


def test_one_ontology_header_with_version(ontology: Graph) -> None:
    assert list(ontology.subjects(RDF.type, OWL.Ontology)) == [ONTOLOGY_IRI]
    assert ontology.value(ONTOLOGY_IRI, OWL.versionInfo) is not None
    assert ontology.value(ONTOLOGY_IRI, OWL.versionIRI) is not None


def test_every_term_has_label_comment_and_is_defined_by(ontology: Graph) -> None:
    missing = [
        (term, predicate)
        for term in sorted(bench_terms(ontology))
        for predicate in (RDFS.label, RDFS.comment, RDFS.isDefinedBy)
        if ontology.value(term, predicate) is None
    ]
    assert missing == []


def test_closed_namespace_equals_the_ontology_classes_and_properties(ontology: Graph) -> None:
    declared = {
        s
        for kind in (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, RDF.Property)
        for s in ontology.subjects(RDF.type, kind)
        if str(s).startswith(BENCH_IRI)
    }
    in_code = {BENCH[name] for name in BENCH_TERMS}
    assert in_code == declared


def test_vocabulary_members_have_a_notation_and_an_ontology_class(ontology: Graph) -> None:
    classes = set(ontology.subjects(RDF.type, OWL.Class))
    for member in ontology.subjects(SKOS.inScheme, None):
        assert ontology.value(member, SKOS.notation) is not None, member
        assert any(c in classes for c in ontology.objects(member, RDF.type)), member


def fixture_records() -> list[Path]:
    return [data_dir("catalog"), DATA / "records", DATA / "directory"]


def test_every_bench_term_the_mapping_emits_is_declared(ontology: Graph) -> None:
    result = build(fixture_records(), Settings())
    used = {
        term
        for quad in result.quads
        for term in quad[:3]
        if isinstance(term, URIRef) and term.startswith(BENCH_IRI)
    }
    assert used - bench_terms(ontology) == set()
    # The fixtures exercise most of the ontology: a term nothing emits is a sign of drift.
    properties = {s for s in bench_terms(ontology) if (s, RDF.type, OWL.Class) not in ontology}
    unused = {
        p
        for p in properties
        if (p, RDF.type, OWL.ObjectProperty) in ontology
        or (p, RDF.type, OWL.DatatypeProperty) in ontology
    } - used
    assert unused <= {BENCH.accessPhrase}
