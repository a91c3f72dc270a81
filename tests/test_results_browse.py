"""``/results``: every result browsed as the benchmarks are. Facets that combine (OR within
one, AND across) with their counts and "not stated" buckets, a sort by score, pages, and the
same view as CSV and JSON. The catalog is the seeds and ``tests/data/results/`` (its README
says what each stands for), on every kind of store; the expected rows and counts come from
the build's own statements, read in Python, never from the queries the list runs."""

import csv
import io
import json
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask.testing import FlaskClient
from rdflib import RDF, URIRef

from graph.build.graphs import GraphInMemory, read
from graph.namespace import BENCH, BENCH_IRI, PROV
from graph.settings import Settings
from graph.store.kinds import StoreSpec, open_store
from tests.seeds import SEEDS
from web import create_app

DATA = Path(__file__).parent / "data"
CATALOG = [*SEEDS, DATA / "results"]
BASE = Settings().base
FACETS = ("benchmark", "model", "maker", "source", "ran_by", "setting")
EVERY = {"more": list(FACETS), "size": 200}
"""Every facet value, and every row on one page."""
Selection = Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class Stated:
    """One result and the keys of its value of each facet, from the build's statements."""

    iri: str
    keys: Mapping[str, frozenset[str]]
    normalised: float | None
    score: float


def key(term: object) -> str:
    """A node's key as a URL carries it (the path below the base; ``bench:`` for the
    ontology's), a text's as itself."""
    text = str(term)
    if isinstance(term, URIRef):
        return f"bench:{text[len(BENCH_IRI):]}" if text.startswith(BENCH_IRI) else \
            text.removeprefix(BASE)
    return text


@pytest.fixture(scope="module")
def stated(built: GraphInMemory) -> dict[str, Stated]:
    """Every result, by IRI, with its facets' values as the statements give them."""
    found: defaultdict[tuple[object, object], list[object]] = defaultdict(list)
    graph_of: dict[object, object] = {}
    for s, p, o, g in built.quads:
        found[s, p].append(o)
        if p == BENCH.result:
            graph_of[o] = g
    results = {s for s, p, o, _ in built.quads if p == RDF.type and o == BENCH.Result}
    out = {}
    for result in results:
        benchmark = next(s for s, p, o, _ in built.quads if p == BENCH.result and o == result)
        model = found[result, BENCH.model][0]
        packages = found[graph_of[result], PROV.wasDerivedFrom]
        normalised = found[result, BENCH.normalisedScore]
        out[str(result)] = Stated(str(result), {
            "benchmark": frozenset({key(benchmark)}),
            "model": frozenset({key(model)}),
            "maker": frozenset(map(key, found[model, BENCH.madeBy])) or frozenset({"-"}),
            "source": frozenset(map(key, packages)) or frozenset({"catalog record"}),
            "ran_by": frozenset(map(key, found[result, BENCH.ranBy])) or frozenset({"-"}),
            "setting": frozenset(map(key, found[result, BENCH.settingsKey])) or frozenset({"-"}),
        }, float(normalised[0]) if normalised else None, float(found[result, BENCH.score][0]))
    return out


def matches(result: Stated, selection: Selection, but: str | None = None) -> bool:
    """Whether ``result`` has one of the keys chosen in each facet (but ``but``)."""
    return all(result.keys[facet] & set(keys) for facet, keys in selection.items()
               if facet != but)


def ask(client: FlaskClient, path: str = "/results.json", **params: Any) -> Any:
    response = client.get(f"{path}?{urlencode(params, doseq=True)}")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json() if path.endswith(".json") else response


def test_every_result_is_listed_once(client: FlaskClient, stated: dict[str, Stated]) -> None:
    page = ask(client, **EVERY)
    assert page["total"] == len(stated) == len(page["rows"]) >= 13
    assert sorted(row["iri"] for row in page["rows"]) == sorted(stated)


def test_each_value_alone_chooses_its_results(client: FlaskClient,
                                              stated: dict[str, Stated]) -> None:
    """Every value of every facet, "not stated" included, the settings lines whole."""
    for facet in FACETS:
        for value in {value for result in stated.values() for value in result.keys[facet]}:
            page = ask(client, **{facet: value}, size=200)
            want = {iri for iri, result in stated.items() if value in result.keys[facet]}
            assert {row["iri"] for row in page["rows"]} == want, (facet, value)


SELECTIONS: list[dict[str, tuple[str, ...]]] = [
    {},
    {"benchmark": ("benchmark/gsm8k",)},
    {"benchmark": ("benchmark/gsm8k", "benchmark/kbl")},  # OR within a facet
    {"benchmark": ("benchmark/gsm8k",), "model": ("model/llama_2_70b",)},  # AND across
    {"model": ("model/gpt_4o_2024_05_13",), "ran_by": ("bench:RunByPaperAuthors",)},
    {"ran_by": ("-",)},  # the results whose source does not say who ran them
    {"ran_by": ("-", "bench:RunByPaperAuthors")},
    {"setting": ("inspect_evals · 5-shot",), "ran_by": ("bench:RunByHarnessMaintainers",)},
    {"setting": ("-",), "benchmark": ("benchmark/gsm8k",)},  # the paper's figure alone
    {"maker": ("org/openai", "-")},
    {"maker": ("org/meta",), "source": ("package/opencompass_9_9_4",)},
    {"source": ("catalog record",)},  # the directory page's top scores
    {"benchmark": ("-",)},  # every result has a benchmark: none
    {"setting": ("no such setting",)},  # an unknown key matches nothing
    {"benchmark": ("benchmark/gsm8k", "no/such/benchmark")},  # and adds nothing
]


@pytest.mark.parametrize("selection", SELECTIONS,
                         ids=lambda s: "&".join(f"{k}={v}" for k, vs in s.items() for v in vs)
                         or "nothing")
def test_facets_combine_and_count_under_the_other_choices(
    client: FlaskClient, stated: dict[str, Stated], selection: dict[str, tuple[str, ...]]
) -> None:
    page = ask(client, **selection, **EVERY)
    want = {iri for iri, result in stated.items() if matches(result, selection)}
    assert {row["iri"] for row in page["rows"]} == want
    assert page["total"] == len(want)
    assert page["selection"] == {name: list(keys) for name, keys in selection.items()}
    for facet in FACETS:
        counts: defaultdict[str, int] = defaultdict(int)
        for result in stated.values():
            if matches(result, selection, but=facet):
                for value in result.keys[facet]:
                    counts[value] += 1
        shown = page["facets"][facet]
        chosen = selection.get(facet, ())
        assert {v["key"]: v["count"] for v in shown["values"]} == {
            k: n for k, n in counts.items() if k != "-"} | {
            k: counts.get(k, 0) for k in chosen if k != "-"}, facet
        assert shown["not_stated"]["count"] == counts.get("-", 0), facet
        assert {v["key"] for v in shown["values"] if v["selected"]} == set(chosen) - {"-"}
        assert shown["not_stated"]["selected"] == ("-" in chosen)
        assert shown["hidden"] == 0


def unstated(stated: dict[str, Stated], facet: str) -> int:
    return sum("-" in result.keys[facet] for result in stated.values())


def test_not_stated_is_a_bucket_of_its_own(client: FlaskClient,
                                           stated: dict[str, Stated]) -> None:
    facets = ask(client)["facets"]
    assert facets["setting"]["not_stated"] == {
        "key": "-", "label": "not stated", "count": unstated(stated, "setting"),
        "selected": False}
    for facet in ("setting", "ran_by", "maker"):  # the directory page's scores state none
        assert facets[facet]["not_stated"]["count"] == unstated(stated, facet) >= 6
    assert facets["benchmark"]["not_stated"]["count"] == 0
    labels = {v["key"]: v["label"] for f in facets.values() for v in f["values"]}
    assert labels["bench:RunByHarnessMaintainers"] == "the harness's maintainers"
    assert labels["org/openai"] == "OpenAI"
    assert labels["package/inspect_evals_9_9_3"] == "inspect_evals 9.9.3"
    assert labels["catalog record"] == "catalog record"


def test_a_facet_shows_its_most_frequent_values_until_asked_for_every_one(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("web.results.FACET_SIZE", 3)  # the catalog has a dozen models
    every = ask(client, more="model")["facets"]["model"]
    assert every["hidden"] == 0 and len(every["values"]) > 3
    assert [(-v["count"], v["label"].casefold()) for v in every["values"]] == sorted(
        (-v["count"], v["label"].casefold()) for v in every["values"])  # ties: by label
    model = ask(client)["facets"]["model"]
    assert model["values"] == every["values"][:3]
    assert model["hidden"] == len(every["values"]) - 3
    last = every["values"][-1]["key"]
    chosen = ask(client, model=last)["facets"]["model"]  # chosen: always shown
    assert [v["key"] for v in chosen["values"]][-1] == last
    html = ask(client, "/results").get_data(as_text=True)
    assert f"{model['hidden']} more…" in html and 'href="/results?more=model"' in html
    assert 'href="/results?more=model"' not in ask(client, "/results", more="model").get_data(
        as_text=True)


def test_a_row_is_a_claim_with_its_settings_and_provenance(client: FlaskClient) -> None:
    rows = ask(client, benchmark="benchmark/gsm8k", model="model/gpt_4o_2024_05_13")["rows"]
    ours = next(row for row in rows if row["reported_as"] == "reproduction")
    assert ours["benchmark"]["label"] == "GSM8K" and ours["benchmark"]["href"] == \
        "/benchmark/gsm8k"
    assert ours["model"]["label"] == "GPT-4o (2024-05-13)"
    assert (ours["metric"], ours["settings"], ours["unit"]) == (
        "accuracy", "inspect_evals · 5-shot", "fraction")
    assert ours["ran_by"]["iri"] == f"{BENCH_IRI}RunByHarnessMaintainers"
    assert (ours["date"], ours["date_stated_as"]) == ("2025-12", "Results generated December 2025")
    assert ours["source"] == "inspect_evals 9.9.3"
    assert ours["stated_in"] == "inspect_evals/gsm8k/README.md"
    assert ours["samples_scored"] == "1319"
    assert float(ours["score"]) == 0.92 and float(ours["standard_error"]) == 0.01
    paper = next(row for row in rows if row["reported_as"] == "paper")
    assert paper["settings"] is None and paper["date"] is None  # not stated: shown apart
    assert paper["ran_by"]["label"] == "the paper's authors"
    page = ask(client, "/results", benchmark="benchmark/gsm8k").get_data(as_text=True)
    assert "inspect_evals · 5-shot" in page and "not stated" in page
    assert 'href="/benchmark/gsm8k/result/gpt_4o_2024_05_13/' in page  # the result's page


def scores(rows: list[dict[str, Any]]) -> list[tuple[bool, float]]:
    return [(row["normalised_score"] is None,
             float(row["normalised_score"] or row["score"])) for row in rows]


def test_sorting_by_score_compares_on_the_scale_the_unit_makes_plain(
    client: FlaskClient, stated: dict[str, Stated]
) -> None:
    highest = ask(client, sort="-score", **EVERY)["rows"]
    assert [row["iri"] for row in highest] == sorted(stated, key=lambda iri: (
        stated[iri].normalised is None, -(stated[iri].normalised or stated[iri].score), iri))
    assert float(highest[0]["score"]) == 0.99  # gpt-4-0613, 0-shot
    assert highest[2]["score"] == "93.2"  # a percent, compared as 0.932
    lowest = ask(client, sort="score", **EVERY)["rows"]
    assert scores(lowest) == sorted(scores(lowest))
    by_benchmark = ask(client, **EVERY)["rows"]  # the default: a benchmark's together
    assert [row["iri"] for row in by_benchmark] == sorted(stated)


def test_pages_cover_the_view_once(client: FlaskClient, stated: dict[str, Stated]) -> None:
    seen: list[str] = []
    address: str | None = "/results.json?sort=-score&size=5"
    while address:
        page = client.get(address).get_json()
        assert page["size"] == 5 and len(page["rows"]) <= 5
        seen += [row["iri"] for row in page["rows"]]
        address = page["next"]
    assert len(seen) == len(set(seen)) == len(stated)
    pages = -(-len(stated) // 5)
    last = ask(client, size=5, page=40)  # past the last page: the last page
    assert last["page"] == pages and last["next"] is None and last["previous"]
    html = ask(client, "/results", size=5, page=2).get_data(as_text=True)
    assert 'rel="prev"' in html and 'rel="next"' in html and f"Page 2 of {pages}" in html


def test_csv_is_every_row_of_the_view_in_its_order(client: FlaskClient,
                                                   stated: dict[str, Stated]) -> None:
    selection = {"benchmark": "benchmark/gsm8k", "sort": "-score"}
    response = client.get(f"/results.csv?{urlencode(selection)}&size=2&page=2")
    assert response.status_code == 200
    assert response.content_type == "text/csv; charset=utf-8"
    table = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    rows = ask(client, **selection, size=200)["rows"]
    assert [line["result"] for line in table] == [row["iri"] for row in rows]  # not a page
    assert len(table) == sum("benchmark/gsm8k" in r.keys["benchmark"] for r in stated.values())
    first = table[0]
    assert (first["model_label"], first["score"], first["settings"], first["ran_by"]) == (
        "gpt-4-0613", rows[0]["score"], "inspect_evals · 0-shot", "the harness's maintainers")
    paper = next(line for line in table if line["reported_as"] == "paper")
    assert paper["settings"] == "" and paper["date"] == ""  # not stated: empty


@pytest.mark.parametrize(("accept", "kind"), [
    ("application/json", "application/json"), ("text/csv", "text/csv; charset=utf-8"),
    ("text/html", "text/html; charset=utf-8"), ("*/*", "text/html; charset=utf-8"),
])
def test_the_same_address_answers_as_data_by_accept(
    client: FlaskClient, stated: dict[str, Stated], accept: str, kind: str
) -> None:
    response = client.get("/results?ran_by=-", headers={"Accept": accept})
    assert response.status_code == 200 and response.content_type == kind
    assert "Accept" in response.vary
    assert response.headers["Link"] == (
        '</results.json?ran_by=->; rel="alternate"; type="application/json", '
        '</results.csv?ran_by=->; rel="alternate"; type="text/csv"')
    assert client.get("/results?ran_by=-&format=json").get_json()["total"] == unstated(
        stated, "ran_by")


@pytest.mark.parametrize(("address", "status", "said"), [
    ("/results?sort=price", 400, "sort"),
    ("/results?more=price", 400, "more"),
    ("/results?page=0", 400, "page"),
    (f"/results?size={201}", 400, "size"),
    ("/results?" + "&".join(f"model=m{n}" for n in range(51)), 400, "at most"),
    ("/results?setting=a%0Ab", 400, "line break"),
    ("/results.json?sort=price", 400, "sort"),
    ("/results.xml", 404, "results.json"),
])
def test_a_bad_view_is_a_clear_error(client: FlaskClient, address: str, status: int,
                                     said: str) -> None:
    response = client.get(address)
    assert response.status_code == status
    assert said in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)


def test_a_chosen_value_is_data_never_query_text(client: FlaskClient) -> None:
    for hostile in ('") } UNION { ?s ?p ?o } #', "model/x> } #", "\\", '"', "-\\n"):
        page = ask(client, setting=hostile, model=hostile, maker=hostile)
        assert page["total"] == 0


def test_the_page_links_every_choice_and_the_nav_links_the_page(client: FlaskClient) -> None:
    html = ask(client, "/results", ran_by="-").get_data(as_text=True)
    assert 'href="/results"' in html  # the site's navigation
    assert "Who ran it: not stated" in html  # the chip, whose link takes it away
    assert 'href="/results?ran_by=-&amp;ran_by=bench:RunByPaperAuthors"' in html  # OR
    assert 'href="/results.csv?ran_by=-"' in html and 'href="/results.json?ran_by=-"' in html
    assert "catalog record" in html


HOSTILE = '<script>alert("x")</script>'


@pytest.fixture(scope="module")
def hostile_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlaskClient]:
    """A snapshot whose every text a page shows is markup."""
    folder = tmp_path_factory.mktemp("hostile")
    snapshot = json.loads((DATA / "results" / "inspect_evals.json").read_text())
    for result in snapshot["entries"][0]["results"]:
        result |= {"model": f"{HOSTILE} {result['model']}", "metric": HOSTILE,
                   "source": f"{HOSTILE}/README.md",
                   "settings": {"prompt": HOSTILE}}
        if "date" in result:  # the words a date was read from
            result["date_stated_as"] = HOSTILE
    (folder / "inspect_evals.json").write_text(json.dumps(snapshot))
    settings = Settings()
    store = open_store(StoreSpec("memory"), settings, built=read([folder], settings))
    try:
        yield create_app(settings, store, {"TESTING": True}).test_client()
    finally:
        store.close()


def test_every_text_the_data_gives_is_escaped(hostile_client: FlaskClient) -> None:
    page = ask(hostile_client, "/results", **EVERY).get_data(as_text=True)
    assert "<script>" not in page
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page
    setting = next(v for v in ask(hostile_client)["facets"]["setting"]["values"]
                   if v["key"] == f"prompt {HOSTILE}")  # the paper's figure: a prompt alone
    chosen = ask(hostile_client, setting=setting["key"])
    assert chosen["total"] == setting["count"] == 1
    html = ask(hostile_client, "/results", setting=setting["key"]).get_data(as_text=True)
    assert "<script>" not in html and f"Setting: prompt {HOSTILE}" not in html
