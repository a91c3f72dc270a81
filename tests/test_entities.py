"""Entity pages: every node of the seeds (and of the query and entity fixtures) has a page and
its RDF; lists and property groups page; labels; nothing in the data becomes markup.

The store holds the bundled seeds, ``tests/data/query_catalog``, ``tests/data/entities`` and
120 small records written here that share a tag and a publisher (two spellings of its name).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pyoxigraph as ox
import pytest
from flask.testing import FlaskClient
from rdflib import Graph

from graph.build.graphs import build
from graph.search.results import SearchResults
from graph.settings import Settings
from graph.slug import node_key
from graph.sparql.result import QueryResult
from graph.store.base import BuildFacts, Description, Statement, Store
from graph.store.kinds import StoreSpec, open_store
from tests.seeds import SEEDS
from tests.store_kinds import opened
from web import create_app
from web.entities import split_suffix
from web.entities.view import group_statements
from web.labels import fetch_labels
from web.links import cell

DATA = Path(__file__).parent / "data"
BASE = "https://w3id.org/benchgraph/"
BENCH = "https://w3id.org/benchgraph/ontology#"
HTML = {"Accept": "text/html"}
CROWD = 120


def _write_crowd(folder: Path) -> None:
    for i in range(CROWD):
        org = "Crowd Lab" if i % 2 else "CROWD LAB"  # one node, two labels
        record = {"page": {"id": f"crowd_{i:03d}", "name": f"Crowd {i:03d}", "tags": ["crowd"],
                           "publisher": {"org": org}}}
        (folder / f"crowd_{i:03d}.json").write_text(json.dumps(record))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, settings: Settings,
          store_kind: str) -> Iterator[Store]:
    crowd = tmp_path_factory.mktemp("crowd")
    _write_crowd(crowd)
    paths = [*SEEDS, DATA / "query_catalog", DATA / "entities", crowd]
    with opened(store_kind, build(paths, settings), tmp_path_factory.mktemp("store"),
                settings) as store:
        yield store


@pytest.fixture(scope="module")
def client(store: Store, settings: Settings) -> FlaskClient:
    return create_app(settings, store).test_client()


class _Links(HTMLParser):
    """The ``<a href>`` and ``<link rel=alternate>`` of a page, with their text."""

    def __init__(self) -> None:
        super().__init__()
        self.anchors: list[tuple[str, str]] = []
        self.alternates: list[tuple[str, str]] = []
        self._open: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.anchors.append((found["href"] or "", ""))
            self._open = []
        if tag == "link" and found.get("rel") == "alternate":
            self.alternates.append((found.get("type") or "", found.get("href") or ""))

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open is not None:
            href, _ = self.anchors[-1]
            self.anchors[-1] = (href, "".join(self._open).strip())
            self._open = None


def links(html: bytes) -> _Links:
    parser = _Links()
    parser.feed(html.decode())
    return parser


def page(client: FlaskClient, path: str) -> str:
    response = client.get(path, headers=HTML)
    assert response.status_code == 200, (path, response.data[:500])
    assert response.mimetype == "text/html"
    return unescape(response.data.decode())


PAGES = {  # path: what its page must show
    "/benchmark/mimic_rrs": ["MIMIC-RRS (MedHELM)", "Radiology Report Summarization",
                             "What links here"],
    "/benchmark/mimic_bhc": ["Not catalogued", "MIMIC-RRS (MedHELM)"],
    "/org/stanford_university": ["Benchmarks it publishes", "MIMIC-RRS (MedHELM)",
                                 "Toward Expanding the Scope of Radiology Report"],
    "/person/zhihong_chen": ["Benchmarks", "Co-authors", "Maya Varma", "Toward Expanding"],
    "/paper/2211.08584": ["Authors", "Zhihong Chen", "Benchmarks that cite it"],
    "/model/gpt_5": ["Results", "HealthBench", "67.2", "percent", "002_e36a0be437d5fce5"],
    "/vocabulary/HELM": ["Benchmarks in this harness", "MIMIC-RRS (MedHELM)", "mimic_rrs",
                         "gated", "MedHELM"],
    "/vocabulary/MedHELM": ["Benchmarks in the suite", "MIMIC-RRS (MedHELM)", "gated"],
    "/vocabulary/Gated": ["Benchmarks at this access level", "MIMIC-CXR (classification)"],
    "/tag/llm_jury": ["Benchmarks with this tag", "MIMIC-RRS (MedHELM)"],
    "/category/law_finance_and_medicine": ["Benchmarks in this category", "HealthBench",
                                           "KorMedMCQA"],
    "/record/000_501ccd0cd0e2608f": ["Record 000_501ccd0cd0e2608f.txt", "Freshness and build",
                                     "Grok Build independent review", "SHA-256",
                                     "What it states", "MIMIC-RRS (MedHELM)"],
    "/build": ["What the build derived", "What it states", "catalogued"],
    "/benchmark/mimic_rrs/dataset": ["MIMIC-RRS (MedHELM) › dataset", "PhysioNet credentialed"],
    "/benchmark/healthbench/result/gpt_5/002_e36a0be437d5fce5": ["GPT-5", "67.2"],
    "/benchmark/mimic_rrs/source/1": ["HELM mimic_rrs_scenario.py", "2026-09-08"],
    "/vocabulary": ["Vocabularies", "access levels", "gated", "evaluation harnesses"],
}


@pytest.mark.parametrize("path", sorted(PAGES))
def test_every_kind_of_node_has_a_page(client: FlaskClient, path: str) -> None:
    text = page(client, path)
    for expected in PAGES[path]:
        assert expected in text, (path, expected)


def test_lists_show_their_columns_in_order(client: FlaskClient) -> None:
    anchors = links(client.get("/paper/2211.08584", headers=HTML).data).anchors
    people = [text for href, text in anchors if href.startswith("/person/")]
    assert people[:5] == ["Zhihong Chen", "Maya Varma", "Xiang Wan", "Curtis Langlotz",
                          "Jean-Benoit Delbrouck"]  # the authors, in the record's order
    html = page(client, "/vocabulary/HELM")
    helm_qa = html[html.index("HELM QA"):]
    assert helm_qa.index("helm_qa") < helm_qa.index("public")  # task, then access level


def test_statements_show_the_graph_that_states_them(client: FlaskClient) -> None:
    anchors = links(client.get("/benchmark/mimic_rrs", headers=HTML).data).anchors
    assert ("/record/000_501ccd0cd0e2608f", "000_501ccd0cd0e2608f") in anchors
    assert ("/build", "build") in anchors  # bench:catalogued is the build's
    assert ("/vocabulary/Gated", "gated") in anchors
    assert ("/ontology#accessLevel", "access level") in anchors  # property labels from the ontology


NODES = ["/benchmark/mimic_rrs", "/org/stanford_university", "/person/zhihong_chen",
         "/paper/2211.08584", "/paper/math.GT_0309136", "/model/gpt_5", "/tag/llm_jury",
         "/category/domain", "/record/000_501ccd0cd0e2608f", "/benchmark/mimic_rrs/dataset",
         "/benchmark/healthbench/result/gpt_5/002_e36a0be437d5fce5", "/vocabulary/HELM",
         "/vocabulary/MedHELM", "/vocabulary/Gated"]
FORMATS = [("ttl", "text/turtle", "turtle"), ("nt", "application/n-triples", "nt"),
           ("jsonld", "application/ld+json", "json-ld"), ("rdf", "application/rdf+xml", "xml")]


def iri_of(path: str) -> str:
    if path.startswith("/vocabulary/"):
        return BENCH + path.removeprefix("/vocabulary/")
    return BASE + path.lstrip("/")


def described(store: Store, iri: str) -> set[object]:
    """The node's statements, as rdflib reads them."""
    description = store.describe(iri)
    triples = [ox.Triple(s.subject, s.predicate, s.object)
               for s in (*description.outgoing, *description.incoming)]
    assert triples, iri
    return set(Graph().parse(data=ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES),
                             format="nt"))


@pytest.mark.parametrize("path", NODES)
@pytest.mark.parametrize(("suffix", "media_type", "parser"), FORMATS)
def test_each_format_by_suffix_and_by_accept(client: FlaskClient, store: Store, path: str,
                                             suffix: str, media_type: str, parser: str) -> None:
    expected = described(store, iri_of(path))
    for response in (client.get(f"{path}.{suffix}"),
                     client.get(path, headers={"Accept": media_type})):
        assert response.status_code == 200, response.data[:300]
        assert response.mimetype == media_type
        assert "Accept" in response.vary
        assert f'<{path}.ttl>; rel="alternate"; type="text/turtle"' in response.headers["Link"]
        got = set(Graph().parse(data=response.data, format=parser))
        assert expected <= got, sorted(map(str, expected - got))[:5]
    assert response.headers["Content-Location"] == f"{path}.{suffix}"


@pytest.mark.parametrize("path", ["/benchmark/mimic_rrs", "/vocabulary/Gated", "/paper/2211.08584"])
def test_page_advertises_its_formats(client: FlaskClient, path: str) -> None:
    response = client.get(path, headers=HTML)
    assert "Accept" in response.vary and "Content-Location" not in response.headers
    alternates = links(response.data).alternates
    bibtex = [] if path.startswith("/vocabulary/") else [("application/x-bibtex", f"{path}.bib")]
    assert sorted(alternates) == sorted([*((media, f"{path}.{suffix}")
                                           for suffix, media, _ in FORMATS), *bibtex])
    for media, href in alternates:
        assert client.get(href).mimetype == media
        assert f'<{href}>; rel="alternate"; type="{media}"' in response.headers["Link"]
    assert f'<{path}>; rel="alternate"; type="text/html"' in response.headers["Link"]


@pytest.mark.parametrize("headers", [{}, {"Accept": "*/*"}], ids=["no Accept", "*/*"])
def test_a_client_that_names_no_format_gets_the_page(client: FlaskClient,
                                                     headers: dict[str, str]) -> None:
    response = client.get("/org/stanford_university", headers=headers)
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert "Accept" in response.vary and "Content-Location" not in response.headers


def test_plain_json_is_json_ld(client: FlaskClient, store: Store) -> None:
    response = client.get("/org/stanford_university", headers={"Accept": "application/json"})
    assert response.mimetype == "application/ld+json"
    assert response.headers["Content-Location"] == "/org/stanford_university.jsonld"
    assert described(store, f"{BASE}org/stanford_university") <= set(
        Graph().parse(data=response.data, format="json-ld"))


@pytest.mark.parametrize("path", ["/benchmark/no_such_thing", "/org/nobody", "/vocabulary/Nope",
                                  "/benchmark/no_such_thing.ttl", "/org/", "/benchmark/a b",
                                  "/no/such/kind"])
def test_unknown_iri_is_a_404_with_search(client: FlaskClient, path: str) -> None:
    response = client.get(path, headers=HTML)
    assert response.status_code == 404 and response.mimetype == "text/html"
    html = response.data.decode()
    assert "Nothing in this graph has the IRI" in html
    assert re.search(r'<form class="search" action="/search"', html)
    assert 'name="q"' in html
    data = client.get(path, headers={"Accept": "application/json"})
    assert data.status_code == 404 and data.get_json()["error"]["status"] == 404


def test_404_offers_the_name_it_looked_for(client: FlaskClient) -> None:
    html = client.get("/benchmark/no_such_thing", headers=HTML).data.decode()
    assert 'value="no such thing"' in html


def test_a_long_list_pages(client: FlaskClient) -> None:
    first = client.get("/org/crowd_lab", headers=HTML).data
    text = unescape(first.decode())
    assert "Benchmarks it publishes 120" in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text))
    crowd = [t for href, t in links(first).anchors if href.startswith("/benchmark/crowd_")]
    assert crowd[:50] == [f"Crowd {i:03d}" for i in range(50)]
    assert "Page 1 of 3" in text
    assert any(href == "/org/crowd_lab?benchmarks_page=2#benchmarks"
               for href, _ in links(first).anchors)
    last = client.get("/org/crowd_lab?benchmarks_page=3", headers=HTML).data
    crowd = [t for href, t in links(last).anchors if href.startswith("/benchmark/crowd_")]
    assert crowd[:20] == [f"Crowd {i:03d}" for i in range(100, 120)]
    assert "Page 3 of 3" in last.decode()


def test_a_property_shows_ten_then_all_page_by_page(client: FlaskClient) -> None:
    tag = client.get("/tag/crowd", headers=HTML).data
    more = [href for href, text in links(tag).anchors if text == f"Show all {CROWD}"]
    assert len(more) == 1
    assert parse_qs(urlsplit(more[0]).query) == {"property": [f"{BENCH}tag"], "direction": ["in"]}
    values = [t for t in _grouped_values(tag) if t.startswith("Crowd ")]
    assert len(values) == 10
    one = client.get(more[0], headers=HTML).data
    assert len([h for h, _ in links(one).anchors if h.startswith("/benchmark/crowd_")]) == 100
    assert "Page 1 of 2" in one.decode()
    two = client.get(more[0] + "&page=2", headers=HTML).data
    assert len([h for h, _ in links(two).anchors if h.startswith("/benchmark/crowd_")]) == 20


def _grouped_values(html: bytes) -> list[str]:
    """The texts of the values in a page's statement groups."""
    body = html.decode()
    found = []
    for block in re.findall(r'<ul class="values">(.*?)</ul>', body, re.DOTALL):
        found += [unescape(t) for t in re.findall(r'<a class="iri"[^>]*>([^<]*)</a>', block)]
    return found


def test_a_property_page_refuses_a_bad_direction(client: FlaskClient) -> None:
    for query in ({"property": f"{BENCH}tag", "direction": "sideways"},
                  {"property": "not an iri", "direction": "in"}):
        response = client.get(f"/tag/crowd?{urlencode(query)}", headers=HTML)
        assert response.status_code == 400, query


def test_one_label_per_node_whatever_the_records_say(client: FlaskClient) -> None:
    text = page(client, "/org/crowd_lab")
    assert "<h1>CROWD LAB</h1>" in text  # "CROWD LAB" and "Crowd Lab": the least text
    assert "<h1>CROWD LAB</h1>" in page(client, "/org/crowd_lab?benchmarks_page=2")


MARKUP = ("<script", "<img src=x", "<svg onload", "<iframe", "<b>", 'href="javascript:')


ODD_NAMES = {"org": "Evil <b>Org</b> & Co", "person": "Mallory <img src=x onerror=alert('author')>",
             "model": "<script>alert('model')</script>", "tag": "<svg onload=alert('tag')>"}


@pytest.mark.parametrize("path", [
    "/benchmark/xss_bench", "/paper/math.GT_0309136", "/record/xss_bench",
    *(f"/{kind}/{node_key(name)}" for kind, name in sorted(ODD_NAMES.items())),
])
def test_odd_text_stays_text(client: FlaskClient, path: str) -> None:
    response = client.get(path, headers=HTML)
    assert response.status_code == 200, path
    # the benchmark page's schema.org JSON-LD is a script element (its content is held to
    # have no "<" by tests/test_benchmark_page.py)
    html = re.sub(r'<script type="application/ld\+json">.*?</script>', "", response.data.decode(),
                  flags=re.DOTALL)
    for markup in MARKUP:
        assert markup not in html, (path, markup)
    assert "&lt;" in html


def test_only_http_urls_become_links(client: FlaskClient) -> None:
    anchors = links(client.get("/benchmark/xss_bench/result/script_alert_model_script/xss_bench",
                               headers=HTML).data).anchors
    assert ('https://example.org/results/xss?q=<script>&x="y"',
            'https://example.org/results/xss?q=<script>&x="y"') in anchors
    assert all(not urlsplit(href).scheme or urlsplit(href).scheme in ("http", "https")
               for href, _ in anchors)


def test_entity_pages_link_only_to_pages_that_exist(client: FlaskClient) -> None:
    """From the seeds' benchmark, every link an entity page makes to another entity page
    (at most 300 pages, breadth first) answers 200."""
    seen, queue = set(), ["/benchmark/mimic_rrs", "/benchmark/mimic_cxr_classification"]
    while queue and len(seen) < 300:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path, headers=HTML)
        assert response.status_code == 200, path
        for href, _ in links(response.data).anchors:
            target = urlsplit(href)
            if not target.path or target.scheme or target.path.startswith(  # not a page, or
                    ("/sparql", "/queries", "/static", "/search", "/ontology")):  # not these
                continue
            queue.append(target.path + (f"?{target.query}" if target.query else ""))
    assert len(seen) >= 100


def test_a_suffix_is_a_formats_extension_after_the_last_dot() -> None:
    assert split_suffix("paper/2211.08584.ttl") == ("paper/2211.08584", "ttl")
    assert split_suffix("paper/2211.08584") == ("paper/2211.08584", None)
    assert split_suffix("paper/math.GT_0309136") == ("paper/math.GT_0309136", None)
    assert split_suffix("benchmark/x.json") == ("benchmark/x", "json")  # JSON-LD's, as .jsonld
    assert split_suffix("benchmark/x.turtle") == ("benchmark/x.turtle", None)  # a name, no suffix
    assert split_suffix("benchmark/.ttl") == ("benchmark/.ttl", None)


@dataclass
class _OneNodeStore:
    """A store that knows one node, whose IRI ends in what looks like a suffix."""

    node: str
    base: str = BASE

    def describe(self, node: str, limit: int | None = None) -> Description:
        subject = ox.NamedNode(node)
        if node != self.node:
            return Description(subject, (), ())
        label = Statement(subject, ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label"),
                          ox.Literal("odd"), ox.NamedNode(f"{BASE}record/odd"))
        return Description(subject, (label,), ())

    def query(self, text: str, bindings: object = None, dataset: object = None,
              limits: object = None) -> QueryResult:
        return QueryResult("ASK", boolean=False)

    def build_facts(self) -> BuildFacts:
        return BuildFacts(BASE, "2026-01-01T00:00:00Z")

    def reading(self) -> nullcontext[_OneNodeStore]:
        return nullcontext(self)

    def artefacts(self) -> _OneNodeStore:
        return self  # its search, which a 404 asks, finds nothing

    def search(self, text: str, limit: int = 20, offset: int = 0) -> SearchResults:
        return SearchResults(text, (), 0, limit, offset)


def test_a_node_whose_last_segment_ends_like_a_suffix_still_answers(settings: Settings) -> None:
    app = create_app(settings, _OneNodeStore(f"{BASE}paper/odd.nt"))  # type: ignore[arg-type]
    response = app.test_client().get("/paper/odd.nt", headers={"Accept": "text/turtle"})
    assert response.status_code == 200 and response.mimetype == "text/turtle"
    assert b'"odd"' in response.data
    assert app.test_client().get("/paper/odder.nt").status_code == 404


def test_cell_links_pages_here_vocabulary_pages_and_http_only(settings: Settings) -> None:
    app = create_app(settings, _OneNodeStore(f"{BASE}x"))  # type: ignore[arg-type]
    anyuri = ox.NamedNode("http://www.w3.org/2001/XMLSchema#anyURI")
    with app.test_request_context("/"):
        assert cell(ox.NamedNode(f"{BASE}benchmark/x/source/1"), BASE).href == \
            "/benchmark/x/source/1"
        assert cell(ox.NamedNode(f"{BENCH}Gated"), BASE).href == "/vocabulary/Gated"
        assert cell(ox.NamedNode(f"{BENCH}Benchmark"), BASE).href == "/ontology#Benchmark"
        assert cell(ox.NamedNode(f"{BENCH}accessLevel"), BASE).href == "/ontology#accessLevel"
        assert cell(ox.NamedNode("https://w3id.org/benchgraph/ontology"), BASE).href == "/ontology"
        out = cell(ox.NamedNode("https://example.org/a"), BASE, "A")
        assert (out.text, out.href, out.kind) == ("A", "https://example.org/a", "external")
        for iri in ("javascript:alert(1)", "data:text/html,x", "mailto:a@example.org",
                    "ftp://example.org/x", "urn:x:y"):
            shown = cell(ox.NamedNode(iri), BASE)
            assert shown.href is None and shown.text == f"<{iri}>", iri
        assert cell(ox.Literal("https://example.org/u", datatype=anyuri), BASE).href == \
            "https://example.org/u"
        assert cell(ox.Literal("javascript:alert(1)", datatype=anyuri), BASE).href is None
        assert cell(ox.Literal("https://example.org/u"), BASE).href is None  # a plain string
        assert cell(ox.Literal("2023", datatype=ox.NamedNode(
            "http://www.w3.org/2001/XMLSchema#gYear")), BASE).note == "xsd:gYear"
        assert cell(ox.Literal("gated", language="en"), BASE).note == "en"
        assert cell(ox.NamedNode(f"{BASE}benchmark/x"), "http://other.example/").href == \
            f"{BASE}benchmark/x"  # under another base it is just an http(s) IRI


def test_labels_of_many_iris_in_one_go(store: Store) -> None:
    labels = fetch_labels(store, [f"{BASE}benchmark/mimic_rrs", f"{BENCH}Gated",
                                  f"{BASE}benchmark/mimic_rrs/author/1", f"{BENCH}accessLevel",
                                  f"{BASE}benchmark/mimic_rrs/source/1", f"{BASE}no/such",
                                  "http://www.w3.org/1999/02/22-rdf-syntax-ns#type", "not an iri"])
    assert labels.text(f"{BASE}benchmark/mimic_rrs") == "MIMIC-RRS (MedHELM)"
    assert labels.text(f"{BENCH}Gated") == "gated"  # "gated"@en, from the ontology graph
    assert labels.text(f"{BENCH}accessLevel") == "access level"
    assert labels.text(f"{BASE}benchmark/mimic_rrs/author/1") == "MIMIC-RRS (MedHELM) › author/1"
    assert labels.text(f"{BASE}benchmark/mimic_rrs/source/1").startswith("HELM mimic_rrs")  # title
    assert labels.text(f"{BASE}no/such") == "base:no/such"
    assert labels.text("http://www.w3.org/1999/02/22-rdf-syntax-ns#type") == "rdf:type"
    assert labels.get(f"{BASE}no/such") is None


def test_pages_follow_the_base_setting(tmp_path: Path) -> None:
    """Under another base, data IRIs still map to /x, and the vocabularies (which are not
    under it) still have their pages."""
    settings = Settings(base="http://example.org/kg/")
    other = open_store(StoreSpec.parse("memory"), settings, list(SEEDS))
    try:
        client = create_app(settings, other).test_client()
        anchors = links(client.get("/benchmark/mimic_rrs", headers=HTML).data).anchors
        assert ("/vocabulary/Gated", "gated") in anchors
        assert ("/org/stanford_university", "Stanford University") in anchors
        turtle = client.get("/benchmark/mimic_rrs.ttl").data.decode()
        assert "http://example.org/kg/" in turtle and "w3id.org/benchgraph/benchmark" not in turtle
        assert client.get("/org/stanford_university", headers=HTML).status_code == 200
        assert client.get("/vocabulary/MedHELM", headers=HTML).status_code == 200
    finally:
        other.close()


def test_the_graphs_stating_a_value_are_in_order_of_their_iris() -> None:
    node = ox.NamedNode(f"{BASE}package/p")
    label = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
    statements = [Statement(node, label, ox.Literal("p"), ox.NamedNode(f"{BASE}record/{key}"))
                  for key in ("c", "a", "b")]
    (group,) = group_statements(statements, "out", 10)
    assert [graph.value.rsplit("/", 1)[1] for graph in group.values[0].graphs] == ["a", "b", "c"]


@pytest.mark.parametrize(("path", "named"), [
    ("/benchmark/hqa", [("/benchmark/helm_qa", "HELM QA")]),  # an alias
    ("/org/helm_qa", [("/benchmark/helm_qa", "HELM QA")]),  # an id, under another kind
    ("/benchmark/no_such_thing", []),
])
def test_404_links_the_nodes_named_exactly_so(client: FlaskClient, path: str,
                                              named: list[tuple[str, str]]) -> None:
    html = client.get(path, headers=HTML).data.decode()
    found = re.findall(r'<p class="named-so">.*?</p>', html, re.DOTALL)
    links = re.findall(r'<a href="([^"]+)">([^<]*)</a>', found[0]) if found else []
    assert links == named


def test_404_escapes_the_names_it_links(client: FlaskClient) -> None:
    """The alias of ``xss_bench`` finds it; its alias and its name are markup, shown as text."""
    response = client.get("/benchmark/%3Cimg%20src=x%20onerror=alert('alias')%3E", headers=HTML)
    assert response.status_code == 404
    assert "<img src=x" not in response.data.decode()
    assert "&lt;script&gt;alert(&#39;name&#39;)&lt;/script&gt; Bench" in response.data.decode()
