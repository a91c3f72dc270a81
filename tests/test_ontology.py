"""The ontology, the closed namespace and the mapping never drift apart."""

import pytest
from rdflib import Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS, SKOS

from graph.build.graphs import build
from graph.dataset.quads import Quad
from graph.namespace import BENCH, BENCH_IRI, BENCH_TERMS, ONTOLOGY_IRI
from graph.resources import data_dir
from graph.settings import Settings
from tests.seeds import SEEDS

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


@pytest.fixture(scope="module")
def built() -> list[Quad]:
    """The fixture records' build: every record graph, the build graph and the ontology's."""
    folders = [*SEEDS, DATA / "records", DATA / "directory", DATA / "defects",
               DATA / "harness_records", DATA / "harness_match", DATA / "stated_facts",
               DATA / "results"]
    return build(folders, Settings()).quads


def test_every_bench_term_the_mapping_emits_is_declared(ontology: Graph, built: list[Quad]) -> None:
    used = {
        term
        for quad in built
        if quad[3] != ONTOLOGY_IRI  # the ontology's own graph declares what it names
        for term in quad[:3]
        if isinstance(term, URIRef) and term.startswith(BENCH_IRI)
    }
    assert used - bench_terms(ontology) == set()


def test_every_bench_property_is_stated_somewhere(ontology: Graph, built: list[Quad]) -> None:
    """The fixtures exercise every property: one that no statement of the build has as its
    predicate is drift. Use counts by predicate only, since as a subject the ontology's own
    named graph (every build carries it) names each term it declares; the vocabularies
    stating ``bench:accessPhrase`` of the access levels is use."""
    properties = {
        s
        for kind in (OWL.ObjectProperty, OWL.DatatypeProperty, RDF.Property)
        for s in ontology.subjects(RDF.type, kind)
        if str(s).startswith(BENCH_IRI)
    }
    stated = {quad[1] for quad in built}
    assert sorted(properties - stated) == []
