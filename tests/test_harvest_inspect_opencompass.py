"""inspect_evals eval listings and OpenCompass dataset folders."""

from pathlib import Path

import pytest

from graph.ingest.harvest import Harvest, harvest
from graph.ingest.harvest.opencompass_readme import lead_paragraph
from graph.ingest.harvest.snapshot import snapshot_bytes
from graph.ingest.records.harness_snapshot import Entry
from tests.test_harvest_archive import FIXTURES, build_wheel

DATASETS = "opencompass/configs/datasets/"


@pytest.fixture(scope="module")
def harvested(tmp_path_factory: pytest.TempPathFactory) -> Harvest:
    out = tmp_path_factory.mktemp("wheels")
    broken = {f"{DATASETS}toy_plain/broken_gen.py": b"dict(abbr='x'\n"}
    return harvest([build_wheel("inspect_evals", out),
                    build_wheel("opencompass", out, extra=broken)])


def entry(harvested: Harvest, harness: str, entry_id: str) -> Entry:
    (snapshot,) = [s for s in harvested.snapshots if s.harness == harness]
    (found,) = [e for e in snapshot.entries if e.id == entry_id]
    return found


def problems(harvested: Harvest) -> set[tuple[str, str | None, str]]:
    return {(str(p.path).split(".whl/", 1)[1], p.field, p.reason) for p in harvested.problems}


def values(harvested: Harvest, member: str) -> list[str]:
    return [p.value or "" for p in harvested.problems if str(p.path).endswith(member)]


# -- inspect_evals ------------------------------------------------------------------------


def test_an_eval_listing_gives_every_field(harvested: Harvest) -> None:
    toy = entry(harvested, "inspect_evals", "toy_eval")
    assert toy.name == "ToyEval: Toy Questions for Agents"
    assert toy.description == "Toy questions that test an agent's patience."
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
    assert toy.version == "2-A"
    assert toy.requirements is not None
    assert (toy.requirements.sandbox, toy.requirements.internet) == (["scorer", "solver"], True)
    assert toy.source == ["inspect_evals/toy_eval/README.md", "inspect_evals/toy_eval/eval.yaml"]


def test_the_readme_citation_completes_the_listed_paper(harvested: Harvest) -> None:
    (paper,) = entry(harvested, "inspect_evals", "toy_eval").papers
    assert paper.arxiv == "2405.00005"
    assert paper.title == "ToyEval: Toy Questions for Agents"  # braces dropped
    assert paper.authors == ["Ana Müller", "Octo Cat"]  # LaTeX decoded, "others" left out
    assert (paper.year, paper.venue, paper.cite_key) == (
        2024, "Proceedings of the Toy Conference", "toy2024eval")


def test_a_citation_of_another_paper_or_unread_is_a_warning_naming_both(
    harvested: Harvest,
) -> None:
    readme = "inspect_evals/toy_eval/README.md"
    assert {
        (readme, "citation", "a BibTeX citation of another paper than the listing links: "
                             "left out"),
        (readme, "citation", "a BibTeX entry that cannot be read: left out"),
    } <= problems(harvested)
    (other,) = [v for v in values(harvested, readme) if "other2023" in v]
    assert "arXiv 2301.00009" in other and "eval.yaml: arXiv 2405.00005" in other
    assert any(v.startswith("@misc{broken2024") for v in values(harvested, readme))


def test_paper_links_are_kept_as_the_kind_of_link_they_are(harvested: Harvest) -> None:
    assert [p.url for p in entry(harvested, "inspect_evals", "plain").papers] == [
        "https://example.org/toy-report"]
    (by_doi,) = entry(harvested, "inspect_evals", "doi_eval").papers
    # the listing's DOI, completed by a citation that writes it in capitals
    assert (by_doi.doi, by_doi.title, by_doi.authors, by_doi.venue) == (
        "10.1234/toy.5678", "A Journal's Toy Benchmark", ["Octo Cat", "Hu Bot"],
        "Journal of Toys")


def test_where_the_listing_links_no_paper_the_readme_citation_is_its_paper(
    harvested: Harvest,
) -> None:
    cited = entry(harvested, "inspect_evals", "cited_eval")
    (paper,) = cited.papers
    assert (paper.title, paper.url, paper.year, paper.authors) == (
        "Cited Eval: A Toy Benchmark Cited Only Here", "https://example.org/cited-eval",
        2025, ["Hu Bot"])
    assert cited.source == ["inspect_evals/cited_eval/README.md",
                            "inspect_evals/cited_eval/eval.yaml"]
    assert ("inspect_evals/cited_eval/eval.yaml", "arxiv",
            "not a link to a paper") in problems(harvested)


def test_hub_assets_and_data_urls_are_datasets_and_tools_are_not(harvested: Harvest) -> None:
    datasets = entry(harvested, "inspect_evals", "toy_eval").datasets
    assert [(d.id, d.hub, d.gated) for d in datasets] == [
        ("https://example.org/toy.csv", None, None),
        ("https://example.org/toy/{SHA}/questions/", None, None),  # as written
        ("toyorg/toy_eval", "huggingface", "auto"),
        ("toyorg/toy_eval_extra", "huggingface", None),
    ]  # not: a git clone, a git dependency, a curl download, a registry, an image
    assert [d.id for d in entry(harvested, "inspect_evals", "doi_eval").datasets] == [
        "https://example.org/doi_eval.jsonl"]


def test_malformed_run_facts_are_warnings_and_left_out(harvested: Harvest) -> None:
    doi_eval = entry(harvested, "inspect_evals", "doi_eval")
    assert doi_eval.version is None
    assert doi_eval.requirements is not None
    assert (doi_eval.requirements.sandbox, doi_eval.requirements.internet) == (["docker"], None)
    assert entry(harvested, "inspect_evals", "cited_eval").requirements is None
    assert entry(harvested, "inspect_evals", "plain").requirements is None  # only `fast`
    assert {
        ("inspect_evals/doi_eval/eval.yaml", "version", "version is not a string"),
        ("inspect_evals/doi_eval/eval.yaml", "metadata.requires.internet",
         "internet is not true or false"),
        ("inspect_evals/cited_eval/eval.yaml", "metadata", "metadata is not a mapping"),
    } <= problems(harvested)


def test_challenge_settings_are_no_listing_and_bad_listings_are_named(
    harvested: Harvest,
) -> None:
    (snapshot,) = [s for s in harvested.snapshots if s.harness == "inspect_evals"]
    assert [e.id for e in snapshot.entries] == ["cited_eval", "doi_eval", "plain", "toy_eval"]
    assert {
        ("inspect_evals/bad_eval/eval.yaml", None, "not valid YAML"),
        ("inspect_evals/toy_eval/eval.yaml", "tasks[2]", "a task with no name"),
    } <= problems(harvested)


# -- OpenCompass --------------------------------------------------------------------------


def test_opencompass_gives_names_and_literal_abbreviations(harvested: Harvest) -> None:
    toy = entry(harvested, "opencompass", "ToyBench")
    assert toy.name == "Toy Bench"  # the README's heading; its results table is not read
    assert toy.tasks == ["toybench", "toybench-extra", "toybench-hard"]  # no f-string abbr
    assert toy.source == [f"{DATASETS}ToyBench/", f"{DATASETS}ToyBench/README.md",
                          f"{DATASETS}ToyBench/README_ZH.md",
                          "opencompass/utils/datasets_info.py"]
    assert entry(harvested, "opencompass", "toy_plain").name == "toy_plain"
    # a folder's only Markdown file stands for its README
    assert entry(harvested, "opencompass", "QuotedBench").name == "Quoted Bench"
    (snapshot,) = [s for s in harvested.snapshots if s.harness == "opencompass"]
    assert [e.id for e in snapshot.entries] == ["QuotedBench", "ToyBench", "toy_plain"]


def test_dataset_paths_resolve_through_the_mapping_to_the_ids_stated(
    harvested: Harvest,
) -> None:
    toy = entry(harvested, "opencompass", "ToyBench")
    assert [(d.id, d.hub) for d in toy.datasets] == [
        ("toyms/ToyMS", None),                # ModelScope only: no hub in the snapshot
        ("toyorg/toybench", "huggingface"),   # opencompass/toybench's hf_id
    ]  # not the judge model's path, nor the judge's copy, nor an f-string
    # a module constant assigned once, an older short name; not local files, not a file
    # reader, not keys mapped to no id, not a name assigned twice, not a non-ASCII path
    assert [(d.id, d.hub) for d in entry(harvested, "opencompass", "toy_plain").datasets] == [
        ("glue", None), ("toyorg/toy-plain", None)]
    assert f"{DATASETS}toy_plain/" in entry(harvested, "opencompass", "toy_plain").source


def test_a_config_that_reads_the_users_disk_says_where_and_what_downloads_it(
    harvested: Harvest,
) -> None:
    config = f"{DATASETS}toy_plain/toy_plain_gen.py"
    assert [(d.run_spec, d.argument, d.path, d.download, d.source)
            for d in entry(harvested, "opencompass", "toy_plain").needs_local_data] == [
        # a reader of local files: its data_files; DATASETS_URL's last part the path holds
        ("toy_plain_gen", "data_files", "./data/toy_plain/x.json",
         "https://example.org/toy_plain_old.zip", config),
        ("toy_plain_gen", "path", "./data/toy_plain/test.jsonl",
         "https://example.org/toy_plain_old.zip", config),
        ("toy_plain_gen", "path", "/abs/toy_plain", None, config),  # absolute: never fetched
        ("toy_plain_gen", "path", "data/toy_plain/dev", "https://example.org/toy_plain_dev.zip",
         config),
        ("toy_plain_gen", "path", "toyorg/table.csv", None, config),
    ]  # not toy_plain_kinds_gen's computed paths; not the mapping's local copy named by a
    # constant (opencompass/toy_local), which is no literal
    assert "opencompass/utils/datasets_info.py" in \
        entry(harvested, "opencompass", "toy_plain").source  # it names the downloads
    toy = entry(harvested, "opencompass", "ToyBench")
    assert toy.needs_local_data == []  # its mapped key names a hub's id: that is its data


def test_a_malformed_mapping_entry_is_one_warning_and_names_no_dataset(
    harvested: Harvest,
) -> None:
    info = "opencompass/utils/datasets_info.py"
    warned = {field for path, field, reason in problems(harvested) if path == info}
    assert warned == {"DATASETS_MAPPING[opencompass/toy_bad_ids]",
                      "DATASETS_MAPPING[opencompass/toy_computed]",
                      "DATASETS_URL[/toy_computed/]"}  # toy_local: its ids read


def test_evaluator_classes_are_the_metrics(harvested: Harvest) -> None:
    assert [m.name for m in entry(harvested, "opencompass", "ToyBench").metrics] == [
        "AccEvaluator", "CascadeEvaluator", "CircularEvaluator", "GenericLLMEvaluator",
        "ToyRuleEvaluator",
    ]  # both sides of a conditional; a cascade by its name; never a loop variable
    assert [m.name for m in entry(harvested, "opencompass", "toy_plain").metrics] == [
        "ToyCountEvaluator", "ToyIndexEvaluator", "ToyStringEvaluator"]  # each of a dict looked up
    assert entry(harvested, "opencompass", "QuotedBench").metrics == []  # a call: not stated


def test_the_readme_lead_paragraph_is_the_description(harvested: Harvest) -> None:
    toy = entry(harvested, "opencompass", "ToyBench")
    assert toy.description == ("Toy Bench asks toy questions in two languages, as its site "
                               "says. It has three splits.")  # after the badges
    assert entry(harvested, "opencompass", "QuotedBench").description is None
    text = snapshot_bytes(next(s for s in harvested.snapshots
                               if s.harness == "opencompass")).decode()
    assert "ABSTRACT-SENTINEL" not in text


@pytest.mark.parametrize(("markdown", "lead"), [
    ("# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nThe benchmark, in words.\n",
     "The benchmark, in words."),
    ("# T\n\n```bash\nrun.py\n```\n\nIt runs.\n", "It runs."),
    ("# T\n\nEnglish | [简体中文](readme_zh.md)\n\nA switcher first.\n", None),
    ("# T\n\nThe following introduction comes from the abstract:\n\n> quoted\n", None),
    ("# T\n\nIntroduced by this line.\n```\nquoted\n```\n", None),
    ("# T\n\n[GitHub](https://example.org)\n\n测试基准。\n", "测试基准。"),
    ("<div align='center'>logo</div>\n\nAfter the HTML.\n", "After the HTML."),
    ("# Only a heading\n", None),
])
def test_which_paragraph_leads(markdown: str, lead: str | None) -> None:
    assert lead_paragraph(markdown) == lead


def test_readme_citations_are_checked_against_its_arxiv_links(harvested: Harvest) -> None:
    (paper,) = entry(harvested, "opencompass", "ToyBench").papers  # once: README_ZH repeats
    assert (paper.arxiv, paper.title, paper.authors, paper.year, paper.venue) == (
        "2401.00001", "Toy Bench: Toy Questions in Two Languages", ["Octo Cat", "Hu Bot"],
        2024, None)  # an arXiv journal is no venue
    readme = f"{DATASETS}ToyBench/README.md"
    assert {
        (readme, "citation", "a BibTeX citation of an arXiv paper the README does not link: "
                             "left out"),
        (readme, "citation", "a BibTeX entry that cannot be read: left out"),
    } <= problems(harvested)
    assert not [v for v in values(harvested, readme) if "2099toycompass" in v]


def test_a_citation_without_an_arxiv_id_stands_as_written(harvested: Harvest) -> None:
    (paper,) = entry(harvested, "opencompass", "QuotedBench").papers
    assert (paper.arxiv, paper.title, paper.venue, paper.year) == (
        None, "Quoted Bench: A Toy Benchmark at a Toy Venue", "Proceedings of the Toy Workshop",
        2024)


def test_the_harness_own_citation_is_no_benchmark_paper(harvested: Harvest) -> None:
    (snapshot,) = [s for s in harvested.snapshots if s.harness == "opencompass"]
    assert not [p for e in snapshot.entries for p in e.papers if p.cite_key == "2099toycompass"]


def test_a_config_that_is_not_python_is_named_and_the_rest_load(harvested: Harvest) -> None:
    assert (f"{DATASETS}toy_plain/broken_gen.py", None,
            "not valid Python") in problems(harvested)
    assert entry(harvested, "opencompass", "toy_plain").tasks == ["toy_plain"]


def test_without_the_mapping_paths_are_kept_as_stated(tmp_path: Path) -> None:
    gone = {"opencompass/utils/datasets_info.py": b"DATASETS_MAPPING = build()\n"}
    result = harvest([build_wheel("opencompass", tmp_path, extra=gone)])
    (snapshot,) = result.snapshots
    (toy,) = [e for e in snapshot.entries if e.id == "ToyBench"]
    assert [(d.id, d.hub) for d in toy.datasets] == [
        ("opencompass/toy_ms", None), ("opencompass/toybench", None)]
    assert [(p.field, p.reason) for p in result.problems
            if str(p.path).endswith("datasets_info.py")] == [
        ("DATASETS_MAPPING", "no literal DATASETS_MAPPING: dataset keys are not resolved")]


def test_snapshots_come_in_harness_order(tmp_path: Path, harvested: Harvest) -> None:
    assert [s.harness for s in harvested.snapshots] == ["inspect_evals", "opencompass"]
    both = harvest([build_wheel("opencompass", tmp_path), build_wheel("helm", tmp_path)])
    assert [s.harness for s in both.snapshots] == ["helm", "opencompass"]


def test_a_wheel_and_its_folder_give_the_same_snapshots(harvested: Harvest) -> None:
    """The wheel's one extra member is invalid Python: a warning, and no fact."""
    folders = harvest([FIXTURES / "opencompass", FIXTURES / "inspect_evals"])
    assert folders.snapshots == harvested.snapshots
