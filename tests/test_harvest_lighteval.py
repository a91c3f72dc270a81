"""lighteval task modules: docstring keys and the configs' literal facts, read as syntax trees."""

import ast
from pathlib import Path

import pytest

from graph.ingest.harvest.archive import open_archive
from graph.ingest.harvest.lighteval import (
    LightevalReader,
    Scope,
    literals,
    module_constants,
    module_id,
    read_configs,
    read_docstring,
)
from graph.ingest.harvest.reader import Reading
from graph.ingest.harvest.snapshot import snapshot_bytes
from graph.ingest.records.harness_snapshot import Snapshot
from tests.test_harvest_archive import FIXTURES, build_wheel, entry_of, read_package

TASKS = "lighteval/tasks/tasks/"
BROKEN = {f"{TASKS}toy_broken.py": b'"""\nname:\nBroken\n"""\nLightevalTaskConfig(name="x"\n'}


def read(path: Path) -> Reading:
    return read_package(LightevalReader(), path)


@pytest.fixture(scope="module")
def reading(tmp_path_factory: pytest.TempPathFactory) -> Reading:
    return read(build_wheel("lighteval", tmp_path_factory.mktemp("wheels"), extra=BROKEN))


entry = entry_of


def problems(reading: Reading) -> set[tuple[str, str | None, str]]:
    return {(str(p.path).split(".whl/", 1)[1], p.field, p.reason) for p in reading.problems}


def test_one_entry_per_task_module_and_no_other() -> None:
    assert module_id(f"{TASKS}gsm8k.py") == "gsm8k"
    assert module_id(f"{TASKS}ifeval/main.py") == "ifeval"
    assert module_id("lighteval/tasks/multilingual/tasks/xcopa.py") == "multilingual/xcopa"
    for other in (f"{TASKS}__init__.py", f"{TASKS}ifeval/instructions.py",
                  "lighteval/tasks/multilingual/tasks/__init__.py", "lighteval/tasks/registry.py",
                  f"{TASKS}gsm8k.pyc", "lighteval/tasks/multilingual/utils/task_utils.py"):
        assert module_id(other) is None


def test_the_entries_of_the_fixture(reading: Reading) -> None:
    assert sorted(e.id for e in reading.entries) == [
        "multilingual/toy_qa", "toy_loop", "toy_odd", "toy_plain", "toy_qa", "toy_suite",
    ]


def test_a_docstring_and_literal_configs_give_every_field(reading: Reading) -> None:
    toy = entry(reading, "toy_qa")
    assert toy.name == "Toy QA"
    assert toy.description is None  # the abstract is not the harness's description
    assert [p.model_dump(exclude_defaults=True) for p in toy.papers] == [
        {"arxiv": "2401.00001"},  # the version and the full stop dropped; the PDF link is one
        {"doi": "10.1234/toy.5678"},
        {"doi": "10.5555/toy.1234", "url": "https://dl.acm.org/doi/10.5555/toy.1234"},
        {"url": "https://toyorg.example/toy-qa/"},
    ]
    assert [(d.id, d.hub) for d in toy.datasets] == [
        ("toyorg/toy_qa", "huggingface"), ("toyorg/toy_qa_extra", "huggingface"),
        ("toyorg/toy_qa_hard", "huggingface"),
    ]
    assert [m.name for m in toy.metrics] == ["exact_match", "f1_score", "loglikelihood_acc"]
    assert toy.tasks == ["toy_qa", "toy_qa:hard"]
    assert (toy.languages, toy.tags, toy.version) == (["english"], ["multiple-choice", "qa"], "1")
    assert toy.source == [f"{TASKS}toy_qa.py"]


def test_configs_built_in_loops_keep_only_what_is_literal(reading: Reading) -> None:
    toy = entry(reading, "toy_loop")
    assert toy.tasks == ["toy_loop:all"]  # the f-string names are computed: not stated
    assert [d.id for d in toy.datasets] == ["toyorg/toy_loop", "toyorg/toy_loop_fr"]
    # a metric the module defines counts by the metric_name it gives, through a name
    assert [m.name for m in toy.metrics] == ["exact_match", "toy_loop_acc", "toy_loop_f1"]
    assert (toy.papers, toy.version) == ([], "0")
    assert toy.languages == ["english", "french"]


def test_a_folder_module_with_factories_and_its_own_description(reading: Reading) -> None:
    toy = entry(reading, "toy_suite")
    assert toy.description == ("Toy Suite gathers the toy tasks in one place. These words "
                               "are the harness's own.")
    assert toy.tasks == ["toy_suite:first", "toy_suite:second", "toy_suite:sub"]
    assert [m.name for m in toy.metrics] == ["bleu", "rouge1", "rouge2"]
    assert [d.id for d in toy.datasets] == ["toyorg/toy_suite", "toyorg/toy_suite_sub"]
    assert toy.version == "3"  # the factory's default and the subclass's literal agree
    assert [p.arxiv for p in toy.papers] == ["2401.00003"]  # the Contact lines are no paper
    assert toy.source == [f"{TASKS}toy_suite/main.py"]


def test_a_multilingual_module_is_one_entry_with_its_stated_languages(reading: Reading) -> None:
    toy = entry(reading, "multilingual/toy_qa")
    assert toy.name == "Toy QA Multilingual"
    assert toy.languages == ["chinese (simplified)", "english", "french", "swahili"]
    assert (toy.tasks, toy.metrics) == ([], [])  # per-language names are computed
    assert [d.id for d in toy.datasets] == ["toyorg/toy_qa_m"]
    assert [p.url for p in toy.papers] == ["https://aclanthology.org/2099.toy-1.1/"]
    assert entry(reading, "toy_qa").languages == ["english"]  # the same module name, apart


def test_odd_and_broken_modules_are_warnings_and_the_rest_loads(reading: Reading) -> None:
    assert problems(reading) == {
        (f"{TASKS}toy_broken.py", None, "not valid Python"),
        (f"{TASKS}toy_helper.py", None,
         "no docstring and no LightevalTaskConfig: not read as a benchmark"),
        (f"{TASKS}toy_odd.py", "name", "no name in the docstring: the module's name stands for it"),
        (f"{TASKS}toy_odd.py", "paper", "a paper line with no link"),
        (f"{TASKS}toy_odd.py", "dataset", "not a dataset id"),
        (f"{TASKS}toy_plain.py", "name", "no docstring: the module's name stands for its name"),
    }
    odd = [p.value for p in reading.problems if p.field == "dataset"]
    assert odd == ["not a dataset id", "json"]
    toy = entry(reading, "toy_odd")
    assert toy.name == "toy_odd"
    assert [p.arxiv for p in toy.papers] == ["2401.00004"]
    assert [d.id for d in toy.datasets] == ["toyorg/toy_odd"]  # through REPO = BASE
    assert toy.tags == []
    assert toy.tasks == []  # a cycle of names, a shadowed loop variable, a + b: none stated
    assert toy.version is None  # its configs state two versions (and a bool, which is none)
    plain = entry(reading, "toy_plain")
    assert (plain.name, plain.tasks, plain.datasets) == ("toy_plain", ["toy_plain"], [])


def test_no_abstract_reaches_an_entry(reading: Reading) -> None:
    for found in reading.entries:
        assert "ABSTRACT-SENTINEL" not in found.model_dump_json()


def test_the_same_package_gives_the_same_bytes(tmp_path: Path) -> None:
    def snapshot(path: Path) -> bytes:
        return snapshot_bytes(Snapshot(format=2, harness="lighteval", package="lighteval",
                                       version="9.9.6", entries=read(path).entries))

    folder = snapshot(FIXTURES / "lighteval")
    assert snapshot(build_wheel("lighteval", tmp_path / "a")) == folder
    assert snapshot(build_wheel("lighteval", tmp_path / "b", reverse=True,
                                date_time=(2030, 6, 6, 6, 6, 6))) == folder


def test_the_package_is_named_by_its_metadata() -> None:
    with open_archive(FIXTURES / "lighteval") as archive:
        package = archive.package()
    assert (package.normalized_name, package.version, package.licence) == (
        "lighteval", "9.9.6", "MIT")
    assert package.copyright == "Copyright (c) 2099 Fixture Lab"


def test_a_docstring_is_cut_at_keys_alone_on_their_line() -> None:
    docstring = read_docstring(
        "Lead words.\n\nname:\nToy\n  Two\nabstract:\nlanguages: english, in the abstract\n"
        "Tags:\na,\n b ,,c\nname:\nAgain\n"
    )
    assert docstring.text("name") == "Toy Two Again"  # a key given twice keeps both
    assert docstring.names("tags") == ["a", "b", "c"]
    assert docstring.names("languages") == []  # "languages: ..." inside a value is no key
    assert docstring.description() == "Lead words."
    assert read_docstring("").text("name") is None


def test_names_are_followed_only_where_the_module_binds_them_once() -> None:
    module = ast.parse(
        "A = 'a'\nB = A\nC = 'c1'\nC = 'c2'\nfor D in []: pass\nD = 'd'\n"
        "def f(E): pass\nE = 'e'\nimport F\nF = 'f'\nG = 'x' if A else H\n"
    )
    constants = module_constants(module)
    assert sorted(constants) == ["A", "B", "C", "G"]
    scope = Scope(constants)

    def value(name: str) -> list[str]:
        return literals(ast.Name(id=name), scope)

    assert (value("B"), value("C"), value("D"), value("G")) == (["a"], ["c1", "c2"], [], ["x"])
    assert literals(ast.Constant(value=7), scope) == []
    assert literals(ast.Constant(value=7), scope, numbers=True) == ["7"]


def test_a_config_count_includes_each_call_of_a_factory() -> None:
    module = ast.parse(
        "def make(n, r='toy/r'):\n    return LightevalTaskConfig(name=n, hf_repo=r)\n"
        "a = make('x')\nb = make('y', r='toy/s')\nc = make(n=z)\n"
    )
    configs = read_configs(module)
    assert configs.count == 3
    assert configs.names == ["x", "y"]
    assert configs.repos == ["toy/r", "toy/s", "toy/r"]
