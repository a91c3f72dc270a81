"""The app in a real headless Chromium, over a live ``benchgraph serve`` of the seeds and the
crawl catalog (hostile records included).

Every test watches its page: each request it makes must go to the app (``data:`` and
``blob:`` URLs, which never leave the page, aside), no dialog may open (the hostile
records' scripts would call ``alert``), and the app's Content-Security-Policy may block
nothing the page does (a ``securitypolicyviolation`` event, or Chromium's console line for
one): the editor and every page work under it as they are. Screenshots at desktop
(1280×900) and phone (390×844) widths go to ``$BENCHGRAPH_ARTIFACTS`` (default
``tests/artifacts/``, ignored by git); the folder is printed at the start.

Chromium is Debian's (``apt-get install chromium``), driven by the pip ``playwright``
package: ``playwright install`` (a browser download) is never run.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests import system_tools
from tests.serving import LiveServer, serve

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
TIMEOUT_MS = 20_000

pytestmark = [pytest.mark.browser, system_tools.needs(system_tools.CHROMIUM)]

if CHROMIUM.exists():
    from playwright.sync_api import Browser, Page, sync_playwright


@pytest.fixture(scope="module")
def artifacts(request: pytest.FixtureRequest) -> Path:
    folder = Path(os.environ.get("BENCHGRAPH_ARTIFACTS")
                  or Path(__file__).parent / "artifacts").resolve()
    folder.mkdir(parents=True, exist_ok=True)
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"browser screenshots: {folder}")
    return folder


@pytest.fixture(scope="module")
def server(crawl_paths: list[Path]) -> Iterator[LiveServer]:
    with serve([str(path.resolve()) for path in crawl_paths]) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@dataclass
class Watched:
    """A page and everything it did."""

    page: Page
    server: LiveServer
    artifacts: Path
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    """What the Content-Security-Policy blocked, as the page reported it."""

    def open(self, path: str) -> None:
        response = self.page.goto(self.server.url + path.lstrip("/"))
        assert response is not None and response.status == 200, (path, response)

    def shoot(self, name: str, focus: str | None = None) -> None:
        """A screenshot of the page as it is, at each width; with ``focus`` (a text on the
        page), scrolled to the first element that holds it."""
        page = self.page
        original = page.viewport_size
        for width, size in VIEWPORTS.items():
            page.set_viewport_size(size)
            if focus is not None:
                page.get_by_text(focus, exact=False).first.scroll_into_view_if_needed()
            page.screenshot(path=str(self.artifacts / f"{name}-{width}.png"), full_page=False)
        if original is not None:
            page.set_viewport_size(original)

    def outside(self) -> list[str]:
        """Requests that went anywhere but the app."""
        return [url for url in self.requests
                if not url.startswith(self.server.url) and not url.startswith(("data:", "blob:"))]


REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.benchgraphViolation([event.effectiveDirective, event.blockedURI || "inline",
                              event.sourceFile + ":" + event.lineNumber].join(" "));
});
"""
"""Run in every document before its own scripts (Playwright's init scripts are not subject
to the page's policy): hands each violation the page sees to the test."""


@pytest.fixture()
def watched(browser: Browser, server: LiveServer, artifacts: Path) -> Iterator[Watched]:
    context = browser.new_context(viewport=VIEWPORTS["desktop"])  # type: ignore[arg-type]
    seen_violations: list[str] = []
    context.expose_binding("benchgraphViolation",
                           lambda source, text: seen_violations.append(str(text)))
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    seen = Watched(page, server, artifacts, violations=seen_violations)
    page.on("request", lambda request: seen.requests.append(request.url))
    page.on("console", lambda message: seen.violations.append(message.text)
            if "Content Security Policy" in message.text else None)

    def dialog(opened: object) -> None:
        seen.dialogs.append(getattr(opened, "message", "?"))
        opened.dismiss()  # type: ignore[attr-defined]

    page.on("dialog", dialog)
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    yield seen
    page.evaluate("() => new Promise((done) => setTimeout(done, 50))")  # reports in flight
    context.close()
    assert not seen.outside(), f"requests outside the app: {seen.outside()}"
    assert not seen.dialogs, f"dialogs opened: {seen.dialogs}"
    assert not seen.errors, f"script errors: {seen.errors}"
    assert not seen.violations, f"blocked by the Content-Security-Policy: {seen.violations}"


def _run_editor_query(watched: Watched) -> None:
    page = watched.page
    page.locator(".tabPanel.active .yasqe_queryButton").click()
    page.locator(".tabPanel.active .yasr tbody tr").first.wait_for()


# -- the editor and the named queries (on this branch) --------------------------------------

def test_editor_runs_a_named_query_and_shows_its_rows(watched: Watched) -> None:
    watched.open("/sparql")
    page = watched.page
    page.locator('[data-sparql-example="gated-medhelm"]').click()
    _run_editor_query(watched)
    rows = page.locator(".tabPanel.active .yasr tbody")
    assert "mimic_rrs" in rows.inner_text()  # among the synthetic gated MedHELM benchmarks
    watched.shoot("editor-named-query")


def test_named_query_runs_from_its_page(watched: Watched) -> None:
    watched.open("/queries/lineage")
    page = watched.page
    page.fill('form.parameters input[name="benchmark"]', "mimic_rrs")
    page.locator("form.parameters button[type=submit]").click()
    page.wait_for_url(re.compile(r"benchmark=mimic_rrs"))
    table = page.locator("section.result table tbody tr")
    assert table.count() > 0
    assert "mimic_bhc" in page.locator("section.result").inner_text()
    watched.shoot("named-query-lineage")


@pytest.mark.parametrize("path, name", [("/", "home"), ("/ontology", "ontology"),
                                        ("/ontology#inSuite", "ontology-term"),
                                        ("/shapes", "shapes"), ("/validation", "validation"),
                                        ("/validation/shape/CataloguedBenchmarkRecommendations"
                                         "-license", "validation-shape"),
                                        ("/dumps", "dumps"), ("/queries", "queries")])
def test_page_screenshots(watched: Watched, path: str, name: str) -> None:
    watched.open(path)
    assert watched.page.locator("h1").count() >= 1
    watched.shoot(name)


# -- the Content-Security-Policy --------------------------------------------------------------

def test_the_policy_blocks_a_script_of_the_pages_own_and_the_watch_sees_it(
        watched: Watched) -> None:
    """Pages are served under the policy, it stops a script written into the page (what a
    record's markup would be, had it escaped), and the watch of every test sees that."""
    response = watched.page.goto(watched.server.url + "benchmark/mimic_rrs")
    assert response is not None
    assert "script-src 'self'" in (response.header_value("content-security-policy") or "")
    ran = watched.page.evaluate("""() => new Promise((done) => {
        window.benchgraphInjected = false;
        document.addEventListener("securitypolicyviolation", () => done(false), {once: true});
        const script = document.createElement("script");
        script.textContent = "window.benchgraphInjected = true";
        document.body.append(script);
        setTimeout(() => done(window.benchgraphInjected), 2000);
    })""")
    assert ran is False
    assert any("script-src" in violation for violation in watched.violations), (
        watched.violations)
    watched.violations.clear()  # seen, as it should be: not this test's failure


# -- hostile records: text, never markup -----------------------------------------------------

HOSTILE_NAME = "<script>alert('name')</script> Hostile <img src=x onerror=alert('img')>"


def test_hostile_labels_in_the_editors_results_are_text(watched: Watched) -> None:
    """YASR draws the cells of a result table itself: a label holding markup stays text.

    YASR also keys each cell for sorting and filtering with DOMPurify, which parses the raw
    label as HTML in a document of its own: the label's ``onerror`` is parsed there and never
    run. Chromium (from 156 at least) reports that parse as an inline handler blocked by the
    policy, the second wall. Those reports alone are let through here, and only with no
    dialog opened (the fixture checks it): any other violation still fails the test."""
    watched.open("/sparql")
    page = watched.page
    query = ('PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n'
             'SELECT ?node ?label WHERE { ?node rdfs:label ?label '
             'FILTER(CONTAINS(?label, "<")) } ORDER BY ?label')
    page.evaluate("query => window.benchgraphSparqlEditor.getTab().getYasqe().setValue(query)",
                  query)
    _run_editor_query(watched)
    table = page.locator(".tabPanel.active .yasr tbody")
    assert HOSTILE_NAME in table.inner_text()
    assert table.locator("script, img, svg, iframe").count() == 0
    watched.shoot("editor-hostile")
    page.evaluate("() => new Promise((done) => setTimeout(done, 50))")  # reports in flight
    watched.violations[:] = [
        seen for seen in watched.violations
        if not seen.startswith(("script-src-attr inline ", "Executing inline event handler"))]


def test_hostile_text_on_the_validation_pages_is_text(watched: Watched) -> None:
    for number in (1, 2, 3):
        watched.open(f"/validation?page={number}")
        main = watched.page.locator("main")
        if "onerror=alert('dir-title')" in main.inner_text():
            assert main.locator("img, script, iframe").count() == 0
            watched.shoot("validation-hostile", focus="onerror=alert('dir-title')")
            return
    raise AssertionError("the hostile directory page's benchmark is on no validation page")


def test_hostile_benchmark_page_is_text(watched: Watched) -> None:
    watched.open("/benchmark/hostile_markup")
    page = watched.page
    main = page.locator("main")
    assert HOSTILE_NAME in main.inner_text()
    assert main.locator("script, img[onerror], iframe, svg").count() == 0
    for link in main.locator("a").all():
        href = (link.get_attribute("href") or "").strip().lower()
        assert not href.startswith(("javascript:", "data:", "vbscript:")), href
    watched.shoot("benchmark-hostile")


# -- benchmark, search and browse pages --------------------------------------------------------

def test_benchmark_page_leads_to_its_paper_and_an_author(watched: Watched) -> None:
    watched.open("/benchmark/mimic_rrs")
    page = watched.page
    assert "MIMIC" in page.locator("h1").inner_text()
    watched.shoot("benchmark")
    page.locator('main a[href^="/paper/"]').first.click()
    page.wait_for_url(re.compile(r"/paper/"))
    watched.shoot("paper")
    page.locator('main a[href^="/person/"]').first.click()
    page.wait_for_url(re.compile(r"/person/"))
    assert page.locator("h1").count() == 1
    watched.shoot("person")


def test_search_finds_a_benchmark(watched: Watched) -> None:
    watched.open("/")
    page = watched.page
    box = page.locator('input[name="q"]').first
    box.fill("mimic rrs")
    box.press("Enter")
    page.wait_for_url(re.compile(r"/search\?"))
    first = page.locator('main a[href^="/benchmark/"]').first
    assert "mimic_rrs" in (first.get_attribute("href") or "")
    watched.shoot("search")


def test_two_facets_narrow_the_list(watched: Watched) -> None:
    watched.open("/benchmarks")
    page = watched.page
    watched.shoot("benchmarks")
    page.locator('main a[href^="/benchmarks?"]').first.click()
    page.wait_for_url(re.compile(r"/benchmarks\?"))
    first_url = page.url
    facets = page.locator('main a[href^="/benchmarks?"]')
    for index in range(facets.count()):
        href = facets.nth(index).get_attribute("href") or ""
        if href.count("=") >= 2 and "page=" not in href and "sort=" not in href:
            facets.nth(index).click()
            break
    else:
        raise AssertionError("no second facet to apply on " + first_url)
    page.wait_for_url(lambda url: url != first_url)
    assert page.url.count("=") >= 2
    watched.shoot("benchmarks-two-facets")
