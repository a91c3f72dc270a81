"""Bad input, one class at a time: each file gets one line naming the file and the field,
nothing raises, and the good seed records beside it still load.

Each case starts from the seed catalog page (catalog/000_501ccd0cd0e2608f.txt), changes one
thing and writes it to a catalog folder in tmp_path beside copies of both seeds. The
syntax-level cases also have small hand-written files in tests/data/bad/ (see its README).
"""

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from graph.ingest.importers.base import Problem, RecordRejected
from graph.ingest.importers.strict_json import parse_json
from graph.ingest.loader import LoadReport, load_records
from graph.ingest.records import CatalogPage
from graph.ingest.records.fields import NOT_A_URL, NOT_AN_ARXIV_ID
from graph.resources import data_dir
from graph.settings import Settings
from tests.seeds import SEEDS

SEED_PAGE = data_dir("catalog") / "000_501ccd0cd0e2608f.txt"
SEED_DIRECTORY = data_dir("catalog") / "002_e36a0be437d5fce5.txt"
SEED_IDS = {"mimic_rrs", "mimic_cxr_classification"}
BAD = Path(__file__).parent / "data" / "bad"
DEFAULTS = Settings()


def seed() -> dict[str, Any]:
    """The seed page as JSON data, with its own id so that it never clashes with the seed."""
    record: dict[str, Any] = json.loads(SEED_PAGE.read_text("utf-8"))
    record["page"]["id"] = "altered"
    return record


def altered(change: Callable[[dict[str, Any]], object]) -> str:
    record = seed()
    change(record)
    return json.dumps(record, indent=1, ensure_ascii=False)


def catalog_with(tmp_path: Path, name: str, content: str | bytes) -> Path:
    """A catalog folder holding both seeds and one more file."""
    folder = tmp_path / "catalog"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(SEED_PAGE, folder)
    shutil.copy(SEED_DIRECTORY, folder)
    target = folder / name
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content, "utf-8")
    return folder


def rejected_beside_seeds(
    tmp_path: Path, content: str | bytes, settings: Settings = DEFAULTS, name: str = "bad.json"
) -> Problem:
    """Load the bad file beside the seeds: the seeds load, the bad file is the one rejection."""
    report = load_records([catalog_with(tmp_path, name, content)], settings)
    assert {loaded.record.benchmark_id for loaded in report.records} == SEED_IDS
    assert [problem.path.name for problem in report.rejected] == [name], report.rejected
    problem = report.rejected[0]
    line = str(problem)
    assert "\n" not in line and name in line
    return problem


def assert_names(problem: Problem, field: str | None, *fragments: str) -> None:
    assert problem.field == field, str(problem)
    line = str(problem)
    if field is not None:
        assert f": {field}: " in line
    for fragment in fragments:
        assert fragment in line, line


# -- the file itself -------------------------------------------------------------------


def test_empty_and_whitespace_files(tmp_path: Path) -> None:
    assert_names(rejected_beside_seeds(tmp_path, b""), None, "the file is empty")
    assert_names(rejected_beside_seeds(tmp_path / "2", " \n\t \n"), None, "only whitespace")


def test_binary_file(tmp_path: Path) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    assert_names(rejected_beside_seeds(tmp_path, png), None, "binary", "byte offset 8")


def test_not_utf8_names_the_byte_offset(tmp_path: Path) -> None:
    text = altered(lambda r: r["page"].update(summary="café"))
    data = text.encode("utf-8").replace("café".encode(), b"caf\xe9")  # Latin-1 é
    offset = data.index(b"caf\xe9") + 3
    problem = rejected_beside_seeds(tmp_path, data)
    assert_names(problem, None, "not UTF-8", "0xe9", f"byte offset {offset}")


def test_utf16_is_named(tmp_path: Path) -> None:
    data = altered(lambda r: None).encode("utf-16")
    assert_names(rejected_beside_seeds(tmp_path, data), None, "UTF-16")


def test_utf8_bom_is_tolerated(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbf" + altered(lambda r: None).encode("utf-8")
    report = load_records([catalog_with(tmp_path, "bom.json", data)], DEFAULTS)
    assert report.rejected == []
    assert {loaded.record.benchmark_id for loaded in report.records} == SEED_IDS | {"altered"}


def test_bom_then_bad_bytes_counts_offsets_in_the_file(tmp_path: Path) -> None:
    problem = rejected_beside_seeds(tmp_path, b"\xef\xbb\xbf{\"page\": \xff}")
    assert_names(problem, None, "byte offset 12")


def test_file_over_the_limit_is_not_read(tmp_path: Path) -> None:
    limit = SEED_PAGE.stat().st_size + 100  # the seeds fit; the padded copy does not
    padded = altered(lambda r: None) + " " * limit
    problem = rejected_beside_seeds(tmp_path, padded, Settings(max_file_bytes=limit))
    assert_names(problem, None, f"max_file_bytes = {limit}")


def test_file_of_16_mib_and_one_byte_with_the_default_limit(tmp_path: Path) -> None:
    folder = catalog_with(tmp_path, "huge.json", "")
    with (folder / "huge.json").open("wb") as stream:  # sparse: checked by size, never read
        stream.truncate(16 * 1024 * 1024 + 1)
    report = load_records([folder], DEFAULTS)
    assert [str(p) for p in report.rejected] == [
        f"{folder / 'huge.json'}: the file has 16777217 bytes, more than max_file_bytes = 16777216"
    ]
    assert len(report.records) == 2


# -- the JSON --------------------------------------------------------------------------


def test_truncated_json(tmp_path: Path) -> None:
    text = altered(lambda r: None)
    problem = rejected_beside_seeds(tmp_path, text[: len(text) // 2])
    assert_names(problem, None, "ends too soon", "line ", "column ")


def test_truncated_after_a_complete_value(tmp_path: Path) -> None:
    text = altered(lambda r: None).rstrip().removesuffix("}")
    assert_names(rejected_beside_seeds(tmp_path, text), None, "ends too soon")


def test_invalid_json(tmp_path: Path) -> None:
    text = altered(lambda r: None).replace('"page": {', '"page" {', 1)
    line = text[: text.index('"page" {')].count("\n") + 1
    problem = rejected_beside_seeds(tmp_path, text)
    assert_names(problem, None, "not valid JSON", f"line {line} column")


def test_trailing_data(tmp_path: Path) -> None:
    base = altered(lambda r: None)
    text = base + "\n{}\n"
    line = base.count("\n") + 2
    problem = rejected_beside_seeds(tmp_path, text)
    assert_names(problem, None, f"extra data after the JSON value at line {line} column 1")


@pytest.mark.parametrize(
    ("content", "kind"),
    [("[1, 2]", "an array"), ('"mimic_rrs"', "the text 'mimic_rrs'"), ("42", "the number 42"),
     ("null", "null"), ("true", "true")],
)
def test_json_that_is_not_an_object(tmp_path: Path, content: str, kind: str) -> None:
    problem = rejected_beside_seeds(tmp_path, content)
    assert_names(problem, None, f"the record must be a JSON object, not {kind}")


def test_seed_wrapped_in_an_array(tmp_path: Path) -> None:
    problem = rejected_beside_seeds(tmp_path, f"[{altered(lambda r: None)}]")
    assert_names(problem, None, "must be a JSON object, not an array")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity(tmp_path: Path, constant: str) -> None:
    text = altered(lambda r: None).replace('"max_score": 5', f'"max_score": {constant}')
    problem = rejected_beside_seeds(tmp_path, text)
    assert_names(problem, "page.metric.max_score", f"{constant} is not a number")


def test_number_too_large_to_write_out(tmp_path: Path) -> None:
    text = altered(lambda r: None).replace('"max_score": 5', '"max_score": 1e999999999')
    problem = rejected_beside_seeds(tmp_path, text)
    assert_names(problem, "page.metric.max_score", "out of range")


def test_integer_longer_than_python_reads(tmp_path: Path) -> None:
    text = altered(lambda r: None).replace('"max_score": 5', f'"max_score": {"9" * 5000}')
    assert_names(rejected_beside_seeds(tmp_path, text), "page.metric.max_score", "out of range")


def test_duplicate_key_in_one_object(tmp_path: Path) -> None:
    text = altered(lambda r: None).replace(
        '"arxiv": "2211.08584"', '"arxiv": "2211.08584", "arxiv": "2211.00001"'
    )
    problem = rejected_beside_seeds(tmp_path, text)
    assert_names(problem, "page.paper.arxiv", "duplicate key 'arxiv'")


def test_lone_surrogate_escape(tmp_path: Path) -> None:
    text = altered(lambda r: None).replace('"name": "MIMIC-RRS', '"name": "\\ud800MIMIC-RRS')
    assert_names(rejected_beside_seeds(tmp_path, text), "page.name", "surrogate")


def test_string_over_the_default_limit(tmp_path: Path) -> None:
    text = altered(lambda r: r["page"].update(summary="x" * 1_000_001))
    problem = rejected_beside_seeds(tmp_path, text)
    assert_names(problem, "page.summary", "1000001 characters", "max_string_chars = 1000000")


def test_string_over_a_small_limit(tmp_path: Path) -> None:
    limit = 4000  # the seeds' longest string is 2,772 characters
    text = altered(lambda r: r["page"]["sources"][2].update(title="é" * (limit + 1)))
    problem = rejected_beside_seeds(tmp_path, text, Settings(max_string_chars=limit))
    assert_names(problem, "page.sources[2].title", f"max_string_chars = {limit}")


def test_key_over_the_limit(tmp_path: Path) -> None:
    text = altered(lambda r: r["page"]["paper"].update({"k" * 5000: 1}))
    problem = rejected_beside_seeds(tmp_path, text, Settings(max_string_chars=4000))
    assert_names(problem, "page.paper", "a key of 5000 characters")


def test_nesting_deeper_than_the_default_limit(tmp_path: Path) -> None:
    text = altered(lambda r: r["page"].update(extra=json.loads("[" * 120 + "]" * 120)))
    problem = rejected_beside_seeds(tmp_path, text)
    assert problem.field is not None and problem.field.startswith("page.extra[0]")
    assert "max_nesting_depth = 100" in str(problem)


def test_nesting_of_100000_levels(tmp_path: Path) -> None:
    text = altered(lambda r: r["page"].update(extra=0)).replace(
        '"extra": 0', '"extra": ' + "[" * 100_000 + "]" * 100_000
    )
    problem = rejected_beside_seeds(tmp_path, text)
    assert problem.field is not None and problem.field.startswith("page.extra[0]")
    assert "max_nesting_depth = 100" in str(problem)


def test_nesting_of_100000_open_brackets_only(tmp_path: Path) -> None:
    problem = rejected_beside_seeds(tmp_path, "[" * 100_000)
    assert "max_nesting_depth = 100" in str(problem) and "line 1 column 101" in str(problem)


@pytest.mark.parametrize(
    ("depth", "ok"), [(100, True), (101, False)], ids=["at-limit", "one-over"]
)
def test_nesting_limit_is_exact(depth: int, ok: bool) -> None:
    text = "[" * depth + "]" * depth
    if ok:
        parse_json(text, DEFAULTS)
    else:
        with pytest.raises(RecordRejected, match="max_nesting_depth = 100"):
            parse_json(text, DEFAULTS)


def test_nesting_limit_is_a_setting() -> None:
    with pytest.raises(RecordRejected) as caught:
        parse_json('{"a": {"b": [1]}}', Settings(max_nesting_depth=2))
    assert caught.value.field == "a.b"
    assert "max_nesting_depth = 2" in caught.value.reason


def test_brackets_inside_strings_are_not_nesting() -> None:
    text = json.dumps({"body": "[" * 500 + "{" * 500})
    assert parse_json(text, DEFAULTS) == {"body": "[" * 500 + "{" * 500}


# -- the record ------------------------------------------------------------------------


WRONG_TYPES = [
    (lambda r: r["page"]["paper"].update(year="2023"), "page.paper.year", "whole number"),
    (lambda r: r["page"].update(tags="gated"), "page.tags", "must be a list"),
    (lambda r: r["page"]["dataset"].update(public_test_set="no"), "page.dataset.public_test_set",
     "true or false"),
    (lambda r: r["page"]["metric"].update(max_score="5"), "page.metric.max_score",
     "must be a number, not the text '5'"),
    (lambda r: r["page"].update(summary=["a"]), "page.summary", "must be text, not an array"),
    (lambda r: r["page"].update(freshness="today"), "page.freshness", "must be an object"),
    (lambda r: r["page"]["sources"][0].update(accessed=20260908), "page.sources[0].accessed",
     "must be a date"),
    (lambda r: r.update(page=[]), "page", "must be an object, not an array"),
]


@pytest.mark.parametrize(("change", "field", "reason"), WRONG_TYPES)
def test_wrong_types(
    tmp_path: Path, change: Callable[[dict[str, Any]], object], field: str, reason: str
) -> None:
    assert_names(rejected_beside_seeds(tmp_path, altered(change)), field, reason)


def test_missing_page(tmp_path: Path) -> None:
    assert_names(rejected_beside_seeds(tmp_path, altered(lambda r: r.pop("page"))),
                 "page", "is missing")


def test_missing_id(tmp_path: Path) -> None:
    text = altered(lambda r: r["page"].pop("id"))
    assert_names(rejected_beside_seeds(tmp_path, text), "page.id", "is missing")


def test_empty_id(tmp_path: Path) -> None:
    text = altered(lambda r: r["page"].update(id=""))
    assert_names(rejected_beside_seeds(tmp_path, text), "page.id", "is empty")


@pytest.mark.parametrize(
    "bad_id", ["mimic/rrs", "../mimic_rrs", "mimic.rrs", "mimic rrs", "mimic_rrś", "Mimic_RRS",
               "mimic-rrs", "mimic_rrs\n"],
)
def test_ids_outside_a_z_0_9_underscore(tmp_path: Path, bad_id: str) -> None:
    text = altered(lambda r: r["page"].update(id=bad_id))
    problem = rejected_beside_seeds(tmp_path, text)
    assert_names(problem, "page.id", f"{bad_id!r} is not a benchmark id: use only a-z, 0-9 and _")


def test_bad_id_in_a_list(tmp_path: Path) -> None:
    text = altered(lambda r: r["page"]["lineage"].update(variants=["mimic_bhc", "Mimic BHC"]))
    assert_names(rejected_beside_seeds(tmp_path, text), "page.lineage.variants[1]",
                 "'Mimic BHC' is not a benchmark id")


def test_duplicate_id_across_files(tmp_path: Path) -> None:
    copy_of_seed = SEED_PAGE.read_text("utf-8")
    problem = rejected_beside_seeds(tmp_path, copy_of_seed, name="zz_copy.json")
    first = tmp_path / "catalog" / SEED_PAGE.name
    assert_names(problem, "page.id", f"duplicate id 'mimic_rrs': already defined by {first}")


# -- field-level defects: the record is kept, with a warning -----------------------------


def kept_beside_seeds(tmp_path: Path, content: str, name: str = "odd.json") -> list[Problem]:
    """Load the file beside the seeds: every file loads, and the file's warnings are returned."""
    report = load_records([catalog_with(tmp_path, name, content)], DEFAULTS)
    assert report.rejected == []
    assert {loaded.record.benchmark_id for loaded in report.records} == SEED_IDS | {"altered"}
    assert {problem.path.name for problem in report.warnings} <= {name}
    return report.warnings


@pytest.mark.parametrize(
    "url", ["ftp://example.org/x", "javascript:alert(1)", "example.org/x", "http://", "file:///etc",
            "https://exa mple.org"],
)
def test_urls_that_are_not_http(tmp_path: Path, url: str) -> None:
    text = altered(lambda r: r["page"]["sources"][2].update(url=url))
    (warning,) = kept_beside_seeds(tmp_path, text)
    assert (warning.field, warning.value) == ("page.sources[2].url", url)
    assert warning.reason == NOT_A_URL


def test_url_field_on_the_page(tmp_path: Path) -> None:
    text = altered(lambda r: r["page"].update(repo_url="javascript:alert(1)"))
    (warning,) = kept_beside_seeds(tmp_path, text)
    assert warning.field == "page.repo_url" and "not an http(s) URL" in str(warning)


@pytest.mark.parametrize(
    "arxiv", ["2211.085", "22110.8584", "hep-th/99", "2211.08584v", "arXiv 2211.08584",
              "https://arxiv.org/list/cs.CL/new", "12.34567x"],
)
def test_malformed_arxiv_ids(tmp_path: Path, arxiv: str) -> None:
    text = altered(lambda r: r["page"]["paper"].update(arxiv=arxiv))
    (warning,) = kept_beside_seeds(tmp_path, text)
    assert (warning.field, warning.value, warning.reason) == (
        "page.paper.arxiv", arxiv, NOT_AN_ARXIV_ID)


def test_benchmark_listed_as_its_own_variant(tmp_path: Path) -> None:
    text = altered(lambda r: r["page"]["lineage"].update(variants=["mimic_bhc", "altered"]))
    (warning,) = kept_beside_seeds(tmp_path, text)
    assert (warning.field, warning.value) == ("page.lineage.variants[1]", "altered")
    assert "not its own variant" in warning.reason


def test_several_problems_name_the_first_and_give_each_other(tmp_path: Path) -> None:
    def change(record: dict[str, Any]) -> None:
        record["page"]["paper"]["year"] = "2023"
        record["page"]["repo_url"] = "ftp://x"  # a field-level defect: not counted
        record["page"]["tags"] = [1]
        record["page"]["summary"] = 5

    problem = rejected_beside_seeds(tmp_path, altered(change))
    assert problem.field == "page.summary"  # the first in the model's order
    assert problem.reason.startswith("must be text, not the number 5; also page.tags[0]: ")
    assert "also page.paper.year: " in problem.reason and "ftp://x" not in problem.reason


def test_directory_page_with_no_title(tmp_path: Path) -> None:
    problem = rejected_beside_seeds(tmp_path, "\n- Made by\n- Someone\n", name="page.txt")
    assert problem.field == "title"


# -- odd but good ----------------------------------------------------------------------


def test_odd_text_is_kept_verbatim(tmp_path: Path) -> None:
    name = '<script>alert("x")</script> {braces} #1 \'quoted\' \\back'
    tags = ["#medhelm", "{tag}", "<b>", 'say "hi"']

    def change(record: dict[str, Any]) -> None:
        record["page"]["name"] = name
        record["page"]["tags"] = tags

    folder = catalog_with(tmp_path, "odd.json", altered(change))
    report = load_records([folder], DEFAULTS)
    assert report.rejected == [] and report.warnings == []
    (odd,) = [r.record for r in report.records if r.record.benchmark_id == "altered"]
    assert isinstance(odd, CatalogPage)
    assert odd.page.name == name and odd.page.tags == tags


# -- committed fixtures (tests/data/bad/) ----------------------------------------------

FIXTURES = {
    "truncated.json": (None, "ends too soon"),
    "invalid.json": (
        None,
        ("not valid JSON: expecting property name enclosed in double quotes "
         "at line 4 column 3"),
    ),
    "trailing-data.json": (None, "extra data after the JSON value at line 5 column 1"),
    "not-an-object.json": (None, "the record must be a JSON object, not an array"),
    "nan.json": ("page.metric.max_score", "NaN is not a number JSON allows"),
    "duplicate-key.json": ("page.name", "duplicate key 'name'"),
    "wrong-type.json": ("page.paper.year", "must be a whole number, not the text '2023'"),
    "bad-id.json": ("page.id", "'Mimic RRS' is not a benchmark id: use only a-z, 0-9 and _"),
}


def test_every_fixture_is_listed_here_and_in_the_readme() -> None:
    names = {path.name for path in BAD.iterdir() if path.name != "README.md"}
    assert names == set(FIXTURES)
    readme = (BAD / "README.md").read_text("utf-8")
    assert all(f"`{name}`" in readme for name in FIXTURES)


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_committed_fixture(tmp_path: Path, name: str) -> None:
    field, reason = FIXTURES[name]
    problem = rejected_beside_seeds(tmp_path, (BAD / name).read_bytes(), name=name)
    assert_names(problem, field, reason)


def test_all_fixtures_at_once_beside_the_seeds() -> None:
    report: LoadReport = load_records([*SEEDS, *BAD.glob("*.json")], DEFAULTS)
    assert {loaded.record.benchmark_id for loaded in report.records} == SEED_IDS
    assert sorted(problem.path.name for problem in report.rejected) == sorted(FIXTURES)
