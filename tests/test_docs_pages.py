"""The ontology, the shapes and the validation report as pages and as data."""

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from rdflib import Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import OWL, RDF, SH, XSD

from graph.build.graphs import GraphInMemory
from graph.namespace import BENCH, BENCH_IRI
from graph.ontology import ontology_graph
from graph.settings import Settings
from graph.store.kinds import StoreSpec, open_store
from graph.store.local import LocalStore
from graph.validation.report import Severity, ValidationReport, ValidationResult
from graph.validation.validate import bundled_shapes
from tests.system_tools import RAPPER, require
from web import create_app

HTML = {"Accept": "text/html"}


@pytest.fixture(scope="module")
def app(settings: Settings, crawl_store: LocalStore) -> Flask:
    return create_app(settings, crawl_store)


class _Ids(HTMLParser):
    """Every ``id`` and every ``href`` of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
            if name == "href" and value:
                self.hrefs.append(value)


def parsed(html: str) -> _Ids:
    ids = _Ids()
    ids.feed(html)
    return ids


# -- the ontology ---------------------------------------------------------------------------

def _bench_terms(rdf_types: tuple[URIRef, ...]) -> set[str]:
    graph = ontology_graph()
    return {str(s)[len(BENCH_IRI):] for t in rdf_types for s in graph.subjects(RDF.type, t)
            if str(s).startswith(BENCH_IRI)}


def test_every_class_and_property_has_its_anchor(client: FlaskClient) -> None:
    page = parsed(client.get("/ontology", headers=HTML).get_data(as_text=True))
    terms = _bench_terms((OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, RDF.Property))
    assert len(terms) > 100
    assert terms <= page.ids, sorted(terms - page.ids)


def test_an_entry_shows_label_comment_domain_range_and_usage(
    client: FlaskClient, crawl_store: LocalStore
) -> None:
    html = client.get("/ontology", headers=HTML).get_data(as_text=True)
    entry = html[html.index('id="inSuite"'):]
    entry = entry[:entry.index("</article>")]
    graph = ontology_graph()
    assert str(graph.value(BENCH.inSuite, URIRef("http://www.w3.org/2000/01/rdf-schema#label"))) \
        in entry
    assert 'href="#Benchmark"' in entry and 'href="#Suite"' in entry  # domain and range
    in_suite = crawl_store.query("SELECT (COUNT(DISTINCT ?b) AS ?n) WHERE { ?b bench:inSuite ?s }")
    count = in_suite.rows[0][0]
    assert count is not None
    assert re.search(rf"nodes using it</dt><dd[^>]*>{int(count.value):,}<", entry), entry


def test_class_counts_are_the_stores(client: FlaskClient, crawl_store: LocalStore) -> None:
    html = client.get("/ontology", headers=HTML).get_data(as_text=True)
    entry = html[html.index('id="Benchmark"'):]
    entry = entry[:entry.index("</article>")]
    benchmarks = crawl_store.counts().per_class[URIRef(str(BENCH.Benchmark))]
    assert re.search(rf"instances</dt><dd[^>]*>{benchmarks:,}<", entry), entry


def test_vocabulary_members_link_their_pages(client: FlaskClient) -> None:
    page = parsed(client.get("/ontology", headers=HTML).get_data(as_text=True))
    for name in ("Gated", "HELM", "MedHELM", "Public"):
        assert f"/vocabulary/{name}" in page.hrefs
        assert name in page.ids  # bench:Gated's IRI lands on its row too


def test_ontology_turtle_is_the_files(client: FlaskClient) -> None:
    response = client.get("/ontology.ttl")
    assert response.headers["Content-Type"] == "text/turtle; charset=utf-8"
    served = Graph().parse(data=response.data, format="turtle")
    assert isomorphic(served, ontology_graph())
    by_accept = client.get("/ontology", headers={"Accept": "text/turtle"})
    assert by_accept.data == response.data and "Accept" in by_accept.headers["Vary"]


def test_ontology_turtle_is_turtle_to_another_parser(client: FlaskClient, tmp_path: Path) -> None:
    """The files one after another, each with its own prefixes, are still one Turtle document."""
    [rapper] = require(RAPPER)
    path = tmp_path / "ontology.ttl"
    path.write_bytes(client.get("/ontology.ttl").data)
    run = subprocess.run([rapper, "-q", "-i", "turtle", "-c", str(path)], capture_output=True,
                         text=True, check=False)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("suffix, rdflib_format", [("nt", "nt"), ("jsonld", "json-ld"),
                                                    ("rdf", "xml")])
def test_ontology_in_other_formats(client: FlaskClient, suffix: str, rdflib_format: str) -> None:
    served = Graph().parse(data=client.get(f"/ontology.{suffix}").data, format=rdflib_format)
    assert isomorphic(served, ontology_graph())


def test_ontology_page_advertises_its_data(client: FlaskClient) -> None:
    response = client.get("/ontology", headers=HTML)
    assert '<link rel="alternate" type="text/turtle" href="/ontology.ttl">' in response.get_data(
        as_text=True)
    assert '</ontology.ttl>; rel="alternate"; type="text/turtle"' in response.headers["Link"]
    assert "Accept" in response.headers["Vary"]


# -- the shapes -----------------------------------------------------------------------------

def test_every_shape_has_its_anchor_name_and_message(client: FlaskClient) -> None:
    html = client.get("/shapes", headers=HTML).get_data(as_text=True)
    ids = parsed(html).ids
    graph = bundled_shapes().graph
    shapes = {s for s in graph.subjects(SH.message, None) if isinstance(s, URIRef)}
    assert len(shapes) > 80
    for shape in shapes:
        anchor = str(shape).rsplit("#", 1)[-1]
        assert anchor in ids, anchor
        name, message = graph.value(shape, SH.name), graph.value(shape, SH.message)
        assert name is not None and message is not None
        from markupsafe import escape

        assert str(escape(str(message))) in html, shape


def test_shapes_show_severity_and_target(client: FlaskClient) -> None:
    html = client.get("/shapes", headers=HTML).get_data(as_text=True)
    entry = html[html.index('id="BenchmarkShape"'):]
    entry = entry[:entry.index("</article>")]
    assert "targetClass" in entry and 'href="/ontology#Benchmark"' in entry
    assert 'class="severity violation"' in entry
    recommended = html[html.index('id="recommended"'):]
    assert 'class="severity warning"' in recommended


def test_shapes_turtle_is_the_files(client: FlaskClient) -> None:
    served = Graph().parse(data=client.get("/shapes.ttl").data, format="turtle")
    assert isomorphic(served, bundled_shapes().graph)
    assert client.get("/shapes", headers={"Accept": "text/turtle"}).data == \
        client.get("/shapes.ttl").data


# -- the validation report ------------------------------------------------------------------

def test_report_round_trips_through_its_json() -> None:
    shapes = bundled_shapes()
    shape = URIRef("https://w3id.org/benchgraph/shapes#CataloguedBenchmarkShape-released")
    path = shapes.graph.value(shape, SH.path)
    results = [
        ValidationResult(Severity.WARNING, URIRef("https://w3id.org/benchgraph/benchmark/x"),
                         shape, "released", "say when", SH.DatatypeConstraintComponent,
                         path="bench:released", path_node=path,
                         value=Literal("c. 2018"),
                         record=URIRef("https://w3id.org/benchgraph/record/x"),
                         source_file="x.txt"),
        ValidationResult(Severity.VIOLATION, URIRef("https://w3id.org/benchgraph/benchmark/y"),
                         shape, "released", "say when", SH.DatatypeConstraintComponent,
                         path="bench:released", path_node=path,
                         value=Literal("2018", datatype=XSD.gYear)),
        ValidationResult(Severity.INFO, URIRef("https://w3id.org/benchgraph/benchmark/z"),
                         shape, "released", "say when", SH.DatatypeConstraintComponent,
                         path="bench:released", path_node=path, value=Literal("eins", lang="de")),
    ]
    report = ValidationReport.of(results, 3, shapes.graph)
    data = json.loads(json.dumps(report.to_json()))
    back = ValidationReport.from_json(data, shapes.graph)
    assert back == report
    assert [r.value for r in back.results] == [r.value for r in report.results]
    assert isomorphic(back.to_graph(), report.to_graph())


def test_store_keeps_the_report_of_its_build(
    crawl_store: LocalStore, crawl_paths: list[Path], settings: Settings
) -> None:
    from graph.build.graphs import build
    from graph.validation.validate import validate

    kept = crawl_store.artefacts().validation()
    assert kept is not None and kept.results
    assert kept == validate(build(crawl_paths, settings).quads, settings)


def test_validation_page_groups_by_shape_and_by_record(
    client: FlaskClient, crawl_store: LocalStore
) -> None:
    report = crawl_store.artefacts().validation()
    assert report is not None
    html = client.get("/validation", headers=HTML).get_data(as_text=True)
    hrefs = parsed(html).hrefs
    for shape in {r.shape for r in report.results}:
        anchor = str(shape).rsplit("#", 1)[-1]
        assert f"/validation/shape/{anchor}" in hrefs
    first = report.results[0]
    assert first.source_file is not None and first.source_file in html
    focus = str(first.focus_node)
    assert "/" + focus[len(crawl_store.base):] in hrefs  # the focus node's page
    assert first.message in html


def test_a_shapes_results_page(client: FlaskClient, crawl_store: LocalStore) -> None:
    report = crawl_store.artefacts().validation()
    assert report is not None
    shape = report.by_shape()
    node, results = max(shape.items(), key=lambda item: len(item[1]))
    anchor = str(node).rsplit("#", 1)[-1]
    html = client.get(f"/validation/shape/{anchor}", headers=HTML).get_data(as_text=True)
    hrefs = parsed(html).hrefs
    assert f"{len(results)} result" in html
    for result in results[:100]:
        assert "/" + str(result.focus_node)[len(crawl_store.base):] in hrefs
    assert client.get("/validation/shape/NoSuchShape", headers=HTML).status_code == 404


def test_validation_as_data(client: FlaskClient, crawl_store: LocalStore) -> None:
    report = crawl_store.artefacts().validation()
    assert report is not None
    as_json = client.get("/validation.json")
    assert as_json.headers["Content-Type"].startswith("application/json")
    assert as_json.get_json() == report.to_json()
    by_accept = client.get("/validation", headers={"Accept": "application/json"})
    assert by_accept.get_json() == report.to_json()
    turtle = client.get("/validation.ttl")
    served = Graph().parse(data=turtle.data, format="turtle")
    full = ValidationReport.from_json(report.to_json(), bundled_shapes().graph)
    assert isomorphic(served, full.to_graph())
    assert (None, RDF.type, SH.ValidationReport) in served


def test_a_store_built_without_validating_says_so(
    client: FlaskClient, seed_build: GraphInMemory, settings: Settings
) -> None:
    store = open_store(StoreSpec.parse("memory"), settings, built=seed_build.records)
    try:
        plain = create_app(settings, store).test_client()
        page = plain.get("/validation", headers=HTML)
        assert page.status_code == 200
        assert "built without validating" in page.get_data(as_text=True)
        assert plain.get("/validation.json").status_code == 404
    finally:
        store.close()


def test_hostile_values_show_as_text(client: FlaskClient, crawl_store: LocalStore) -> None:
    """A record's words reach the report's pages escaped, whatever they hold: the hostile
    records' labels (``<img src=x onerror=...>``) are shown, as text."""
    report = crawl_store.artefacts().validation()
    assert report is not None
    pages = [f"/validation?page={n}" for n in range(1, len(report.by_record()) // 25 + 2)]
    pages += [f"/validation/shape/{str(shape).rsplit('#', 1)[-1]}" for shape in report.by_shape()]
    shown = 0
    for path in pages:
        html = client.get(path, headers=HTML).get_data(as_text=True)
        assert "<img src=x" not in html and "<script>alert" not in html, path
        shown += html.count("&lt;img src=x onerror=alert(")
    assert shown > 0  # the hostile labels were on a page, escaped
