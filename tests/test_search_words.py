"""Search finds a name whatever its writer's word breaks (issue 35): ``human eval`` finds
HumanEval, ``seedbench`` finds Seed Bench, in a store of each kind. A match with the words
joined never ranks above a name the query spells out.

The records are invented here (``RECORDS``), each for one thing: the names the issue names,
names that start like them (``Human Evaluation Harness`` starts with ``human eval``, as
typed), a name spelt out beside the same name joined, and a name holding one as a word."""

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pyoxigraph as ox
import pytest
from flask.testing import FlaskClient

from graph.build.graphs import GraphInMemory, build
from graph.dataset.oxigraph import to_oxigraph
from graph.search import INDEX_FILE, SearchResults, open_index, search
from graph.search.results import MATCHES
from graph.search.text import joinings
from graph.search.update import update_index
from graph.settings import Settings
from graph.store.base import Store
from graph.store.kinds import build_into
from tests.test_search import RANK

RECORDS = {
    "humaneval": {"name": "HumanEval", "summary": "Python functions from docstrings."},
    "human_eval_harness": {"name": "Human Evaluation Harness",
                           "summary": "People rate answers side by side."},
    "humaneval_plus": {"name": "HumanEval Plus", "summary": "More tests per problem."},
    "hellaswag": {"name": "HellaSwag", "summary": "Commonsense sentence endings."},
    "multilingual_hellaswag": {"name": "Multilingual HellaSwag",
                               "summary": "Sentence endings, translated."},
    "gsm8k": {"name": "GSM8K", "summary": "Grade school maths word problems."},
    "gsm8k_platinum": {"name": "GSM8k Platinum", "summary": "Its errors corrected."},
    "gsm_hard": {"name": "GSM Hard", "summary": "Grade school maths with large numbers; "
                                                "8k problems."},
    "seed_bench": {"name": "Seed Bench", "summary": "Images and video."},
    "seedbench_2": {"name": "SeedBench", "summary": "Images, again."},
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, settings: Settings) -> GraphInMemory:
    """``RECORDS`` as catalog pages, built (the store fixtures take it from here)."""
    folder = tmp_path_factory.mktemp("words")
    for identifier, page in RECORDS.items():
        (folder / f"{identifier}.json").write_text(
            json.dumps({"page": {"id": identifier, **page}}), encoding="utf-8")
    return build([folder], settings)


def labels_and_matches(results: SearchResults) -> list[tuple[str, str]]:
    return [(hit.label, hit.match) for hit in results.hits]


def first(results: SearchResults) -> tuple[str, str]:
    return labels_and_matches(results)[0]


@pytest.mark.parametrize(("query", "label"), [
    ("human eval", "HumanEval"),
    ("Human-Eval", "HumanEval"),
    ("hella swag", "HellaSwag"),
    ("gsm 8k", "GSM8K"),
    ("gsm 8 k", "GSM8K"),
])
def test_a_name_is_found_whatever_its_word_breaks(store: Store, query: str,
                                                  label: str) -> None:
    assert first(store.artefacts().search(query)) == (label, "joined")


def test_a_name_starting_with_the_words_joined_is_found(store: Store) -> None:
    assert first(store.artefacts().search("gsm 8k plat")) == ("GSM8k Platinum", "joined prefix")


def test_the_joined_words_come_after_the_words_as_typed(store: Store) -> None:
    """``human eval`` is HumanEval joined, before Human Evaluation Harness, which starts with
    the words as typed; but a name starting with them comes before one starting with them
    joined, as the words were typed (``human ev``, still being typed); and a text with the
    words as typed (GSM Hard's) comes after a name with them joined."""
    assert labels_and_matches(store.artefacts().search("human eval"))[:3] == [
        ("HumanEval", "joined"), ("Human Evaluation Harness", "prefix"),
        ("HumanEval Plus", "joined prefix")]
    assert labels_and_matches(store.artefacts().search("human ev")) == [
        ("Human Evaluation Harness", "prefix"), ("HumanEval", "joined prefix"),
        ("HumanEval Plus", "joined prefix")]
    assert labels_and_matches(store.artefacts().search("gsm 8k")) == [
        ("GSM8K", "joined"), ("GSM8k Platinum", "joined prefix"), ("GSM Hard", "text")]


@pytest.mark.parametrize(("query", "spelt", "joined"), [
    ("seed bench", "Seed Bench", "SeedBench"),
    ("seedbench", "SeedBench", "Seed Bench"),  # the other way: the name's words joined
])
def test_a_name_spelt_out_comes_before_one_joined(store: Store, query: str, spelt: str,
                                                  joined: str) -> None:
    found = store.artefacts().search(query)
    assert labels_and_matches(found) == [(spelt, "exact"), (joined, "joined")]


def test_a_names_word_is_found_in_its_text(store: Store) -> None:
    """``hella swag`` is one word of Multilingual HellaSwag's name: found as text."""
    hit = next(hit for hit in store.artefacts().search("hella swag", limit=100).hits
               if hit.label == "Multilingual HellaSwag")
    assert hit.match == "text"
    assert [piece.text for piece in hit.snippet if piece.match] == ["HellaSwag"]


@pytest.mark.parametrize("query", ["human eval", "human ev", "hella swag", "gsm 8k",
                                   "seedbench", "multilingual hella swag", "grade school"])
def test_the_order_is_tier_then_kind(store: Store, query: str) -> None:
    found = store.artefacts().search(query, limit=100)
    keys = [(MATCHES.index(hit.match), RANK[hit.kind]) for hit in found.hits]
    assert keys == sorted(keys), query
    assert found.total == len(found.hits)


def test_the_page_and_json_say_how_it_matched(client: FlaskClient) -> None:
    body = client.get("/search.json?q=human+eval").json
    assert body is not None
    assert (body["hits"][0]["label"], body["hits"][0]["match"]) == ("HumanEval", "joined")
    assert body["hits"][0]["score"] == 1.0
    text = client.get("/search?q=gsm+8k", headers={"Accept": "text/html"}).get_data(as_text=True)
    assert text.index('href="/benchmark/gsm8k"') < text.index('href="/benchmark/gsm_hard"')


def test_joinings_join_one_run_of_two_or_three_words() -> None:
    assert joinings(["a"]) == []
    assert joinings(["gsm", "8", "k", "x"]) == [
        ["gsm8", "k", "x"], ["gsm8k", "x"], ["gsm", "8k", "x"], ["gsm", "8kx"],
        ["gsm", "8", "kx"]]


def test_an_index_of_another_format_is_written_whole(tmp_path: Path, built: GraphInMemory,
                                                     settings: Settings) -> None:
    """An incremental build never updates an index written by another version in place: it
    writes it whole, so its search finds what a full build's does."""
    build_into(tmp_path / "store", built.records, settings)
    (before,) = (tmp_path / "store").glob(f"*/{INDEX_FILE}")
    with closing(sqlite3.connect(before)) as db:
        db.executescript("DROP TABLE joined; UPDATE meta SET value = '1' WHERE key = 'format';")
        db.commit()
    after = tmp_path / INDEX_FILE
    merge = ox.Store()  # in memory: this process may not open a RocksDB store (a fork follows)
    merge.extend(ox.Quad(*map(to_oxigraph, quad[:3])) for quad in built.quads)
    assert update_index(after, before, merge, settings.base, ()) is False
    with closing(open_index(after, settings.base)) as db:
        assert first(search(db, "human eval")) == ("HumanEval", "joined")
