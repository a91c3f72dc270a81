"""Search: the ranking (exact, prefix, text, one typo), the index built with the store, and
``/search`` as a page and as JSON, with everything from the records shown as text."""

import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from graph.build.graphs import read
from graph.errors import BenchgraphError, ErrorKind
from graph.search import INDEX_FILE, SearchError, SearchResults
from graph.search.entities import KINDS
from graph.search.results import MATCHES, BrowseRequest
from graph.search.text import name_key, within_one_edit
from graph.settings import Settings
from graph.store.base import Store
from graph.store.disk import read_manifest
from graph.store.kinds import StoreSpec, build_into, open_store
from tests.seeds import SEEDS

DATA = Path(__file__).parent / "data"
CATALOG = [*SEEDS, DATA / "query_catalog", DATA / "search"]
BASE = "https://w3id.org/benchgraph/"
RANK = {"benchmark": 0} | {kind: rank for rank, (kind, _) in enumerate(KINDS, start=1)}


def labels(results: SearchResults) -> list[str]:
    return [hit.label for hit in results.hits]


def test_exact_name_then_prefix_then_text(store: Store) -> None:
    found = store.artefacts().search("HealthBench")
    assert labels(found) == ["HealthBench", "HealthBench Professional", "Clinic Chat"]
    assert [hit.match for hit in found.hits] == ["exact", "prefix", "text"]
    assert found.total == 3


def test_an_exact_match_of_any_kind_comes_before_a_benchmark_by_prefix(store: Store) -> None:
    hits = store.artefacts().search("helm").hits
    assert (hits[0].label, hits[0].kind, hits[0].match) == ("HELM", "harness", "exact")
    assert {hit.label for hit in hits if hit.match == "prefix"} >= {"HELM QA", "HELM QA v2"}


@pytest.mark.parametrize(("query", "label"), [
    ("mimic_rrs", "MIMIC-RRS (MedHELM)"),  # the catalog id
    ("MIMIC RRS", "MIMIC-RRS (MedHELM)"),  # an alias
    ("ccb", "Clinic Chat"),  # an alias, in another case
    ("2211.08584", "Toward Expanding the Scope of Radiology Report Summarization to Multiple "
                   "Anatomies and Modalities"),  # an arXiv id
    ("medhelm", "MedHELM"),  # a notation (the suite, before the tag of the same name)
])
def test_names_aliases_and_identifiers_match_exactly(store: Store, query: str,
                                                     label: str) -> None:
    first = store.artefacts().search(query).hits[0]
    assert (first.label, first.match) == (label, "exact")


def test_benchmarks_come_first_among_equal_matches(store: Store) -> None:
    hits = store.artefacts().search("stanford").hits
    assert [(hit.label, hit.kind, hit.match) for hit in hits[:2]] == [
        ("Stanford Quiz", "benchmark", "prefix"),
        ("Stanford University", "organisation", "prefix"),
    ]


@pytest.mark.parametrize("typo", ["healthbnech", "helthbench", "healthbenchh", "healthbanch",
                                  "HEALTHBENHC"])
def test_one_typo_is_forgiven(store: Store, typo: str) -> None:
    first = store.artefacts().search(typo).hits[0]
    assert (first.label, first.match) == ("HealthBench", "typo name")


def test_one_typo_in_each_word(store: Store) -> None:
    first = store.artefacts().search("mimc rrs").hits[0]
    assert (first.label, first.match) == ("MIMIC-RRS (MedHELM)", "typo name")
    assert store.artefacts().search("clinc chta").hits[0].label == "Clinic Chat"


def test_two_typos_in_a_word_and_short_words_are_not(store: Store) -> None:
    assert "HealthBench" not in labels(store.artefacts().search("hlthbnch"))
    assert "KBL" in labels(store.artefacts().search("kbl"))
    assert "KBL" not in labels(store.artefacts().search("kbx"))  # three letters: as typed


def test_a_typo_reading_ranks_below_the_words_as_typed(store: Store) -> None:
    """``trivia`` is in a summary; no reading with a typo comes before it."""
    found = store.artefacts().search("trivia")
    assert found.hits[0].label == "Stanford Quiz"
    assert found.hits[0].match == "text"


@pytest.mark.parametrize("query", ["helm", "medical", "health", "stanford", "mimic", "gated",
                                   "model", "bench"])
def test_the_order_is_tier_then_kind_then_label(store: Store, query: str) -> None:
    found = store.artefacts().search(query, limit=100)
    keys = [(MATCHES.index(hit.match), RANK[hit.kind]) for hit in found.hits]
    assert keys == sorted(keys), query
    assert found.total == len(found.hits)
    assert store.artefacts().search(query, limit=100) == found  # deterministic


def test_pages_cut_one_ranking(store: Store) -> None:
    whole = store.artefacts().search("medical", limit=100)
    assert whole.total >= 4
    paged = [hit for offset in range(0, whole.total, 2)
             for hit in store.artefacts().search("medical", limit=2, offset=offset).hits]
    assert paged == list(whole.hits)
    past = store.artefacts().search("medical", limit=2, offset=whole.total + 10)
    assert (past.hits, past.total) == ((), whole.total)


def test_snippets_mark_the_words_found(store: Store) -> None:
    (hit,) = store.artefacts().search("zebra").hits
    marked = [piece.text for piece in hit.snippet if piece.match]
    assert marked == ["zebra"]  # the \x02 \x03 planted in the summary mark nothing
    assert "planted" in "".join(piece.text for piece in hit.snippet)


@pytest.mark.parametrize("query", ['"', 'a OR b', "NEAR(a b)", "*", "-x", "x:y", "^a", "(((",
                                   "'; DROP TABLE entity; --", "\x00\x02", "mimic*"])
def test_query_syntax_is_only_ever_words(store: Store, query: str) -> None:
    store.artefacts().search(query)  # no error: FTS5 sees each word as a quoted string


@pytest.mark.parametrize("query", ["", "   ", "!!! ??", "\x02"])
def test_no_words_find_nothing(store: Store, query: str) -> None:
    found = store.artefacts().search(query)
    assert (found.hits, found.total) == ((), 0)


def test_absurd_queries_are_refused(store: Store) -> None:
    with pytest.raises(SearchError, match="at most 200 characters; this one has 201"):
        store.artefacts().search("x" * 201)
    with pytest.raises(SearchError, match="at most 12 words; this one has 13"):
        store.artefacts().search(" ".join(["word"] * 13))
    with pytest.raises(SearchError, match="1 to 100"):
        store.artefacts().search("x", limit=0)


@pytest.mark.parametrize(("a", "b", "near"), [
    ("bench", "bench", True), ("bench", "bnech", True), ("bench", "bech", True),
    ("bench", "benchh", True), ("bench", "banch", True), ("bench", "ebnch", True),
    ("bench", "bnehc", False), ("bench", "be", False), ("bench", "hcneb", False),
])
def test_within_one_edit(a: str, b: str, near: bool) -> None:
    assert within_one_edit(a, b) is near
    assert within_one_edit(b, a) is near


def test_name_keys_fold_case_marks_and_punctuation() -> None:
    assert name_key("MIMIC-RRS (MedHELM)") == "mimic rrs medhelm"
    assert name_key("mimic_rrs") == "mimic rrs"
    assert name_key("Zoë  Ünïcode") == "zoe unicode"
    assert name_key("中文 基准") == "中文 基准"


def test_the_index_is_built_into_the_generation_and_switches_with_it(
    tmp_path: Path, settings: Settings
) -> None:
    folder = tmp_path / "store"
    build_into(folder, read(list(SEEDS), settings), settings)
    first = read_manifest(folder).generation
    assert (folder / first / INDEX_FILE).is_file()
    store = open_store(StoreSpec.parse(f"oxigraph:{folder}"), settings)
    try:
        assert store.artefacts().search("Clinic Chat").total == 0
    finally:
        store.close()
    build_into(folder, read(CATALOG, settings), settings)
    second = read_manifest(folder).generation
    assert not (folder / first).exists()
    store = open_store(StoreSpec.parse(f"oxigraph:{folder}"), settings)
    try:
        assert labels(store.artefacts().search("Clinic Chat")) == ["Clinic Chat"]
        (folder / second / INDEX_FILE).unlink()
        with pytest.raises(BenchgraphError, match="no search index") as refused:
            store.artefacts().search("x")
        assert refused.value.kind is ErrorKind.STORE
    finally:
        store.close()


def test_the_page_has_the_query_kinds_and_links(client: FlaskClient) -> None:
    page = client.get("/search?q=healthbench", headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert 'value="healthbench"' in text
    assert 'href="/benchmark/healthbench"' in text
    assert 'class="kind kind-benchmark"' in text
    assert "3 hits" in text
    assert "Accept" in page.vary  # (and Accept-Encoding, where the page is compressed)
    assert 'rel="alternate"; type="application/json"' in page.headers["Link"]


def test_a_kind_other_than_benchmark_links_to_its_page(client: FlaskClient) -> None:
    text = client.get("/search?q=stanford+university",
                      headers={"Accept": "text/html"}).get_data(as_text=True)
    assert 'href="/org/stanford_university"' in text
    assert "organisation" in text


def test_json_by_suffix_and_by_accept(client: FlaskClient) -> None:
    by_suffix = client.get("/search.json?q=mimc")
    by_accept = client.get("/search?q=mimc", headers={"Accept": "application/json"})
    assert by_suffix.mimetype == by_accept.mimetype == "application/json"
    assert by_suffix.json == by_accept.json
    body = by_suffix.json
    assert body is not None
    assert body["total"] == len(body["hits"]) >= 4
    first = body["hits"][0]
    assert first["iri"] == f"{BASE}benchmark/mimic_rrs"
    assert first["href"] == "/benchmark/mimic_rrs"
    assert (first["kind"], first["match"]) == ("benchmark", "typo name")
    assert set(first) == {"iri", "href", "label", "kind", "match", "score", "summary", "snippet"}


def test_pages_link_on(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("web.search.PAGE_SIZE", 4)
    first = client.get("/search.json?q=m").json
    assert first is not None and first["total"] > 12
    assert (first["previous"], first["next"]) == (None, "/search?q=m&page=2")
    pages = -(-first["total"] // 4)
    last = client.get(f"/search.json?q=m&page={pages}").json
    assert last is not None
    assert (last["previous"], last["next"]) == (f"/search?q=m&page={pages - 1}", None)
    assert len(last["hits"]) == first["total"] - 4 * (pages - 1)
    page = client.get("/search?q=m&page=2", headers={"Accept": "text/html"})
    assert 'href="/search?q=m&amp;page=3" rel="next"' in page.get_data(as_text=True)


def test_records_show_as_text(client: FlaskClient) -> None:
    query = "<script>alert(1)</script> xss"
    page = client.get("/search", query_string={"q": query}, headers={"Accept": "text/html"})
    text = page.get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; Xss &lt;img src=x onerror=alert(2)&gt;" in text
    assert 'value="&lt;script&gt;alert(1)&lt;/script&gt; xss"' in text  # in the box
    assert "<script>" not in text and "<img" not in text and "<b>" not in text
    body = client.get("/search.json?q=zebra").json
    assert body is not None
    assert body["hits"][0]["label"].startswith("<script>")  # data stays data in JSON


def test_absurd_input_is_a_400_with_the_reason(client: FlaskClient) -> None:
    refused = client.get("/search.json", query_string={"q": "x" * 500})
    assert refused.status_code == 400
    assert refused.json is not None
    assert "at most 200 characters" in refused.json["error"]["message"]
    page = client.get("/search", query_string={"q": "x" * 500}, headers={"Accept": "text/html"})
    assert page.status_code == 400 and "at most 200 characters" in page.get_data(as_text=True)
    assert client.get("/search.json?q=a&page=0").status_code == 400
    assert client.get("/search.json?q=a&page=x").status_code == 400
    assert client.get("/search.xml?q=a").status_code == 404


def test_an_empty_query_shows_the_box(client: FlaskClient) -> None:
    page = client.get("/search", headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert 'name="q"' in page.get_data(as_text=True)
    assert client.get("/search.json?q=").json == {
        "query": "", "total": 0, "limit": 20, "offset": 0, "hits": [],
        "previous": None, "next": None}


def test_the_home_page_has_a_search_box_and_recent_records(client: FlaskClient) -> None:
    text = client.get("/", headers={"Accept": "text/html"}).get_data(as_text=True)
    assert 'action="/search"' in text
    recent = text[text.index("Recently reviewed"):text.index("What the graph holds")]
    # mimic_rrs reviewed 2026-09-08, helm_qa_v2 2026-06-01; quote_bench has no date
    assert recent.index("MIMIC-RRS (MedHELM)") < recent.index("HELM QA v2")
    assert "reviewed 2026-09-08" in recent
    assert 'href="/record/000_501ccd0cd0e2608f"' in recent
    assert "Quote" not in recent


def test_a_summary_is_searched_and_shown_as_the_text_its_markdown_reads_as(
    tmp_path: Path, settings: Settings
) -> None:
    records = tmp_path / "records"
    records.mkdir()
    (records / "md_bench.json").write_text(json.dumps({"page": {
        "id": "md_bench", "name": "Markdown Bench",
        "summary": "Puzzles from *the* [Zebra paper](https://arxiv.org/abs/2101.00001)."}}))
    folder = tmp_path / "store"
    build_into(folder, read([records], settings), settings)
    store = open_store(StoreSpec.parse(f"oxigraph:{folder}"), settings)
    try:
        assert store.artefacts().search("arxiv").total == 0  # a link's target is not its text
        (hit,) = store.artefacts().search("zebra").hits
        assert hit.summary == "Puzzles from the Zebra paper."
        rows = store.artefacts().browse(BrowseRequest()).rows
        (row,) = [row for row in rows if row.label == "Markdown Bench"]
        assert row.summary == "Puzzles from the Zebra paper."
    finally:
        store.close()
