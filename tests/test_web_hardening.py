"""What the web app's answers say and carry, as a hostile client meets them (issue 34, item 8),
on every kind of store: no answer names a path on the server; every malformed parameter is a
400 naming it, by every method alike (bytes that are not UTF-8 included); every response
carries ``nosniff``, a Content-Security-Policy that runs only the site's own scripts,
``frame-ancestors`` and a ``Referrer-Policy``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, unquote_to_bytes

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from graph.build.graphs import GraphInMemory, build
from graph.export.formats import NTRIPLES, TURTLE
from graph.settings import Settings
from graph.store.base import Store
from graph.store.errors import StoreError
from graph.store.kinds import StoreSpec, build_into, open_store
from tests.seeds import SEEDS
from tests.store_kinds import opened
from web import create_app

JSON = {"Accept": "application/json"}
HTML = {"Accept": "text/html"}
ASK = "ASK { ?s ?p ?o }"


@pytest.fixture(scope="module")
def built(settings: Settings) -> GraphInMemory:
    return build(list(SEEDS), settings)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory, store_kind: str) -> Path:
    return tmp_path_factory.mktemp(f"hardening-{store_kind}")


@pytest.fixture(scope="module")
def store(built: GraphInMemory, settings: Settings, store_kind: str,
          folder: Path) -> Iterator[Store]:
    with opened(store_kind, built, folder, settings, validate=True) as made:
        yield made


@pytest.fixture(scope="module")
def client(store: Store, settings: Settings) -> FlaskClient:
    return create_app(settings, store).test_client()


def server_paths(store: Store, *more: Path) -> list[str]:
    """Paths on the server that no answer may name: where the store keeps its files, the
    test's folders, the working directory and the code."""
    turtle = store.artefacts().dump(TURTLE).path
    paths = {turtle.parent, turtle.parent.parent, *more,
             Path.cwd(), Path(__file__).resolve().parent.parent}
    return sorted({str(path) for path in paths if str(path) not in ("/", "/tmp")})


def assert_names_no_path(answer: TestResponse, paths: list[str]) -> None:
    body = answer.get_data(as_text=True)
    for path in paths:
        assert path not in body, (answer.request.path, path, body[:300])
        assert path not in str(answer.headers), (answer.request.path, path)


# -- no answer names a path on the server ---------------------------------------------------

HOSTILE = ["/record/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/record/..%2f..%2f..%2fetc%2fpasswd",
           "/record/%2e%2e", "/record/%2e%2e/",
           "/benchmark/%2e%2e%2f%2e%2e%2fbenchgraph-store.json",
           "/static/%2e%2e/%2e%2e/graph/settings.py", "/static/..%2f..%2fREADME.md",
           "/dump.%2e%2e", "/dump.nope", "/validation.nope", "/validation/shape/%2e%2e",
           "/ontology/%2e%2e/%2e%2e", "/shapes/%2e%2e", "/queries/%2e%2e", "/vocabulary/%2e%2e",
           "/record/x.ttl/%2e%2e", "/nothing/here"]


@pytest.mark.parametrize("path", HOSTILE)
def test_no_answer_to_a_path_that_climbs_names_the_servers_files(
        client: FlaskClient, store: Store, folder: Path, path: str) -> None:
    for headers in (JSON, HTML):
        answer = client.get(path, headers=headers)
        assert answer.status_code in (400, 404), (path, answer.status_code)
        assert_names_no_path(answer, server_paths(store, folder))


def test_a_kept_file_that_is_gone_is_a_503_that_names_the_address_not_the_file(
        built: GraphInMemory, settings: Settings, store_kind: str, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A dump or the validation report gone from under a running server (a generation
    removed, a disk that failed): a 503 naming what was asked for; the file is in the log."""
    with opened(store_kind, built, tmp_path, settings, validate=True) as store:
        client = create_app(settings, store).test_client()
        paths = server_paths(store, tmp_path)
        assert client.get("/dump.nt").status_code == 200
        dump, report = store.artefacts().dump(NTRIPLES), store.artefacts().validation_file(".json")
        for kept in (dump, report):
            assert kept is not None
            kept.path.unlink()
        for address in ("/dump.nt",):
            for headers in (JSON, HTML):
                answer = client.get(address, headers=headers)
                assert answer.status_code == 503, (address, answer.status_code)
                assert address in answer.get_data(as_text=True)
                assert_names_no_path(answer, paths)
        assert str(dump.path) in caplog.text  # the operator learns which file
        # a store that looks for its report finds none (404); one that trusts it is there, 503
        answer = client.get("/validation.json", headers=JSON)
        assert answer.status_code in (404, 503)
        assert_names_no_path(answer, paths)


def test_a_dump_that_cannot_be_written_names_no_folder(
        built: GraphInMemory, settings: Settings, tmp_path: Path) -> None:
    """A store folder (``oxigraph:DIR``) whose generation's data cannot be read when a dump
    is first asked for: the store's own message names the folder (the command line and the
    server's log show it); the client gets the address it asked for, and no dump is left."""
    build_into(tmp_path / "store", built.records, settings)
    generation = next((tmp_path / "store").glob("generation-*"))
    store = open_store(StoreSpec("oxigraph", str(tmp_path / "store")), settings)
    (generation / "CURRENT").unlink()  # RocksDB's pointer to its data: it cannot open it
    try:
        client = create_app(settings, store).test_client()
        answer = client.get("/dump.nt", headers=JSON)
        assert answer.status_code == 503
        assert "/dump.nt" in answer.get_json()["error"]["message"]
        assert_names_no_path(answer, [str(tmp_path), str(generation)])
        with pytest.raises(StoreError, match=f"dump of {generation}"):
            store.artefacts().dump(NTRIPLES)
        assert not [path for path in generation.iterdir() if "dump" in path.name]
    finally:
        store.close()


# -- every malformed parameter is a 400 naming it -------------------------------------------

FORM = "application/x-www-form-urlencoded"
SPARQL_QUERY = "application/sparql-query"
NOT_UTF8 = ["%FF", "%C3", "%E2%82", "%C0%AF", "%ED%A0%80"]
"""A byte no UTF-8 text holds, a sequence cut short, an overlong ``/``, a lone surrogate."""


def refused_naming(answer: TestResponse, name: str) -> str:
    """The message of ``answer``, a 400 whose message names the parameter ``name``."""
    assert answer.status_code == 400, (answer.request.url, answer.status_code,
                                       answer.get_data(as_text=True)[:300])
    if answer.is_json:
        message: str = answer.get_json()["error"]["message"]
    else:
        found = re.search(r'class="error-message">(.*?)</p>', answer.get_data(as_text=True),
                          re.DOTALL)
        assert found, answer.get_data(as_text=True)[:300]
        message = found.group(1).replace("&#39;", "'")
    assert re.search(rf"(^|\W){re.escape(name)}(\W|$)", message), (name, message)
    return message


@pytest.mark.parametrize("bad", NOT_UTF8)
def test_a_query_that_is_not_utf8_is_a_400_naming_it_by_every_method(
        client: FlaskClient, bad: str) -> None:
    """werkzeug reads ``%FF`` in a URL as the text ``%FF``: the query ran as that text, where
    the same bytes in a POST were refused."""
    encoded = f"ASK%20%7B%20%3Fs%20%3Fp%20%22{bad}%22%20%7D"
    answers = [
        client.get(f"/sparql?query={encoded}", headers=JSON),
        client.post("/sparql", data=f"query={encoded}", content_type=FORM, headers=JSON),
        client.post("/sparql", data=unquote_to_bytes(encoded), content_type=SPARQL_QUERY,
                    headers=JSON),
    ]
    for answer in answers:
        assert "UTF-8" in refused_naming(answer, "query")


@pytest.mark.parametrize("method", ["GET", "form", "direct"])
@pytest.mark.parametrize("name", ["default-graph-uri", "named-graph-uri", "format"])
def test_every_parameter_of_the_endpoint_that_is_not_utf8_is_a_400_naming_it(
        client: FlaskClient, method: str, name: str) -> None:
    query = f"query=ASK%7B%7D&{name}=%FF"
    if method == "GET":
        answer = client.get(f"/sparql?{query}", headers=JSON)
    elif method == "form":
        answer = client.post("/sparql", data=query, content_type=FORM, headers=JSON)
    else:
        answer = client.post(f"/sparql?{name}=%FF", data="ASK {}", content_type=SPARQL_QUERY,
                             headers=JSON)
    assert "UTF-8" in refused_naming(answer, name)


@pytest.mark.parametrize(("address", "name"), [
    ("/search?q=%FF", "q"), ("/search.json?q=caf%C3", "q"), ("/benchmarks?tag=%FF", "tag"),
    ("/benchmarks.csv?access=%FF", "access"), ("/queries/lineage?benchmark=%FF", "benchmark"),
    ("/benchmark/mimic_rrs?chart=%FF", "chart"), ("/dumps?x=%80", "x"),
])
def test_any_parameter_that_is_not_utf8_is_a_400_naming_it(
        client: FlaskClient, address: str, name: str) -> None:
    for headers in (JSON, HTML):
        assert "UTF-8" in refused_naming(client.get(address, headers=headers), name)


def test_a_raw_byte_that_is_not_utf8_is_a_400_not_a_500(client: FlaskClient) -> None:
    """A byte past ASCII sent as it is, not percent-encoded (a client that does not encode):
    werkzeug's ``request.args`` fails on it."""
    for address, name in (("/search", "q"), ("/sparql", "query"), ("/benchmarks", "tag")):
        raw = f"{name}=caf\xe9"  # WSGI's QUERY_STRING: the bytes as Latin-1 characters
        answer = client.get(address, headers=JSON, environ_overrides={"QUERY_STRING": raw})
        refused_naming(answer, name)
    nameless = client.get("/search", headers=JSON, environ_overrides={"QUERY_STRING": "%FF=1"})
    assert nameless.status_code == 400 and "name" in nameless.get_json()["error"]["message"]


def test_text_that_is_utf8_is_read_as_it_is(client: FlaskClient) -> None:
    found = client.get("/search.json?q=caf%C3%A9+%E2%80%94+x%2By", headers=JSON)
    assert found.status_code == 200 and found.get_json()["query"] == "café — x+y"
    asked = client.post("/sparql", data="query=ASK%7B%7D%23%C3%A9", content_type=FORM,
                        headers=JSON)
    assert asked.status_code == 200 and asked.get_json()["boolean"] is True


MANY = "9" * 5000
"""More digits than ``int()`` reads (4,300)."""


@pytest.mark.parametrize(("address", "name"), [
    ("/validation?page=%C2%B2", "page"), (f"/validation?page={MANY}", "page"),
    ("/validation?page=0", "page"), ("/validation?page=-1", "page"),
    ("/validation?page=999999999999999999999", "page"),
    ("/validation/shape/CataloguedBenchmarkRecommendations-license?page=x", "page"),
    (f"/search?q=a&page={MANY}", "page"), ("/search?q=a&page=%C2%B2", "page"),
    (f"/benchmarks?size={MANY}", "size"), (f"/benchmarks?page={MANY}", "page"),
    ("/benchmarks?more=price", "more"), ("/benchmark/mimic_rrs?chart=price", "chart"),
    ("/benchmark/mimic_rrs?chart=-", "chart"),
    ("/org/stanford_university?benchmarks_page=abc", "benchmarks_page"),
    ("/record/000_501ccd0cd0e2608f?contents_page=0", "contents_page"),
    (f"/record/000_501ccd0cd0e2608f?contents_page={MANY}", "contents_page"),
    ("/benchmark/mimic_rrs?property=http://www.w3.org/2000/01/rdf-schema%23label&page=-2",
     "page"),
    ("/benchmark/mimic_rrs?property=http://www.w3.org/2000/01/rdf-schema%23label&direction=up",
     "direction"),
    ("/benchmark/mimic_rrs?property=not%20an%20iri", "property"),
    (f"/queries/multi-harness?least={MANY}", "least"),
    ("/queries/stale-records?before=2024-02-30", "before"),
])
def test_a_malformed_parameter_is_a_400_naming_it(
        client: FlaskClient, address: str, name: str) -> None:
    refused_naming(client.get(address, headers=HTML), name)


@pytest.mark.parametrize(("name", "value"), [
    ("default-graph-uri", "not-an-iri"), ("named-graph-uri", "http://a b/"),
    ("default-graph-uri", "http://x/>"), ("format", "nonsense"),
])
def test_a_malformed_parameter_of_the_endpoint_is_a_400_naming_it_by_every_method(
        client: FlaskClient, name: str, value: str) -> None:
    encoded = quote(value, safe="")
    answers = [
        client.get(f"/sparql?query=ASK%7B%7D&{name}={encoded}", headers=JSON),
        client.post("/sparql", data=f"query=ASK%7B%7D&{name}={encoded}", content_type=FORM,
                    headers=JSON),
        client.post(f"/sparql?{name}={encoded}", data="ASK {}", content_type=SPARQL_QUERY,
                    headers=JSON),
    ]
    for answer in answers:
        refused_naming(answer, name)


# -- the headers every response carries -----------------------------------------------------

ANSWERS = [
    ("GET", "/", HTML), ("GET", "/sparql", HTML), ("GET", f"/sparql?query={quote(ASK)}", JSON),
    ("GET", "/sparql", JSON), ("POST", "/sparql", JSON), ("GET", "/sparql?query=%FF", JSON),
    ("GET", "/static/benchgraph.css", HTML), ("GET", "/static/sparql-editor.js", HTML),
    ("GET", "/static/vendor/yasgui/yasgui.min.js", HTML), ("GET", "/dump.ttl", HTML),
    ("GET", "/validation.json", JSON), ("GET", "/validation", HTML),
    ("GET", "/benchmark/mimic_rrs", HTML), ("GET", "/benchmark/mimic_rrs.ttl", HTML),
    ("GET", "/nothing/here", HTML), ("GET", "/nothing/here", JSON),
    ("GET", "/search.json?q=%3Cscript%3Ealert(1)%3C/script%3E", JSON),
    ("GET", "/search?q=a&page=0", JSON), ("GET", "/benchmarks.csv", HTML),
    ("GET", "/queries/gated-medhelm.json", JSON), ("PUT", "/sparql", JSON),
    ("OPTIONS", "/sparql", JSON),
]


def policy_of(answer: TestResponse) -> dict[str, list[str]]:
    """The Content-Security-Policy of ``answer``, directive by directive."""
    header = answer.headers.get("Content-Security-Policy")
    assert header, (answer.request.path, "no Content-Security-Policy")
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        if part.strip():
            name, *sources = part.split()
            assert name not in directives, header
            directives[name.lower()] = sources
    return directives


def assert_secure(answer: TestResponse) -> None:
    where = (answer.request.method, answer.request.path, answer.status_code)
    assert answer.headers.get("X-Content-Type-Options") == "nosniff", where
    assert answer.headers.get("Referrer-Policy") == "same-origin", where
    policy = policy_of(answer)
    assert policy.get("script-src", policy.get("default-src")) == ["'self'"], where
    assert policy.get("default-src") == ["'self'"], where
    assert policy.get("frame-ancestors") == ["'none'"], where
    assert policy.get("object-src") == ["'none'"], where
    assert policy.get("base-uri") == ["'none'"], where
    for directive, sources in policy.items():
        for source in sources:  # this site alone: no other host, no scheme-wide source
            assert source in ("'self'", "'none'", "data:", "'unsafe-inline'"), (where, source)
            assert source != "'unsafe-inline'" or directive == "style-src", where
    styles = policy.get("style-src", [])
    editor = answer.request.path == "/sparql" and answer.mimetype == "text/html"
    assert styles == (["'self'", "'unsafe-inline'"] if editor else ["'self'"]), (where, styles)


@pytest.mark.parametrize(("method", "address", "headers"), ANSWERS)
def test_every_response_carries_the_security_headers(
        client: FlaskClient, method: str, address: str, headers: dict[str, str]) -> None:
    extra = {"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "POST"}
    answer = client.open(address, method=method, headers={**headers, **extra})
    assert_secure(answer)


def test_a_not_modified_and_a_range_carry_them_too(client: FlaskClient) -> None:
    etag = client.get("/dump.ttl").headers["ETag"]
    assert_secure(client.get("/dump.ttl", headers={"If-None-Match": etag}))
    assert_secure(client.get("/dump.ttl", headers={"Range": "bytes=0-9"}))


_SCRIPT = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
_HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE)
_DATA_BLOCK = re.compile(r'\btype="application/(ld\+)?json"')


@pytest.mark.parametrize("address", [
    "/", "/sparql", "/benchmark/mimic_rrs", "/benchmark/mimic_cxr_classification",
    "/record/000_501ccd0cd0e2608f", "/org/stanford_university", "/queries",
    "/queries/lineage?benchmark=mimic_rrs", "/search?q=mimic", "/benchmarks", "/ontology",
    "/shapes", "/validation", "/dumps", "/vocabulary", "/nothing/here",
])
def test_no_page_holds_script_of_its_own(client: FlaskClient, address: str) -> None:
    """Every script is a file of the site's (the policy runs no other); a ``<script>`` with a
    JSON type is data, not script."""
    html = client.get(address, headers=HTML).get_data(as_text=True)
    for attributes in _SCRIPT.findall(html):
        assert "src=" in attributes or _DATA_BLOCK.search(attributes), (address, attributes)
    assert not _HANDLER.search(html), (address, _HANDLER.search(html))
    assert "javascript:" not in html.lower(), address



def test_a_query_the_engine_refuses_names_its_words_not_its_address(
        client: FlaskClient) -> None:
    """A query the parse tree admits and the engine refuses (a variable bound twice) is a
    400 with the engine's reason on every kind; on a remote kind, never the engine's
    address, which is the server's business."""
    query = quote("SELECT * WHERE { BIND (1 AS ?x) BIND (2 AS ?x) }")
    answer = client.get(f"/sparql?query={query}", headers=JSON)
    assert answer.status_code == 400
    message = answer.get_json()["error"]["message"]
    assert message.startswith("the query: "), message
    assert "127.0.0.1" not in message and "localhost" not in message and "http://" not in message
