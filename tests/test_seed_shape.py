"""The ``full`` profile of the synthetic catalog against the first seed record, and
``perf.seed_shape``, which measures how near a profile's records come to the seed: every
field the seed fills filled, bodies and sources of the seed's size, and quads per record
within 0.8 to 1.25 of the seed's (perf/decisions/synthetic-catalog-full.md)."""

import json
import re
from typing import Any

import pytest

from perf.generate_catalog import PROFILES, generate
from perf.seed_shape import SEED_RECORD, Comparison, compare, fields, main, seed_shape

COUNT = 40
FULL = PROFILES["full"]


@pytest.fixture(scope="module")
def seed() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(SEED_RECORD.read_text(encoding="utf-8"))
    return record


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    files = generate(COUNT, seed=2, directory_pages=2, sizes=FULL, defect_share=0).files
    return [json.loads(text) for text in files.values() if text.startswith("{")]


@pytest.fixture(scope="module")
def full() -> Comparison:
    return compare(COUNT, "full", seed=1)


def test_the_full_profile_fills_every_field_the_seed_fills(
    seed: dict[str, Any], records: list[dict[str, Any]],
) -> None:
    filled = {path for path, full in fields(seed) if full}
    assert {"page.paper.arxiv", "page.released", "page.dataset.public_test_set",
            "page.harness.helm", "page.freshness.reviewed_by", "body"} <= filled
    for record in records:
        leaves = dict(fields(record))
        assert [path for path in sorted(filled) if not leaves.get(path)] == [], \
            record["page"]["id"]


def test_the_full_profile_also_fills_what_the_seed_leaves_empty(
    records: list[dict[str, Any]],
) -> None:
    """Verified results, models covered and disposition reasons: in some records."""
    for field in ("verified_results", "reasons"):
        assert any(record["disposition"][field] for record in records), field
    assert any(record["models_covered"] for record in records)


def test_full_bodies_have_the_seed_sections_and_links(
    seed: dict[str, Any], records: list[dict[str, Any]],
) -> None:
    headings = re.findall(r"^## (.+)$", seed["body"], re.MULTILINE)
    for record in records:
        assert re.findall(r"^## (.+)$", record["body"], re.MULTILINE) == headings
        for variant in record["page"]["lineage"]["variants"]:
            assert f"({variant}.md)" in record["body"]


def test_the_full_profile_is_deterministic() -> None:
    first = generate(12, seed=5, sizes=FULL, defect_share=0.25)
    again = generate(12, seed=5, sizes=FULL, defect_share=0.25)
    assert (first.files, first.manifest()) == (again.files, again.manifest())
    assert generate(12, seed=6, sizes=FULL, defect_share=0.25).files != first.files


def test_full_is_within_a_quarter_of_the_seed_in_quads_per_record(full: Comparison) -> None:
    assert 0.8 <= full.ratio <= 1.25, full.verdict()
    assert full.left_empty() == {}
    made, seed = full.generated, full.seed
    assert made.body_sections == seed.body_sections == 8
    assert 0.8 <= made.body_words / seed.body_words <= 1.25
    assert 0.8 <= made.body_links / seed.body_links <= 1.25
    assert 0.8 <= made.sources / seed.sources <= 1.25


def test_the_seed_shape_is_the_seed_record_built_alone() -> None:
    shape = seed_shape()
    assert shape.records == 1
    assert shape.sources == 8 and shape.body_sections == 8
    assert shape.predicates["bench:source"] == 8
    assert sum(shape.predicates.values()) == shape.quads
    assert shape.filled["page.harness.helm"] == 1 and shape.filled["page.lineage.family"] == 0


def test_the_lean_profile_is_told_apart() -> None:
    lean = compare(10, "lean", seed=1)
    assert lean.ratio < 0.8
    assert lean.left_empty()  # lean leaves optional fields empty


def test_the_command_prints_a_table_and_a_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--profile", "full", "--records", "5"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].split()[:2] == ["seed", "full"]
    assert "quads by predicate" in text and "bench:source" in text
    assert re.search(r"^quads per record, generated / seed: \d\.\d\d \(full, 5 records",
                     text.splitlines()[-1])
    assert main(["--profile", "full", "--records", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["profile"] == "full" and data["generated"]["records"] == 5
    assert data["ratio"] == pytest.approx(data["generated"]["quads"] / data["seed"]["quads"])
    with pytest.raises(SystemExit):
        main(["--records", "0"])
