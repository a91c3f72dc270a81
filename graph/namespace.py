"""Namespaces: ``BENCH`` (the benchmark ontology) and the prefixes every output uses."""

from functools import lru_cache
from typing import TypeVar, cast

from rdflib import Namespace, URIRef
from rdflib.namespace import DCAT as _DCAT
from rdflib.namespace import DCTERMS as _DCTERMS
from rdflib.namespace import FOAF as _FOAF
from rdflib.namespace import OWL as _OWL
from rdflib.namespace import PROV as _PROV
from rdflib.namespace import RDF as _RDF
from rdflib.namespace import RDFS as _RDFS
from rdflib.namespace import SH as _SH
from rdflib.namespace import SKOS as _SKOS
from rdflib.namespace import XSD as _XSD
from rdflib.namespace import DefinedNamespace, DefinedNamespaceMeta

BENCH_IRI = "https://w3id.org/benchgraph/ontology#"
ONTOLOGY_IRI = URIRef("https://w3id.org/benchgraph/ontology")
BIBO_IRI = "http://purl.org/ontology/bibo/"


class _SCHEMA(DefinedNamespace):
    """The schema.org terms benchgraph uses."""

    _NS = Namespace("https://schema.org/")
    _fail = True

    codeRepository: URIRef
    copyrightNotice: URIRef
    license: URIRef
    name: URIRef
    softwareVersion: URIRef
    url: URIRef


class _BENCH(DefinedNamespace):
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
    HarnessPackage: URIRef
    Corpus: URIRef
    SourceRepository: URIRef
    Subtask: URIRef

    # Properties
    inSuite: URIRef
    accessLevel: URIRef
    harnessTask: URIRef
    harness: URIRef
    taskName: URIRef
    paper: URIRef
    arxiv: URIRef
    arxivVersion: URIRef
    doi: URIRef
    publisher: URIRef
    variant: URIRef
    mentions: URIRef
    result: URIRef
    model: URIRef
    score: URIRef
    catalogued: URIRef
    predecessor: URIRef
    successor: URIRef
    ownVariant: URIRef
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
    entryId: URIRef
    statedIn: URIRef
    hub: URIRef
    hubAccess: URIRef
    mainMetric: URIRef
    taxonomyTask: URIRef
    taxonomyWhat: URIRef
    taxonomyWho: URIRef
    taxonomyWhen: URIRef
    taxonomyLanguage: URIRef
    implementedBy: URIRef
    listedAsTodo: URIRef
    subtask: URIRef
    sampleCount: URIRef
    needsLocalData: URIRef
    localPath: URIRef
    downloadUrl: URIRef
    baselineSource: URIRef
    arxivSubmitted: URIRef
    venue: URIRef
    citeKey: URIRef
    citedAs: URIRef
    accessHolder: URIRef
    language: URIRef
    implementationVersion: URIRef
    needsSandbox: URIRef
    needsInternet: URIRef
    inFamily: URIRef
    RunnerRole: URIRef
    ranBy: URIRef
    evaluatedWith: URIRef
    madeBy: URIRef
    snapshotOf: URIRef
    metricName: URIRef
    normalisedScore: URIRef
    subset: URIRef
    standardError: URIRef
    ciLow: URIRef
    ciHigh: URIRef
    ciLevel: URIRef
    samplesScored: URIRef
    shots: URIRef
    chainOfThought: URIRef
    promptConfig: URIRef
    judgeModel: URIRef
    epochs: URIRef
    setting: URIRef
    settingsKey: URIRef
    harnessVersion: URIRef
    reportedAs: URIRef
    sourceType: URIRef
    dateStatedAs: URIRef
    sourceTable: URIRef
    modelProvider: URIRef
    hubId: URIRef
    modelAccess: URIRef
    parameterCount: URIRef
    describesModel: URIRef


class _DQV(DefinedNamespace):
    """The W3C Data Quality Vocabulary terms benchgraph uses: a result is a quality
    measurement of a metric."""

    _NS = Namespace("http://www.w3.org/ns/dqv#")
    _fail = True

    QualityMeasurement: URIRef
    Metric: URIRef
    isMeasurementOf: URIRef
    value: URIRef


Closed = TypeVar("Closed", bound=type[DefinedNamespace])


def _materialised(namespace: Closed) -> Closed:
    """The closed namespace with each term as a plain class attribute.

    Reading a term of a ``DefinedNamespace`` runs its metaclass's ``__getattr__``; the
    mapping reads terms millions of times in a large build. The subclass answers from its
    dictionary, an order of magnitude faster (perf/decisions/terms-built-directly.md), and
    still refuses, through ``__getattr__``, a name not declared.
    """
    terms = {name: namespace._NS[name] for name in namespace.__annotations__}
    return cast(Closed, DefinedNamespaceMeta(namespace.__name__, (namespace,), terms))


BENCH = _materialised(_BENCH)
BENCH_TERMS = frozenset(_BENCH.__annotations__)
"""The local names of the ontology's classes and properties."""
SCHEMA = _materialised(_SCHEMA)
DCAT = _materialised(_DCAT)
DCTERMS = _materialised(_DCTERMS)
DQV = _materialised(_DQV)
FOAF = _materialised(_FOAF)
OWL = _materialised(_OWL)
PROV = _materialised(_PROV)
RDF = _materialised(_RDF)
RDFS = _materialised(_RDFS)
SH = _materialised(_SH)
SKOS = _materialised(_SKOS)
XSD = _materialised(_XSD)


PREFIXES: dict[str, str] = {
    "bench": BENCH_IRI,
    "bibo": BIBO_IRI,
    "dcat": str(DCAT),
    "dcterms": str(DCTERMS),
    "dqv": str(DQV._NS),
    "foaf": str(FOAF),
    "owl": str(OWL),
    "prov": str(PROV),
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "schema": str(SCHEMA._NS),
    "skos": str(SKOS),
    "xsd": str(XSD),
}
"""Prefixes for serialisations and for the text of named queries (sorted by prefix)."""

BASE_PREFIX = "base"
"""The prefix of the data's base IRI: Turtle and TriG declare it, and a query parameter of
type ``iri`` reads ``base:benchmark/x`` as ``{base}benchmark/x``."""


def curie(iri: str, base: str | None = None) -> str:
    """An IRI for people to read: ``bench:Gated``, or with the data's ``base``,
    ``base:benchmark/mimic_rrs``; the IRI in angle brackets when no prefix fits. The longest
    namespace that fits wins (``bench:`` over a base that is its prefix), and nothing is
    shortened to an empty local name. The one shortening of tables, reports and messages."""
    for prefix, namespace in _by_length(base):
        if iri.startswith(namespace) and len(iri) > len(namespace):
            return f"{prefix}:{iri[len(namespace):]}"
    return f"<{iri}>"


@lru_cache(maxsize=8)
def _by_length(base: str | None) -> tuple[tuple[str, str], ...]:
    known = {**PREFIXES, **({BASE_PREFIX: base} if base else {})}
    return tuple(sorted(known.items(), key=lambda item: (-len(item[1]), item[0])))
