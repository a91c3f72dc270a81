"""lm-eval: task folders become entries, includes resolve, and a bad file spoils only itself;
the READMEs give papers (checked against their BibTeX), home pages, and overrides mend the
READMEs known to be wrong.

The fixture's three READMEs are entries' own (``toy``, ``suite``, ``suite/part``); the
Markdown files in ``tests/data/harvest/lm_eval/readme_forms/`` are one README each for the
other ways a Paper section is written, harvested as the READMEs of folders the tests add."""

from pathlib import Path

import pytest

from graph.ingest.harvest import Harvest, harvest
from graph.ingest.harvest.archive import open_archive
from graph.ingest.harvest.lm_eval import LmEvalReader
from graph.ingest.harvest.paper_overrides import bundled_overrides, read_overrides
from graph.ingest.harvest.reader import Reading
from graph.ingest.harvest.snapshot import snapshot_bytes
from graph.ingest.records.harness_snapshot import Entry, Paper
from tests.test_harvest_archive import FIXTURES, build_wheel

FORMS = FIXTURES / "lm_eval" / "readme_forms"


@pytest.fixture(scope="module")
def harvested(tmp_path_factory: pytest.TempPathFactory) -> Harvest:
    return harvest([build_wheel("lm_eval", tmp_path_factory.mktemp("wheels"))])


def entry(harvested: Harvest, entry_id: str) -> Entry:
    (found,) = [e for e in harvested.snapshots[0].entries if e.id == entry_id]
    return found


def warnings(harvested: Harvest | Reading) -> dict[str, tuple[str | None, str, str | None]]:
    """Each warning by its member's path inside the wheel (and ``#field`` for a README's)."""
    return {_key(str(p.path).split(".whl/", 1)[1], p.field): (p.field, p.reason, p.value)
            for p in harvested.problems}


def _key(member: str, field: str | None) -> str:
    return f"{member}#{field}" if member.endswith("README.md") else member


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


def test_a_tag_is_a_tag_only_across_folders_and_else_a_group_of_its_tasks(
    harvested: Harvest,
) -> None:
    toy, suite = entry(harvested, "toy"), entry(harvested, "suite")
    # kind_of_task: carried under toy/ and suite/; toy_tag: toy's alone; suite_sets: under
    # both, but named for one of them
    assert toy.tags == suite.tags == ["kind_of_task"]
    toy_groups = {g.name: g.members for g in toy.groups}
    assert toy_groups["toy_tag"] == ["toy_a"] and toy_groups["suite_sets"] == ["toy_b"]
    assert {g.name: g.members for g in suite.groups} == {"suite_sets": ["suite_other"]}
    assert toy_groups["toy"] == ["toy_a", "toy_b", "toy_inline", "toy_inline_task"]


def test_the_readme_gives_name_and_paper_and_never_the_abstract(harvested: Harvest) -> None:
    toy = entry(harvested, "toy")
    assert toy.name == "ToyBench"
    # the title wraps onto a second line; the first citation names another paper (a model),
    # the second agrees by arXiv id and adds its authors (LaTeX decoded, "others" left
    # out), year, venue and key; the code block above the Paper section is not read
    assert toy.papers == [Paper(
        arxiv="2403.00003", title="ToyBench: Measuring Toy Understanding",
        authors=["Jane Doe", "Max Müller"], year=2099,
        venue="Proceedings of the Toy Conference", cite_key="doe2099toy",
    )]
    part = entry(harvested, "suite/part")
    assert part.papers == [Paper(url="https://aclanthology.org/2099.toy-main.1/",
                                 title="Part One: A Toy Paper")]
    assert part.name == "part"  # its README keeps the template's heading "# Task-name"
    written = snapshot_bytes(harvested.snapshots[0])
    assert b"ABSTRACT-SENTINEL" not in written and b"2401.99999" not in written
    assert b"NOT-A-TITLE" not in written and b"A Toy Language Model" not in written
    assert toy.description is None


def test_the_homepage_is_the_first_homepage_line_an_http_url_only(harvested: Harvest) -> None:
    assert entry(harvested, "toy").homepage == "https://example.org/toybench"  # not the table
    assert entry(harvested, "suite/part").homepage == "https://example.org/part"  # next line
    assert entry(harvested, "suite").homepage is None
    assert warnings(harvested)["lm_eval/tasks/suite/README.md#Homepage"] == (
        "Homepage", "the homepage is not an http(s) URL", "the suite's home page goes here"
    )


def test_a_readme_that_contradicts_itself_states_no_paper_and_names_both(
    harvested: Harvest,
) -> None:
    assert entry(harvested, "suite").papers == []
    field, reason, value = warnings(harvested)["lm_eval/tasks/suite/README.md#paper"]
    assert (field, reason) == (
        "paper", "the Paper section and the citation name different papers: neither is "
        "harvested",
    )
    assert value is not None
    assert "'A Pasted Other Paper', arXiv 2401.00009" in value and "roe2099suite" in value


def test_a_bibtex_entry_pybtex_cannot_read_is_one_warning_with_its_reason(
    harvested: Harvest,
) -> None:
    field, reason, value = warnings(harvested)["lm_eval/tasks/toy/README.md#citation"]
    assert field == "citation" and "cannot be read" in reason
    assert value is not None and "@misc{" in value and "entry key expected" in value


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> Harvest:
    """The fixture package with each README form as the README of a folder of its own."""
    extra: dict[str, bytes] = {}
    for form in sorted(FORMS.glob("*.md")):
        extra[f"lm_eval/tasks/{form.stem}/README.md"] = form.read_bytes()
        extra[f"lm_eval/tasks/{form.stem}/task.yaml"] = f"task: {form.stem}_task\n".encode()
    return harvest([build_wheel("lm_eval", tmp_path_factory.mktemp("forms"), extra=extra)])


@pytest.mark.parametrize(("form", "paper", "homepage"), [
    ("doi_link", Paper(doi="10.9999/toy.5", title="A DOI Paper"), None),
    ("openreview", Paper(url="https://openreview.net/forum?id=toy123",
                         title="An OpenReview Paper"), None),
    ("markdown_link", Paper(arxiv="2401.00011", title="A Linked Title"), None),
    ("same_line", Paper(arxiv="2401.00012", title="A Title Then Its Link"), None),
    ("titled_link", Paper(arxiv="2401.00013", title="A Title That Links"),
     "https://example.org/titled"),
    ("abstract_text", Paper(title="Only A Title"), "https://example.org/abstract-text"),
    ("cut_title", Paper(doi="10.9999/toy.cut", title="The Whole Title Cut Short By Its Line",
                        authors=["Ann Author"], year=2099, cite_key="cut2099"), None),
    ("citation_only", Paper(doi="10.9999/toy.first", title="The First Citation",
                            authors=["Zed Zero", "Amy Able"], year=2099, venue="Toy Letters",
                            cite_key="first2099"), "https://example.org/citation-only"),
    ("two_papers", Paper(arxiv="2401.00015", title="The First Paper"), None),
    ("colon_title", Paper(arxiv="2401.00014", title="C-Toy: A Colon In The Title"), None),
])
def test_each_form_of_a_paper_section(forms: Harvest, form: str, paper: Paper,
                                      homepage: str | None) -> None:
    found = entry(forms, form)
    assert found.papers == [paper]
    assert found.homepage == homepage


def test_the_forms_add_no_warning(forms: Harvest, harvested: Harvest) -> None:
    assert len(forms.problems) == len(harvested.problems)


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
    assert len(harvested.problems) == 10  # and the three of the READMEs (tests above)
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


def test_of_two_included_files_the_last_wins_as_lm_eval_merges_them(tmp_path: Path) -> None:
    # lm-eval 0.4.13's load_yaml updates the merged config file by file, in the list's order
    templates = {
        "lm_eval/tasks/two/_first_yaml": b"output_type: loglikelihood\n"
                                         b"dataset_path: toyorg/two\n",
        "lm_eval/tasks/two/_second_yaml": b"output_type: multiple_choice\n"
                                          b"metric_list:\n  - metric: acc\n",
        "lm_eval/tasks/two/two.yaml": b"include: [_first_yaml, _second_yaml]\ntask: two\n",
    }
    two = entry(harvest([build_wheel("lm_eval", tmp_path, extra=templates)]), "two")
    assert two.task_formats == ["multiple_choice"]
    assert ([d.id for d in two.datasets], [m.name for m in two.metrics]) == (
        ["toyorg/two"], ["acc"]  # each given by one file only
    )


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


SUITE_OVERRIDE = """
[[readme]]
harness = "lm_eval"
entry = "suite"
trust = "{trust}"
reason = "The suite's Paper section pastes another paper."
"""


def read_with(overrides: str, tmp_path: Path, extra: dict[str, bytes] | None = None) -> Reading:
    """The fixture package read with the overrides of TOML text ``overrides``."""
    wheel = build_wheel("lm_eval", tmp_path, extra=extra or {})
    with open_archive(wheel) as archive:
        return LmEvalReader(read_overrides(overrides)).read(archive)


def reading_entry(reading: Reading, entry_id: str) -> Entry:
    (found,) = [e for e in reading.entries if e.id == entry_id]
    return found


@pytest.mark.parametrize(("trust", "paper"), [
    ("citation", Paper(title="The Toy Suite Paper", authors=["Richard Roe"], year=2099,
                       venue="Journal of Toy Studies", cite_key="roe2099suite")),
    ("section", Paper(arxiv="2401.00009", title="A Pasted Other Paper")),
    ("both", Paper(arxiv="2401.00009", title="The Toy Suite Paper", authors=["Richard Roe"],
                   year=2099, venue="Journal of Toy Studies", cite_key="roe2099suite")),
])
def test_an_override_says_which_statement_to_trust(tmp_path: Path, trust: str,
                                                   paper: Paper) -> None:
    reading = read_with(SUITE_OVERRIDE.format(trust=trust), tmp_path)
    assert reading_entry(reading, "suite").papers == [paper]
    assert "lm_eval/tasks/suite/README.md#paper" not in warnings(reading)
    assert "lm_eval/tasks/suite/README.md#trust" not in warnings(reading)


@pytest.mark.parametrize("stale", ['trust = "section"',
                                   'trust = "citation"\ncite_key = "doe2099toy"'])
def test_an_override_that_is_not_needed_is_a_warning_and_one_of_no_entry_is_silent(
    tmp_path: Path, stale: str,
) -> None:
    # toy's Paper section and its second citation agree
    overrides = SUITE_OVERRIDE.replace('"suite"', '"toy"').replace('trust = "{trust}"',
                                                                   stale) + """
[[readme]]
harness = "lm_eval"
entry = "gone"
trust = "citation"
reason = "An entry of another version of the package."
"""
    reading = read_with(overrides, tmp_path)
    assert warnings(reading)["lm_eval/tasks/toy/README.md#trust"] == (
        "trust", "an override in paper_overrides.toml that no longer applies: the README "
        "states that paper without it", stale.split('"')[1],
    )
    assert not [p for p in reading.problems if "gone" in str(p.path)]
    assert reading_entry(reading, "toy").papers[0].cite_key == "doe2099toy"  # unchanged


def test_an_override_naming_a_citation_the_readme_lacks_is_a_warning(tmp_path: Path) -> None:
    overrides = SUITE_OVERRIDE.format(trust="citation") + 'cite_key = "nosuchkey"\n'
    reading = read_with(overrides, tmp_path)
    assert reading_entry(reading, "suite").papers == []
    assert warnings(reading)["lm_eval/tasks/suite/README.md#cite_key"][1:] == (
        "paper_overrides.toml names a citation the README does not hold", "nosuchkey"
    )


def test_two_readmes_giving_one_paper_two_titles_is_a_warning_on_the_later(
    tmp_path: Path,
) -> None:
    clash = {"lm_eval/tasks/zz_clash/README.md":
             b"# Clash\n\n### Paper\n\nTitle: Another Title\n"
             b"Abstract: https://arxiv.org/abs/2403.00003\n",
             "lm_eval/tasks/zz_clash/task.yaml": b"task: clash_task\n"}
    reading = read_with("", tmp_path, clash)
    assert warnings(reading)["lm_eval/tasks/zz_clash/README.md#paper"] == (
        "paper", "another README gives this paper another title",
        "arXiv 2403.00003: 'Another Title'; lm_eval/tasks/toy/README.md: "
        "'ToyBench: Measuring Toy Understanding'",
    )
    assert reading_entry(reading, "zz_clash").papers == [
        Paper(arxiv="2403.00003", title="Another Title")
    ]


def test_the_bundled_overrides_are_lm_evals_each_with_its_reason() -> None:
    overrides = bundled_overrides()
    by_entry = overrides.for_harness("lm_eval")
    assert len(by_entry) == len(overrides.readme) >= 10
    assert by_entry["hendrycks_ethics"].trust == "citation"
    assert all(len(o.reason) > 40 for o in overrides.readme)
    assert all(o.cite_key is None or o.trust != "section" for o in overrides.readme)


def test_two_overrides_of_one_entry_are_refused() -> None:
    with pytest.raises(ValueError, match="two overrides name one entry"):
        read_overrides(SUITE_OVERRIDE.format(trust="citation") * 2)
