"""inspect_evals eval listings and OpenCompass dataset folders."""

from pathlib import Path

import pytest

from graph.harvest import Harvest, harvest
from graph.records.harness_snapshot import Entry
from tests.test_harvest_archive import build_wheel


@pytest.fixture(scope="module")
def harvested(tmp_path_factory: pytest.TempPathFactory) -> Harvest:
    out = tmp_path_factory.mktemp("wheels")
    broken = {"opencompass/configs/datasets/toy_plain/broken_gen.py": b"dict(abbr='x'\n"}
    return harvest([build_wheel("inspect_evals", out),
                    build_wheel("opencompass", out, extra=broken)])


def entry(harvested: Harvest, harness: str, entry_id: str) -> Entry:
    (snapshot,) = [s for s in harvested.snapshots if s.harness == harness]
    (found,) = [e for e in snapshot.entries if e.id == entry_id]
    return found


def problems(harvested: Harvest) -> set[tuple[str, str | None, str]]:
    return {(str(p.path).split(".whl/", 1)[1], p.field, p.reason) for p in harvested.problems}


def test_an_eval_listing_gives_every_field(harvested: Harvest) -> None:
    toy = entry(harvested, "inspect_evals", "toy_eval")
    assert toy.name == "ToyEval: Toy Questions for Agents"
    assert toy.description == "Toy questions that test an agent's patience."
    assert [p.arxiv for p in toy.papers] == ["2405.00005"]
    assert (toy.categories, toy.tags, toy.contributors) == (
        ["Reasoning"], ["Agent"], ["hubot", "octocat"]
    )
    assert toy.tasks == ["toy_eval_easy", "toy_eval_hard"]
    assert [(s.task, s.samples) for s in toy.sample_counts] == [
        ("toy_eval_easy", 120), ("toy_eval_hard", 30)
    ]
    (baseline,) = toy.human_baselines
    assert (baseline.task, baseline.metric, baseline.score, baseline.source) == (
        "toy_eval_easy", "accuracy", 0.875, "https://arxiv.org/abs/2405.00005"
    )
    assert toy.source == ["inspect_evals/toy_eval/eval.yaml"]


def test_the_gated_word_is_kept_verbatim_and_only_hub_assets_are_datasets(
    harvested: Harvest,
) -> None:
    datasets = entry(harvested, "inspect_evals", "toy_eval").datasets
    assert [(d.id, d.hub, d.gated) for d in datasets] == [
        ("toyorg/toy_eval", "huggingface", "auto"),
        ("toyorg/toy_eval_extra", "huggingface", None),
    ]


def test_challenge_settings_are_no_listing_and_bad_listings_are_named(
    harvested: Harvest,
) -> None:
    (snapshot,) = [s for s in harvested.snapshots if s.harness == "inspect_evals"]
    assert [e.id for e in snapshot.entries] == ["plain", "toy_eval"]
    assert {
        ("inspect_evals/bad_eval/eval.yaml", None, "not valid YAML"),
        ("inspect_evals/plain/eval.yaml", "arxiv", "not an arXiv link or id"),
        ("inspect_evals/toy_eval/eval.yaml", "tasks[2]", "a task with no name"),
    } <= problems(harvested)
    assert entry(harvested, "inspect_evals", "plain").papers == []


def test_opencompass_gives_names_and_literal_abbreviations(harvested: Harvest) -> None:
    toy = entry(harvested, "opencompass", "ToyBench")
    assert toy.name == "Toy Bench"  # the README's heading; its results table is not read
    assert toy.tasks == ["toybench", "toybench-extra", "toybench-hard"]  # no f-string abbr
    assert toy.source == ["opencompass/configs/datasets/ToyBench/",
                          "opencompass/configs/datasets/ToyBench/README.md"]
    assert entry(harvested, "opencompass", "toy_plain").name == "toy_plain"
    (snapshot,) = [s for s in harvested.snapshots if s.harness == "opencompass"]
    assert [e.id for e in snapshot.entries] == ["ToyBench", "toy_plain"]  # not summarizers


def test_a_config_that_is_not_python_is_named_and_the_rest_load(harvested: Harvest) -> None:
    assert ("opencompass/configs/datasets/toy_plain/broken_gen.py", None,
            "not valid Python") in problems(harvested)
    assert entry(harvested, "opencompass", "toy_plain").tasks == ["toy_plain"]


def test_snapshots_come_in_harness_order(tmp_path: Path, harvested: Harvest) -> None:
    assert [s.harness for s in harvested.snapshots] == ["inspect_evals", "opencompass"]
    both = harvest([build_wheel("opencompass", tmp_path), build_wheel("helm", tmp_path)])
    assert [s.harness for s in both.snapshots] == ["helm", "opencompass"]
