"""The benchmark page (``web.benchmark.page``), on the seeds and on the fixture records of
``tests/data/benchmark_page/``: every section holds what DESIGN.md says the graph must say
about ``mimic_rrs``; the directory page's MIMIC-CXR; an uncatalogued benchmark; two records
that disagree; and data that tries to run script.

The pages are fetched as a browser does, through the entities blueprint, which dispatches
``/benchmark/<id>`` to ``render_benchmark``.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest
from flask import Flask
from flask.testing import FlaskClient

from graph.build.graphs import GraphInMemory
from graph.settings import Settings
from graph.store.base import Store
from graph.validation.validate import ValidationReport, validate
from tests.seeds import SEEDS
from web.benchmark import marks
from web.benchmark import page as benchmark_page
from web.benchmark.markdown import render_inline, render_markdown
from web.benchmark.view import Said, Shown, footnote_order

FIXTURES = Path(__file__).parent / "data" / "benchmark_page"
CATALOG = [*SEEDS, FIXTURES]
BASE = Settings().base


@pytest.fixture(scope="module")
def report(built: GraphInMemory) -> ValidationReport:
    return validate(built.quads, Settings())


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def page(client: FlaskClient, benchmark_id: str, query: str = "") -> str:
    response = client.get(f"/benchmark/{benchmark_id}{query}", headers={"Accept": "text/html"})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def section(html: str, key: str) -> str:
    match = re.search(rf'<section[^>]* id="{key}">(.*?)</section>', html, re.DOTALL)
    assert match, f"no section {key}"
    return match.group(1)


def text(html: str) -> str:
    """The words of ``html``, spaces collapsed, footnote numbers dropped."""
    html = re.sub(r'<sup class="said">.*?</sup>', "", html, flags=re.DOTALL)
    words = re.sub(r"<[^>]+>", " ", html)
    import html as entities

    return re.sub(r"\s+", " ", entities.unescape(words)).strip()


def hrefs(html: str) -> list[str]:
    """The ``href`` of every element (parsed: text that looks like markup is not one)."""
    parser = _Tags()
    parser.feed(html)
    return [value or "" for _, attrs in parser.tags for name, value in attrs if name == "href"]


def badges(html: str) -> str:
    found = re.search(r'<p class="badges">(.*?)</p>', html, re.DOTALL)
    return text(found.group(1)) if found else ""


def jsonld(html: str) -> dict[str, object]:
    match = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.DOTALL)
    assert match
    data: dict[str, object] = json.loads(match.group(1))
    return data


# --- mimic_rrs: what DESIGN.md says the graph must say about the catalog page seed ---------


def test_header_names_aliases_summary_badges(client: FlaskClient) -> None:
    html = page(client, "mimic_rrs")
    head = re.search(r'<header class="benchmark-head">(.*?)</header>', html, re.DOTALL)
    assert head
    words = text(head.group(1))
    assert "<h1>MIMIC-RRS (MedHELM)</h1>" in head.group(1)
    assert "Also called MIMIC RRS , Radiology Report Summarization" in words
    assert "MedHELM's gated wrap of MIMIC-RRS on MIMIC-III" in words
    assert badges(html) == "in suite MedHELM access level gated status active"
    assert "/vocabulary/MedHELM" in hrefs(head.group(1))
    assert "<title>MIMIC-RRS (MedHELM) · benchgraph</title>" in html


def test_body_is_rendered_and_its_page_links_go_to_benchmark_pages(
        client: FlaskClient, store: Store) -> None:
    body = section(page(client, "mimic_rrs"), "description")
    assert "<h3>What it measures</h3>" in body and "<code>mimic_rrs_accuracy</code>" in body
    linked = {href for href in hrefs(body) if href.startswith("/benchmark/")}
    mentions = store.query("SELECT ?x WHERE { ?b bench:mentions ?x }",
                           {"b": ox.NamedNode(f"{BASE}benchmark/mimic_rrs")}).rows
    assert linked == {f"/benchmark/{row[0].value.rsplit('/', 1)[1]}" for row in mentions if row[0]}
    assert linked == {"/benchmark/mimic_repsum", "/benchmark/mimic_bhc", "/benchmark/aci_bench"}
    assert not [href for href in hrefs(body) if href.endswith(".md")]


def test_about_harness_and_lineage(client: FlaskClient) -> None:
    html = page(client, "mimic_rrs")
    about = text(section(html, "about"))
    for fact in ("Measures This id is HELM's mimic_rrs scenario",
                 "Task format Zero-shot generation", "Released 2023", "Category domain",
                 "Subcategory radiology findings-to-impression summarization",
                 "Tag biomedical , gated , llm-jury , medhelm , radiology , summarization",
                 "Leaderboard https://crfm.stanford.edu/helm/medhelm/latest",
                 "Code repository https://github.com/stanford-crfm/helm/blob/main/src/helm/"):
        assert fact in about
    harnesses = text(section(html, "harnesses"))
    assert "HELM mimic_rrs" in harnesses
    assert "Harness note MedHELM gated; helm-run needs data_path" in harnesses
    lineage = text(section(html, "lineage"))
    assert "Variants mimic_bhc , mimic_repsum" in lineage
    assert "Its text links to aci_bench , mimic_bhc , mimic_repsum" in lineage


def test_paper_authors_in_order_and_publishers_with_notes(client: FlaskClient) -> None:
    people = section(page(client, "mimic_rrs"), "people")
    words = text(people)
    assert "Toward Expanding the Scope of Radiology Report Summarization" in words
    assert "/paper/2211.08584" in hrefs(people)
    assert "ArXiv id 2211.08584" in words and "Year (as cited) 2023" in words
    assert "https://aclanthology.org/2023.acl-short.41/" in hrefs(people)
    authors = re.search(r"<h3>Authors</h3>(.*?)</ol>", people, re.DOTALL)
    assert authors
    assert re.findall(r'<a href="/person/[a-z_]+"[^>]*>([^<]+)</a>', authors.group(1)) == [
        "Zhihong Chen", "Maya Varma", "Xiang Wan", "Curtis Langlotz", "Jean-Benoit Delbrouck"]
    assert "Stanford University (AIMI / CRFM MedHELM packaging)" in words
    assert "The Chinese University of Hong Kong, Shenzhen (Chen, Wan)" in words
    assert "Publisher URL https://crfm.stanford.edu/helm/medhelm/latest" in words


def test_dataset_metric_contamination_saturation(client: FlaskClient) -> None:
    data = text(section(page(client, "mimic_rrs"), "data"))
    for fact in ("Language en", "Modality text", "Public test set no",
                 "Licence PhysioNet credentialed access for MIMIC-III source notes",
                 "Size note Chen et al. Table 2", "Splits Chen et al. put CT abdomen/pelvis",
                 "Web page https://arxiv.org/abs/2211.08584",
                 "Name mimic_rrs_accuracy (HELM LLM-jury average", "Direction higher is better",
                 "Maximum score 5", "Unit points", "Baseline note Schema display name",
                 "Contamination risk low", "Contamination note MIMIC-III requires PhysioNet",
                 "Saturation status unknown", "Saturation note MedHELM reports the gated task"):
        assert fact in data, fact


def test_sources_with_access_dates(client: FlaskClient) -> None:
    sources = section(page(client, "mimic_rrs"), "sources")
    items = re.findall(r"<li>(.*?)</li>", sources, re.DOTALL)
    assert len(items) == 8
    assert text(items[0]).startswith("HELM mimic_rrs_scenario.py (MIMIC-III only; 73,259 in")
    assert all("read 2026-09-08" in text(item) for item in items)
    assert "https://github.com/stanford-crfm/helm/blob/main/docs/medhelm.md" in hrefs(items[7])


def test_each_value_names_its_record_and_the_record_says_when(client: FlaskClient) -> None:
    html = page(client, "mimic_rrs")
    assert '<a href="#record-1" title="stated by 000_501ccd0cd0e2608f.txt (researched ' \
           '2026-09-08, reviewed 2026-09-08, built 2026-09-09T16:56:50Z)">1</a>' in html
    records = section(html, "records")
    words = text(records)
    assert "/record/000_501ccd0cd0e2608f" in hrefs(records)
    for fact in ("Researched 2026-09-08", "Researched by Grok Build, batch-006",
                 "Reviewed 2026-09-08", "Reviewed by Grok Build independent review",
                 "Built at 2026-09-09T16:56:50Z",
                 "Commit 0a599558854c0e238c03a0f0d725239cb28f9d11",
                 "Eligibility as of 2026-09-09", "Disposition status unassessed",
                 "Page kind benchmark", "Importer catalog-page"):
        assert fact in words, fact
    assert "build : what the build derives" in words  # the catalogued flag's source


def test_every_statement_of_the_benchmark_has_a_place(client: FlaskClient) -> None:
    assert 'id="other"' not in page(client, "mimic_rrs")


def test_jsonld_dataset(client: FlaskClient) -> None:
    data = jsonld(page(client, "mimic_rrs"))
    assert data["@type"] == "Dataset" and data["@context"] == "https://schema.org"
    assert data["name"] == "MIMIC-RRS (MedHELM)"
    assert data["url"] == data["@id"] == f"{BASE}benchmark/mimic_rrs"
    assert str(data["description"]).startswith("MedHELM's gated wrap")
    assert data["isAccessibleForFree"] is False
    creators = data["creator"]
    assert isinstance(creators, list)
    assert [c["name"] for c in creators] == [
        "Zhihong Chen", "Maya Varma", "Xiang Wan", "Curtis Langlotz", "Jean-Benoit Delbrouck",
        "Stanford University", "The Chinese University of Hong Kong, Shenzhen"]
    assert data["citation"] == [{
        "@type": "ScholarlyArticle", "@id": f"{BASE}paper/2211.08584",
        "name": "Toward Expanding the Scope of Radiology Report Summarization to Multiple "
                "Anatomies and Modalities",
        "url": "https://aclanthology.org/2023.acl-short.41/", "datePublished": "2023",
        "identifier": "arXiv:2211.08584"}]
    assert data["license"] == {"@type": "CreativeWork", "name": "PhysioNet credentialed access "
                               "for MIMIC-III source notes; Chen et al. release reconstruction "
                               "scripts, not a public labelled dump"}
    assert jsonld(page(client, "twin_bench"))["isAccessibleForFree"] is True


# --- the directory page's benchmark, an uncatalogued one ------------------------------------


def test_mimic_cxr_from_the_directory_page(client: FlaskClient) -> None:
    html = page(client, "mimic_cxr_classification")
    words = text(html)
    assert "<h1>MIMIC-CXR (classification)</h1>" in html
    for fact in ("Models read chest X-rays from Beth Israel Deaconess", "Released 2019-01",
                 "Access statement Access needs PhysioNet credentials.",
                 "Access note Google reports two test sets", "Level Expert",
                 "Scoring Checked automatically", "Answer format Short answer",
                 "Task availability All public", "Authors' words Chest radiography is",
                 "MIT Laboratory for Computational Physiology",
                 "Beth Israel Deaconess Medical Center", "Publisher note Johnson et al.",
                 "Scores heading No scores here yet", "Launch posts 522", "Labs 52",
                 "none of them list this benchmark", "Category Law, finance and medicine",
                 "Subcategory Medicine"):
        assert fact in words, fact
    assert badges(html) == "access level gated"
    beside = re.search(r"Listed beside it</dt><dd>(.*?)</dd>", section(html, "lineage"))
    assert beside
    assert text(beside.group(1)).split(" , ") == [
        "FinSearchComp", "HealthBench", "HealthBench Professional", "KBL", "KorMedMCQA",
        "MedXpertQA-MM"]
    assert "002_e36a0be437d5fce5.txt" in text(section(html, "records"))


def test_an_uncatalogued_benchmark_says_so_and_who_refers_to_it(client: FlaskClient) -> None:
    html = page(client, "mimic_bhc")
    notice = text(section(html, "uncatalogued"))
    assert notice.startswith("Not catalogued. No record of its own describes this benchmark")
    assert "Mentioned by: MIMIC-RRS (MedHELM)" in notice
    assert "Listed as a variant by: MIMIC-RRS (MedHELM)" in notice
    assert "/benchmark/mimic_rrs" in hrefs(section(html, "uncatalogued"))
    assert 'id="uncatalogued"' not in page(client, "mimic_rrs")


def test_a_related_entry_shows_its_result_and_the_page_that_lists_it(client: FlaskClient) -> None:
    html = page(client, "healthbench")
    assert "GPT-5 67.2 percent" in text(section(html, "results"))
    assert "Listed beside: MIMIC-CXR (classification)" in text(section(html, "uncatalogued"))


# --- two records that disagree --------------------------------------------------------------


def test_two_release_dates_and_two_summaries_both_show_with_their_records(
        client: FlaskClient) -> None:
    html = page(client, "twin_bench")
    released = re.search(r'<div class="fact is-disputed">\s*<dt><a href="/ontology#released">'
                         r'Released.*?</div>', html, re.DOTALL)
    assert released, "the release dates are not marked as a disagreement"
    assert re.findall(r"<li>.*?(\d{4}(?:-\d\d)?).*?title=\"stated by ([a-z_.]+)",
                      released.group(0), re.DOTALL) == [
        ("2020", "twin.json"), ("2021-03", "twin_directory.txt")]
    head = re.search(r'<header class="benchmark-head">(.*?)</header>', html, re.DOTALL)
    assert head and "records disagree" in head.group(1)
    summaries = re.findall(r'<p class="lead summary">(.*?)</p>', head.group(1), re.DOTALL)
    assert [text(s) for s in summaries] == [
        "Models solve pairs of puzzles that differ in one detail; the directory's summary.",
        "Pairs of puzzles that differ in one detail; the catalog's summary."]
    assert re.findall(r'<a href="/record/(\w+)" [^>]*>\1</a> <small class="file">([^<]*)<',
                      section(html, "records")) == [
        ("twin", "twin.json"), ("twin_directory", "twin_directory.txt"),
        ("xss", "xss.json")]  # the two describe it; the third links to it from its body


def test_two_scores_for_one_model_both_show_marked_as_disagreeing(client: FlaskClient) -> None:
    """Two records give Model A two scores: both show, each marked, in score order."""
    results = section(page(client, "twin_bench"), "results")
    rows = re.findall(r'<tr( class="is-disputed")?>\s*<td data-label="Model">(.*?)</td>\s*'
                      r'<td class="number" data-label="Score">(.*?)</td>', results, re.DOTALL)
    assert [(text(model).removesuffix(" records disagree"), score, bool(flag))
            for flag, model, score in rows] == [
        ("Model A", "75", True), ("Model A", "70", True), ("Model C", "60", False),
        ("Model B", "55.5", False)]
    assert "https://example.org/twin/a" in hrefs(results)


def test_predecessor_and_successor_show_from_either_side(client: FlaskClient) -> None:
    lineage = text(section(page(client, "twin_bench"), "lineage"))
    assert "Variants twin_bench_mini" in lineage
    assert "Predecessors old_bench" in lineage and "Successors new_bench" in lineage
    assert "Successors Twin Bench" in text(section(page(client, "old_bench"), "lineage"))
    assert "Predecessors Twin Bench" in text(section(page(client, "new_bench"), "lineage"))


# --- findings -------------------------------------------------------------------------------


def test_no_report_reads_not_validated_never_no_findings(client: FlaskClient) -> None:
    findings = text(section(page(client, "mimic_cxr_classification"), "findings"))
    assert findings.startswith("Findings Not validated: this store keeps no validation report")


def test_findings_in_the_shapes_words(client: FlaskClient, report: ValidationReport,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(benchmark_page, "stored_validation", lambda store: report)
    findings = text(section(page(client, "mimic_cxr_classification"), "findings"))
    assert "0 violations, 3 warnings" in findings
    for shape in ("licence", "metric direction", "paper"):
        assert f"Warning {shape} :" in findings
    assert "on MIMIC-CXR (classification) , bench:paper" in findings
    assert "Name the paper that describes the benchmark (its arXiv id, DOI, title or URL)." \
        in findings
    assert "Findings Validated: the shapes find nothing wrong with it." == text(
        section(page(client, "mimic_rrs"), "findings"))


# --- data that tries to run script ----------------------------------------------------------


def test_markup_in_names_summaries_and_bodies_stays_text(client: FlaskClient) -> None:
    html = page(client, "xss_bench")
    parser = _Tags()
    parser.feed(html)
    scripts = [attrs for tag, attrs in parser.tags if tag == "script"]
    assert scripts == [[("type", "application/ld+json")]]
    assert not [tag for tag, _ in parser.tags if tag in ("img", "iframe", "object", "embed")]
    assert not [name for _, attrs in parser.tags for name, _ in attrs if name.startswith("on")]
    links = [value or "" for _, attrs in parser.tags for name, value in attrs
             if name in ("href", "src")]
    unsafe = re.compile(r"\s*(javascript|data|vbscript):", re.IGNORECASE)
    assert not [link for link in links if unsafe.match(link)]
    assert "X </script><script>alert(1)</script> <img src=x onerror=alert(2)>" in text(html)
    assert "&lt;b onmouseover=alert(3)&gt;bold&lt;/b&gt;" in html
    assert "&lt;script&gt;alert(4)&lt;/script&gt; a summary" in html
    head = re.search(r'<header class="benchmark-head">(.*?)</header>', html, re.DOTALL)
    assert head  # the summary's markdown links: out, to the catalog's page, and not a trap
    summary = re.search(r'<p class="lead summary">(.*?)</p>', head.group(1), re.DOTALL)
    assert summary and "[a trap](javascript:alert(11))" in summary.group(1)
    assert [h for h in hrefs(summary.group(1)) if not h.startswith("#record")] == [
        "https://example.org/paper", "/benchmark/twin_bench"]
    body = section(html, "description")
    assert "&lt;script&gt;alert(8)&lt;/script&gt;" in body and "raw link" in body
    assert [h for h in hrefs(body) if not h.startswith("#record-")] == [
        "https://example.org/pic.png", "/benchmark/twin_bench"]
    assert 'rel="nofollow noopener"' in body


def test_a_name_cannot_close_the_jsonld_script(client: FlaskClient) -> None:
    html = page(client, "xss_bench")
    match = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.DOTALL)
    assert match and "<" not in match.group(1) and ">" not in match.group(1)
    assert jsonld(html)["name"] == (
        "X </script><script>alert(1)</script> <img src=x onerror=alert(2)>")


def test_a_summary_is_one_line_of_markdown() -> None:
    html = str(render_inline("# Not a heading, *but* [a](https://x.org) `code` <b>x</b>",
                             lambda benchmark_id: f"/benchmark/{benchmark_id}"))
    assert html == ('# Not a heading, <em>but</em> <a href="https://x.org" '
                    'rel="nofollow noopener">a</a> <code>code</code> &lt;b&gt;x&lt;/b&gt;')


def macros() -> Any:
    """The benchmark page's template macros, to call with hand-made values."""
    templates = Path(benchmark_page.__file__).parents[1] / "templates"
    app = Flask("macros", template_folder=str(templates))
    marks.init_app(app)
    with app.app_context():
        return app.jinja_env.get_template("benchmark/_macros.html").module


def said_by(*numbers: int) -> tuple[Said, ...]:
    return tuple(Said(n, f"g{n}", f"r{n}", f"r{n}.json", None, "") for n in numbers)


def test_a_value_stated_by_many_records_shows_four_numbers_and_how_many_more() -> None:
    shown = str(macros().said(said_by(9, 2, 7, 1, 5, 3)))
    assert re.findall(r">([^<]+)</a>", shown) == ["1", "2", "3", "5", "+2"]
    assert 'href="#records" title="stated by 6 records"' in shown
    assert re.findall(r">([^<]+)</a>", str(macros().said(said_by(9, 2, 7, 1, 5)))) == [
        "1", "2", "5", "7", "9"]


def test_records_of_one_file_are_numbered_by_name_whatever_order_they_come_in() -> None:
    """A harness snapshot is one file of many records; the graphs come as a set, whose order
    changes from one process to the next."""
    snapshot, seed = "harnesses/lm_eval.json", "seed.json"
    graphs = [f"{BASE}record/b_task", f"{BASE}record/a_task", f"{BASE}record/seed",
              f"{BASE}build", f"{BASE}record/c_other"]
    files = {graphs[0]: snapshot, graphs[1]: snapshot, graphs[2]: seed, graphs[4]: snapshot}
    expected = [graphs[2], graphs[1], graphs[0], graphs[4], graphs[3]]
    for order in (graphs, graphs[::-1]):
        assert footnote_order(order, files, (graphs[2],), BASE) == expected


def shown(text: str, said: tuple[Said, ...]) -> Shown:
    return Shown(text, None, False, "", said, ox.Literal(text))


def test_the_harness_table_says_what_data_each_task_reads_from_the_users_disk(
    client: FlaskClient,
) -> None:
    html = section(page(client, "local_bench"), "harnesses")
    assert "Data on your disk" in html
    assert ("local_bench_gen reads ./data/local_bench/test , downloaded from "
            "https://example.org/local_bench.zip when missing") in text(html)
    assert ("local_bench_ppl reads ./data/<script>alert(12)</script>.csv : you supply it "
            "( data_files )") in text(html)
    assert "<script>alert(12)" not in html
    assert "Data on your disk" not in section(page(client, "mimic_rrs"), "harnesses")


def test_every_text_of_a_value_and_its_records_is_escaped() -> None:
    hostile = '"><script>alert(1)</script>'
    said = (Said(1, "g", hostile, hostile, None, hostile),)
    linked = Shown(hostile, f"https://example.org/{hostile}", True, hostile, said,
                   ox.NamedNode("https://example.org/x"))
    for v in (linked, Shown(hostile, None, False, hostile, said, ox.Literal(hostile)),
              Shown(hostile * 40, None, False, "", said, ox.Literal(hostile * 40))):
        html = str(macros().values([v] * 20))
        parser = _Tags()
        parser.feed(html)
        assert {tag for tag, _ in parser.tags} <= {"span", "a", "sup", "small", "div",
                                                      "details", "summary"}
        assert all(name in ("href", "title", "class", "rel", "tabindex")
                   for _, attrs in parser.tags for name, _ in attrs)


def test_a_long_list_shows_twelve_and_folds_the_rest() -> None:
    html = str(macros().values([shown(f"v{n:02}", said_by(1)) for n in range(20)]))
    head, rest = html.split('<details class="more">')
    assert re.findall(r'class="value">(v\d+)<', head) == [f"v{n:02}" for n in range(12)]
    assert "<summary>8 more</summary>" in rest
    assert re.findall(r'class="value">(v\d+)<', rest) == [f"v{n:02}" for n in range(12, 20)]
    assert "<details" not in str(macros().values([shown(f"v{n}", ()) for n in range(14)]))


def test_task_names_are_sorted_and_numbered_only_where_their_records_differ() -> None:
    harness = said_by(3)
    names = [shown(name, harness) for name in ("mmlu_b", "mmlu_a", "mmlu")]
    html = str(macros().task_names(names, harness))
    assert re.findall(r"<code>([^<]+)</code>", html) == ["mmlu", "mmlu_a", "mmlu_b"]
    assert "said" not in html  # the harness's own numbers say it
    assert re.findall(r">(\d+)</a>", str(macros().task_names(
        [shown("a", said_by(4)), shown("b", said_by(4))], harness))) == ["4"]  # once
    assert re.findall(r">(\d+)</a>", str(macros().task_names(
        [shown("a", said_by(4)), shown("b", said_by(5))], harness))) == ["4", "5"]


def test_markdown_sanitiser_keeps_only_safe_markup() -> None:
    html = str(render_markdown(
        "# Head\n\n[a](https://x.org) [b](#here) [c](other_id.md) [d](javascript:alert(1)) "
        "[e](../up.md) <span onclick=x>s</span>\n\n| x |\n|--:|\n| 1 |\n",
        lambda benchmark_id: f"/benchmark/{benchmark_id}"))
    assert html.startswith("<h2>Head</h2>")
    assert '<a href="https://x.org" rel="nofollow noopener">a</a>' in html
    assert '<a href="/benchmark/other_id">c</a>' in html
    assert "[d](javascript:alert(1))" in html and " b " in html and " e " in html
    assert "&lt;span onclick=x&gt;" in html
    assert '<th style="text-align:right">x</th>' in html
