"""HELM: benchmark-level run groups of the suite schemas, with what their run specs state, the
papers the schemas and the scenarios' BibTeX cite, and the MedHELM access levels of HELM's
repository (``tests/data/harvest/helm_repository``)."""

import shutil
import subprocess
from pathlib import Path

import pytest

from graph.cli import main
from graph.ingest.harvest import Harvest, HarvestError, harvest
from graph.ingest.harvest.helm_repository import HelmRepository, locate
from graph.ingest.importers.base import Problem
from graph.ingest.records.harness_snapshot import Entry, Paper, Repository
from tests.system_tools import Tool, require
from tests.test_harvest_archive import FIXTURES, build_wheel

REPOSITORY = FIXTURES / "helm_repository"
COMMIT = "0123456789abcdef0123456789abcdef01234567"
CONFS = "src/helm/benchmark/presentation"
GIT = Tool("git", "apt-get install git")


@pytest.fixture(scope="module")
def harvested(tmp_path_factory: pytest.TempPathFactory) -> Harvest:
    return harvest([build_wheel("helm", tmp_path_factory.mktemp("wheels"))])


@pytest.fixture(scope="module")
def with_repository(tmp_path_factory: pytest.TempPathFactory) -> Harvest:
    wheel = build_wheel("helm", tmp_path_factory.mktemp("wheels"))
    return harvest([wheel], locate(REPOSITORY, COMMIT))


def entry(harvested: Harvest, entry_id: str) -> Entry:
    (found,) = [e for e in harvested.snapshots[0].entries if e.id == entry_id]
    return found


def warnings(harvested: Harvest, member: str) -> list[Problem]:
    """The warnings about one file (a path in the wheel or in the repository)."""
    return [p for p in harvested.problems if str(p.path).endswith(f"/{member}")]


def test_run_groups_with_subgroups_are_categories_not_entries(harvested: Harvest) -> None:
    ids = [e.id for e in harvested.snapshots[0].entries]
    assert ids == ["toy_cited", "toy_notes", "toy_planned", "toy_qa"]
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
    assert entry(harvested, "toy_notes").access == []  # the wheel states no access level


def test_a_group_named_in_code_is_not_guessed(harvested: Harvest) -> None:
    tasks = {t for e in harvested.snapshots[0].entries for t in e.tasks}
    assert "toy_unlinked" not in tasks  # its only group is an f-string


def test_todo_is_kept(harvested: Harvest) -> None:
    assert entry(harvested, "toy_planned").todo is True
    assert entry(harvested, "toy_qa").todo is False


def test_a_malformed_schema_is_named_and_the_others_load(harvested: Harvest) -> None:
    (problem,) = warnings(harvested, "helm/benchmark/static/schema_broken.yaml")
    assert problem.reason == "not valid YAML"
    assert problem.value is not None and problem.value.startswith("line 5")
    assert str(problem.path).endswith(".whl/helm/benchmark/static/schema_broken.yaml")


def test_a_scenario_that_is_not_python_is_named(tmp_path_factory: pytest.TempPathFactory) -> None:
    broken = {"helm/benchmark/scenarios/toy_scenario.py": b"class ToyQAScenario(:\n"}
    result = harvest([build_wheel("helm", tmp_path_factory.mktemp("w"), extra=broken)])
    reasons = {(str(p.path).rsplit(".whl/", 1)[1], p.reason) for p in result.problems}
    assert ("helm/benchmark/scenarios/toy_scenario.py", "not valid Python") in reasons
    assert entry(result, "toy_qa").tasks == ["toy_qa"]  # the run spec still links
    assert entry(result, "toy_qa").tags == []
    assert [p.authors for p in entry(result, "toy_qa").papers] == [[], []]


# Papers: the schemas' links and short citations, and the scenarios' BibTeX


def test_a_short_citation_gives_the_linked_paper_its_citation_and_year(
    harvested: Harvest,
) -> None:
    first, second = entry(harvested, "toy_qa").papers
    # the lite schema's "[(Doe, 2024)](…2401.00001.pdf)" is read first; the toy schema's
    # "[(Doe et al., 2024)](…2401.00001v2)" is the same paper, and the first statement stands
    assert (first.arxiv, first.citation, first.year) == ("2401.00001", "Doe, 2024", 2024)
    assert (second.arxiv, second.citation, second.year) == ("2402.00002", None, None)


def test_links_that_cite_a_paper_are_papers_and_other_links_are_not(harvested: Harvest) -> None:
    linked = [(p.arxiv, p.doi, p.url, p.citation) for p in entry(harvested, "toy_notes").papers]
    assert linked == [
        (None, None, "https://aclanthology.org/2023.toy-1.1/", "Roe & Poe (2023)"),
        (None, "10.9999/toy.notes", None, None),  # "[paper](https://doi.org/…)"
        ("2403.00003", None, None, None),  # "[PDF](arXiv:2403.00003v1)"
    ]
    # "[dataset](…)", "[(Toy Notes website)](…)" and "[(website, 2025)](ftp://…)" cite none
    every = [p for e in harvested.snapshots[0].entries for p in e.papers]
    assert "toy.example" not in str(every) and "huggingface" not in str(every)


def test_a_bibtex_citation_of_the_stated_paper_adds_what_it_states(harvested: Harvest) -> None:
    paper = entry(harvested, "toy_qa").papers[0]
    assert paper == Paper(
        arxiv="2401.00001", title="ToyQA: A Benchmark of Toy Questions",
        authors=["Jane Doe", "Jörg Müller"],  # LaTeX decoded, "others" left out
        year=2024, cite_key="doe2024toyqa", citation="Doe, 2024",
    )


def test_a_citation_of_a_paper_stated_by_its_link_needs_that_link(harvested: Harvest) -> None:
    linked = entry(harvested, "toy_notes").papers[0]
    assert (linked.title, linked.authors, linked.venue, linked.cite_key) == (
        "Toy Notes: Clinical Notes for Toys", ["Richard Roe", "Paula Poe"],
        "Proceedings of the Toy Workshop", "roe2023notes",
    )
    assert linked.url == "https://aclanthology.org/2023.toy-1.1/"  # as the schema links it
    assert "Toy Notes Without a Link" not in str(entry(harvested, "toy_notes").papers)


def test_a_citation_of_another_paper_is_a_warning_naming_both(harvested: Harvest) -> None:
    found = sorted((p.field or "", p.reason, p.value or "")
                   for p in warnings(harvested, "helm/benchmark/scenarios/toy_scenario.py")
                   if p.reason.startswith("a BibTeX citation"))
    assert [(field, reason) for field, reason, _ in found] == [
        ("ToyNotesScenario docstring", "a BibTeX citation that shares no arXiv id, DOI or link "
         "with the paper the schema states for the run group: left out"),
        ("ToyQAScenario docstring", "a BibTeX citation that names another paper than the "
         "schema states for the run group: left out"),
    ]
    assert "notes2023unlinked" in found[0][2]
    assert "run group toy_notes (https://aclanthology.org/2023.toy-1.1/)" in found[0][2]
    value = found[1][2]
    assert "roe2024other" in value and "arXiv 2409.99999" in value
    assert "run group toy_qa: arXiv 2401.00001" in value and "arXiv 2402.00002" in value
    assert "2409.99999" not in str(entry(harvested, "toy_qa").papers)


def test_where_the_schema_states_no_paper_the_citations_stand(harvested: Harvest) -> None:
    cited, module = entry(harvested, "toy_cited").papers  # the class's, then its module's
    assert (cited.title, cited.authors, cited.year, cited.url, cited.venue) == (
        "Cited Toys", ["Paula Poe", "Richard Roe"], 2025,
        "https://openreview.net/forum?id=toy", "Findings of the Toy Conference",
    )
    assert (module.doi, module.cite_key, module.year) == ("10.9999/toy.module", "quay2022module",
                                                          2022)


def test_a_bibtex_entry_that_cannot_be_read_is_one_warning(harvested: Harvest) -> None:
    (unread,) = [p for p in harvested.problems if "cannot be read" in p.reason]
    assert (unread.field, unread.reason) == ("ToyNotesScenario docstring",
                                             "a BibTeX entry that cannot be read: left out")
    assert unread.value is not None and unread.value.startswith("@article{broken2023,")
    assert "Malformed" not in str(entry(harvested, "toy_notes").papers)


# MedHELM access levels, from HELM's repository


def test_access_levels_come_from_the_file_a_run_entry_is_listed_in(
    with_repository: Harvest,
) -> None:
    (qa,) = entry(with_repository, "toy_qa").access
    assert (qa.level, qa.run_entry, qa.holder, qa.source) == (
        "public", "toy_qa", None, f"{CONFS}/run_entries_medhelm_public.conf")
    (notes,) = entry(with_repository, "toy_notes").access
    assert (notes.level, notes.source) == ("gated", f"{CONFS}/run_entries_medhelm_gated.conf")
    (cited,) = entry(with_repository, "toy_cited").access
    assert (cited.level, cited.holder, cited.run_entry) == (
        "private", "fixtureorg", "medhelm_toy_cited")
    assert entry(with_repository, "toy_planned").access == []


def test_a_run_entry_name_that_differs_from_the_id_is_an_alias(with_repository: Harvest) -> None:
    assert entry(with_repository, "toy_cited").aliases == ["medhelm_toy_cited"]
    assert entry(with_repository, "toy_qa").aliases == ["ToyQA", "ToyQA (Toy Question Answering)"]


def test_the_snapshot_names_the_repository_its_commit_and_licence(
    with_repository: Harvest, harvested: Harvest,
) -> None:
    assert with_repository.snapshots[0].repository == Repository(
        url="https://github.com/stanford-crfm/helm", commit=COMMIT, licence="Apache-2.0",
        copyright="Copyright 2099 Fixture University")
    assert harvested.snapshots[0].repository is None
    # everything else is what the wheel alone gives
    alone = {e.id: e.model_dump(exclude={"access", "aliases"})
             for e in harvested.snapshots[0].entries}
    assert alone == {e.id: e.model_dump(exclude={"access", "aliases"})
                     for e in with_repository.snapshots[0].entries}


def test_files_that_state_no_access_level_are_not_read(with_repository: Harvest) -> None:
    for name in ("run_entries_medhelm_dspy.conf", "run_entries_lite.conf"):
        assert warnings(with_repository, f"{CONFS}/{name}") == []
    assert all("dspy" not in a.source for e in with_repository.snapshots[0].entries
               for a in e.access)


def test_each_unusable_run_entry_or_file_is_one_warning(with_repository: Harvest) -> None:
    assert warnings(with_repository, "pyproject.toml") == []  # the package's version
    found = sorted((str(p.path).rsplit(f"{CONFS}/", 1)[1], p.field or "", p.reason, p.value)
                   for p in with_repository.problems if CONFS in str(p.path))
    assert found == [
        ("run_entries_medhelm_private_broken.conf", "", "not valid HOCON", found[0][3]),
        ("run_entries_medhelm_private_fixtureorg.conf", "entries[1]",
         "a run entry with no description naming it", None),  # ${HOME}: not resolved
        ("run_entries_medhelm_private_included.conf", "",
         "a HOCON include: not followed, and the file not read", None),
        ("run_entries_medhelm_public.conf", "entries", "a run entry that no HELM entry runs",
         "toy_retired"),
        ("run_entries_medhelm_public.conf", "entries[3]",
         "a run entry with no description naming it", None),
        ("run_entries_medhelm_public.conf", "entries[4]",
         "a run entry with no description naming it", None),
        ("run_entries_medhelm_public_extra.conf", "", "an access file not named "
         "run_entries_medhelm_{public,gated,private_ORG}.conf", None),
    ]
    assert str(found[0][3]).startswith("Expected '}'")


def test_a_folder_that_is_no_work_tree_needs_its_commit(tmp_path: Path) -> None:
    with pytest.raises(HarvestError, match="--helm-commit SHA"):
        locate(REPOSITORY)
    with pytest.raises(HarvestError, match="40 hex digits"):
        locate(REPOSITORY, "ef439fc")
    with pytest.raises(HarvestError, match="not HELM's repository"):
        locate(tmp_path, COMMIT)
    assert locate(REPOSITORY, COMMIT.upper()) == HelmRepository(REPOSITORY, COMMIT, False)


def test_a_repository_of_another_version_is_a_warning(tmp_path: Path) -> None:
    shutil.copytree(REPOSITORY, tmp_path / "helm")
    project = tmp_path / "helm" / "pyproject.toml"
    project.write_text(project.read_text().replace('"9.9.1"', '"9.9.0"'))
    result = harvest([build_wheel("helm", tmp_path / "w")], locate(tmp_path / "helm", COMMIT))
    (older,) = warnings(result, "pyproject.toml")
    assert (older.field, older.value) == ("project.version", "9.9.0, the package 9.9.1")
    assert [a.level for a in entry(result, "toy_qa").access] == ["public"]  # still read
    project.write_text("[project\n")
    (broken,) = warnings(harvest([build_wheel("helm", tmp_path / "w")],
                                 locate(tmp_path / "helm", COMMIT)), "pyproject.toml")
    assert broken.reason == "not valid TOML"


def test_a_repository_without_a_helm_package_is_refused(tmp_path: Path) -> None:
    with pytest.raises(HarvestError, match="without a HELM package"):
        harvest([build_wheel("lm_eval", tmp_path)], locate(REPOSITORY, COMMIT))


def committed_copy(folder: Path) -> str:
    """The fixture repository copied to ``folder`` and committed there; its commit."""
    (git,) = require(GIT)
    shutil.copytree(REPOSITORY, folder)
    identity = ["-c", "user.name=Fixture", "-c", "user.email=fixture@example.org",
                "-c", "commit.gpgsign=false"]
    for command in (["init", "-q"], ["add", "-A"], [*identity, "commit", "-q", "-m", "fixture"]):
        subprocess.run([git, "-C", str(folder), *command], check=True, capture_output=True)
    return subprocess.run([git, "-C", str(folder), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()


def test_a_work_tree_is_named_by_its_head(tmp_path: Path) -> None:
    head = committed_copy(tmp_path / "helm")
    located = locate(tmp_path / "helm")
    assert located == HelmRepository(tmp_path / "helm", head, True)
    assert locate(tmp_path / "helm", head) == located
    with pytest.raises(HarvestError, match=f"its HEAD is commit {head}, not {COMMIT}"):
        locate(tmp_path / "helm", COMMIT)
    # a folder inside a work tree is not its top: git's HEAD is another folder's
    with pytest.raises(HarvestError, match="not the top of a git work tree"):
        locate(_nested(tmp_path / "helm"))


def _nested(work_tree: Path) -> Path:
    """A copy of the fixture repository inside ``work_tree``, uncommitted."""
    inner = work_tree / "vendored"
    shutil.copytree(REPOSITORY, inner)
    return inner


def test_a_file_changed_since_the_commit_is_a_warning_and_not_read(tmp_path: Path) -> None:
    committed_copy(tmp_path / "helm")
    gated = tmp_path / "helm" / CONFS / "run_entries_medhelm_gated.conf"
    gated.write_text(gated.read_text().replace("toy_notes:", "toy_qa:"))
    result = harvest([build_wheel("helm", tmp_path / "w")], locate(tmp_path / "helm"))
    (changed,) = warnings(result, f"{CONFS}/run_entries_medhelm_gated.conf")
    assert changed.reason == "differs from the commit read (a local change): not read"
    assert entry(result, "toy_notes").access == []
    assert [a.level for a in entry(result, "toy_qa").access] == ["public"]


def test_the_command_takes_the_repository_and_its_commit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wheel = build_wheel("helm", tmp_path / "w")
    out = tmp_path / "out"
    assert main(["harvest", str(wheel), "--helm-repository", str(REPOSITORY),
                 "--helm-commit", COMMIT, "-o", str(out)]) == 0
    assert "helm.json: crfm-helm 9.9.1, 4 entries, 3 tasks, 3 with access levels" in \
        capsys.readouterr().err
    assert f'"commit": "{COMMIT}"' in (out / "helm.json").read_text()
    assert f"https://github.com/stanford-crfm/helm at commit {COMMIT}" in \
        (out / "NOTICE").read_text()


@pytest.mark.parametrize("arguments", [
    ["--helm-repository", str(REPOSITORY)],
    ["--helm-commit", COMMIT],
])
def test_the_command_says_in_one_line_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str]
) -> None:
    wheel = build_wheel("helm", tmp_path / "w")
    assert main(["harvest", str(wheel), *arguments, "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("benchgraph harvest: ")
    assert "--helm-commit" in err
    assert not (tmp_path / "out").exists()
