"""The catalog page importer: chosen by content, the seed in full, warnings, error lines."""

import json
from datetime import date
from decimal import Decimal
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from graph.ingest.importers import IMPORTERS, choose_importer
from graph.ingest.importers.base import Imported, RecordRejected, SourceFile
from graph.ingest.importers.catalog_page import CatalogPageImporter
from graph.ingest.importers.strict_json import format_path
from graph.ingest.records import CatalogPage
from graph.ingest.records.fields import (
    EMPTY_NAME,
    NOT_A_DATE,
    NOT_A_DATE_TIME,
    NOT_A_DOI,
    NOT_A_PARTIAL_DATE,
    NOT_A_URL,
    NOT_AN_ARXIV_ID,
)
from graph.ingest.records.verbatim import Verbatim
from graph.resources import data_dir
from graph.settings import Settings

SEED_PAGE = data_dir("catalog") / "000_501ccd0cd0e2608f.txt"
SEED_DIRECTORY = data_dir("catalog") / "002_e36a0be437d5fce5.txt"
IMPORTER = CatalogPageImporter()


def source(text: str, name: str = "record.txt") -> SourceFile:
    return SourceFile(Path("catalog") / name, PurePosixPath(name), text)


def seed_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SEED_PAGE.read_text("utf-8"))
    return data


def load(data: dict[str, Any] | str) -> Imported:
    text = data if isinstance(data, str) else json.dumps(data)
    return IMPORTER.load(source(text), Settings())


def page_of(imported: Imported) -> CatalogPage:
    assert isinstance(imported.record, CatalogPage)
    return imported.record


# -- choosing ----------------------------------------------------------------------------


def test_chosen_by_content_not_by_name() -> None:
    seed = SEED_PAGE.read_text("utf-8")
    assert SEED_PAGE.suffix == ".txt"
    assert IMPORTER.can_read(source(seed, "x.txt"))
    assert IMPORTER.can_read(source("\n\t  " + seed, "no-suffix"))
    assert IMPORTER.can_read(source("[1]", "x.md"))
    assert not IMPORTER.can_read(source(SEED_DIRECTORY.read_text("utf-8"), "x.json"))
    assert not IMPORTER.can_read(source("MIMIC-RRS\nA page about {braces}.\n"))


@pytest.mark.parametrize("text", ["42", "-1.5e3", '"a title?"', "null", "true", " false \n"])
def test_a_lone_json_scalar_is_claimed_to_be_rejected(text: str) -> None:
    assert IMPORTER.can_read(source(text))
    with pytest.raises(RecordRejected, match="must be a JSON object"):
        load(text)


@pytest.mark.parametrize("text", ['"quoted" then words', "42 is the answer", "nullable"])
def test_text_that_merely_starts_like_a_scalar_is_not_claimed(text: str) -> None:
    assert not IMPORTER.can_read(source(text))


def test_registry_is_explicit_and_ordered() -> None:
    assert [importer.name for importer in IMPORTERS] == [
        "harness-registry", "catalog-page", "directory-page"]
    seed = source(SEED_PAGE.read_text("utf-8"))
    page = source(SEED_DIRECTORY.read_text("utf-8"))
    assert (chosen := choose_importer(seed)) is not None and chosen.name == "catalog-page"
    assert (chosen := choose_importer(page)) is not None and chosen.name == "directory-page"


# -- the seed ----------------------------------------------------------------------------


def test_seed_loads_in_full_without_warnings() -> None:
    imported = load(SEED_PAGE.read_text("utf-8"))
    record = page_of(imported)
    assert imported.warnings == []
    assert record.benchmark_id == "mimic_rrs"
    page = record.page
    assert page.aliases == ["MIMIC RRS", "Radiology Report Summarization"]
    assert page.paper.arxiv == "2211.08584" and page.paper.year == 2023
    assert page.publisher.authors[0] == "Zhihong Chen" and len(page.publisher.authors) == 5
    assert page.metric.max_score == Decimal(5) and isinstance(page.metric.max_score, Decimal)
    assert page.metric.human_baseline is None
    assert page.lineage.variants == ["mimic_bhc", "mimic_repsum"]
    assert page.lineage.predecessor is None  # "" means unknown
    assert page.harness.helm == "mimic_rrs" and page.harness.lm_eval is None
    assert len(page.sources) == 8 and page.sources[0].accessed == date(2026, 9, 8)
    assert page.dataset.public_test_set is False and page.dataset.size is None
    assert record.body is not None and record.body.startswith("\n## What it measures")
    assert record.disposition.canonical_id == "mimic_rrs"


def test_scores_are_exact_decimals() -> None:
    data = seed_data()
    data["disposition"]["verified_results"] = [{"model": "Model 1.5 (beta)", "score": 80.4}]
    data["page"]["saturation"]["top_score"] = 0.1
    record = page_of(load(data))
    assert record.disposition.verified_results[0].score == Decimal("80.4")
    assert str(record.page.saturation.top_score) == "0.1"  # not 0.1000000000000000055...


def test_a_json_true_is_not_a_number() -> None:
    data = seed_data()
    data["page"]["metric"]["max_score"] = True
    with pytest.raises(RecordRejected) as caught:
        load(data)
    assert caught.value.field == "page.metric.max_score"
    assert caught.value.reason == "must be a number, not true"


def test_a_different_canonical_id_is_kept_without_warning() -> None:
    data = seed_data()
    data["disposition"]["canonical_id"] = "mimic_rrs_v2"
    imported = load(data)
    assert imported.warnings == []
    assert page_of(imported).disposition.canonical_id == "mimic_rrs_v2"


# -- unknown keys ------------------------------------------------------------------------


def test_unknown_keys_are_warnings_naming_file_and_key() -> None:
    data = seed_data()
    data["exported_by"] = "catalog 2.0"
    data["page"]["paper"]["pmid"] = "36711478"
    data["page"]["sources"][1]["note"] = {"kept": True}
    imported = load(data)
    assert [(w.field, w.reason) for w in imported.warnings] == [
        ("exported_by", "unknown key, kept as data"),
        ("page.paper.pmid", "unknown key, kept as data"),
        ("page.sources[1].note", "unknown key, kept as data"),
    ]
    assert all(w.path == Path("catalog/record.txt") for w in imported.warnings)
    expected = "catalog/record.txt: page.paper.pmid: unknown key, kept as data"
    assert str(imported.warnings[1]) == expected
    record = page_of(imported)
    assert record.page.paper.model_extra == {"pmid": "36711478"}


# -- error lines -------------------------------------------------------------------------


def rejection(data: dict[str, Any]) -> str:
    with pytest.raises(RecordRejected) as caught:
        load(data)
    error = caught.value
    line = f"{error.field}: {error.reason}" if error.field else error.reason
    assert "\n" not in line
    return line


def test_the_example_line_from_the_brief() -> None:
    data = seed_data()
    data["page"]["id"] = "Mimic RRS"
    assert rejection(data) == "page.id: 'Mimic RRS' is not a benchmark id: use only a-z, 0-9 and _"


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (lambda d: d["page"].pop("id"), "page.id: is missing"),
        (lambda d: d["page"].update(id=None), "page.id: must be text, not null"),
        (lambda d: d["page"].update(id=""),
         "page.id: is empty: a benchmark id is required (a-z, 0-9 and _)"),
        (lambda d: d["page"].update(name=None), "page.name: must be text, not null"),
        (lambda d: d["page"]["paper"].update(year=1850),
         "page.paper.year: must be at least 1900, not the number 1850"),
        (lambda d: d["page"]["dataset"].update(size=-1),
         "page.dataset.size: must be at least 0, not the number -1"),
        (lambda d: d["page"].update(released=2023),
         "page.released: must be text, not the number 2023"),
        (lambda d: d["build"].update(built_at=True),
         "build.built_at: must be a date and time (ISO 8601), not true"),
        (lambda d: d["page"]["sources"][2].update(url=["https://example.org"]),
         "page.sources[2].url: must be text, not an array"),
        (lambda d: d["page"]["paper"].update(doi=10.1145),
         "page.paper.doi: must be text, not the number 10.1145"),
        (lambda d: d["page"].update(summary="x" * 100 + 5 * "é"),
         None),  # long but within limits: loads
        (lambda d: d["page"].update(tags="x" * 100),
         "page.tags: must be a list, not the text 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"),
    ],
)
def test_error_lines_read_well(change: Any, line: str | None) -> None:
    data = seed_data()
    change(data)
    if line is None:
        load(data)
    else:
        assert rejection(data) == line


# -- field-level defects: warnings, the record kept -----------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "value", "reason"),
    [
        (lambda d: d["page"].update(name="  "), "page.name", "  ", EMPTY_NAME),
        (lambda d: d["page"].update(name=""), "page.name", "", EMPTY_NAME),
        (lambda d: d["page"].update(released="2023-13"), "page.released", "2023-13",
         NOT_A_PARTIAL_DATE),
        (lambda d: d["page"].update(released="May 2023"), "page.released", "May 2023",
         NOT_A_PARTIAL_DATE),
        (lambda d: d["build"].update(built_at="yesterday"), "build.built_at", "yesterday",
         NOT_A_DATE_TIME),
        (lambda d: d["page"]["sources"][7].update(accessed="2026-02-30"),
         "page.sources[7].accessed", "2026-02-30", NOT_A_DATE),
        (lambda d: d["page"]["sources"][2].update(url="ftp://example.org"),
         "page.sources[2].url", "ftp://example.org", NOT_A_URL),
        (lambda d: d["page"]["paper"].update(arxiv="12.34567x"), "page.paper.arxiv",
         "12.34567x", NOT_AN_ARXIV_ID),
        (lambda d: d["page"]["paper"].update(doi="10/abc"), "page.paper.doi", "10/abc",
         NOT_A_DOI),
        (lambda d: d["page"]["publisher"]["authors"].insert(1, " "),
         "page.publisher.authors[1]", " ", EMPTY_NAME),
    ],
)
def test_field_level_defects_are_warnings_and_the_record_is_kept(
    change: Any, field: str, value: str, reason: str
) -> None:
    data = seed_data()
    change(data)
    imported = load(data)
    assert [(w.field, w.value, w.reason) for w in imported.warnings] == [(field, value, reason)]
    assert value not in reason or not value.strip()  # the reason groups: it holds no value
    assert str(imported.warnings[0]).startswith(f"catalog/record.txt: {field}: {reason}")
    assert page_of(imported).benchmark_id == "mimic_rrs"


def test_own_variant_is_kept_as_text_and_the_other_variants_stay() -> None:
    data = seed_data()
    data["page"]["lineage"]["variants"] = ["mimic_bhc", "mimic_rrs", "mimic_repsum"]
    imported = load(data)
    (warning,) = imported.warnings
    assert (warning.field, warning.value) == ("page.lineage.variants[1]", "mimic_rrs")
    assert "not its own variant" in warning.reason
    variants = page_of(imported).page.lineage.variants
    assert variants == ["mimic_bhc", "mimic_rrs", "mimic_repsum"]
    assert [isinstance(v, Verbatim) for v in variants] == [False, True, False]


def test_own_variant_is_not_checked_against_a_bad_id() -> None:
    data = seed_data()
    data["page"]["id"] = "Bad Id"
    data["page"]["lineage"]["variants"] = ["Bad Id"]
    line = rejection(data)
    assert line.startswith("page.id: 'Bad Id' is not a benchmark id")
    assert "; also page.lineage.variants[0]: 'Bad Id' is not a benchmark id" in line


def test_a_file_level_error_rejects_the_file_whatever_its_defects() -> None:
    data = seed_data()
    data["page"]["released"] = "c. 2018"
    data["page"]["paper"]["year"] = "2023"
    assert rejection(data) == "page.paper.year: must be a whole number, not the text '2023'"


def test_normalised_forms_are_no_warning() -> None:
    data = seed_data()
    data["page"]["paper"]["arxiv"] = "arXiv:2211.08584v2"
    data["page"]["paper"]["doi"] = "https://doi.org/10.18653/v1/2023.acl-short.41"
    data["page"]["repo_url"] = " https://github.com/x/y "
    imported = load(data)
    paper = page_of(imported).page.paper
    assert imported.warnings == []
    assert (paper.arxiv, paper.doi) == ("2211.08584v2", "10.18653/v1/2023.acl-short.41")
    assert page_of(imported).page.repo_url == "https://github.com/x/y"


@pytest.mark.parametrize(
    ("parts", "path"),
    [
        (("page", "sources", 2, "url"), "page.sources[2].url"),
        (("page", "paper", "arxiv"), "page.paper.arxiv"),
        ((3, "a"), "[3].a"),
        (("page", "a.b"), 'page["a.b"]'),
        (("page", "with space", 0), 'page["with space"][0]'),
        ((), "(the whole record)"),
        (("a", *[0] * 20), "a[0][0][0][0][0]…[0][0]"),
    ],
)
def test_format_path(parts: tuple[str | int, ...], path: str) -> None:
    assert format_path(parts) == path
