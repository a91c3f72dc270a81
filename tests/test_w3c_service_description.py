"""The W3C SPARQL 1.1 Service Description tests, run against a live ``benchgraph serve``.

The manifest (``tests/data/w3c-sparql11/service-description/manifest.ttl``) names three
cases and leaves the checking to the runner: ``returns-rdf`` (a GET of the endpoint asking
for RDF gets RDF), ``has-endpoint-triple`` (an ``sd:endpoint`` whose object is the URL
requested), ``conforms-to-schema``. For the last, the vocabulary of the SPARQL 1.1 Service
Description Recommendation is written out below, each term with its kind, and the
description must use only those terms, each as what it is, with the domains and ranges the
Recommendation gives.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from rdflib import RDF, BNode, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.term import Node

from tests.conftest import DATA
from tests.serving import LiveServer

SD = Namespace("http://www.w3.org/ns/sparql-service-description#")
MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
FORMATS = "http://www.w3.org/ns/formats/"

CLASSES = {"Service", "Feature", "Language", "Function", "Aggregate", "EntailmentRegime",
           "EntailmentProfile", "GraphCollection", "Dataset", "Graph", "NamedGraph"}
SUBCLASSES = {"Dataset": "GraphCollection"}
LANGUAGES = {"SPARQL10Query", "SPARQL11Query", "SPARQL11Update"}
FEATURES = {"DereferencesURIs", "UnionDefaultGraph", "RequiresDataset", "EmptyGraphs",
            "BasicFederatedQuery"}
INDIVIDUALS = LANGUAGES | FEATURES


@dataclass(frozen=True)
class Property:
    """An sd: property: the class of its subject, and what its object must be."""

    domain: str
    iri_object: bool = False
    """The object must be an IRI (not a blank node or literal)."""
    range: str | None = None
    """The object's sd: class, where the node is typed with sd: classes."""
    individuals: frozenset[str] | None = None
    """An object in the sd: namespace must be one of these."""


PROPERTIES = {
    "endpoint": Property("Service", iri_object=True),
    "feature": Property("Service", iri_object=True, individuals=frozenset(FEATURES)),
    "defaultEntailmentRegime": Property("Service", range="EntailmentRegime"),
    "entailmentRegime": Property("NamedGraph", range="EntailmentRegime"),
    "defaultSupportedEntailmentProfile": Property("Service", range="EntailmentProfile"),
    "supportedEntailmentProfile": Property("NamedGraph", range="EntailmentProfile"),
    "extensionFunction": Property("Service", range="Function"),
    "extensionAggregate": Property("Service", range="Aggregate"),
    "languageExtension": Property("Service", range="Feature"),
    "supportedLanguage": Property("Service", iri_object=True, individuals=frozenset(LANGUAGES)),
    "propertyFeature": Property("Service"),
    "defaultDataset": Property("Service", range="Dataset"),
    "availableGraphs": Property("Service", range="GraphCollection"),
    "resultFormat": Property("Service", iri_object=True),
    "inputFormat": Property("Service", iri_object=True),
    "defaultGraph": Property("Dataset", range="Graph"),
    "namedGraph": Property("GraphCollection", range="NamedGraph"),
    "name": Property("NamedGraph", iri_object=True),
    "graph": Property("NamedGraph", range="Graph"),
}
"""The 19 properties of the vocabulary."""

RDF_ACCEPT = {"text/turtle": "turtle", "application/rdf+xml": "xml",
              "application/n-triples": "nt", "application/ld+json": "json-ld"}


def _sd_name(node: Node) -> str | None:
    text = str(node)
    return text.removeprefix(str(SD)) if isinstance(node, URIRef) and text.startswith(SD) else None


def _sd_types(graph: Graph, node: Node) -> set[str]:
    names = {_sd_name(t) for t in graph.objects(node, RDF.type)} - {None}
    return {n for n in names if n} | {SUBCLASSES[n] for n in names if n in SUBCLASSES}


def schema_problems(graph: Graph) -> list[str]:
    """Every way ``graph`` misuses the Service Description vocabulary (empty: none)."""
    problems = []
    if not set(graph.subjects(RDF.type, SD.Service)):
        problems.append("no node is typed sd:Service")
    for s, p, o in graph:
        for position, node in (("subject", s), ("object", o)):
            name = _sd_name(node)
            is_class = p == RDF.type and position == "object"
            if name is not None and name not in (CLASSES if is_class else INDIVIDUALS):
                kind = "class" if is_class else "individual"
                problems.append(f"sd:{name} as a {position}: not an sd: {kind}")
        name = _sd_name(p)
        if name is None:
            continue
        prop = PROPERTIES.get(name)
        if prop is None:
            problems.append(f"sd:{name} as a predicate: not an sd: property")
            continue
        types = _sd_types(graph, s)
        if types and prop.domain not in types:
            problems.append(f"sd:{name} on a node typed {sorted(types)}, not sd:{prop.domain}")
        if isinstance(o, Literal):
            problems.append(f"sd:{name} {o!r}: the object must be a resource, not a literal")
        elif prop.iri_object and not isinstance(o, URIRef):
            problems.append(f"sd:{name} {o}: the object must be an IRI")
        if prop.individuals is not None and _sd_name(o) not in (*prop.individuals, None):
            problems.append(f"sd:{name} sd:{_sd_name(o)}: not one of {sorted(prop.individuals)}")
        if prop.individuals == LANGUAGES and _sd_name(o) is None:
            problems.append(f"sd:{name} {o}: not one of the SPARQL languages")
        object_types = _sd_types(graph, o)
        if prop.range and object_types and prop.range not in object_types:
            problems.append(
                f"sd:{name} to a node typed {sorted(object_types)}, not sd:{prop.range}")
    return problems


def _description(server: LiveServer, accept: str = "text/turtle") -> tuple[str, Graph]:
    connection = server.connection()
    try:
        connection.request("GET", "/sparql", headers={"Accept": accept})
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    assert response.status == 200, body[:300]
    media_type = (response.getheader("Content-Type") or "").split(";")[0].strip()
    return media_type, Graph().parse(data=body, format=RDF_ACCEPT[media_type])


def test_the_manifest_has_the_three_cases() -> None:
    path = DATA / "w3c-sparql11" / "service-description" / "manifest.ttl"
    graph = Graph().parse(path, format="turtle", publicID=path.resolve().as_uri())
    manifest = graph.value(predicate=RDF.type, object=MF.Manifest, any=False)
    entries = [URIRef(e).fragment for e in Collection(graph, graph.value(manifest, MF.entries))]
    assert entries == ["has-endpoint-triple", "returns-rdf", "conforms-to-schema"]


@pytest.mark.parametrize("accept", [*RDF_ACCEPT, "application/rdf+xml;q=0.8, text/turtle;q=0.5"])
def test_returns_rdf(live_server: LiveServer, accept: str) -> None:
    media_type, graph = _description(live_server, accept)
    best = accept.split(";")[0].split(",")[0]
    assert media_type == best
    assert len(graph) > 0


def test_has_endpoint_triple(live_server: LiveServer) -> None:
    _, graph = _description(live_server)
    services = set(graph.subjects(SD.endpoint, URIRef(live_server.endpoint)))
    assert services, f"no sd:endpoint <{live_server.endpoint}>"
    assert all((service, RDF.type, SD.Service) in graph for service in services)


def test_conforms_to_schema(live_server: LiveServer) -> None:
    for accept in RDF_ACCEPT:
        assert schema_problems(_description(live_server, accept)[1]) == []


def test_result_formats_are_the_w3c_format_iris(live_server: LiveServer) -> None:
    """Clients match sd:resultFormat against the W3C's list of format IRIs."""
    _, graph = _description(live_server)
    listed = {FORMATS + name for name in (
        "SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV",
        "Turtle", "N-Triples", "RDF_XML", "JSON-LD")}
    assert {str(o) for o in graph.objects(None, SD.resultFormat)} == listed


# The schema check itself, on planted mistakes: each must be found.

SERVICE = URIRef("http://example.org/sparql")


def _planted(*triples: tuple[Node, Node, Node]) -> Graph:
    graph = Graph()
    graph.add((SERVICE, RDF.type, SD.Service))
    for triple in triples:
        graph.add(triple)
    return graph


@pytest.mark.parametrize(("graph", "found"), [
    pytest.param(Graph(), "no node is typed sd:Service", id="no-service"),
    pytest.param(_planted((SERVICE, SD.endpoints, SERVICE)), "not an sd: property", id="typo"),
    pytest.param(_planted((SERVICE, RDF.type, SD.endpoint)), "not an sd: class",
                 id="property-as-class"),
    pytest.param(_planted((SERVICE, SD.feature, SD.Feature)), "not an sd: individual",
                 id="class-as-individual"),
    pytest.param(_planted((SERVICE, SD.endpoint, Literal(str(SERVICE)))), "not a literal",
                 id="endpoint-literal"),
    pytest.param(_planted((SERVICE, SD.endpoint, BNode())), "must be an IRI", id="endpoint-bnode"),
    pytest.param(_planted((SERVICE, SD.supportedLanguage, SD.UnionDefaultGraph)),
                 "not one of", id="feature-as-language"),
    pytest.param(_planted((SERVICE, SD.supportedLanguage, URIRef("http://e/SPARQL"))),
                 "not one of the SPARQL languages", id="unknown-language"),
    pytest.param(_planted((SERVICE, SD.resultFormat, Literal("json"))), "not a literal",
                 id="format-literal"),
    pytest.param(_planted((SERVICE, SD.name, SERVICE)), "not sd:NamedGraph", id="domain"),
    pytest.param(_planted((SERVICE, SD.defaultDataset, SERVICE)), "not sd:Dataset", id="range"),
])
def test_the_schema_check_finds(graph: Graph, found: str) -> None:
    problems = schema_problems(graph)
    assert any(found in problem for problem in problems), problems


def test_the_schema_check_passes_a_right_description() -> None:
    dataset, named = BNode(), BNode()
    graph = _planted(
        (SERVICE, SD.endpoint, SERVICE), (SERVICE, SD.supportedLanguage, SD.SPARQL11Query),
        (SERVICE, SD.feature, SD.UnionDefaultGraph), (SERVICE, SD.defaultDataset, dataset),
        (dataset, RDF.type, SD.Dataset), (dataset, SD.namedGraph, named),
        (named, RDF.type, SD.NamedGraph), (named, SD.name, URIRef("http://e/g")),
    )
    assert schema_problems(graph) == []
