"""A page or its data, as the client asks (``web.negotiation``): the README's table of
addresses walked row by row on the bundled catalog (what ``benchgraph serve`` answers with
no arguments), and the rule's edges: ties, ``format=``, 406s, the SPARQL endpoint and the
named queries, which follow the SPARQL Protocol for their answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from graph.settings import Settings
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
def client(settings: Settings) -> Iterator[FlaskClient]:
    """The app on the bundled catalog, as ``benchgraph serve`` runs it by default."""
    yield create_app(settings, config={"TESTING": True}).test_client()


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


def test_a_tie_is_the_page_and_a_preference_is_the_data(client: FlaskClient) -> None:
    tie = client.get("/benchmark/mimic_rrs", headers={"Accept": "application/json, text/html"})
    assert tie.mimetype == "text/html"
    preferred = client.get("/benchmark/mimic_rrs",
                           headers={"Accept": "text/html;q=0.5, text/turtle"})
    assert preferred.mimetype == "text/turtle"
    assert preferred.headers["Content-Location"] == "/benchmark/mimic_rrs.ttl"


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
