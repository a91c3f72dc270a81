"""Real SPARQL clients against a live ``benchgraph serve``, used as their users use them.

SPARQLWrapper (GET and POST, each results format, CONSTRUCT into a graph) and rdflib's
``SPARQLStore`` (a ``Graph`` whose store is the endpoint: queries, ASK, ``initBindings``,
triple lookups) must get the bundled catalog's rows. Then the four results bodies are read by
parsers that share nothing with the server or the clients (``tests/sparql_results.py``), and
must hold the same rows.
"""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlencode
from urllib.request import Request, urlopen
from xml.dom.minidom import Document

import pytest
from rdflib import RDFS, XSD, Graph, Literal, Namespace, URIRef
from rdflib.plugins.stores.sparqlstore import SPARQLStore
from SPARQLWrapper import CSV as CSV_FORMAT
from SPARQLWrapper import (
    GET,
    JSON,
    JSONLD,
    N3,
    POST,
    POSTDIRECTLY,
    RDFXML,
    TSV,
    TURTLE,
    XML,
    SPARQLWrapper,
)
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

from graph.sparql.named import find_named_query
from tests.serving import LiveServer
from tests.sparql_results import READERS, Cell, Table
from web.sparql import TRUNCATED_HEADER

BENCH = Namespace("https://w3id.org/benchgraph/ontology#")
DCTERMS = Namespace("http://purl.org/dc/terms/")
BENCHMARK = "https://w3id.org/benchgraph/benchmark/"
MIMIC_RRS = URIRef(f"{BENCHMARK}mimic_rrs")

GATED_MEDHELM = find_named_query("gated-medhelm").text  # type: ignore[union-attr]
Rows = list[dict[str, str]]
Triples = set[tuple[URIRef, URIRef, Literal]]
GATED_NAMES = {"dischargeme": "DischargeMe", "ehrshot": "EHRSHOT", "medalign": "MedAlign",
               "mimic_bhc": "MIMIC-IV-BHC", "mimic_rrs": "MIMIC-RRS (MedHELM)",
               "mimiciv_billing_code": "MIMIC-IV Billing Code",
               "n2c2_ct_matching": "N2C2-CT Matching"}
"""The named query's rows on the bundled catalog: what HELM's run_entries_medhelm_gated.conf
lists. The seeds alone hold mimic_rrs's."""

CONSTRUCT = """PREFIX bench: <https://w3id.org/benchgraph/ontology#>
PREFIX dcterms: <http://purl.org/dc/terms/>
CONSTRUCT { ?benchmark dcterms:identifier ?id }
WHERE { ?benchmark bench:inSuite bench:MedHELM ; bench:accessLevel bench:Gated ;
                   dcterms:identifier ?id }"""


@pytest.fixture
def gated_rows(live_server: LiveServer) -> Rows:
    """The named query's rows on what the server holds: the bundled catalog (the memory kind
    serves it, as ``benchgraph serve`` does), or the seeds (the kinds built from them)."""
    ask = urlencode({"query": "ASK { <https://w3id.org/benchgraph/benchmark/ehrshot> ?p ?o }"})
    request = Request(f"{live_server.endpoint}?{ask}",
                      headers={"Accept": "application/sparql-results+json"})
    with urlopen(request) as response:
        bundled = json.load(response)["boolean"]
    names = GATED_NAMES if bundled else {"mimic_rrs": GATED_NAMES["mimic_rrs"]}
    return [{"id": key, "name": name, "benchmark": f"{BENCHMARK}{key}"}
            for key, name in names.items()]


@pytest.fixture
def constructed(gated_rows: Rows) -> Triples:
    """What CONSTRUCT gives on what the server holds."""
    return {(URIRef(row["benchmark"]), DCTERMS.identifier, Literal(row["id"]))
            for row in gated_rows}

KINDS = """PREFIX bench: <https://w3id.org/benchgraph/ontology#>
PREFIX dcterms: <http://purl.org/dc/terms/>
SELECT ?benchmark ?id ?released ?catalogued ?text ?tagged ?missing
WHERE {
  BIND (<https://w3id.org/benchgraph/benchmark/mimic_rrs> AS ?benchmark)
  ?benchmark dcterms:identifier ?id ; bench:released ?released ; bench:catalogued ?catalogued .
  BIND ("say \\"hi\\", then\\ttab\\nand a new line" AS ?text)
  BIND ("radiology"@en AS ?tagged)
  OPTIONAL { ?benchmark bench:noSuchProperty ?missing }
}"""
"""One row with a term of each kind: an IRI, plain, typed and tagged literals, a literal that
CSV must quote and TSV escape, and an unbound variable."""
KINDS_ROW = {
    "benchmark": Cell("uri", str(MIMIC_RRS)),
    "id": Cell("literal", "mimic_rrs"),
    "released": Cell("literal", "2023", str(XSD.gYear)),
    "catalogued": Cell("literal", "true", str(XSD.boolean)),
    "text": Cell("literal", 'say "hi", then\ttab\nand a new line'),
    "tagged": Cell("literal", "radiology", lang="en"),
}
KINDS_VARIABLES = ("benchmark", "id", "released", "catalogued", "text", "tagged", "missing")


def wrapper(server: LiveServer, query: str, return_format: str, method: str = GET
            ) -> SPARQLWrapper:
    client = SPARQLWrapper(server.endpoint)
    client.setQuery(query)
    client.setReturnFormat(return_format)
    client.setMethod(method)
    return client


def json_rows(document: dict[str, object]) -> Rows:
    bindings = document["results"]["bindings"]  # type: ignore[index]
    return [{name: term["value"] for name, term in row.items()} for row in bindings]


def minidom_rows(document: Document) -> Rows:
    """The rows as a user of SPARQLWrapper's XML (a minidom Document) reads them."""
    rows = []
    for result in document.getElementsByTagName("result"):
        row = {}
        for binding in result.getElementsByTagName("binding"):
            term = next(n for n in binding.childNodes if n.nodeType == n.ELEMENT_NODE)
            row[binding.getAttribute("name")] = "".join(t.data for t in term.childNodes)
        rows.append(row)
    return rows


# SPARQLWrapper

@pytest.mark.parametrize("method", [GET, POST])
def test_sparqlwrapper_json(live_server: LiveServer, method: str, gated_rows: Rows) -> None:
    result = wrapper(live_server, GATED_MEDHELM, JSON, method).query()
    assert result.info()["content-type"].startswith("application/sparql-results+json")
    assert json_rows(result.convert()) == gated_rows


@pytest.mark.filterwarnings("ignore:Sending Accept header:RuntimeWarning")
def test_a_long_query_by_get(live_server: LiveServer) -> None:
    """The longest named query fits in a GET (gunicorn's default request line did not).
    SPARQLWrapper takes it for a DESCRIBE, as its comments say "describe", and warns."""
    text = find_named_query("harness-conflicts").text  # type: ignore[union-attr]
    assert len(urlencode({"query": text})) > 4094
    result = wrapper(live_server, text, JSON, GET).query()
    assert result.response.status == 200
    assert result.convert()["head"]["vars"]


@pytest.mark.parametrize("method", [GET, POST])
def test_sparqlwrapper_xml(live_server: LiveServer, method: str, gated_rows: Rows) -> None:
    document = wrapper(live_server, GATED_MEDHELM, XML, method).query().convert()
    assert isinstance(document, Document)
    assert minidom_rows(document) == gated_rows


@pytest.mark.parametrize(("return_format", "media_type"), [
    (CSV_FORMAT, "text/csv"), (TSV, "text/tab-separated-values")])
@pytest.mark.parametrize("method", [GET, POST])
def test_sparqlwrapper_csv_and_tsv(live_server: LiveServer, method: str, return_format: str,
                                   media_type: str, gated_rows: Rows) -> None:
    result = wrapper(live_server, GATED_MEDHELM, return_format, method).query()
    assert result.info()["content-type"].startswith(media_type)
    body = result.convert()
    assert isinstance(body, bytes)
    assert READERS[media_type](body).values() == gated_rows  # type: ignore[union-attr]


def test_sparqlwrapper_posts_the_query_directly(live_server: LiveServer,
                                                gated_rows: Rows) -> None:
    client = wrapper(live_server, GATED_MEDHELM, JSON, POST)
    client.setRequestMethod(POSTDIRECTLY)
    assert json_rows(client.query().convert()) == gated_rows


def test_sparqlwrapper_ask(live_server: LiveServer) -> None:
    ask = "ASK { <https://w3id.org/benchgraph/benchmark/mimic_rrs> ?p ?o }"
    assert wrapper(live_server, ask, JSON).query().convert() == {"head": {}, "boolean": True}


@pytest.mark.filterwarnings("ignore:ConjunctiveGraph is deprecated:DeprecationWarning")
@pytest.mark.parametrize("return_format", [XML, RDFXML, JSONLD])
def test_sparqlwrapper_construct_to_a_graph(live_server: LiveServer, return_format: str,
                                            constructed: Triples) -> None:
    """XML is SPARQLWrapper's default format: for a CONSTRUCT it asks for RDF/XML. It also
    sends its format's name as a ``format`` parameter (``xml``, ``rdf+xml``), which must not
    outweigh what its Accept asks for."""
    graph = wrapper(live_server, CONSTRUCT, return_format).query().convert()
    assert isinstance(graph, Graph)
    assert set(graph) == constructed


@pytest.mark.parametrize("return_format", [TURTLE, N3])
def test_sparqlwrapper_construct_as_text(live_server: LiveServer, return_format: str,
                                         constructed: Triples) -> None:
    """SPARQLWrapper hands Turtle and N3 over as bytes; its N3 accepts Turtle, which is N3."""
    body = wrapper(live_server, CONSTRUCT, return_format).query().convert()
    assert set(Graph().parse(data=body, format="turtle")) == constructed


def test_sparqlwrapper_gets_a_bad_query_as_its_own_error(live_server: LiveServer) -> None:
    with pytest.raises(QueryBadFormed, match="syntax error"):
        wrapper(live_server, "SELECT * WHERE {", JSON).query()


def test_sparqlwrapper_update_is_refused(live_server: LiveServer) -> None:
    update = "INSERT DATA { <http://example.org/s> <http://example.org/p> 1 }"
    with pytest.raises(QueryBadFormed, match="read-only"):
        wrapper(live_server, update, JSON, POST).query()


# rdflib's SPARQLStore

@pytest.mark.parametrize("return_format", ["json", "xml", "csv", "tsv"])
@pytest.mark.parametrize("method", ["GET", "POST", "POST_FORM"])
def test_sparqlstore_select(live_server: LiveServer, return_format: str, method: str,
                            gated_rows: Rows) -> None:
    graph = Graph(store=SPARQLStore(live_server.endpoint, returnFormat=return_format,
                                    method=method))
    rows = [{str(k): str(v) for k, v in row.asdict().items()}  # type: ignore[union-attr]
            for row in graph.query(GATED_MEDHELM)]
    assert rows == gated_rows


def test_sparqlstore_ask(live_server: LiveServer) -> None:
    graph = Graph(store=SPARQLStore(live_server.endpoint))
    assert graph.query(f"ASK {{ <{MIMIC_RRS}> a <{BENCH.Benchmark}> }}").askAnswer is True
    assert graph.query(f"ASK {{ <{MIMIC_RRS}> a <{BENCH.Model}> }}").askAnswer is False


def test_sparqlstore_init_bindings(live_server: LiveServer) -> None:
    """SPARQLStore sends initBindings as a VALUES block after the query."""
    graph = Graph(store=SPARQLStore(live_server.endpoint))
    query = "SELECT ?benchmark WHERE { ?benchmark <http://purl.org/dc/terms/identifier> ?id }"
    found = graph.query(query, initBindings={"id": Literal("mimic_rrs")})
    assert [row[0] for row in found] == [MIMIC_RRS]  # type: ignore[index]


def test_sparqlstore_triples_and_construct(live_server: LiveServer,
                                           constructed: Triples) -> None:
    graph = Graph(store=SPARQLStore(live_server.endpoint))
    assert graph.value(MIMIC_RRS, RDFS.label) == Literal("MIMIC-RRS (MedHELM)")
    assert (MIMIC_RRS, BENCH.accessLevel, BENCH.Gated) in graph
    assert set(graph.query(CONSTRUCT).graph) == constructed  # type: ignore[arg-type]


# The four bodies, read by independent parsers

def request(server: LiveServer, method: str, path: str,
            headers: dict[str, str]) -> tuple[http.client.HTTPResponse, bytes]:
    """One request on a new connection: the response and its body."""
    connection = server.connection()
    try:
        connection.request(method, path, headers=headers)
        response = connection.getresponse()
        return response, response.read()
    finally:
        connection.close()


def fetch(server: LiveServer, query: str, accept: str,
          **parameters: str) -> tuple[str, bytes]:
    """A GET of ``query`` asking for ``accept``: the Content-Type and the body."""
    path = "/sparql?" + urlencode({"query": query, **parameters})
    response, body = request(server, "GET", path, {"Accept": accept})
    assert response.status == 200, body[:300]
    return response.getheader("Content-Type") or "", body


@pytest.mark.parametrize("media_type", list(READERS))
def test_every_results_format_holds_the_rows(live_server: LiveServer, media_type: str,
                                             gated_rows: Rows) -> None:
    content_type, body = fetch(live_server, GATED_MEDHELM, media_type)
    assert content_type == f"{media_type}; charset=utf-8"
    table = READERS[media_type](body)
    assert isinstance(table, Table)
    assert table.variables == ("id", "name", "benchmark")
    assert table.values() == gated_rows


@pytest.mark.parametrize("media_type", list(READERS))
def test_every_results_format_keeps_each_kind_of_term(live_server: LiveServer,
                                                      media_type: str) -> None:
    table = READERS[media_type](fetch(live_server, KINDS, media_type)[1])
    assert isinstance(table, Table)
    assert table.variables == KINDS_VARIABLES
    if media_type == "text/csv":  # values only, by the CSV format's own rule
        assert table.values() == [{name: cell.value for name, cell in KINDS_ROW.items()}]
    else:
        assert list(table.rows) == [KINDS_ROW]


@pytest.mark.parametrize("media_type", ["application/sparql-results+json",
                                        "application/sparql-results+xml"])
def test_ask_in_json_and_xml(live_server: LiveServer, media_type: str) -> None:
    for query, answer in ((f"ASK {{ <{MIMIC_RRS}> ?p ?o }}", True),
                          ("ASK { <http://example.org/nothing> ?p ?o }", False)):
        assert READERS[media_type](fetch(live_server, query, media_type)[1]) is answer


# What clients stumble on: a format parameter beside Accept, and CORS

@pytest.mark.parametrize(("accept", "fmt", "media_type"), [
    ("application/rdf+xml", "xml", "application/rdf+xml"),  # SPARQLWrapper's CONSTRUCT
    ("text/turtle", "json", "text/turtle"),
    ("*/*", "nt", "application/n-triples"),  # a format the answer can take wins
    ("*/*", "application/ld+json", "application/ld+json"),  # named by its media type
])
def test_a_format_parameter_gives_way_to_an_accept_that_fits(
        live_server: LiveServer, accept: str, fmt: str, media_type: str) -> None:
    content_type, _ = fetch(live_server, CONSTRUCT, accept, format=fmt)
    assert content_type.split(";")[0] == media_type


def test_a_format_no_accept_can_rescue_is_still_refused(live_server: LiveServer) -> None:
    path = "/sparql?" + urlencode({"query": CONSTRUCT, "format": "json"})
    response, body = request(live_server, "GET", path, {"Accept": "*/*"})
    assert response.status == 400
    assert b"cannot hold this answer" in body


ORIGIN = {"Origin": "http://elsewhere.example"}


def test_cors_preflight_offers_only_the_methods_the_endpoint_takes(
        live_server: LiveServer) -> None:
    response, _ = request(live_server, "OPTIONS", "/sparql", {
        **ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type"})
    assert response.status == 200
    assert response.getheader("Access-Control-Allow-Origin") == ORIGIN["Origin"]
    methods = {m.strip() for m in response.getheader("Access-Control-Allow-Methods", "").split(",")}
    assert {"GET", "POST"} <= methods <= {"GET", "HEAD", "POST", "OPTIONS"}
    assert response.getheader("Access-Control-Allow-Headers", "").lower() == "content-type"


def test_cors_lets_a_browser_read_the_truncation_header(live_server: LiveServer) -> None:
    """A cross-origin script sees only the headers the response exposes."""
    path = "/sparql?" + urlencode({"query": GATED_MEDHELM})
    response, _ = request(live_server, "GET", path, ORIGIN)
    assert response.getheader("Access-Control-Allow-Origin") == ORIGIN["Origin"]
    exposed = response.getheader("Access-Control-Expose-Headers", "").lower()
    assert TRUNCATED_HEADER.lower() in exposed


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/sparql?" + urlencode({"query": "SELEKT * {}"}), 400),
    ("PUT", "/sparql", 405),
    ("GET", "/queries/gated-medhelm.json", 200),
    ("GET", "/benchmark/mimic_rrs.ttl", 200),
    ("GET", "/no/such/node", 404),
])
def test_cors_lets_a_browser_read_every_answer_errors_included(
        live_server: LiveServer, method: str, path: str, status: int) -> None:
    """A client elsewhere reads the data and the reason a request failed, not an opaque
    network error."""
    response, _ = request(live_server, method, path, ORIGIN)
    assert response.status == status
    assert response.getheader("Access-Control-Allow-Origin") == ORIGIN["Origin"]


def test_cors_preflight_offers_only_get_off_the_endpoint(live_server: LiveServer) -> None:
    response, _ = request(live_server, "OPTIONS", "/benchmarks", {
        **ORIGIN, "Access-Control-Request-Method": "GET"})
    methods = {m.strip() for m in response.getheader("Access-Control-Allow-Methods", "").split(",")}
    assert "GET" in methods and "POST" not in methods
