"""The synthetic catalog generator under perf/: deterministic, valid, and connected like a real
catalog (shared papers, organisations, people and models; links to uncatalogued benchmarks);
its defects, planted where its manifest says; and the checks the faithful section makes of a
build of it (perf/faithful_checks.py)."""

import json
import os
import re
import subprocess
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from graph.cli import main as benchgraph
from graph.ingest.loader import load_records
from graph.ingest.records.catalog_page import CatalogPage
from graph.settings import default_settings
from perf import common as perf_common
from perf.defects import BY_NAME, CLASSES, FIELD, FILE, allocate
from perf.faithful_checks import (
    Reported,
    ReportShapeError,
    check,
    fields_match,
    read_report,
    relative_to,
)
from perf.generate_catalog import (
    DEFAULT_DEFECT_SHARE,
    GENERATOR_VERSION,
    MANIFEST,
    PROFILES,
    Catalog,
    generate,
    main,
    write_catalog,
)

COUNT = 50
DIRECTORY_PAGES = 4


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    """A catalog with no defects: what every record is like."""
    return generate(COUNT, seed=3, directory_pages=DIRECTORY_PAGES, defect_share=0).files


@pytest.fixture(scope="module")
def records(files: dict[str, str]) -> list[dict[str, Any]]:
    return [json.loads(text, parse_float=Decimal) for text in files.values()
            if text.startswith("{")]


def _organisations(field: str) -> list[str]:
    """The organisation names in a publisher field, notes dropped (for counting only)."""
    names = []
    for part in re.split(r";| and ", field):
        names.append(re.sub(r"\s*\([^)]*\)\s*$", "", part).strip())
    return [name for name in names if name]


def test_same_seed_gives_the_same_bytes(tmp_path: Path, files: dict[str, str]) -> None:
    assert generate(COUNT, seed=3, directory_pages=DIRECTORY_PAGES, defect_share=0).files == files
    written = write_catalog(COUNT, tmp_path, seed=3, directory_pages=DIRECTORY_PAGES,
                            defect_share=0)
    assert {p.name: p.read_text(encoding="utf-8") for p in written} == files


def test_output_does_not_depend_on_string_hashing(tmp_path: Path) -> None:
    """Two interpreters with different hash seeds (set order differs) write the same files."""
    root = Path(__file__).resolve().parents[1]
    digests = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        subprocess.run([sys.executable, "-m", "perf.generate_catalog", "30", str(out),
                        "--directory-pages", "2", "--defect-share", "0.5"], cwd=root,
                       check=True, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": hash_seed})
        digests.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert digests[0] == digests[1]
    assert json.loads(digests[0][MANIFEST])["files"]  # defects too


def test_another_seed_gives_another_catalog(files: dict[str, str]) -> None:
    assert generate(COUNT, seed=4, directory_pages=DIRECTORY_PAGES, defect_share=0).files != files


def test_counts_and_unique_ids(files: dict[str, str], records: list[dict[str, Any]]) -> None:
    assert len(files) == COUNT + DIRECTORY_PAGES
    ids = [record["page"]["id"] for record in records]
    assert len(ids) == COUNT
    assert len(set(ids)) == COUNT
    assert all(re.fullmatch(r"[a-z0-9_]+", bench_id) for bench_id in ids)


def test_every_record_validates_with_no_unknown_key(files: dict[str, str]) -> None:
    for name, text in files.items():
        if not text.startswith("{"):
            continue
        page = CatalogPage.model_validate(json.loads(text, parse_float=Decimal))
        assert list(page.unknown_keys()) == [], name


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_file_loads_without_rejection_or_warning(tmp_path: Path, profile: str) -> None:
    write_catalog(COUNT, tmp_path, seed=5, directory_pages=DIRECTORY_PAGES,
                  sizes=PROFILES[profile], defect_share=0)
    report = load_records([tmp_path], default_settings())
    assert [str(p) for p in report.rejected + report.warnings] == []
    assert len(report.records) == COUNT + DIRECTORY_PAGES
    kinds = Counter(type(loaded.record).__name__ for loaded in report.records)
    assert kinds == {"CatalogPage": COUNT, "DirectoryPage": DIRECTORY_PAGES}


def test_the_seed_profile_is_fuller_than_the_lean_one() -> None:
    def sources(profile: str) -> int:
        texts = generate(COUNT, seed=1, sizes=PROFILES[profile], defect_share=0).files.values()
        return sum(len(json.loads(t)["page"]["sources"]) for t in texts)

    assert sources("seed") > 2 * sources("lean")


def test_records_have_every_key_of_the_seed(records: list[dict[str, Any]]) -> None:
    seed_path = Path(__file__).resolve().parents[1] / "catalog" / "000_501ccd0cd0e2608f.txt"
    seed = json.loads(seed_path.read_text(encoding="utf-8"))

    def keys(value: Any, prefix: str = "") -> set[str]:
        if isinstance(value, dict):
            found = set()
            for key, inner in value.items():
                found |= {f"{prefix}{key}"} | keys(inner, f"{prefix}{key}.")
            return found
        return set()

    for record in records:
        assert keys(seed) <= keys(record)


def test_papers_people_organisations_and_models_repeat(records: list[dict[str, Any]]) -> None:
    papers = Counter(r["page"]["paper"]["arxiv"] for r in records if r["page"]["paper"]["arxiv"])
    people = Counter(a for r in records for a in r["page"]["publisher"]["authors"])
    orgs = Counter(o for r in records for o in _organisations(r["page"]["publisher"]["org"]))
    models = Counter(res["model"] for r in records
                     for res in r["disposition"]["verified_results"])
    covered = Counter(m for r in records for m in r["models_covered"])
    for shared in (papers, people, orgs, models, covered):
        assert max(shared.values()) >= 2


def test_publisher_fields_use_the_catalog_styles(records: list[dict[str, Any]]) -> None:
    fields = [r["page"]["publisher"]["org"] for r in records]
    assert any(re.search(r"\([^)]+\); ", f) for f in fields)  # A (note); B (note)
    assert any(" and " in f for f in fields)  # A and B


def test_lineage_points_at_records_and_at_uncatalogued_benchmarks(
    records: list[dict[str, Any]],
) -> None:
    ids = {r["page"]["id"] for r in records}
    targets = []
    for record in records:
        lineage = record["page"]["lineage"]
        targets += lineage["variants"] + lineage["successors"]
        targets += [lineage["predecessor"]] if lineage["predecessor"] else []
        assert record["page"]["id"] not in lineage["variants"]
    assert any(t in ids for t in targets)
    assert any(t not in ids for t in targets)


def test_bodies_link_to_benchmarks_in_markdown(records: list[dict[str, Any]]) -> None:
    for record in records:
        for bench_id in record["page"]["lineage"]["variants"]:
            assert f"({bench_id}.md)" in record["body"]
    assert any(re.search(r"\[[^]]+\]\([a-z0-9_]+\.md\)", r["body"]) for r in records)


def test_vocabularies_reach_the_records(records: list[dict[str, Any]]) -> None:
    tags = {t for r in records for t in r["page"]["tags"]}
    assert {"medhelm", "gated", "public", "private"} <= tags
    for key in ("bigbench", "helm", "inspect_evals", "lm_eval", "opencompass"):
        assert any(r["page"]["harness"][key] for r in records), key
    results = [res for r in records for res in r["disposition"]["verified_results"]]
    assert results and all(res["unit"] == "percent" and isinstance(res["score"], Decimal)
                           for res in results)


def test_nothing_is_dated_after_the_build(records: list[dict[str, Any]]) -> None:
    for record in records:
        page, built = record["page"], record["build"]["built_at"][:10]
        dates = [page["released"], page["last_updated"], page["saturation"]["as_of"],
                 page["freshness"]["researched"], page["freshness"]["reviewed"]]
        dates += [source["accessed"] for source in page["sources"]]
        dates += [r["as_of"] for r in record["disposition"]["verified_results"]]
        # ISO dates, year-months and years compare as text (a year is not after its own date)
        assert all(date <= built for date in dates if date), page["id"]


def test_directory_pages_follow_the_seed_layout(files: dict[str, str]) -> None:
    pages = [text for text in files.values() if not text.startswith("{")]
    assert len(pages) == DIRECTORY_PAGES
    for page in pages:
        lines = page.splitlines()
        assert lines[0] and not lines[0].startswith("-")
        assert "In the authors\u2019 words" in lines
        assert "No scores here yet" in lines or "Top scores" in lines
        assert any(line.startswith("More in ") for line in lines)
        assert lines[-1].startswith("- ") or re.search(r"\d%$", lines[-1])


def test_command_line_writes_the_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["5", str(tmp_path / "out"), "--seed", "1", "--directory-pages", "1"]) == 0
    assert (tmp_path / "out" / MANIFEST).exists()
    assert len(list((tmp_path / "out").iterdir())) == 7  # with the manifest
    assert "wrote 6 files" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["5", str(tmp_path / "out"), "--defect-share", "1.5"])


def test_catalogs_of_other_generator_versions_are_removed_once_unused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(perf_common, "work_root", lambda: tmp_path)
    names = [
        "catalog-lean-n10-s0-d0-aaaaaaaaaaaa",
        "catalog-lean-n10-s0-d0-aaaaaaaaaaaa.partial",
        "catalog-lean-n10-s0-d0-cccccccccccc",  # another version, but used lately
        "catalog-seed-n99-s1-d2-bbbbbbbbbbbb",
        "catalog-seed-n99-s1-d2-x0.01-bbbbbbbbbbbb",
        "catalog-lean-n10-s0-d0-bbbbbbbbbbbb.partial",
        "run-xyz",
    ]
    now = 1_000_000_000.0
    for name in names:
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (now, now))
    (tmp_path / names[2] / ".complete").touch()
    os.utime(tmp_path / names[2], (now, now))
    os.utime(tmp_path / names[2] / ".complete", (now + 3600, now + 3600))
    later = now + perf_common.STALE_SECONDS + 1
    removed = perf_common.prune_stale_catalogs("bbbbbbbbbbbb", now=later)
    assert [folder.name for folder in removed] == names[:2]
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(names[2:])
    assert perf_common.prune_stale_catalogs("bbbbbbbbbbbb", now=now + 60) == []


# -- defects -------------------------------------------------------------------------------

DEFECT_RECORDS, DEFECT_SHARE = 400, 0.25  # 100 files with defects: every class has some


@pytest.fixture(scope="module")
def defective() -> Catalog:
    return generate(DEFECT_RECORDS, seed=11, directory_pages=2, defect_share=DEFECT_SHARE)


def _value_at(record: Any, dotted: str) -> Any:
    """``record``'s value at a field as a load report names it: ``page.sources[1].url``."""
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", dotted):
        record = record[int(part[1:-1])] if part.startswith("[") else record[part]
    return record


def test_defects_are_deterministic(defective: Catalog) -> None:
    again = generate(DEFECT_RECORDS, seed=11, directory_pages=2, defect_share=DEFECT_SHARE)
    assert (again.files, again.manifest()) == (defective.files, defective.manifest())
    other = generate(DEFECT_RECORDS, seed=12, directory_pages=2, defect_share=DEFECT_SHARE)
    assert other.manifest()["files"].keys() != defective.manifest()["files"].keys()


def test_defects_reach_their_share_spread_over_every_class(defective: Catalog) -> None:
    planted = defective.manifest()["files"]
    assert len(planted) == round(DEFECT_SHARE * DEFECT_RECORDS)
    first_classes = Counter(entries[0]["class"] for entries in planted.values())
    assert first_classes == {name: n for name, n in allocate(len(planted)).items() if n}
    assert set(first_classes) == {defect.name for defect in CLASSES}
    assert any(len(entries) == 2 and {e["level"] for e in entries} == {FIELD}
               for entries in planted.values())  # a second field-level defect, now and then
    # the default: about 1 % of 10,000 records, and file-level defects stay a handful
    at_default = allocate(round(DEFAULT_DEFECT_SHARE * 10_000))
    assert sum(at_default.values()) == 100
    assert 2 <= sum(n for name, n in at_default.items() if BY_NAME[name].level == FILE) <= 8
    assert generate(COUNT, seed=3, defect_share=0).manifest()["files"] == {}


def test_defects_leave_every_other_record_as_it_was(defective: Catalog) -> None:
    clean = generate(DEFECT_RECORDS, seed=11, directory_pages=2, defect_share=0).files
    planted = defective.manifest()["files"]
    about = {entry["means"] for entries in planted.values() for entry in entries
             if entry["field"] == "title"}  # records a directory page is about gain an alias
    changed = [name for name, text in clean.items() if defective.files[name] != text]
    assert changed
    for name in changed:
        assert name in planted or json.loads(clean[name])["page"]["id"] in about, name
    assert sorted(set(defective.files) - set(clean)) == sorted(
        name for name in planted if name not in clean)


def test_the_manifest_says_what_each_file_holds(defective: Catalog) -> None:
    records = {json.loads(text)["page"]["id"]: json.loads(text)["page"]
               for text in defective.files.values()
               if text.startswith("{") and _decodes(text) and _parses(text)}
    for name, entries in defective.manifest()["files"].items():
        text = defective.files[name]
        for entry in entries:
            kind, where, value = entry["class"], entry["field"], entry["value"]
            if kind == "truncated-json":
                assert _decodes(text) and not _parses(text), name
            elif kind == "not-utf8":
                assert not _decodes(text), name
            elif where == "title":
                assert text.partition("\n")[0] == value
                page = records[entry["means"]]
                expected = {"directory-by-id": value == page["id"],
                            "directory-by-alias": value in page["aliases"],
                            "directory-name-abbr": value.startswith(f"{page['name']} (")
                            and value[len(page["name"]) + 2:-1] in page["aliases"]}
                assert expected[kind], (name, value)
            elif where == "facts":
                assert f"- Made by\n- {value}\n" in text
            elif kind == "own-variant":
                page = json.loads(text)["page"]
                variants = page["lineage"]["variants"]
                assert value == page["id"] in variants and len(variants) >= 2
            elif kind == "paper-url-only":
                paper = json.loads(text)["page"]["paper"]
                assert (paper["url"], paper["title"], paper["arxiv"]) == (value, "", "")
            else:
                assert _value_at(json.loads(text), where) == value, (name, kind)
            if kind.startswith("arxiv-") and "means" in entry:
                assert re.sub(r"^(arXiv:|https://arxiv\.org/abs/)|v\d+$", "", value) == \
                    entry["means"]


def _decodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: a byte that is not UTF-8 on disk
        return False
    return True


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True


@pytest.mark.parametrize("profile", ["lean", "full"])
def test_the_manifest_lies_beside_the_files_and_the_build_skips_it(
    tmp_path: Path, profile: str,
) -> None:
    written = write_catalog(60, tmp_path, seed=2, sizes=PROFILES[profile], defect_share=0.5)
    manifest = json.loads((tmp_path / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["generator"] == GENERATOR_VERSION and manifest["defect_share"] == 0.5
    assert set(manifest["files"]) <= {path.name for path in written}
    report = load_records([tmp_path], default_settings())
    assert report.files_read == len(written)  # the manifest is no record file
    broken = {name for name, entries in manifest["files"].items()
              if entries[0]["level"] == FILE}
    rejected = {problem.path.name for problem in report.rejected}
    assert broken and broken <= rejected
    clean = {path.name for path in written} - set(manifest["files"])
    troubled = rejected | {problem.path.name for problem in report.warnings}
    assert not clean & troubled


# -- the faithful section's checks ---------------------------------------------------------

def _finished_build(catalog: Path, manifest: dict[str, Any], files: list[str]) -> tuple[
        dict[str, list[str]], list[Reported]]:
    """What the finished core should make of a catalog with defects: every file built but
    the file-level ones, directory pages on their benchmark's node, a warning for each
    field-level defect (path as the build was given it) and a rejection for each broken file."""
    planted = manifest["files"]
    built, report = {}, []
    for name in files:
        entries = planted.get(name, [])
        if any(entry["level"] == FILE for entry in entries):
            report.append(Reported(name, None, "cannot be read", None, "rejected"))
            continue
        titles = [entry["means"] for entry in entries if entry["field"] == "title"]
        built[name] = titles or [name.split("_")[0]]
        report += [Reported(name, entry["field"], "breaks a rule", entry["value"], "warning")
                   for entry in entries if entry["level"] == FIELD]
    return built, report


@pytest.fixture(scope="module")
def planted(defective: Catalog) -> dict[str, Any]:
    return defective.manifest()


def test_a_finished_build_passes_every_check(defective: Catalog, planted: dict[str, Any]) -> None:
    built, report = _finished_build(Path("cat"), planted, list(defective.files))
    found = check(planted, list(defective.files), built, report)
    assert (found.lost_field, found.lost_kept, found.built_broken, found.pages_apart) == (
        [], [], [], [])
    assert found.report_complete is True and found.unexpected == [] and found.lost_clean == []
    assert found.field_files + found.kept_files + found.file_files == len(planted["files"])
    assert found.pages == sum(1 for entries in planted["files"].values()
                              if entries[0]["class"].startswith("directory-"))
    tally = found.tallies["url-not-http"]
    assert tally.files == tally.built == tally.warned > 0 and tally.rejected == 0


def test_the_checks_catch_a_lost_record_a_missing_warning_and_a_page_apart(
    defective: Catalog, planted: dict[str, Any],
) -> None:
    built, report = _finished_build(Path("cat"), planted, list(defective.files))
    field_file = next(n for n, e in planted["files"].items() if e[0]["class"] == "name-empty")
    other_field = next(n for n, e in planted["files"].items() if e[0]["class"] == "own-variant")
    page = next(n for n, e in planted["files"].items() if e[0]["class"] == "directory-by-alias")
    clean = next(name for name in defective.files if name not in planted["files"])
    del built[field_file], built[clean]
    report = [p for p in report if p.file != other_field]
    built[page] = ["some_slug_of_the_title"]
    found = check(planted, list(defective.files), built, report)
    assert (found.lost_field, found.lost_clean) == ([field_file], [clean])
    assert found.missing_warnings == [f"{other_field}: page.lineage.variants"]
    assert found.missing_rejections == sorted([field_file, clean])
    assert found.report_complete is False
    assert [text.split(":")[0] for text in found.pages_apart] == [page]
    # a build as on main before the defects work: field-level files rejected, not warned
    rejected = [Reported(field_file, "page.name", "must not be empty", None, "rejected")]
    found = check(planted, list(defective.files), built, rejected)
    assert found.unexpected == rejected
    assert found.reasons == {field_file: "must not be empty"}


def test_without_a_report_only_the_graph_is_checked(planted: dict[str, Any]) -> None:
    found = check(planted, ["clean.txt"], {}, None)
    assert found.missing_warnings is None and found.report_complete is None
    assert len(found.lost_field) == found.field_files > 0
    assert found.lost_clean == ["clean.txt"]


@pytest.mark.parametrize(("planted_field", "reported", "matches"), [
    ("page.lineage.variants", "page.lineage", True),
    ("page.lineage.variants", "page.lineage.variants[2]", True),
    ("page.sources[0].url", "page.sources[0].url", True),
    ("page.sources[0].url", "page.sources[1].url", False),
    ("page.name", "page.names", False),
    ("page.paper", "page.paper.url", True),
    ("title", None, False),
])
def test_a_warning_names_a_field_or_one_that_holds_it(
    planted_field: str, reported: str | None, matches: bool,
) -> None:
    assert fields_match(planted_field, reported) is matches


def test_the_json_report_is_read_in_either_shape(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog"
    problem = {"file": str(catalog / "a.txt"), "field": "page.released", "reason": "r",
               "value": "c. 2018", "kind": "warning"}
    rejection = {"path": "catalog/sub/b.txt", "field": None, "reason": "truncated"}
    as_list = tmp_path / "list.json"
    as_list.write_text(json.dumps([problem, {**rejection, "kind": "rejected"}]), "utf-8")
    as_object = tmp_path / "object.json"
    as_object.write_text(json.dumps({"warnings": [problem], "rejected": [rejection]}), "utf-8")
    expected = [Reported("a.txt", "page.released", "r", "c. 2018", "warning"),
                Reported("sub/b.txt", None, "truncated", None, "rejected")]
    for path in (as_list, as_object):
        assert read_report(path, Path("catalog")) == expected
    assert relative_to("/elsewhere/c.txt", catalog) == "c.txt"
    wrongs: list[Any] = [{"problems": []}, [{"kind": "warning"}], [problem | {"kind": "note"}],
                         ["x"]]
    for wrong in wrongs:
        as_list.write_text(json.dumps(wrong), "utf-8")
        with pytest.raises(ReportShapeError):
            read_report(as_list, catalog)


def test_the_records_phase_lists_each_file_and_the_benchmark_it_describes(
    tmp_path: Path,
) -> None:
    from perf.faithful_perf import phase_records

    folder = tmp_path / "catalog"
    written = write_catalog(12, folder, seed=4, directory_pages=1, defect_share=0)
    assert benchgraph(["build", str(folder), "-o", str(tmp_path / "out.ttl")]) == 0
    found = phase_records([str(tmp_path / "out.ttl"), str(folder)])
    assert sorted(found["files"]) == sorted(p.name for p in written) == sorted(found["records"])
    ids = {json.loads(path.read_text("utf-8"))["page"]["id"]: path.name
           for path in written if not path.name.startswith("dir_")}
    for bench_id, name in ids.items():
        assert found["records"][name] == [bench_id]


def test_the_section_report_reads_with_and_without_a_json_report(
    defective: Catalog, planted: dict[str, Any],
) -> None:
    from perf.common import Measurement, Run
    from perf.faithful_perf import _report

    floor, cli = Measurement("oxi-bulk-load", "floor"), Measurement("ours-cli", "cli")
    floor.runs.append(Run(1.0, 2**20, {"cpu_seconds": 1.0}))
    cli.runs.append(Run(2.5, 2**20, {"cpu_seconds": 2.4}))
    built, report = _finished_build(Path("cat"), planted, list(defective.files))
    for problems in (report, None):
        found = check(planted, list(defective.files), built, problems)
        shown = _report(planted, found, floor, cli, 12, "state",
                        files=len(defective.files), records=len(built))
        assert "records lost to field-level defects: 0 of" in shown.text
        assert "2.50x; target <= 3x: met" in shown.text
        assert ("complete: warnings for" in shown.text) is (problems is not None)
        json.dumps(shown.data)  # --json can write it
