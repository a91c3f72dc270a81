"""Every kind of page, checked by axe-core in the real browser, and the header's search box
at a phone's width.

The pages are those of ``tests/test_browser.py``'s live server (the seeds and the crawl
catalog, hostile records included), opened by its watched pages: each request stays on the
app, no dialog opens, and the Content-Security-Policy blocks nothing. The engine is the
vendored one (``tests/vendor/axe-core``, ``scripts/refresh_axe.py``), run by
``page.evaluate``: the DevTools protocol runs it in the page whatever the page's policy says,
where a ``<script>`` Playwright wrote into the page would be refused (``script-src 'self'``).
A violation of impact serious or critical fails the page, naming the rule, what it asks and
each element (its selector and its markup); moderate and minor ones are axe's advice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import system_tools
from tests import test_browser as browsing
from tests.test_browser import VIEWPORTS, Watched

# The browser tests' fixtures, which pytest finds here by these names: the live server of the
# crawl catalog, Chromium, and a watched page.
artifacts, browser, server, watched = (browsing.artifacts, browsing.browser, browsing.server,
                                       browsing.watched)

AXE = (Path(__file__).resolve().parent / "vendor" / "axe-core"
       / "axe.min.js")
FAILING_IMPACTS = ("serious", "critical")

pytestmark = [pytest.mark.browser, system_tools.needs(system_tools.CHROMIUM)]


@dataclass(frozen=True)
class PageKind:
    """A kind of page, at one address of the live server."""

    name: str
    path: str
    status: int = 200
    ready: str = "main"
    """An element that is there once the page has drawn itself (the editor draws late)."""


PAGE_KINDS = [
    PageKind("home", "/"),
    PageKind("benchmarks", "/benchmarks"),
    PageKind("search", "/search?q=mmlu"),
    PageKind("benchmark", "/benchmark/mimic_rrs"),
    PageKind("organisation", "/org/stanford_university"),
    PageKind("person", "/person/zhihong_chen"),
    PageKind("paper", "/paper/2211.08584"),
    PageKind("record", "/record/000_501ccd0cd0e2608f"),
    PageKind("vocabulary", "/vocabulary/Gated"),
    PageKind("queries", "/queries"),
    PageKind("named query with rows", "/queries/lineage?benchmark=mimic_rrs"),
    PageKind("sparql editor", "/sparql", ready=".yasqe .CodeMirror"),
    PageKind("ontology", "/ontology"),
    PageKind("shapes", "/shapes"),
    PageKind("validation", "/validation"),
    PageKind("dumps", "/dumps"),
    PageKind("not found", "/benchmark/no_such_benchmark", status=404),
]

RUN_AXE = """async () => {
  const found = await axe.run(document, {resultTypes: ["violations"]});
  return found.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), html: n.html})),
  }));
}"""
"""axe's violations on the whole document, as plain data."""


def violations(watched: Watched) -> list[dict[str, object]]:
    """What axe finds on the page as it is now."""
    page = watched.page
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, object]] = page.evaluate(RUN_AXE)
    return found


def described(found: list[dict[str, object]]) -> str:
    """Each violation, its rule, what the rule asks, and every element it names."""
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        nodes = violation["nodes"]
        assert isinstance(nodes, list)
        lines.extend(f"    {node['target']}: {node['html'][:200]}" for node in nodes)
    return "\n".join(lines)


@pytest.mark.parametrize("kind", PAGE_KINDS, ids=[kind.name for kind in PAGE_KINDS])
def test_no_serious_or_critical_violation(watched: Watched, kind: PageKind) -> None:
    response = watched.page.goto(watched.server.url + kind.path.lstrip("/"))
    assert response is not None and response.status == kind.status, (kind.path, response)
    watched.page.locator(kind.ready).first.wait_for()
    serious = [v for v in violations(watched) if v["impact"] in FAILING_IMPACTS]
    assert not serious, f"{kind.path}:\n{described(serious)}"


def test_the_engine_finds_what_it_should(watched: Watched) -> None:
    """The check can fail: a page spoiled on purpose (an image with no text, a field with no
    label) is caught, rule and element named."""
    watched.open("/")
    watched.page.evaluate("""() => {
        const field = document.createElement("input");
        field.id = "unlabelled";
        document.querySelector("main").append(field);
    }""")
    found = violations(watched)
    assert "label" in {v["id"] for v in found}
    assert "#unlabelled" in described(found)


def test_the_header_search_box_works_at_phone_width(watched: Watched) -> None:
    """On a phone the box and its button fit the screen, the box is named for a screen
    reader, and it searches."""
    page = watched.page
    page.set_viewport_size(VIEWPORTS["phone"])  # type: ignore[arg-type]
    watched.open("/benchmark/mimic_rrs")
    named = re.compile("search", re.IGNORECASE)
    box = page.locator("header.site").get_by_role("searchbox", name=named)
    assert box.count() == 1 and box.get_attribute("name") == "q"
    width = VIEWPORTS["phone"]["width"]
    for element in (box, page.locator("header.site form[role=search] button")):
        where = element.bounding_box()
        assert where is not None and where["width"] > 0
        assert 0 <= where["x"] and where["x"] + where["width"] <= width, where
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    watched.shoot("header-search-phone")
    box.fill("mimic rrs")
    box.press("Enter")
    page.wait_for_url(re.compile(r"/search\?q=mimic"))
    assert "mimic_rrs" in (page.locator('main a[href^="/benchmark/"]').first
                           .get_attribute("href") or "")
