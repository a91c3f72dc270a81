"""Every override of ``graph/mapping/harness_overrides.toml``, checked on the bundled catalog:
its entry is in the snapshots of ``catalog/harnesses/``, it has its reason, it does what it
says, and it is needed (the rule alone gives another answer)."""

import pytest
from rdflib import URIRef

from graph.build import build, index_records
from graph.loader import LoadReport, load_records
from graph.mapping.identity import BenchmarkIndex, index_benchmarks
from graph.mapping.overrides import (
    EntryOverride,
    TaskOverride,
    bundled_overrides,
    read_overrides,
)
from graph.namespace import RDFS, SKOS
from graph.records import HarnessEntry
from graph.resources import data_dir
from graph.settings import Settings
from graph.slug import slugify

OVERRIDES = bundled_overrides()
PINNED = {
    ("helm", "gsm"): "HELM's gsm reaches GSM8K only through inspect_evals' title 'GSM8K: "
                     "Grade School Math Word Problems' (the same slug as HELM's display name)",
    ("lm_eval", "kobest"): "the arXiv ids already keep it apart from LAMBADA; the override "
                           "gives it its name (KoBEST), not its README's heading (LAMBADA)",
}
"""Overrides that the rule agrees with today, and why each is kept."""


@pytest.fixture(scope="module")
def report() -> LoadReport:
    return load_records([data_dir("catalog")], Settings())


@pytest.fixture(scope="module")
def with_overrides(report: LoadReport) -> BenchmarkIndex:
    return index_records(LoadReport(list(report.records)))


@pytest.fixture(scope="module")
def without(report: LoadReport) -> BenchmarkIndex:
    return index_benchmarks(loaded.record for loaded in report.records)


def entries(report: LoadReport) -> dict[tuple[str, str], HarnessEntry]:
    return {loaded.record.key: loaded.record for loaded in report.records
            if isinstance(loaded.record, HarnessEntry)}


def test_there_are_overrides_of_both_kinds() -> None:
    assert len(OVERRIDES.entry) >= 10 and len(OVERRIDES.tasks) >= 1


@pytest.mark.parametrize("override", OVERRIDES.entry, ids=lambda o: f"{o.harness}:{o.entry}")
def test_an_entry_override_lands_its_entry_and_is_needed(
    override: EntryOverride, report: LoadReport, with_overrides: BenchmarkIndex,
    without: BenchmarkIndex,
) -> None:
    assert override.key in entries(report), "the entry is not in catalog/harnesses/"
    assert len(override.reason) > 40
    target = with_overrides.entries[override.key]
    assert target == with_overrides.resolve(override.benchmark)
    assert target == slugify(override.benchmark) or override.benchmark in (
        target, *(e.entry.name for e in entries(report).values()
                  if with_overrides.entries[e.key] == target))
    if override.key in PINNED:  # the rule agrees: see why it is kept
        assert without.entries[override.key] == target
    else:
        assert without.entries[override.key] != target, "the rule finds it: drop the override"


@pytest.mark.parametrize("override", OVERRIDES.tasks, ids=lambda o: f"{o.harness}:{o.entry}")
def test_a_task_override_moves_tasks_the_entry_has(
    override: TaskOverride, report: LoadReport, with_overrides: BenchmarkIndex,
) -> None:
    entry = entries(report)[override.key]
    assert set(override.tasks) <= set(entry.entry.tasks)
    assert len(override.reason) > 40
    (move,) = with_overrides.tasks_moved(entry)
    assert move.benchmark_id == with_overrides.resolve(override.benchmark)
    assert move.benchmark_id != with_overrides.described_by(entry)


def test_the_bundled_catalog_builds_without_a_warning() -> None:
    """No override misses its entry or its tasks, and no two entries of one name disagree
    that an override has not settled (kobest's README heading was the one)."""
    built = build([data_dir("catalog")], Settings())
    assert built.report.warnings == []


def test_an_override_names_the_benchmark_its_entry_alone_describes() -> None:
    built = build([data_dir("catalog")], Settings())
    kobest = URIRef(f"{Settings().base}benchmark/kobest")
    labels = {(p, str(o)) for s, p, o, _ in built.quads if s == kobest and p in (RDFS.label,
                                                                                 SKOS.altLabel)}
    assert labels == {(RDFS.label, "KoBEST"), (SKOS.altLabel, "LAMBADA")}


def test_an_override_without_its_reason_is_refused() -> None:
    with pytest.raises(ValueError, match="reason"):
        read_overrides('[[entry]]\nharness = "helm"\nentry = "gsm"\nbenchmark = "GSM8K"\n')
