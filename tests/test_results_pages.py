"""Results on the benchmark page and the model page, with their charts (issue 37), on the seeds,
``tests/data/results/`` and ``tests/data/results_pages/`` (their READMEs say what each stands
for): a table per group of comparable results in rank order, a tie shown as one, the 0-shot
result in a table of its own, the paper's figure apart and beside its reproduction; the chart
as SVG (an image: names escaped, no script) with its data as CSV and JSON; a model's page with
its results from two sources, its maker, family and names; and the empty state."""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from graph.build.graphs import GraphInMemory
from graph.settings import Settings
from graph.store.base import Store
from graph.store.process.stops import QueryTimeout
from tests.seeds import SEEDS
from tests.store_kinds import opened
from web import create_app

DATA = Path(__file__).parent / "data"
CATALOG = [*SEEDS, DATA / "results", DATA / "results_pages"]
HTML = {"Accept": "text/html"}
EVIL = "evil<img src=x onerror=alert(1)>-7b"
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def store(built: GraphInMemory, settings: Settings,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with opened("oxigraph", built, tmp_path_factory.mktemp("store"), settings) as found:
        yield found


@pytest.fixture(scope="module")
def app(store: Store, settings: Settings) -> Flask:
    return create_app(settings, store, {"TESTING": True})


def page(client: FlaskClient, path: str) -> str:
    response = client.get(path, headers=HTML)
    assert response.status_code == 200, response.data[:300]
    return response.get_data(as_text=True)


def section(html: str, key: str) -> str:
    found = re.search(rf'<section[^>]* id="{key}">(.*?)</section>', html, re.DOTALL)
    assert found, f"no section {key}"
    return found.group(1)


def words(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def tables(html: str) -> dict[str, str]:
    """The results section's tables by title."""
    found = re.findall(r'<details class="result-table[^"]*" id="results-(\w+)"[^>]*>\s*<summary>'
                       r'<span class="table-title">(.*?)</span>(.*?)</details>', html, re.DOTALL)
    return {unescape(title): body for _key, title, body in found}


def ranked_rows(table: str) -> list[list[tuple[str, str]]]:
    """Each ``<tbody>`` of a table: its rows' rank and score, in order."""
    return [re.findall(r'<td class="rank"[^>]*>(.*?)</td>.*?<td class="number"[^>]*>(.*?)</td>',
                       body, re.DOTALL)
            for body in re.findall(r"<tbody[^>]*>(.*?)</tbody>", table, re.DOTALL)]


def table_key(html: str, title: str) -> str:
    found = re.search(r'id="results-(\w+)"[^>]*>\s*<summary><span class="table-title">'
                      + re.escape(title) + "<", html)
    assert found, title
    return found.group(1)


# --- the benchmark page -----------------------------------------------------------------------


def test_a_tie_is_one_group_ranked_alike_then_the_gap(client: FlaskClient) -> None:
    found = tables(section(page(client, "/benchmark/gsm8k"), "results"))
    five_shot = found["accuracy · inspect_evals · 5-shot"]
    assert ranked_rows(five_shot) == [[("1=", "0.92"), ("1=", "0.905")], [("3", "0.56")]]
    assert five_shot.count('<tbody class="tie-group">') == 1
    assert "GPT-4o (2024-05-13)" in five_shot and "claude-3-5-sonnet-20240620" in five_shot
    assert "± 0.01" in five_shot  # the standard errors that make the tie


def test_each_setting_is_its_own_table(client: FlaskClient) -> None:
    found = tables(section(page(client, "/benchmark/gsm8k"), "results"))
    zero_shot = found["accuracy · inspect_evals · 0-shot"]
    assert ranked_rows(zero_shot) == [[("1", "0.99")]] and "gpt-4-0613" in zero_shot
    assert "gpt-4-0613" not in found["accuracy · inspect_evals · 5-shot"]
    opencompass = found["accuracy · opencompass · prompt gsm8k_gen_1d7fe4"]
    assert ranked_rows(opencompass) == [[("1", "79.5")], [("2", "57.6")]]
    assert "opencompass 9.9.4" in words(opencompass)  # the package and version it was read from
    assert "opencompass/configs/datasets/gsm8k/README.md" in opencompass


def test_the_papers_figure_is_apart_and_beside_its_reproduction(client: FlaskClient) -> None:
    results = section(page(client, "/benchmark/gsm8k"), "results")
    apart = results[results.index('id="results-not-stated"'):]
    assert list(tables(results))[-1] == "accuracy · settings not stated"
    paper = tables(apart)["accuracy · settings not stated"]
    assert '<td class="rank"' not in paper and ">0.95<" in paper  # shown, never ranked
    assert "the paper&#39;s authors" in paper
    pairs = words(results[results.index('id="paper-vs-reproduction"'):])
    assert "GPT-4o (2024-05-13) accuracy 0.92 0.95 -0.03 inspect_evals/gsm8k/README.md" in pairs


def test_the_chart_is_an_image_of_the_largest_ranked_table(client: FlaskClient) -> None:
    html = page(client, "/benchmark/gsm8k")
    key = table_key(html, "accuracy · inspect_evals · 5-shot")
    image = re.search(r'<img src="([^"]+)" alt="([^"]+)"', section(html, "results"))
    assert image and unescape(image.group(1)) == f"/benchmark/gsm8k/results.svg?table={key}"
    assert "Chart of the 3 ranked results of accuracy · inspect_evals · 5-shot" in image.group(2)
    for fmt in ("csv", "json"):
        assert f"/benchmark/gsm8k/results.{fmt}?table={key}" in unescape(html)
    other = table_key(html, "accuracy · opencompass · prompt gsm8k_gen_1d7fe4")
    chosen = page(client, f"/benchmark/gsm8k?chart={other}")
    assert f"/benchmark/gsm8k/results.svg?table={other}" in unescape(chosen)
    assert f'<option value="{other}" selected>' in chosen
    refused = client.get("/benchmark/gsm8k?chart=nonsense", headers=HTML)
    assert refused.status_code == 400 and "chart must be one of" in refused.get_data(as_text=True)


def test_no_result_keeps_the_empty_state(client: FlaskClient) -> None:
    results = section(page(client, "/benchmark/mimic_rrs"), "results")
    assert "No record gives a result for it." in results and "<img" not in results
    assert client.get("/benchmark/mimic_rrs/results.svg").status_code == 404
    refused = client.get("/benchmark/mimic_rrs?chart=x", headers=HTML)
    assert refused.status_code == 400 and "chart" in refused.get_data(as_text=True)


# --- the chart and its data -------------------------------------------------------------------


def svg_texts(data: bytes) -> list[str]:
    """The texts an SVG draws (it must parse as XML)."""
    root = ElementTree.fromstring(data)
    assert not [e for e in root.iter() if e.tag in (f"{SVG_NS}script", f"{SVG_NS}foreignObject")]
    return [element.text or "" for element in root.iter(f"{SVG_NS}text")]


def test_the_chart_is_svg_with_every_model_and_its_rank(client: FlaskClient) -> None:
    response = client.get("/benchmark/gsm8k/results.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    texts = svg_texts(response.data)
    assert {"1=  GPT-4o (2024-05-13)", "1=  claude-3-5-sonnet-20240620",
            "3  Llama 2 (70B)"} <= set(texts), texts
    assert "accuracy · inspect_evals · 5-shot" in texts


def test_names_with_markup_stay_text_in_the_chart_and_the_page(client: FlaskClient) -> None:
    response = client.get("/benchmark/hostile_bench/results.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert b"<img" not in response.data
    texts = svg_texts(response.data)
    assert any(EVIL in text for text in texts), texts
    assert any('p<1>"q&' in text for text in texts)  # the settings line, the subtitle
    html = page(client, "/benchmark/hostile_bench")
    assert "<img src=x" not in html and "<b>Bench" not in html
    assert "evil&lt;img src=x onerror=alert(1)&gt;-7b" in html
    assert 'p&lt;1&gt;&#34;q&amp;' in html or "p&lt;1&gt;&quot;q&amp;" in html
    model = client.get("/model/evil_img_src_x_onerror_alert_1_7b/results.svg")
    assert model.status_code == 200 and b"<img" not in model.data
    assert any(EVIL in text or "Hostile <b>Bench</b>" in text for text in svg_texts(model.data))


def test_the_charts_data_as_csv_and_json(client: FlaskClient) -> None:
    response = client.get("/benchmark/gsm8k/results.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [(row["rank"], row["score"], row["stderr"]) for row in rows] == [
        ("1=", "0.92", "0.01"), ("1=", "0.905", "0.015"), ("3", "0.56", "0.012")]
    assert {row["settings"] for row in rows} == {"inspect_evals · 5-shot"}
    assert rows[0]["source"] == "inspect_evals 9.9.3"
    assert rows[0]["ran_by"] == "the harness's maintainers" and rows[0]["date"] == "2025-12"
    data: dict[str, Any] = json.loads(client.get("/benchmark/gsm8k/results.json").data)
    assert data["settings"] == "inspect_evals · 5-shot" and data["metric"] == "accuracy"
    assert [row["model"] for row in data["rows"]] == [
        "GPT-4o (2024-05-13)", "claude-3-5-sonnet-20240620", "Llama 2 (70B)"]
    assert data["rows"][0]["low"] == pytest.approx(0.91)
    hostile = client.get("/benchmark/hostile_bench/results.csv").get_data(as_text=True)
    assert EVIL in hostile  # data as written: CSV is no page


@pytest.mark.parametrize("path", [
    "/benchmark/gsm8k/results.png", "/benchmark/gsm8k/results.svg?table=nonsense",
    "/benchmark/no_such_bench/results.json", "/model/no_such_model/results.svg",
    "/benchmark/a%20b%3C/results.svg", "/model/a%22b/results.csv"])
def test_what_is_not_there_is_a_404(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_a_ranking_stopped_at_its_time_limit_is_said_not_a_500(
        store: Store, settings: Settings) -> None:
    class Stopping:
        """The store, but the leaderboard runs past its time limit."""

        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        def reading(self) -> Any:
            from contextlib import nullcontext
            return nullcontext(self)

        def query(self, text: str, *args: Any, **kwargs: Any) -> Any:
            if "Leaderboard of a benchmark" in text or "?better" in text or "?other" in text:
                raise QueryTimeout("the query ran longer than its time limit of 30 s")
            return store.query(text, *args, **kwargs)

    stopping: Any = Stopping()
    client = create_app(settings, stopping, {"TESTING": True}).test_client()
    results = section(page(client, "/benchmark/gsm8k"), "results")
    assert "could not be ranked" in results and "time limit" in results
    assert client.get("/benchmark/gsm8k/results.svg").status_code == 503


# --- the model page -------------------------------------------------------------------------


def test_a_models_page_lists_its_results_from_two_sources(client: FlaskClient) -> None:
    html = page(client, "/model/llama_2_70b")
    results = section(html, "results")
    assert "opencompass 9.9.4" in words(results) and "inspect_evals 9.9.3" in words(results)
    scores = re.findall(r'<td class="text col-score"[^>]*>(.*?)</td>', results)
    assert sorted(scores) == ["0.56", "57.6"]
    assert "inspect_evals · 5-shot" in results
    assert "opencompass · prompt gsm8k_gen_1d7fe4" in results
    assert "/model/llama_2_70b/results.svg" in results and 'alt="Chart of this model' in results
    chart = client.get("/model/llama_2_70b/results.svg")
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    rows = list(csv.DictReader(io.StringIO(
        client.get("/model/llama_2_70b/results.csv").get_data(as_text=True))))
    assert sorted((row["score"], row["panel"]) for row in rows) == [
        ("0.56", "normalised, 0–1"), ("57.6", "normalised, 0–1")]  # fraction and percent


def test_a_models_maker_family_and_names(client: FlaskClient) -> None:
    about = words(section(page(client, "/model/llama_2_70b"), "model"))
    assert "Made by Meta" in about
    assert "On Hugging Face https://huggingface.co/meta-llama/Llama-2-70b-hf" in about
    assert "llama-2-70b-turbomind" in about  # a name a source gives it
    snapshot = words(section(page(client, "/model/gpt_4o_2024_05_13"), "model"))
    assert "A dated snapshot of gpt-4o" in snapshot
    family = words(section(page(client, "/model/gpt_4o"), "model"))
    assert "Its dated snapshots GPT-4o (2024-05-13)" in family


def test_one_model_with_two_scores_in_a_table_is_marked(client: FlaskClient) -> None:
    found = tables(section(page(client, "/benchmark/hostile_bench"), "results"))
    table = next(body for title, body in found.items() if title.startswith("accuracy · inspect"))
    body = table[table.index("</thead>"):]
    rows = re.findall(r"<tr( class=\"is-disputed\")?>(.*?)</tr>", body, re.DOTALL)
    marked = [(bool(flag), words(row)) for flag, row in rows]
    assert marked == [(False, "1 evil<img src=x onerror=alert(1)>-7b 41.5"),
                      (True, "2 plain-model-7b records disagree 38"),
                      (True, "3 plain-model-7b records disagree 36.5")]
