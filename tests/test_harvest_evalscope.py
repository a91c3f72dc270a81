"""evalscope's benchmark meta files, and the adapters' Hugging Face ids beside them."""

import shutil
from pathlib import Path

import pytest

from graph.ingest.harvest.archive import open_archive
from graph.ingest.harvest.evalscope import EvalScopeReader
from graph.ingest.harvest.reader import Reading
from graph.ingest.harvest.snapshot import snapshot_bytes
from graph.ingest.records.harness_snapshot import SNAPSHOT_FORMAT, Paper, Snapshot
from tests.test_harvest_archive import FIXTURES, build_wheel, entry_of, read_package

META = "evalscope/benchmarks/_meta/"
INDEX = "evalscope/benchmarks/_index.json"
QA_ADAPTER = "evalscope/benchmarks/toy_qa/toy_qa_adapter.py"
VISION_ADAPTER = "evalscope/benchmarks/toy_vision/toy_vision_adapter.py"


def read(path: Path) -> Reading:
    return read_package(EvalScopeReader(), path)


@pytest.fixture(scope="module")
def reading(tmp_path_factory: pytest.TempPathFactory) -> Reading:
    return read(build_wheel("evalscope", tmp_path_factory.mktemp("wheels")))


entry = entry_of


def problems(reading: Reading) -> set[tuple[str, str | None, str]]:
    return {(str(p.path).split(".whl/", 1)[-1], p.field, p.reason) for p in reading.problems}


def test_one_entry_per_meta_file_that_reads(reading: Reading) -> None:
    assert sorted(e.id for e in reading.entries) == [
        "toy_cited", "toy_custom", "toy_qa", "toy_vision"
    ]
    assert {(f"{META}broken.json", None, "not valid JSON"),
            (f"{META}no_meta.json", "meta", "no meta object")} <= problems(reading)


def test_a_meta_file_gives_every_field(reading: Reading) -> None:
    toy = entry(reading, "toy_qa")
    assert toy.name == "ToyQA"
    assert toy.description == (
        "ToyQA asks toy questions about [toys](https://toyorg.example/toys) and checks the "
        "**answers** the model gives. It has an easy and a hard subset."
    )
    assert (toy.tags, toy.categories, toy.tasks) == (["QA", "Reasoning"], ["llm"],
                                                     ["easy", "hard", "toy_qa"])
    assert [(s.task, s.samples) for s in toy.sample_counts] == [("easy", 100), ("hard", 50)]
    assert [(m.name, m.main) for m in toy.metrics] == [("accuracy", False), ("f1", True)]
    assert toy.homepage == "https://toyqa.example/"
    assert (toy.modalities, toy.aliases, toy.languages) == ([], [], [])
    assert toy.source == [f"{META}toy_qa.json", QA_ADAPTER]


def test_the_harness_text_only_never_the_abstract_or_the_readme(reading: Reading) -> None:
    for found in reading.entries:
        assert "ABSTRACT-SENTINEL" not in found.model_dump_json()


def test_papers_come_in_citing_order_and_bibtex_completes_the_one_it_names(
    reading: Reading,
) -> None:
    papers = entry(reading, "toy_qa").papers
    assert papers == [
        Paper(arxiv="2401.00001", title="ToyQA: Toy Questions for Toy Models",
              authors=["Anna Müller", "Bo Lee"], year=2099, venue="Proceedings of Toys",
              cite_key="toy2099"),
        Paper(url="https://aclanthology.org/2099.toy-long.1/"),
        Paper(arxiv="2402.00002"),
    ]  # not arXiv:2403.00003, which only a code block in the notes names


def test_a_doi_paper_is_stated_once_and_a_stray_citation_is_named(reading: Reading) -> None:
    vision = entry(reading, "toy_vision")
    assert vision.papers == [Paper(doi="10.1234/toy.5678")]
    assert {
        (f"{META}toy_vision.json", "meta.description",
         "a BibTeX entry that names none of the papers stated"),
        (f"{META}toy_vision.json", "meta.description", "a BibTeX entry that cannot be read"),
    } <= problems(reading)


def test_a_citation_alone_is_the_paper(reading: Reading) -> None:
    (paper,) = entry(reading, "toy_cited").papers
    assert (paper.doi, paper.title, paper.authors, paper.year, paper.venue, paper.cite_key) == (
        "10.5555/cited.1", "Cited Bench", ["Jane Doe"], 2099, "Journal of Toys", "cited2099"
    )


def test_datasets_by_hub_as_the_package_says(reading: Reading) -> None:
    qa = entry(reading, "toy_qa").datasets
    assert [(d.id, d.hub) for d in qa] == [("toyorg/toy_qa", "modelscope"),
                                           ("toyorg/toy_qa_hf", "huggingface")]
    # a module constant is read; a URL as dataset_id names no hub dataset
    vision = entry(reading, "toy_vision")
    assert [(d.id, d.hub) for d in vision.datasets] == [("toyorg/ToyVision", "huggingface")]
    assert vision.source == [f"{META}toy_vision.json", VISION_ADAPTER]
    # the shared module states no Hugging Face id for this one: the adapter is no source
    cited = entry(reading, "toy_cited")
    assert [(d.id, d.hub) for d in cited.datasets] == [("toyorg/toy_cited", "modelscope")]
    assert cited.source == [f"{META}toy_cited.json"]
    assert entry(reading, "toy_custom").datasets == []  # a placeholder, not a dataset id


def test_statistics_give_modalities_and_a_primary_metric_not_listed_is_added(
    reading: Reading,
) -> None:
    vision = entry(reading, "toy_vision")
    assert vision.modalities == ["image", "video"]
    assert vision.homepage == "http://toyvision.example/"  # the first one labelled so
    assert [(m.name, m.main) for m in vision.metrics] == [
        ("ACC@0.5", False), ("IoU", False), ("toy_vision_score", True)
    ]
    assert (vision.categories, vision.tasks, vision.sample_counts[0].task) == (
        ["vlm"], ["toy_vision"], "test"  # "default" names no subset to choose
    )
    cited = entry(reading, "toy_cited")
    assert [(m.name, m.main) for m in cited.metrics] == [("accuracy", True)]
    assert (cited.tags, cited.sample_counts, cited.modalities) == (["Solo"], [], [])


def test_odd_values_are_one_warning_each_and_the_rest_loads(reading: Reading) -> None:
    custom = entry(reading, "toy_custom")
    assert custom.name == "toy_custom"
    assert custom.description == "Bring your own toy questions: this benchmark reads a local file."
    assert (custom.papers, custom.homepage, custom.tags) == ([], None, ["Custom"])
    assert [m.name for m in custom.metrics] == ["accuracy"]
    assert [(s.task, s.samples) for s in custom.sample_counts] == [("kept", 5)]
    assert custom.source == [f"{META}toy_custom.json"]
    meta = f"{META}toy_custom.json"
    assert {
        (meta, "meta.pretty_name", "no pretty_name: the benchmark's name stands for it"),
        (meta, "meta.paper_url", "not a link to a paper"),
        (meta, "meta.metrics[1]",
         "a metric that is neither a name nor a {name: settings} object"),
        (meta, "meta.metrics[2]",
         "a metric that is neither a name nor a {name: settings} object"),
        (meta, "meta.primary_metric", "a primary metric with no name"),
        (meta, "statistics.subset_stats[0]",
         "a subset's statistics without a name and a sample count"),
        (meta, "statistics.subset_stats[1]",
         "a subset's statistics without a name and a sample count"),
        (INDEX, "broken", "not a module name"),
        (INDEX, "toy_custom", "names a module that is not in the package"),
    } <= problems(reading)


def test_every_warning_is_expected(reading: Reading) -> None:
    assert len(reading.problems) == 13
    assert len(problems(reading)) == 13  # each a different one


def test_an_adapter_that_is_not_python_is_named_and_the_entry_still_loads(
    tmp_path: Path,
) -> None:
    broken = read(build_wheel("evalscope", tmp_path, extra={VISION_ADAPTER: b"BenchmarkMeta(\n"}))
    assert (VISION_ADAPTER, None, "not valid Python") in problems(broken)
    vision = entry(broken, "toy_vision")
    assert (vision.datasets, vision.source) == ([], [f"{META}toy_vision.json"])
    assert len(broken.entries) == 4


def test_without_the_index_no_adapter_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "evalscope"
    shutil.copytree(FIXTURES / "evalscope", folder)
    (folder / INDEX).unlink()
    reading = read(folder)
    assert (str(folder / INDEX), None, "not in the package: no adapter module is read") in {
        (str(p.path), p.field, p.reason) for p in reading.problems
    }
    assert [(d.id, d.hub) for d in entry(reading, "toy_qa").datasets] == [
        ("toyorg/toy_qa", "modelscope")
    ]
    assert len(reading.entries) == 4


def test_same_package_same_bytes(tmp_path: Path) -> None:
    def snapshot(wheel: Path) -> bytes:
        with open_archive(wheel) as archive:
            package, entries = archive.package(), EvalScopeReader().read(archive).entries
        return snapshot_bytes(Snapshot(
            format=SNAPSHOT_FORMAT, harness="evalscope", package=package.name,
            version=package.version, licence=package.licence, copyright=package.copyright,
            entries=entries,
        ))

    one = snapshot(build_wheel("evalscope", tmp_path / "one"))
    other = snapshot(build_wheel("evalscope", tmp_path / "other", reverse=True,
                                 date_time=(2030, 6, 1, 12, 0, 0)))
    assert one == other
    assert b'"licence": "Apache-2.0"' in one
    assert b'"copyright": "Copyright 2099 Fixture Scope Team"' in one


def test_the_reader_is_named_for_its_package(tmp_path: Path) -> None:
    with open_archive(build_wheel("evalscope", tmp_path)) as archive:
        package = archive.package()
    reader = EvalScopeReader()
    assert (reader.harness, reader.distribution) == ("evalscope", package.normalized_name)
    assert package.version == "9.9.5"
