"""The named queries' pages lead somewhere: every value that names a node links to the node's
page, "open in the editor" opens the query that made the page, its values bound, and a query
whose answer rests on a property most nodes lack says how many it could not judge."""

import re
from collections.abc import Iterator
from dataclasses import replace
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from graph.settings import Settings
from graph.sparql.named import load_named_queries, parse_named_query
from graph.sparql.unjudged import count_unjudged
from graph.store.base import Store
from graph.store.kinds import StoreSpec, limits_from, open_store
from tests.seeds import SEEDS
from web import create_app
from web.stores import get_store

FIXTURES = Path(__file__).parent / "data" / "query_catalog"
RESULTS = Path(__file__).parent / "data" / "query_results"
BASE = Settings().base
HTML = {"Accept": "text/html"}
QUERIES = load_named_queries()
VALUES = {"lineage": {"benchmark": "helm_qa"}, "referenced-by": {"benchmark": "helm_qa"},
          "made-by": {"maker": "ada"}, "stale-records": {"before": "2026-01-01"},
          "leaderboard": {"benchmark": "gsm8k"}, "model-results": {"model": "qwen"},
          "maker-results": {"maker": "openai"}}
"""A value for each query that needs one, chosen to give rows on the seeds and fixtures."""
ON_THE_CATALOG = {"harness-conflicts"}
"""The queries that give no rows on the seeds and fixtures, checked on the bundled catalog."""
WITH_RESULTS = {"leaderboard", "model-results", "maker-results", "top-results",
                "paper-vs-reproduction", "source-disagreements", "near-saturation"}
"""The queries of results, checked with ``tests/data/query_results/`` beside the fixtures."""


def client_of(paths: list[Path]) -> Iterator[FlaskClient]:
    settings = Settings()
    store = open_store(StoreSpec.parse("memory"), settings, paths)
    yield create_app(settings, store, {"TESTING": True}).test_client()
    store.close()


@pytest.fixture(scope="module")
def client() -> Iterator[FlaskClient]:
    yield from client_of([*SEEDS, FIXTURES])


@pytest.fixture(scope="module")
def with_results() -> Iterator[FlaskClient]:
    """The seeds and fixtures, and results run alike (the curated pages state no settings)."""
    yield from client_of([*SEEDS, FIXTURES, RESULTS])


@pytest.fixture(scope="module")
def catalog(settings: Settings, bundled_store: Store) -> FlaskClient:
    """The bundled catalog: 37 MedHELM benchmarks, one of which states its access level."""
    return create_app(settings, bundled_store, {"TESTING": True}).test_client()


def page(client: FlaskClient, name: str, values: dict[str, str]) -> str:
    answer = client.get(f"/queries/{name}?{urlencode(values)}", headers=HTML)
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


# -- every name of a node links to its page -------------------------------------------------------

LINKED = sorted(name for name, query in QUERIES.items() if query.node_links)


def test_the_queries_that_name_nodes() -> None:
    assert set(LINKED) >= {"gated-medhelm", "made-by", "in-suite", "multi-harness", "lineage",
                           "harness-crosswalk", "top-results"}


@pytest.mark.parametrize("name", LINKED)
def test_each_name_links_to_its_nodes_page(request: pytest.FixtureRequest, name: str) -> None:
    client: FlaskClient = request.getfixturevalue(
        "catalog" if name in ON_THE_CATALOG else "with_results" if name in WITH_RESULTS
        else "client")
    values = VALUES.get(name, {})
    html = page(client, name, values)
    data = client.get(f"/queries/{name}.json?{urlencode(values)}").get_json()
    assert data["results"]["bindings"], f"{name} gives no rows to check"
    for link in QUERIES[name].node_links:
        assert f"<th>{link.node}</th>" not in html  # the name stands for the IRI
        for row in data["results"]["bindings"]:
            if link.column not in row or link.node not in row:
                continue
            iri, text = row[link.node]["value"], row[link.column]["value"]
            anchor = f'<a href="/{iri.removeprefix(BASE)}" title="{iri}">{escape(text)}</a>'
            assert anchor in html, (name, link)


def test_a_benchmark_id_links_to_the_benchmark(client: FlaskClient) -> None:
    html = page(client, "gated-medhelm", {})
    assert '<a href="/benchmark/mimic_rrs" title="https://w3id.org/benchgraph/benchmark/' \
        'mimic_rrs">mimic_rrs</a>' in html
    maker = page(client, "made-by", {"maker": "Stanford"})
    assert '<a href="/org/stanford_university"' in maker


# -- the editor opens the query that made the page ------------------------------------------------

@pytest.mark.parametrize(("name", "values"), [
    ("made-by", {"maker": "Stanford"}),
    ("lineage", {"benchmark": "mimic_rrs"}),
    ("by-access-level", {}),  # its default value, bound as the page bound it
])
def test_the_editor_gives_the_pages_rows(client: FlaskClient, name: str,
                                         values: dict[str, str]) -> None:
    html = page(client, name, values)
    start = html.index('href="/sparql#') + len('href="')
    link = unescape(html[start:html.index('"', start)])
    (text,) = parse_qs(urlsplit(link).fragment)["query"]
    assert "VALUES" in text
    editor = client.post("/sparql", data={"query": text},
                         headers={"Accept": "application/sparql-results+json"}).get_json()
    shown = client.get(f"/queries/{name}.json?{urlencode(values)}").get_json()
    assert shown["results"]["bindings"]
    assert editor["results"]["bindings"] == shown["results"]["bindings"]


# -- what the query could not judge -----------------------------------------------------------

def test_the_bundled_catalog_says_how_many_state_no_access_level(catalog: FlaskClient) -> None:
    """Every MedHELM benchmark states its level (HELM's run-entry files); most others do not."""
    assert 'class="notice unjudged"' not in page(catalog, "gated-medhelm", {})
    html = page(catalog, "by-access-level", {})
    found = re.search(r"([\d,]+) of ([\d,]+) benchmarks state no access level\.", html)
    assert found and 1_000 < int(found.group(1).replace(",", "")) < int(
        found.group(2).replace(",", ""))


def test_a_notice_only_where_a_node_was_not_judged(client: FlaskClient) -> None:
    assert "14 of 21 benchmarks state no access level." in page(client, "by-access-level", {})
    assert 'class="notice unjudged"' not in page(client, "gated-medhelm", {})  # all 3 state it
    assert 'class="notice unjudged"' not in page(client, "in-suite", {})  # no count of its own


def test_a_count_binds_the_values_of_the_parameters_it_shares(client: FlaskClient) -> None:
    """A count that declares the query's parameter counts among the nodes that value picks:
    of the four gated benchmarks, the two that state no contamination risk."""
    count = parse_named_query(
        "#+ title: gated benchmarks state no contamination risk\n"
        "#+ param: level iri — an access level\n"
        "PREFIX bench: <https://w3id.org/benchgraph/ontology#>\n"
        "SELECT (COUNT(DISTINCT ?b) - COUNT(DISTINCT ?judged) AS ?unjudged)\n"
        "       (COUNT(DISTINCT ?b) AS ?total)\n"
        "WHERE { ?b bench:accessLevel ?level\n"
        "        OPTIONAL { ?b bench:contaminationRisk ?risk . BIND (?b AS ?judged) } }\n",
        "by-access-level.unjudged")
    query = replace(QUERIES["by-access-level"], unjudged=count)
    with client.application.app_context():
        found = count_unjudged(query, {"level": "bench:Gated"}, get_store(),
                               limits_from(Settings()))
    assert str(found) == "2 of 4 gated benchmarks state no contamination risk."


@pytest.mark.parametrize("accept, status, media", [
    (None, 200, "text/html"),
    ("*/*", 200, "text/html"),
    ("application/json", 200, "application/sparql-results+json"),
    ("text/csv", 200, "text/csv"),
    ("image/png", 406, None),
])
def test_a_named_query_answers_the_accept_it_can_meet_and_406_otherwise(
        client: FlaskClient, accept: str | None, status: int, media: str | None) -> None:
    headers = {"Accept": accept} if accept else {}
    response = client.get("/queries/publishers", headers=headers)
    assert response.status_code == status, response.data[:300]
    if media:
        assert response.mimetype == media
    else:
        assert b"text/html (the page)" in response.data
