"""The synthetic catalog generator under perf/: deterministic, valid, and connected like a real
catalog (shared papers, organisations, people and models; links to uncatalogued benchmarks)."""

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

from graph.loader import load_records
from graph.records.catalog_page import CatalogPage
from graph.settings import default_settings
from perf import common as perf_common
from perf.generate_catalog import PROFILES, generate, main, write_catalog

COUNT = 50
DIRECTORY_PAGES = 4


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return generate(COUNT, seed=3, directory_pages=DIRECTORY_PAGES)


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
    assert generate(COUNT, seed=3, directory_pages=DIRECTORY_PAGES) == files
    written = write_catalog(COUNT, tmp_path, seed=3, directory_pages=DIRECTORY_PAGES)
    assert {p.name: p.read_text(encoding="utf-8") for p in written} == files


def test_output_does_not_depend_on_string_hashing(tmp_path: Path) -> None:
    """Two interpreters with different hash seeds (set order differs) write the same files."""
    root = Path(__file__).resolve().parents[1]
    digests = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        subprocess.run([sys.executable, "-m", "perf.generate_catalog", "30", str(out),
                        "--directory-pages", "2"], cwd=root, check=True, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": hash_seed})
        digests.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert digests[0] == digests[1]


def test_another_seed_gives_another_catalog(files: dict[str, str]) -> None:
    assert generate(COUNT, seed=4, directory_pages=DIRECTORY_PAGES) != files


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
                  sizes=PROFILES[profile])
    report = load_records([tmp_path], default_settings())
    assert [str(p) for p in report.rejected + report.warnings] == []
    assert len(report.records) == COUNT + DIRECTORY_PAGES
    kinds = Counter(type(loaded.record).__name__ for loaded in report.records)
    assert kinds == {"CatalogPage": COUNT, "DirectoryPage": DIRECTORY_PAGES}


def test_the_seed_profile_is_fuller_than_the_lean_one() -> None:
    def sources(profile: str) -> int:
        texts = generate(COUNT, seed=1, sizes=PROFILES[profile]).values()
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
    assert len(list((tmp_path / "out").iterdir())) == 6
    assert "wrote 6 files" in capsys.readouterr().out


def test_catalogs_of_other_generator_versions_are_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(perf_common, "work_root", lambda: tmp_path)
    names = [
        "catalog-lean-n10-s0-d0-aaaaaaaaaaaa",
        "catalog-lean-n10-s0-d0-aaaaaaaaaaaa.partial",
        "catalog-seed-n99-s1-d2-bbbbbbbbbbbb",
        "catalog-lean-n10-s0-d0-bbbbbbbbbbbb.partial",
        "run-xyz",
    ]
    for name in names:
        (tmp_path / name).mkdir()
    removed = perf_common.prune_stale_catalogs("bbbbbbbbbbbb")
    assert [folder.name for folder in removed] == names[:2]
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(names[2:])
