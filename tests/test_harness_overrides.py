"""Every override of ``graph/mapping/harness_overrides.toml``, checked on the bundled catalog:
its entry (or dataset) is in the snapshots of ``catalog/harnesses/``, it has its reason, it
does what it says, and it is needed: without it, the rule and the other overrides give
another answer."""

import pytest

from graph.build.graphs import index_records
from graph.ingest.loader import LoadReport, load_records
from graph.ingest.records import HarnessEntry
from graph.mapping.identity import BenchmarkIndex, grouping_id, index_benchmarks
from graph.mapping.identity import unmatched_evidence as shared_pairs
from graph.mapping.overrides import (
    EntryOverride,
    Mirror,
    NotABenchmark,
    Overrides,
    TaskOverride,
    bundled_overrides,
    read_overrides,
)
from graph.namespace import RDFS, SKOS
from graph.resources import data_dir
from graph.settings import Settings
from graph.slug import slugify
from graph.store.base import Store

CATALOG = data_dir("catalog")
OVERRIDES = bundled_overrides()
Item = EntryOverride | TaskOverride | Mirror | NotABenchmark

PINNED = {
    ("helm", "gsm"): "HELM's gsm reaches GSM8K only through inspect_evals' title 'GSM8K: "
                     "Grade School Math Word Problems' (the same slug as HELM's display name)",
}
"""Overrides that the rule agrees with today, and why each is kept."""

CHECKED_APART = {
    (("evalscope", "air_bench_chat"), ("evalscope", "air_bench_foundation")),
    (("lighteval", "multilingual/openbook_rus"), ("lighteval", "multilingual/rcb")),
}
"""Entries that load a dataset and cite a paper in common but are two benchmarks, checked by
hand: evalscope's AIR-Bench-Chat and AIR-Bench-Foundation are the two parts of the audio
AIR-Bench (qyang1021/AIR-Bench-Dataset, arXiv 2402.07729), each a part of its family
(``graph/mapping/lineage.toml``); lighteval's openbook_rus and rcb are two of MERA's tasks
(ai-forever/MERA, arXiv 2401.04531), ruOpenBookQA and RCB, two datasets of one suite."""


KEPT_APART: dict[str, str] = {}
"""The "kept apart" warnings the bundled catalog may give (the warning's field, and why its
entries are two benchmarks), each checked by hand. None is: each one found was a false split,
now an override with its reason (lighteval's asdiv, boolq, math and mt_bench cite a paper that
is not their benchmark's; lm-eval and lighteval cite XWinograd's two papers; lmms-eval's
refcoco+ is RefCOCO+; OpenCompass's storycloze runs StoryCloze)."""


@pytest.fixture(scope="module")
def report() -> LoadReport:
    return load_records([CATALOG], Settings())


@pytest.fixture(scope="module")
def with_overrides(report: LoadReport) -> BenchmarkIndex:
    return index_records(LoadReport(list(report.records)))


def without(report: LoadReport, item: Item) -> BenchmarkIndex:
    """The index with every bundled override but ``item``."""
    def kept(items: list[Item]) -> list[Item]:
        return [other for other in items if other is not item]
    return index_benchmarks(
        (loaded.record for loaded in report.records),
        Overrides.model_validate({
            "entry": kept(list(OVERRIDES.entry)), "tasks": kept(list(OVERRIDES.tasks)),
            "mirror": kept(list(OVERRIDES.mirror)),
            "not_a_benchmark": kept(list(OVERRIDES.not_a_benchmark))}))


def entries(report: LoadReport) -> dict[tuple[str, str], HarnessEntry]:
    return {loaded.record.key: loaded.record for loaded in report.records
            if isinstance(loaded.record, HarnessEntry)}


def test_there_are_overrides_of_every_kind() -> None:
    assert len(OVERRIDES.entry) >= 10 and len(OVERRIDES.tasks) >= 10
    assert len(OVERRIDES.mirror) >= 1
    kinds = {item.kind for item in OVERRIDES.not_a_benchmark}
    assert kinds == {"collection", "leave-out", "corpus"}


@pytest.mark.parametrize("override", OVERRIDES.entry, ids=lambda o: f"{o.harness}:{o.entry}")
def test_an_entry_override_lands_its_entry_and_is_needed(
    override: EntryOverride, report: LoadReport, with_overrides: BenchmarkIndex,
) -> None:
    assert override.key in entries(report), "the entry is not in catalog/harnesses/"
    assert len(override.reason) > 40
    target = with_overrides.entries[override.key]
    assert target == with_overrides.resolve(override.benchmark)
    assert target == slugify(override.benchmark) or override.benchmark in (
        target, *(e.entry.name for e in entries(report).values()
                  if with_overrides.entries[e.key] == target))
    entry = entries(report)[override.key]
    other = without(report, override)
    answers = (other.entries[override.key], other.label_from(entry))
    if override.key in PINNED:  # the rule agrees: see why it is kept
        assert answers == (target, with_overrides.label_from(entry))
    else:  # another benchmark, or another name for it (kobest's README heading, LAMBADA)
        assert answers != (target, with_overrides.label_from(entry)), \
            "the rule finds it: drop the override"


@pytest.mark.parametrize("override", OVERRIDES.tasks,
                         ids=lambda o: f"{o.harness}:{o.entry}:{o.benchmark}")
def test_a_task_override_moves_tasks_the_entry_has(
    override: TaskOverride, report: LoadReport, with_overrides: BenchmarkIndex,
) -> None:
    entry = entries(report)[override.key]
    assert set(override.tasks) <= set(entry.entry.tasks)
    assert len(override.reason) > 40
    target = with_overrides.resolve(override.benchmark)
    (move,) = [m for m in with_overrides.tasks_moved(entry) if m.benchmark_id == target]
    assert move.tasks == tuple(override.tasks)
    assert move.benchmark_id != with_overrides.described_by(entry)


@pytest.mark.parametrize("mirror", OVERRIDES.mirror, ids=lambda m: m.datasets[0])
def test_a_mirror_joins_entries_that_load_its_datasets_and_is_needed(
    mirror: Mirror, report: LoadReport, with_overrides: BenchmarkIndex,
) -> None:
    assert len(mirror.reason) > 40
    loading = {dataset: [e for e in entries(report).values()
                         if dataset.casefold() in {d.id.casefold() for d in e.entry.datasets}]
               for dataset in mirror.datasets}
    assert all(loading.values()), "a dataset no entry of catalog/harnesses/ loads"
    keys = [e.key for found in loading.values() for e in found
            if with_overrides.kind_of(e) == "benchmark" and not OVERRIDES.for_entry(e.key)]
    assert len({with_overrides.entries[key] for key in keys}) == 1
    assert len({without(report, mirror).entries[key] for key in keys}) > 1, \
        "the rule finds it: drop the mirror"


@pytest.mark.parametrize("item", OVERRIDES.not_a_benchmark, ids=lambda n: f"{n.harness}:{n.entry}")
def test_an_entry_that_is_no_benchmark_is_set_apart(
    item: NotABenchmark, report: LoadReport, with_overrides: BenchmarkIndex,
) -> None:
    entry = entries(report).get(item.key)
    assert entry is not None, "the entry is not in catalog/harnesses/"
    assert len(item.reason) > 30
    assert with_overrides.kind_of(entry) == item.kind
    if item.kind == "corpus":  # matched as any entry: every entry of its node is a corpus
        node = with_overrides.entries[item.key]
        assert {with_overrides.kind_of(e) for e in entries(report).values()
                if with_overrides.entries[e.key] == node} == {"corpus"}
    else:
        assert with_overrides.entries[item.key] == grouping_id(item.key)
        assert without(report, item).entries[item.key] != grouping_id(item.key)


def test_the_bundled_catalog_warns_only_of_the_entries_left_out(report: LoadReport) -> None:
    """No override misses its entry or its tasks, and no two entries of one name disagree
    that neither an override has settled nor ``KEPT_APART`` lists; what is left out is named,
    one warning each (the load's warnings and the index's, as a build reports them)."""
    built = LoadReport(list(report.records), list(report.warnings))
    index_records(built)
    left_out = {f"entries[{item.entry}]" for item in OVERRIDES.not_a_benchmark
                if item.kind == "leave-out"}
    assert sorted(w.field or "" for w in built.warnings) == sorted(left_out | set(KEPT_APART))
    assert all("left out" in w.reason or "kept apart" in w.reason for w in built.warnings)


def test_every_shared_dataset_and_paper_is_a_merge_or_checked_apart(
    report: LoadReport, with_overrides: BenchmarkIndex,
) -> None:
    """Entries that load a dataset and cite a paper in common, yet name no benchmark alike,
    are a merge no rule makes: each is one benchmark by override, or checked apart here."""
    pairs = shared_pairs((loaded.record for loaded in report.records), with_overrides, OVERRIDES)
    assert {(pair.one, pair.other) for pair in pairs} == CHECKED_APART


def test_an_override_names_the_benchmark_its_entry_alone_describes(bundled_store: Store) -> None:
    kobest = f"{Settings().base}benchmark/kobest"
    labels = bundled_store.query(f"SELECT ?p ?o {{ <{kobest}> ?p ?o FILTER(?p IN (<{RDFS.label}>, "
                                 f"<{SKOS.altLabel}>)) }}").rows
    assert {(str(p), str(o)) for p, o in labels} == {(f"<{RDFS.label}>", '"KoBEST"'),
                                                     (f"<{SKOS.altLabel}>", '"LAMBADA"')}


def test_an_override_without_its_reason_is_refused() -> None:
    with pytest.raises(ValueError, match="reason"):
        read_overrides('[[entry]]\nharness = "helm"\nentry = "gsm"\nbenchmark = "GSM8K"\n')
