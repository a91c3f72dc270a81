"""lmms-eval: top-level task folders become entries, read as lmms-eval indexes its task files;
READMEs give names, papers, home pages and modalities; a bad member spoils only itself."""

from pathlib import Path

import pytest

from graph.ingest.harvest.archive import open_archive
from graph.ingest.harvest.lmms_eval import LmmsEvalReader
from graph.ingest.harvest.reader import Reading
from graph.ingest.records.harness_snapshot import Paper
from tests.test_harvest_archive import FIXTURES, build_wheel, entry_of, read_package

TASKS = "lmms_eval/tasks/"


def read(path: Path) -> Reading:
    return read_package(LmmsEvalReader(), path)


@pytest.fixture(scope="module")
def reading(tmp_path_factory: pytest.TempPathFactory) -> Reading:
    return read(build_wheel("lmms_eval", tmp_path_factory.mktemp("wheels")))


entry = entry_of


def warnings(reading: Reading) -> dict[tuple[str, str | None], tuple[str, str | None]]:
    """Each warning by its member's path inside the package and its field."""
    return {(str(p.path).split(".whl/", 1)[1].removeprefix(TASKS), p.field): (p.reason, p.value)
            for p in reading.problems}


def test_the_reader_is_chosen_by_the_packages_metadata_name() -> None:
    with open_archive(FIXTURES / "lmms_eval") as archive:
        assert archive.package().normalized_name == LmmsEvalReader.distribution
    assert LmmsEvalReader.harness == "lmms_eval"


def test_one_entry_per_top_level_folder(reading: Reading) -> None:
    # toyaliases holds aliases of other folders' tasks only; toysuite a group across two
    assert [e.id for e in reading.entries] == [
        "toyclash", "toyfiles", "toysuite", "toytext", "toyvideo", "toyvqa"
    ]
    assert entry(reading, "toysuite").tasks == []
    assert [(g.name, g.members) for g in entry(reading, "toysuite").groups] == [
        ("toysuite", ["toyvqa_val", "toyvideo"])
    ]


def test_tasks_groups_and_tags_as_lmms_eval_indexes_them(reading: Reading) -> None:
    toyvqa = entry(reading, "toyvqa")
    assert toyvqa.tasks == ["toyvqa_test", "toyvqa_val"]
    groups = {g.name: g for g in toyvqa.groups}
    assert (groups["toyvqa"].alias, groups["toyvqa"].members) == (
        "ToyVQA", ["toyvqa_val", "toyvqa_test", "toyvqa_val_only"]
    )
    assert groups["toyvqa_val_only"].members == ["toyvqa_val"]
    # a task's tag and its older group: one folder's handles, groups of the tasks carrying them
    assert toyvqa.tags == []
    assert (groups["toy_tag"].members, groups["toyvqa_legacy"].members) == (
        ["toyvqa_val"], ["toyvqa_test"]
    )
    # a task with class: run by its own code, it registers no tag and states no dataset
    toyfiles = entry(reading, "toyfiles")
    assert "toycode" in toyfiles.tasks and toyfiles.tags == []
    assert "code_tag" not in {g.name for g in toyfiles.groups}
    assert "toyorg/loaded_by_code" not in {d.id for d in toyfiles.datasets}


def test_a_tag_stays_a_tag_across_folders_as_lm_eval_reads_tags(tmp_path: Path) -> None:
    # toy_tag under a second folder too; toyvqa_legacy too, but it begins with toyvqa
    tagged = {f"{TASKS}toyother/toyother.yaml": b"dataset_path: toyorg/toyother\n"
              b"task: toyother\ntag: [toy_tag, toyvqa_legacy]\n"}
    result = read(build_wheel("lmms_eval", tmp_path, extra=tagged))
    assert entry(result, "toyvqa").tags == entry(result, "toyother").tags == ["toy_tag"]
    assert {g.name: g.members for g in entry(result, "toyother").groups} == {
        "toyvqa_legacy": ["toyother"]
    }
    assert "toy_tag" not in {g.name for g in entry(result, "toyvqa").groups}


def test_includes_resolve_and_function_tags_name_no_metric(reading: Reading) -> None:
    toyvqa = entry(reading, "toyvqa")
    assert [(d.id, d.hub) for d in toyvqa.datasets] == [("toyorg/toyvqa", "huggingface")]
    assert [(m.name, m.lower_is_better) for m in toyvqa.metrics] == [("exact_match", False)]
    assert toyvqa.task_formats == ["generate_until"]
    # an include from another folder: the template's output type and metric, its own dataset
    toytext = entry(reading, "toytext")
    assert [d.id for d in toytext.datasets] == ["toyorg/toytext"]
    assert (toytext.task_formats, [m.name for m in toytext.metrics]) == (
        ["generate_until"], ["exact_match"]
    )


def test_of_two_included_files_the_first_wins_and_dataset_kwargs_come_through(
    tmp_path: Path,
) -> None:
    # lmms-eval's load_yaml_config merges an include list from its last file to its first
    templates = {
        f"{TASKS}toytwo/_first_yaml": b"output_type: loglikelihood\n"
                                      b"dataset_kwargs:\n  video: True\n",
        f"{TASKS}toytwo/_second_yaml": b"output_type: multiple_choice\n"
                                       b"dataset_path: toyorg/toytwo\n",
        f"{TASKS}toytwo/toytwo.yaml": b"include: [_first_yaml, _second_yaml]\ntask: toytwo\n",
    }
    toytwo = entry(read(build_wheel("lmms_eval", tmp_path, extra=templates)), "toytwo")
    assert toytwo.task_formats == ["loglikelihood"]
    assert [d.id for d in toytwo.datasets] == ["toyorg/toytwo"]  # given by the second only
    assert toytwo.modalities == ["video"]  # the first's dataset_kwargs


def test_hub_datasets_by_id_and_by_the_hubs_file_addresses(reading: Reading) -> None:
    # parquet with hf:// and huggingface.co data files; json with a local file: none
    assert [(d.id, d.hub) for d in entry(reading, "toyfiles").datasets] == [
        ("toyorg/toyfiles", "huggingface"), ("toyorg/toyfiles_val", "huggingface")
    ]
    # a dataset saved to disk is a local folder, whatever its name looks like
    assert [d.id for d in entry(reading, "toyvideo").datasets] == ["toyorg/toyvideo"]


def test_modalities_only_where_a_task_or_the_readme_states_them(
    reading: Reading, tmp_path: Path,
) -> None:
    assert entry(reading, "toyvideo").modalities == ["video"]  # dataset_kwargs video: True
    assert entry(reading, "toyvqa").modalities == ["image", "text"]  # "Modalities:" line
    assert entry(reading, "toyfiles").modalities == ["image"]  # and "smell" is a warning
    # doc_to_visual, a name with "vqa" or "text" in it: no statement
    assert entry(reading, "toytext").modalities == entry(reading, "toyclash").modalities == []
    youtube = {f"{TASKS}toytube/toytube.yaml": b"dataset_path: toyorg/toytube\n"
               b"dataset_kwargs:\n  From_YouTube: True\ntask: toytube\n"}
    assert entry(read(build_wheel("lmms_eval", tmp_path, extra=youtube)),
                 "toytube").modalities == ["video"]


def test_a_labelled_paper_line_completed_by_the_citation_naming_it(reading: Reading) -> None:
    toyvqa = entry(reading, "toyvqa")
    assert toyvqa.name == "ToyVQA"  # not the "# set up" comment of the code block above it
    (paper,) = toyvqa.papers
    assert (paper.arxiv, paper.title) == ("2401.00011", "ToyVQA: Asking Toys Questions")
    assert paper.authors == ["Anna Müller", "Piet van der Berg", "Li Chen"]
    assert (paper.year, paper.venue, paper.cite_key) == (
        2099, "Proceedings of the Toy Conference", "toy2099vqa"
    )
    assert toyvqa.homepage == "https://toyvqa.example.org/"  # "Project Page:"
    assert toyvqa.source == [f"{TASKS}toyaliases/", f"{TASKS}toyvqa/", f"{TASKS}toyvqa/README.md"]


def test_lm_evals_readme_template_is_read_as_lm_eval_reads_it(reading: Reading) -> None:
    toytext = entry(reading, "toytext")
    (paper,) = toytext.papers
    assert (paper.arxiv, paper.title, paper.authors, paper.year, paper.venue) == (
        "2401.00033", "ToyText: Reading Toy Manuals", ["Jane Doe", "John Roe"], 2099,
        "Journal of Toys",
    )
    assert (toytext.name, toytext.homepage) == ("ToyText", "https://toytext.example.org")


def test_a_doi_paper_and_a_project_page_where_the_homepage_is_no_url(reading: Reading) -> None:
    toyfiles = entry(reading, "toyfiles")
    assert toyfiles.name == "toyfiles"  # its README has no level-1 heading
    assert [(p.doi, p.arxiv, p.url, p.title) for p in toyfiles.papers] == [
        ("10.1234/toyfiles.2099", None, None, None)
    ]
    assert toyfiles.homepage == "https://toyfiles.example.org"


def test_a_paper_line_and_a_citation_naming_two_papers_give_neither(reading: Reading) -> None:
    assert entry(reading, "toyclash").papers == []
    assert warnings(reading)[("toyclash/README.md", "paper")] == (
        "the Paper line and the citation name different papers: neither is harvested",
        "Paper line: arXiv 2401.00044; BibTeX entry other2099: 'Another Paper Entirely', "
        "arXiv 2401.00055",
    )


CITING = b"""
```bibtex
@misc{model2099,
  title={A Toy Model Evaluated On It},
  eprint={2401.00066},
  year={2098}
}
@article{clash2099,
  title={ToyClash: Clashing Toys},
  author={Ann Other},
  journal={Toy Letters},
  eprint={2401.00044},
  year={2099}
}
```
"""


@pytest.mark.parametrize(("readme", "paper", "warned"), [
    # the line is checked as a Paper section is: the citation that names it completes it
    (b"# ToyClash\n\nPaper: https://arxiv.org/abs/2401.00044\n" + CITING,
     Paper(arxiv="2401.00044", title="ToyClash: Clashing Toys", authors=["Ann Other"],
           year=2099, venue="Toy Letters", cite_key="clash2099"), None),
    # a Paper section and a Paper line naming one paper: the line completes the section's
    (b"# ToyClash\n\nPaper: https://arxiv.org/abs/2401.00044\n\n## Paper\n\n"
     b"Title: ToyClash: Clashing Toys\n" + CITING,
     Paper(arxiv="2401.00044", title="ToyClash: Clashing Toys", authors=["Ann Other"],
           year=2099, venue="Toy Letters", cite_key="clash2099"), None),
    # a Paper section and a Paper line naming two papers: neither, and a warning naming both
    (b"# ToyClash\n\nPaper: https://arxiv.org/abs/2401.00044\n\n## Paper\n\n"
     b"Abstract: https://arxiv.org/abs/2401.00077\n" + CITING, None,
     ("the Paper section and the Paper line name different papers: neither is harvested",
      "Paper section: arXiv 2401.00077; Paper line: arXiv 2401.00044")),
])
def test_a_paper_line_goes_through_lm_evals_check(
    tmp_path: Path, readme: bytes, paper: Paper | None, warned: tuple[str, str] | None,
) -> None:
    result = read(build_wheel("lmms_eval", tmp_path,
                              extra={f"{TASKS}toyclash/README.md": readme}))
    assert entry(result, "toyclash").papers == ([paper] if paper else [])
    assert warnings(result).get(("toyclash/README.md", "paper")) == warned


def test_a_folder_of_aliases_names_the_entries_it_runs(reading: Reading) -> None:
    assert entry(reading, "toyvqa").aliases == ["tv"]
    assert entry(reading, "toyvideo").aliases == ["tvid"]
    assert f"{TASKS}toyaliases/" in entry(reading, "toyvideo").source


def test_each_bad_member_or_fact_is_one_warning_and_the_rest_loads(reading: Reading) -> None:
    found = warnings(reading)
    assert found[("toyvqa/broken.yaml", None)][0] == "not valid YAML"
    assert found[("toyvqa/zz_duplicate.yaml", "task")] == (
        "a task name an earlier file defines: the first is kept", "toyvqa_val"
    )
    assert found[("toyvqa/zz_group_again.yaml", "group")] == (
        "a group name an earlier file defines: the first is kept", "toyvqa"
    )
    assert found[("toytext/odd.yaml", "task")] == ("the task is neither a name nor a list", "int")
    assert (found[("toyvqa/README.md", "citation")][1] or "").startswith("@misc{broken2099,")
    assert found[("toyfiles/README.md", "paper")] == ("a paper line without a link",
                                                      "coming soon")
    assert found[("toyfiles/README.md", "Homepage")][1] == "see the paper"
    assert found[("toyfiles/README.md", "modalities")][1] == "smell"
    assert len(reading.problems) == len(found) == 9
    assert "toyorg/duplicate" not in {d.id for d in entry(reading, "toyvqa").datasets}
    assert not {"toyvqa_broken", "5"} & {t for e in reading.entries for t in e.tasks}


def test_a_readme_that_cannot_be_read_leaves_its_entry_named_by_its_folder(
    tmp_path: Path,
) -> None:
    unreadable = {f"{TASKS}toyvideo/README.md": b"# Toy\xffVideo\n"}
    result = read(build_wheel("lmms_eval", tmp_path, extra=unreadable))
    assert entry(result, "toyvideo").name == "toyvideo"
    assert warnings(result)[("toyvideo/README.md", None)][0] == "not UTF-8"


def test_no_abstract_and_the_same_entries_whatever_the_order(
    reading: Reading, tmp_path: Path,
) -> None:
    dumped = [e.model_dump_json() for e in reading.entries]
    assert not [d for d in dumped if "ABSTRACT-SENTINEL" in d]
    backwards = read(build_wheel("lmms_eval", tmp_path, reverse=True, date_time=(2030, 6, 1,
                                                                                   0, 0, 0)))
    assert [e.model_dump_json() for e in backwards.entries] == dumped
    assert read(FIXTURES / "lmms_eval").entries == reading.entries
