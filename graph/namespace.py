"""Namespaces: ``BENCH`` (the benchmark ontology) and the prefixes every output uses."""

from rdflib import Namespace, URIRef
from rdflib.namespace import DCAT, DCTERMS, FOAF, OWL, PROV, RDF, RDFS, SKOS, XSD, DefinedNamespace

BENCH_IRI = "https://w3id.org/benchgraph/ontology#"
ONTOLOGY_IRI = URIRef("https://w3id.org/benchgraph/ontology")
SCHEMA = Namespace("https://schema.org/")
BIBO = Namespace("http://purl.org/ontology/bibo/")


class BENCH(DefinedNamespace):
    """The ontology's classes and properties (``ontology/bench.ttl``), closed: a typo is an error.

    The controlled vocabularies' individuals (``bench:Gated``, ``bench:HELM`` ...) are data,
    found by notation through ``graph.vocabulary``; code never names them.
    ``tests/test_ontology.py`` holds this list equal to the ontology.
    """

    _NS = Namespace(BENCH_IRI)
    _fail = True

    # Classes
    Benchmark: URIRef
    Dataset: URIRef
    Metric: URIRef
    Paper: URIRef
    Organization: URIRef
    Person: URIRef
    Harness: URIRef
    HarnessTask: URIRef
    Suite: URIRef
    Model: URIRef
    Result: URIRef
    Record: URIRef
    AccessLevel: URIRef
    ContaminationRisk: URIRef
    SaturationStatus: URIRef
    MetricDirection: URIRef
    Category: URIRef
    Tag: URIRef
    Credit: URIRef
    Source: URIRef
    ModelCardSurvey: URIRef

    # Properties
    inSuite: URIRef
    accessLevel: URIRef
    harnessTask: URIRef
    harness: URIRef
    taskName: URIRef
    paper: URIRef
    arxiv: URIRef
    publisher: URIRef
    variant: URIRef
    mentions: URIRef
    result: URIRef
    model: URIRef
    score: URIRef
    catalogued: URIRef
    predecessor: URIRef
    successor: URIRef
    family: URIRef
    relatedBenchmark: URIRef
    measures: URIRef
    body: URIRef
    taskFormat: URIRef
    category: URIRef
    subcategory: URIRef
    tag: URIRef
    status: URIRef
    released: URIRef
    dataset: URIRef
    metric: URIRef
    leaderboard: URIRef
    source: URIRef
    modelCovered: URIRef
    harnessNote: URIRef
    publisherText: URIRef
    publisherNote: URIRef
    publisherUrl: URIRef
    publisherCredit: URIRef
    authorCredit: URIRef
    agent: URIRef
    position: URIRef
    note: URIRef
    contaminationRisk: URIRef
    contaminationNote: URIRef
    saturationStatus: URIRef
    saturationNote: URIRef
    saturationAsOf: URIRef
    topScore: URIRef
    accessStatement: URIRef
    accessNote: URIRef
    level: URIRef
    scoring: URIRef
    answerFormat: URIRef
    taskAvailability: URIRef
    otherFact: URIRef
    authorsWords: URIRef
    scoresHeading: URIRef
    scoresStatement: URIRef
    modelCardSurvey: URIRef
    statement: URIRef
    reportedInModelCards: URIRef
    launchPosts: URIRef
    labs: URIRef
    modality: URIRef
    licenseText: URIRef
    publicTestSet: URIRef
    size: URIRef
    sizeNote: URIRef
    splitsNote: URIRef
    direction: URIRef
    unit: URIRef
    maxScore: URIRef
    humanBaseline: URIRef
    randomBaseline: URIRef
    baselineNote: URIRef
    asOf: URIRef
    verified: URIRef
    accessed: URIRef
    describes: URIRef
    sourceFile: URIRef
    importer: URIRef
    pageKind: URIRef
    researched: URIRef
    researchedBy: URIRef
    reviewed: URIRef
    reviewedBy: URIRef
    commit: URIRef
    eligibilityAsOf: URIRef
    canonicalId: URIRef
    dispositionStatus: URIRef
    dispositionReason: URIRef
    unknownField: URIRef
    accessPhrase: URIRef


PREFIXES: dict[str, str] = {
    "bench": BENCH_IRI,
    "bibo": str(BIBO),
    "dcat": str(DCAT),
    "dcterms": str(DCTERMS),
    "foaf": str(FOAF),
    "owl": str(OWL),
    "prov": str(PROV),
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "schema": str(SCHEMA),
    "skos": str(SKOS),
    "xsd": str(XSD),
}
"""Prefixes for serialisations and for the text of named queries (sorted by prefix)."""


def curie(iri: str) -> str:
    """``bench:Gated`` for an IRI under a known prefix; the IRI in angle brackets otherwise."""
    for prefix, namespace in PREFIXES.items():
        if iri.startswith(namespace) and len(iri) > len(namespace):
            return f"{prefix}:{iri[len(namespace) :]}"
    return f"<{iri}>"
