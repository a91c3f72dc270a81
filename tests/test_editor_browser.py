"""The /sparql editor says what the endpoint said (issue 35), in a real headless Chromium over a
live ``benchgraph serve`` of the bundled catalog, with a row limit and a time limit low enough
to meet in a test.

An answer the row limit cut says so in words; an error (a syntax error, a refused SERVICE, a
time limit) reads as the server's sentence, never as its JSON; a ``SELECT *`` keeps the
query's order of columns, in every format the endpoint writes; IRIs read as the site's CURIEs
and link to its pages where the site has one; a wide table scrolls inside its own box; the
query's text field has a name, and the editor's other states pass axe-core as its first does.

The pages are watched as ``tests/test_browser.py`` watches them (its fixtures, reused here):
requests stay on the app, no dialog opens, no script fails, the Content-Security-Policy blocks
nothing. Screenshots go where that file's go.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest

from graph.namespace import BENCH_IRI
from graph.settings import DEFAULT_BASE
from tests import test_accessibility as accessibility
from tests import test_browser as browsing
from tests.serving import LiveServer, serve
from tests.test_browser import Watched

# The browser tests' fixtures, which pytest finds here by these names; ``server`` is this
# file's own, with its limits.
artifacts, browser, watched = browsing.artifacts, browsing.browser, browsing.watched

pytestmark = browsing.pytestmark

ROW_LIMIT = 1_000
TIME_LIMIT = 3
EVERYTHING = "SELECT * WHERE { ?s ?p ?o }"
SYNTAX_ERROR = "SELECT * WHERE { ?s ?p "
SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
"""Counts the triples cubed: far longer than TIME_LIMIT."""
WIDE = ("SELECT ?s (CONCAT(STR(?s), STR(?p), STR(?s), STR(?p), STR(?s), STR(?p)) AS ?wide) ?p ?o "
        "WHERE { ?s ?p ?o } LIMIT 5")
"""A row wider than the page: each ?wide is one long word."""
ACTIVE = ".tabPanel.active"


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with serve(["--row-limit", str(ROW_LIMIT), "--query-timeout", str(TIME_LIMIT)],
               files=False) as live:
        yield live


def run(watched: Watched, query: str) -> None:
    """``query`` run in the editor's open tab, as a person runs it, until its answer is drawn
    (YASR's "drawn": rows, an error, and what the editor says beside them)."""
    page = watched.page
    page.evaluate("""([query, ms]) => {
        const tab = window.benchgraphSparqlEditor.getTab();
        tab.getYasqe().setValue(query);
        window.benchgraphDrawn = new Promise((done, fail) => {
            tab.getYasr().once("drawn", done);
            setTimeout(() => fail(new Error("no answer drawn in " + ms + " ms")), ms);
        });
    }""", [query, (TIME_LIMIT + 20) * 1000])
    page.locator(f"{ACTIVE} .yasqe_queryButton").click()
    page.evaluate("() => window.benchgraphDrawn.then(() => true)")


def columns(watched: Watched) -> list[str]:
    return watched.page.locator(f"{ACTIVE} thead .dt-column-title").all_inner_texts()


def fits_the_page(watched: Watched) -> None:
    """Nothing widens the page, and the table's box ends inside the window."""
    page = watched.page
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator(f"{ACTIVE} .dt-layout-table").bounding_box()
    assert box is not None and box["x"] + box["width"] <= width, box


def test_a_cut_answer_says_so_in_the_querys_order_and_the_sites_curies(
        watched: Watched) -> None:
    watched.open("/sparql")
    page = watched.page
    run(watched, EVERYTHING)
    notice = page.locator(f"{ACTIVE} .benchgraph-cut")
    assert notice.inner_text().startswith(
        "Cut at the row limit of 1,000: the query has more rows.")
    assert columns(watched) == ["#", "s", "p", "o"]
    shown = page.locator(f"{ACTIVE} tbody a.iri").all_inner_texts()
    assert shown and all(":" in text and not text.startswith(("<", "http")) for text in shown)
    fits_the_page(watched)
    watched.shoot("editor-cut", focus="Cut at the row limit")
    run(watched, "SELECT * WHERE { ?s ?p ?o } LIMIT 1")
    assert notice.count() == 0  # the next answer, whole, says nothing


def test_iris_read_as_the_sites_curies_and_link_to_its_pages(watched: Watched) -> None:
    watched.open("/sparql")
    iris = [f"{BENCH_IRI}Benchmark", f"{BENCH_IRI}Gated", f"{DEFAULT_BASE}benchmark/mimic_rrs",
            "http://www.w3.org/2000/01/rdf-schema#label", "http://example.org/elsewhere"]
    values = " ".join(f"<{iri}>" for iri in iris)
    run(watched, f"SELECT ?term WHERE {{ VALUES ?term {{ {values} }} }}")
    links = watched.page.locator(f"{ACTIVE} tbody a.iri").evaluate_all(
        "links => links.map((a) => [a.textContent, a.getAttribute('href')])")
    assert links == [
        ["bench:Benchmark", "/ontology#Benchmark"],  # bench: over base:, the longer namespace
        ["bench:Gated", "/vocabulary/Gated"],
        ["base:benchmark/mimic_rrs", "/benchmark/mimic_rrs"],
        ["rdfs:label", "http://www.w3.org/2000/01/rdf-schema#label"],
        ["http://example.org/elsewhere", "http://example.org/elsewhere"],
    ]


def test_a_wide_table_scrolls_inside_its_box(watched: Watched) -> None:
    watched.open("/sparql")
    run(watched, WIDE)
    table = watched.page.locator(f"{ACTIVE} .dt-layout-table")
    assert table.evaluate("box => box.scrollWidth > box.clientWidth")  # wider than its box
    fits_the_page(watched)


@pytest.mark.parametrize("name, query, said", [
    ("syntax-error", SYNTAX_ERROR, "the query: syntax error at line 1, column "),
    ("refused", "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
     "the query: SERVICE is not allowed"),
    ("timeout", SLOW, f"the query ran longer than its time limit of {TIME_LIMIT} s"),
], ids=["syntax", "refused", "timeout"])
def test_an_error_reads_as_the_servers_sentence(watched: Watched, name: str, query: str,
                                                said: str) -> None:
    watched.open("/sparql")
    run(watched, query)
    results = watched.page.locator(f"{ACTIVE} .yasr_results")
    assert said in results.locator(".benchgraph-error").inner_text()
    assert '{"' not in results.inner_text()
    watched.shoot(f"editor-{name}", focus=said)


@pytest.mark.parametrize("query, order", [
    (EVERYTHING + " LIMIT 1", ["s", "p", "o"]),
    ("PREFIX ex: <http://example.org/?o=1> # ?o: no variable here\n"
     'SELECT DISTINCT * WHERE { BIND("?o" AS ?note) ?zed ?p ?o } LIMIT 1',
     ["note", "zed", "p", "o"]),
    ("SELECT ?o ?s WHERE { ?s ?p ?o } LIMIT 1", ["o", "s"]),
], ids=["star", "star-past-iris-comments-strings", "listed"])
def test_select_star_answers_in_the_querys_order_in_every_format(
        server: LiveServer, query: str, order: list[str]) -> None:
    """Oxigraph sorts the names of ``SELECT *``; the endpoint answers in the query's order."""
    body = urlencode({"query": query})
    written = {}
    for accept in ("application/sparql-results+json", "text/csv"):
        connection = server.connection()
        connection.request("POST", "/sparql", body, {
            "Content-Type": "application/x-www-form-urlencoded", "Accept": accept})
        answer = connection.getresponse()
        assert answer.status == 200
        written[accept] = answer.read().decode("utf-8")
        connection.close()
    assert json.loads(written["application/sparql-results+json"])["head"]["vars"] == order
    assert next(csv.reader(io.StringIO(written["text/csv"]))) == order


def test_the_query_field_has_a_name(watched: Watched) -> None:
    watched.open("/sparql")
    field = watched.page.get_by_role("textbox", name="SPARQL query")
    assert field.count() == 1
    assert field.evaluate("field => field.tagName") == "TEXTAREA"


@pytest.mark.parametrize("state", ["a cut answer", "an error", "two tabs"])
def test_each_state_of_the_editor_passes_axe(watched: Watched, state: str) -> None:
    """``tests/test_accessibility.py`` checks the editor as it opens; here, as it is used: a
    table (its page-size menu, its row numbers), an error (its views greyed), a tab not
    shown."""
    watched.open("/sparql")
    if state == "two tabs":
        watched.page.locator("[data-sparql-example]").first.click()
        watched.page.locator(".tabsList .tab").nth(1).wait_for()
    else:
        run(watched, EVERYTHING if state == "a cut answer" else SYNTAX_ERROR)
    found = [violation for violation in accessibility.violations(watched)
             if violation["impact"] in accessibility.FAILING_IMPACTS]
    assert not found, accessibility.described(found)

