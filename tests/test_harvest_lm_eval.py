"""lm-eval: task folders become entries, includes resolve, and a bad file spoils only itself."""

from pathlib import Path

import pytest

from graph.harvest import Harvest, harvest
from graph.harvest.snapshot import snapshot_bytes
from graph.records.harness_snapshot import Entry
from tests.test_harvest_archive import FIXTURES, build_wheel


@pytest.fixture(scope="module")
def harvested(tmp_path_factory: pytest.TempPathFactory) -> Harvest:
    return harvest([build_wheel("lm_eval", tmp_path_factory.mktemp("wheels"))])


def entry(harvested: Harvest, entry_id: str) -> Entry:
    (found,) = [e for e in harvested.snapshots[0].entries if e.id == entry_id]
    return found


def warnings(harvested: Harvest) -> dict[str, tuple[str | None, str, str | None]]:
    """Each warning by its member's path inside the wheel."""
    return {str(p.path).split(".whl/", 1)[1]: (p.field, p.reason, p.value)
            for p in harvested.problems}


def test_one_entry_per_task_folder_and_per_folder_with_a_readme(harvested: Harvest) -> None:
    ids = [e.id for e in harvested.snapshots[0].entries]
    # bad/ defines no task or group; suite/part has a README of its own, suite/other not
    assert ids == ["suite", "suite/part", "toy"]
    assert entry(harvested, "suite").tasks == ["suite_other"]
    assert entry(harvested, "suite/part").tasks == ["suite_part"]


def test_sub_tasks_and_groups_are_gathered_under_their_folder(harvested: Harvest) -> None:
    toy = entry(harvested, "toy")
    assert toy.tasks == ["toy_a", "toy_b", "toy_inline_task"]
    groups = {g.name: g for g in toy.groups}
    assert groups["toy"].alias == "Toy Bench"
    assert groups["toy"].members == ["toy_a", "toy_b", "toy_inline", "toy_inline_task"]
    assert groups["toy_inline"].members == ["toy_a"]


def test_include_one_file_a_list_and_a_chain(harvested: Harvest) -> None:
    toy = entry(harvested, "toy")
    # toy_a: the template's dataset and output type; toy_b: its own dataset, then _extra.yaml
    # (itself built on the template) overriding the output type and adding a metric
    assert [d.id for d in toy.datasets] == [
        "toyorg/toy_inline", "toyorg/toybench", "toyorg/toybench_b"
    ]
    assert toy.task_formats == ["generate_until", "multiple_choice"]
    assert [(m.name, m.lower_is_better) for m in toy.metrics] == [
        ("acc", False), ("exact_match", False)
    ]


def test_function_tags_are_tolerated_and_name_no_metric(harvested: Harvest) -> None:
    names = [m.name for m in entry(harvested, "toy").metrics]
    assert "utils.custom_metric" not in names and "custom_metric" not in names
    assert entry(harvested, "toy").tags == ["toy_tag"]


def test_the_readme_gives_name_title_and_arxiv_and_never_the_abstract(
    harvested: Harvest,
) -> None:
    toy = entry(harvested, "toy")
    assert toy.name == "ToyBench"
    assert [(p.arxiv, p.title) for p in toy.papers] == [
        ("2403.00003", "ToyBench: Measuring Toy Understanding")
    ]
    part = entry(harvested, "suite/part")
    assert [(p.arxiv, p.title) for p in part.papers] == [("2404.00004", "Part One: A Toy Paper")]
    assert part.name == "part"  # its README keeps the template's heading "# Task-name"
    assert b"ABSTRACT-SENTINEL" not in snapshot_bytes(harvested.snapshots[0])
    assert toy.description is None


def test_a_file_reader_is_no_dataset(harvested: Harvest) -> None:
    assert entry(harvested, "suite").datasets == []  # dataset_path: json


def test_each_bad_file_is_one_warning_naming_it_and_the_rest_load(harvested: Harvest) -> None:
    found = warnings(harvested)
    assert found["lm_eval/tasks/toy/broken.yaml"][1] == "not valid YAML"
    assert "line 3" in (found["lm_eval/tasks/toy/broken.yaml"][2] or "")
    assert found["lm_eval/tasks/bad/list.yaml"][1:] == (
        "not a YAML mapping of keys to values", "a list"
    )
    assert found["lm_eval/tasks/toy/missing.yaml"] == (
        "include", "includes a file that is not in the package", "_no_such_template_yaml"
    )
    assert found["lm_eval/tasks/toy/outside.yaml"][1] == "includes a file outside the package"
    assert found["lm_eval/tasks/toy/zz_duplicate.yaml"] == (
        "task", "a task name an earlier file defines: the first is kept", "toy_a"
    )
    assert len(harvested.problems) == 7
    # none of the bad files' tasks is an entry's task, and the first toy_a stands
    tasks = {t for e in harvested.snapshots[0].entries for t in e.tasks}
    assert not tasks & {"toy_broken", "toy_cycle", "toy_missing", "toy_outside"}
    assert "toyorg/duplicate" not in {d.id for d in entry(harvested, "toy").datasets}


def test_an_include_cycle_is_named_not_followed(harvested: Harvest) -> None:
    found = warnings(harvested)
    field, reason, chain = found["lm_eval/tasks/toy/cycle_b.yaml"]
    assert (field, reason) == ("include", "include cycle")
    assert chain == ("lm_eval/tasks/toy/cycle_a.yaml -> lm_eval/tasks/toy/cycle_b.yaml -> "
                     "lm_eval/tasks/toy/cycle_a.yaml")
    assert found["lm_eval/tasks/toy/cycle_a.yaml"][1] == "includes a file that cannot be read"


def test_a_template_included_twice_is_no_cycle(tmp_path: Path) -> None:
    diamond = {
        "lm_eval/tasks/toy/diamond.yaml":
            b"include: [_extra.yaml, _template_yaml]\ntask: toy_diamond\n",
    }
    result = harvest([build_wheel("lm_eval", tmp_path, extra=diamond)])
    assert "toy_diamond" in entry(result, "toy").tasks
    assert not [p for p in result.problems if "diamond" in str(p.path)]


def test_the_folder_reads_as_the_wheel(harvested: Harvest) -> None:
    assert harvest([FIXTURES / "lm_eval"]).snapshots == harvested.snapshots
