"""HELM: benchmark-level run groups of the suite schemas, with what their run specs state."""

import pytest

from graph.harvest import Harvest, harvest
from graph.records.harness_snapshot import Entry
from tests.test_harvest_archive import build_wheel


@pytest.fixture(scope="module")
def harvested(tmp_path_factory: pytest.TempPathFactory) -> Harvest:
    return harvest([build_wheel("helm", tmp_path_factory.mktemp("wheels"))])


def entry(harvested: Harvest, entry_id: str) -> Entry:
    (found,) = [e for e in harvested.snapshots[0].entries if e.id == entry_id]
    return found


def test_run_groups_with_subgroups_are_categories_not_entries(harvested: Harvest) -> None:
    ids = [e.id for e in harvested.snapshots[0].entries]
    assert ids == ["toy_notes", "toy_planned", "toy_qa"]
    assert entry(harvested, "toy_notes").categories == ["Toy Reasoning"]


def test_a_run_group_in_two_suites_is_one_entry(harvested: Harvest) -> None:
    qa = entry(harvested, "toy_qa")
    assert qa.suites == ["lite", "toy"]
    # the first schema in file order names it; the other names are aliases
    assert qa.name == "ToyQA (lite)"
    assert qa.aliases == ["ToyQA", "ToyQA (Toy Question Answering)"]
    assert qa.categories == ["Core scenarios", "Toy Reasoning"]
    assert [(m.name, m.display_name, m.main) for m in qa.metrics] == [
        ("exact_match", "Exact match", True), ("quasi_exact_match", "Quasi-exact match", True)
    ]
    # every arXiv paper any schema's description cites, without version, once
    assert [p.arxiv for p in qa.papers] == ["2401.00001", "2402.00002"]
    assert qa.source == [
        "helm/benchmark/run_specs/toy_run_specs.py",
        "helm/benchmark/scenarios/toy_scenario.py",
        "helm/benchmark/static/schema_lite.yaml",
        "helm/benchmark/static/schema_toy.yaml",
    ]


def test_the_description_is_the_first_paragraph(harvested: Harvest) -> None:
    notes = entry(harvested, "toy_notes")
    assert notes.description == "Toy clinical notes, from local files."


def test_a_taxonomy_value_that_says_unknown_is_absent(harvested: Harvest) -> None:
    taxonomy = entry(harvested, "toy_qa").taxonomy
    assert taxonomy is None  # the lite schema, first, states none
    notes = entry(harvested, "toy_notes").taxonomy
    assert notes is not None and (notes.task, notes.language) == ("Text generation", "English")


def test_run_specs_give_tasks_formats_tags_and_datasets(harvested: Harvest) -> None:
    qa = entry(harvested, "toy_qa")
    assert qa.tasks == ["toy_qa"]
    assert qa.task_formats == ["multiple_choice_joint"]  # the method passed to the helper
    assert qa.tags == ["question_answering", "toy"]
    assert [d.id for d in qa.datasets] == ["toyorg/toy_qa"]  # not the "json" file reader
    notes = entry(harvested, "toy_notes")
    assert notes.task_formats == ["generation"]  # fixed by get_generation_adapter_spec
    assert notes.tasks == ["toy_notes"]  # its group named by a local constant


def test_a_data_path_is_stated_as_exactly_that_with_its_source(harvested: Harvest) -> None:
    (need,) = entry(harvested, "toy_notes").needs_local_data
    assert (need.run_spec, need.argument, need.source) == (
        "toy_notes", "data_path", "helm/benchmark/run_specs/toy_run_specs.py"
    )
    assert entry(harvested, "toy_qa").needs_local_data == []
    assert "access" not in str(entry(harvested, "toy_notes").model_dump()).lower()


def test_a_group_named_in_code_is_not_guessed(harvested: Harvest) -> None:
    tasks = {t for e in harvested.snapshots[0].entries for t in e.tasks}
    assert "toy_unlinked" not in tasks  # its only group is an f-string


def test_todo_is_kept(harvested: Harvest) -> None:
    assert entry(harvested, "toy_planned").todo is True
    assert entry(harvested, "toy_qa").todo is False


def test_a_malformed_schema_is_named_and_the_others_load(harvested: Harvest) -> None:
    (problem,) = harvested.problems
    assert str(problem.path).endswith(".whl/helm/benchmark/static/schema_broken.yaml")
    assert problem.reason == "not valid YAML"
    assert problem.value is not None and problem.value.startswith("line 5")


def test_a_scenario_that_is_not_python_is_named(tmp_path_factory: pytest.TempPathFactory) -> None:
    broken = {"helm/benchmark/scenarios/toy_scenario.py": b"class ToyQAScenario(:\n"}
    result = harvest([build_wheel("helm", tmp_path_factory.mktemp("w"), extra=broken)])
    reasons = {(str(p.path).rsplit(".whl/", 1)[1], p.reason) for p in result.problems}
    assert ("helm/benchmark/scenarios/toy_scenario.py", "not valid Python") in reasons
    assert entry(result, "toy_qa").tasks == ["toy_qa"]  # the run spec still links
    assert entry(result, "toy_qa").tags == []
