"""A page or its data, as the client asks (``web.data_view``, ``web.negotiation``): the
README's table of addresses walked row by row on the bundled catalog (what ``benchgraph
serve`` answers with no arguments), every page route's headers, and the rule's edges: ties,
``format=``, 406s, how ``Accept`` is read, the SPARQL endpoint and the named queries, which
follow the SPARQL Protocol for their answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

import pytest
from flask.testing import FlaskClient

from graph.settings import Settings
from graph.store.base import Store
from web import create_app

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
BROWSER = ("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
           "*/*;q=0.8")
"""What Chromium sends for a page."""


@dataclass(frozen=True)
class Row:
    """One row of the README's table: the addresses, and the data each gives."""

    addresses: tuple[str, ...]
    data: tuple[tuple[str, str], ...]
    """(suffix, media type), the suffix with its dot."""


def table_rows() -> list[Row]:
    """The README's table of addresses (``| address ... | the page | its data ... |``)."""
    section = README.split("## The web app", 1)[1].split("\n## ", 1)[0]
    head = section.index("| address")
    rows = []
    for line in section[head:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows.append(Row(tuple(re.findall(r"`(/[^`]*)`", cells[0])),
                        tuple(re.findall(r"`(\.\w+)` `([\w/+.-]+)`", cells[2]))))
    return rows


ROWS = table_rows()
ADDRESSES = [(address, row) for row in ROWS for address in row.addresses]


@pytest.fixture(scope="module")
def client(settings: Settings, bundled_store: Store) -> Iterator[FlaskClient]:
    """The app on the bundled catalog, as ``benchgraph serve`` runs it by default."""
    yield create_app(settings, bundled_store, {"TESTING": True}).test_client()


def with_suffix(address: str, suffix: str) -> str:
    """``/search.json?q=x`` for ``/search?q=x``."""
    path, mark, query = address.partition("?")
    return f"{path}{suffix}{mark}{query}"


def with_format(address: str, name: str) -> str:
    return f"{address}{'&' if '?' in address else '?'}format={name}"


def test_the_table_lists_every_kind_of_page() -> None:
    addresses = {address.split("?")[0].split("/")[1] for address, _ in ADDRESSES}
    assert {"", "benchmarks", "search", "benchmark", "org", "person", "paper", "record",
            "vocabulary", "ontology", "shapes", "validation", "queries", "dumps"} <= addresses
    assert (".json", "application/ld+json") in next(
        row.data for row in ROWS if "/benchmark/mimic_rrs" in row.addresses)


@pytest.mark.parametrize(("address", "row"), ADDRESSES, ids=[a for a, _ in ADDRESSES])
def test_each_address_is_a_page_unless_data_is_asked_for(client: FlaskClient, address: str,
                                                         row: Row) -> None:
    for headers in ({}, {"Accept": "*/*"}, {"Accept": BROWSER}):
        page = client.get(address, headers=headers)
        assert page.status_code == 200 and page.mimetype == "text/html", (headers, page.data[:200])
        assert "Accept" in page.vary
    for suffix, media_type in row.data:
        asked = {"suffix": client.get(with_suffix(address, suffix)),
                 "format=": client.get(with_format(address, suffix[1:])),
                 "Accept": client.get(address, headers={"Accept": media_type})}
        if suffix == ".json":
            asked["Accept: application/json"] = client.get(
                address, headers={"Accept": "application/json"})
        for how, response in asked.items():
            assert response.status_code == 200, (suffix, how, response.data[:200])
            assert response.mimetype == media_type, (suffix, how)


@pytest.mark.parametrize(("address", "row"), ADDRESSES, ids=[a for a, _ in ADDRESSES])
def test_an_accept_the_address_cannot_meet_is_a_406_that_lists_what_it_gives(
        client: FlaskClient, address: str, row: Row) -> None:
    refused = client.get(address, headers={"Accept": "image/png"})
    assert refused.status_code == 406 and "Accept" in refused.vary
    message = refused.get_json()["error"]["message"]
    assert "text/html" in message
    for suffix, media_type in row.data:
        assert re.search(rf"{re.escape(media_type)} \([^)]*{re.escape(suffix)}\b", message)


PAGES = {
    "home.index": "/",
    "sparql.endpoint": "/sparql",
    "queries.listing": "/queries",
    "queries.query": "/queries/gated-medhelm",
    "search.search": "/search?q=mmlu",
    "browse.listing": "/benchmarks?size=3",
    "results.listing": "/results?size=3",
    "dumps.listing": "/dumps",
    "docs.ontology": "/ontology",
    "docs.shapes": "/shapes",
    "docs.validation": "/validation",
    "docs.validation_shape": "/validation/shape/CataloguedBenchmarkRecommendations-license",
    "entities.vocabularies": "/vocabulary",
    "entities.vocabulary": "/vocabulary/Gated",
    "entities.node": "/benchmark/mimic_rrs",
}
"""An address of each route that is a page."""
NOT_PAGES = {"static", "favicon", "home.changes", "dumps.dump", "docs.ontology_data",
             "docs.shapes_data", "docs.validation_data", "docs.ontology_document",
             "docs.shapes_document", "results_chart.benchmark", "results_chart.model"}
"""The routes that answer with data, a file or a redirect only."""
NODES = ["/org/stanford_university", "/paper/2211.08584", "/record/000_501ccd0cd0e2608f",
         "/queries/benchmark-card", "/queries/benchmark-card?benchmark=mimic_rrs"]


class _Alternates(HTMLParser):
    """The ``(type, href)`` of each ``<link rel="alternate">`` of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: set[tuple[str, str]] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "link" and named.get("rel") == "alternate":
            self.found.add((named.get("type") or "", named.get("href") or ""))


def link_alternates(header: str) -> set[tuple[str, str]]:
    """The ``(type, target)`` of each ``rel="alternate"`` of a ``Link`` header."""
    return {(kind, target) for target, kind in
            re.findall(r'<([^>]*)>; rel="alternate"; type="([^"]*)"', header)}


def test_every_route_is_a_page_or_named_as_none(client: FlaskClient) -> None:
    endpoints = {rule.endpoint for rule in client.application.url_map.iter_rules()}
    assert endpoints == set(PAGES) | NOT_PAGES


@pytest.mark.parametrize("address", [*PAGES.values(), *NODES])
def test_every_page_varies_by_accept_and_names_its_alternates_in_link(
        client: FlaskClient, address: str) -> None:
    page = client.get(address, headers={"Accept": BROWSER})
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "Accept" in page.vary
    named = _Alternates()
    named.feed(page.get_data(as_text=True))
    linked = link_alternates(page.headers.get("Link", ""))
    assert named.found == {(kind, href) for kind, href in linked if kind != "text/html"}
    for kind, href in linked:  # and each answers, as what it is said to be
        answer = client.get(href, headers={"Accept": kind})
        assert answer.status_code == 200 and answer.mimetype == kind, (href, kind)


def test_a_tie_is_the_page_and_a_preference_is_the_data(client: FlaskClient) -> None:
    tie = client.get("/benchmark/mimic_rrs", headers={"Accept": "application/json, text/html"})
    assert tie.mimetype == "text/html"
    preferred = client.get("/benchmark/mimic_rrs",
                           headers={"Accept": "text/html;q=0.5, text/turtle"})
    assert preferred.mimetype == "text/turtle"
    assert preferred.headers["Content-Location"] == "/benchmark/mimic_rrs.ttl"


@pytest.mark.parametrize("address", ["/benchmark/no_such_benchmark", "/queries/no-such-query",
                                     "/validation/shape/no-such-shape"])
def test_an_address_that_is_not_there_is_a_404_whatever_the_accept(client: FlaskClient,
                                                                   address: str) -> None:
    assert client.get(address, headers={"Accept": "image/png"}).status_code == 404


def test_a_format_the_page_has_not_is_a_400_naming_those_it_has(client: FlaskClient) -> None:
    refused = client.get("/search?q=mmlu&format=ttl")
    assert refused.status_code == 400
    assert "use json" in refused.get_json()["error"]["message"]
    assert client.get("/search.ttl?q=mmlu").status_code == 404  # a suffix is an address


def test_a_page_with_no_data_keeps_its_headers_in_its_406(client: FlaskClient) -> None:
    origin = "http://elsewhere.example"
    refused = client.get("/dumps", headers={"Accept": "application/json", "Origin": origin})
    assert refused.status_code == 406 and refused.is_json
    assert refused.headers["Access-Control-Allow-Origin"] == origin
    assert "text/html (the page)" in refused.get_json()["error"]["message"]


def test_an_error_is_json_to_a_program_and_a_page_to_a_browser(client: FlaskClient) -> None:
    for headers in ({}, {"Accept": "*/*"}):
        missing = client.get("/benchmark/no_such_benchmark", headers=headers)
        assert missing.status_code == 404 and missing.is_json
    page = client.get("/benchmark/no_such_benchmark", headers={"Accept": BROWSER})
    assert page.status_code == 404 and page.mimetype == "text/html"


# -- /sparql and /queries/NAME: the page to a person, answers as the SPARQL Protocol says ------

@pytest.mark.parametrize("headers", [{}, {"Accept": "*/*"}, {"Accept": BROWSER}],
                         ids=["no Accept", "*/*", "a browser"])
def test_the_endpoint_with_no_query_is_the_editor(client: FlaskClient,
                                                  headers: dict[str, str]) -> None:
    editor = client.get("/sparql", headers=headers)
    assert editor.status_code == 200 and editor.mimetype == "text/html"
    assert b'id="sparql-editor"' in editor.data


def test_the_endpoint_describes_itself_to_a_client_that_asks_for_rdf(
        client: FlaskClient) -> None:
    described = client.get("/sparql", headers={"Accept": "text/turtle"})
    assert described.mimetype == "text/turtle" and b"sparql-service-description" in described.data


@pytest.mark.parametrize("headers", [{}, {"Accept": "*/*"}], ids=["no Accept", "*/*"])
def test_a_query_with_no_accept_is_answered_not_sent_to_the_editor(
        client: FlaskClient, headers: dict[str, str]) -> None:
    answered = client.get("/sparql?query=ASK%20%7B%7D", headers=headers)
    assert answered.status_code == 200
    assert answered.mimetype == "application/sparql-results+json"
    assert answered.get_json()["boolean"] is True
    assert client.get("/sparql?query=ASK%20%7B", headers=headers).status_code == 400


def test_a_link_to_a_query_opens_it_in_the_editor_for_a_browser(client: FlaskClient) -> None:
    followed = client.get("/sparql?query=ASK%20%7B%7D", headers={"Accept": BROWSER})
    assert followed.status_code == 303 and followed.headers["Location"].startswith("/sparql#")


@pytest.mark.parametrize("headers", [{}, {"Accept": "*/*"}], ids=["no Accept", "*/*"])
def test_a_named_query_is_a_page_unless_data_is_asked_for(client: FlaskClient,
                                                          headers: dict[str, str]) -> None:
    page = client.get("/queries/gated-medhelm", headers=headers)
    assert page.status_code == 200 and page.mimetype == "text/html"
    data = client.get("/queries/gated-medhelm", headers={"Accept": "application/json"})
    assert data.mimetype == "application/sparql-results+json"


# -- how Accept is read (Werkzeug's MIMEAccept) -------------------------------------------------

CONSTRUCT = "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 1"


@pytest.mark.parametrize(("accept", "media_type"), [
    ("text/turtle;q=0, */*", "application/n-triples"),  # refused by its name, not brought back
    ("*/*, application/n-triples", "application/n-triples"),  # the type named outright
    ("application/x-turtle", "text/turtle"),  # another name of Turtle
    ("text/turtle; charset=UTF-8", "text/turtle"),  # what it is served as
    ("image/png", "text/turtle"),  # nothing it can have: the Protocol's first
])
def test_the_endpoint_reads_accept_as_http_says(client: FlaskClient, accept: str,
                                                media_type: str) -> None:
    answer = client.get("/sparql?" + urlencode({"query": CONSTRUCT}), headers={"Accept": accept})
    assert answer.status_code == 200 and answer.mimetype == media_type


@pytest.mark.parametrize(("accept", "status", "media_type"), [
    ("text/turtle; charset=utf-8", 200, "text/turtle"),
    ("text/turtle; charset=iso-8859-1", 406, None),  # served in UTF-8 only
    ("text/turtle;q=0, application/x-turtle;q=0.5, text/html;q=0.1", 200, "text/html"),
    ("text/turtle;q=bad", 200, "text/html"),  # a range that cannot be read is left out
])
def test_a_page_reads_accept_as_http_says(client: FlaskClient, accept: str, status: int,
                                          media_type: str | None) -> None:
    answer = client.get("/benchmark/mimic_rrs", headers={"Accept": accept})
    assert answer.status_code == status
    if media_type:
        assert answer.mimetype == media_type
