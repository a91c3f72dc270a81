"""Lineage between harness benchmarks (``graph.mapping.lineage_links``): every item of
``graph/mapping/lineage.toml`` checked on the bundled catalog, and the links a record's graph
states, from records made here and from ``tests/data/harness_match/``."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from graph.build.graphs import AskedIndex, index_records
from graph.ingest.loader import LoadReport, load_records
from graph.ingest.records import HarnessEntry
from graph.mapping.identity import BenchmarkIndex, index_benchmarks
from graph.mapping.lineage_links import (
    Family,
    LineageLink,
    Variant,
    bundled_lineage,
    lineage_links,
    read_lineage,
)
from graph.mapping.overrides import bundled_overrides, read_overrides
from graph.resources import data_dir
from graph.settings import Settings
from tests.seeds import SEEDS
from tests.test_identity import entry

CATALOG = data_dir("catalog")
MATCH = Path(__file__).parent / "data" / "harness_match"
LINEAGE = bundled_lineage()


@pytest.fixture(scope="module")
def report() -> LoadReport:
    return load_records([CATALOG], Settings())


@pytest.fixture(scope="module")
def index(report: LoadReport) -> BenchmarkIndex:
    return index_records(LoadReport(list(report.records)))


def benchmarks(index: BenchmarkIndex) -> set[str]:
    """The benchmarks some entry describes or runs tasks of."""
    moved = {m.benchmark_id for moves in (index.moved_tasks or {}).values() for m in moves}
    return set(index.entries.values()) | moved


def links_of(report: LoadReport, index: BenchmarkIndex, key: tuple[str, str]
             ) -> list[LineageLink]:
    (record,) = [loaded.record for loaded in report.records
                 if isinstance(loaded.record, HarnessEntry) and loaded.record.key == key]
    return lineage_links(record, index)


def test_there_are_variants_and_families() -> None:
    assert len(LINEAGE.variant) >= 4 and len(LINEAGE.family) >= 4
    assert all(len(item.reason) > 40 for item in [*LINEAGE.variant, *LINEAGE.family])


@pytest.mark.parametrize("item", LINEAGE.variant, ids=lambda v: v.variant)
def test_a_variant_and_its_parent_are_two_benchmarks_of_the_catalog(
    item: Variant, index: BenchmarkIndex,
) -> None:
    assert item.variant in benchmarks(index), "no entry describes the variant: fix its id"
    assert index.resolve(item.parent) in benchmarks(index) - {item.variant}


@pytest.mark.parametrize("item", LINEAGE.family, ids=lambda f: f.family)
def test_a_familys_parts_are_benchmarks_of_the_catalog(item: Family, index: BenchmarkIndex
                                                       ) -> None:
    assert set(item.parts) <= benchmarks(index), "no entry describes a part: fix its id"
    assert index.resolve(item.family) in benchmarks(index) - set(item.parts)


@pytest.mark.parametrize(("key", "links"), [
    (("opencompass", "humaneval_plus"), [("humaneval", "variant", "humaneval_plus")]),
    (("lm_eval", "humaneval"), [("humaneval", "variant", "humaneval_plus")]),  # its task moved
    (("inspect_evals", "humaneval"), []),  # the parent's own entry states nothing
    (("helm", "melt_math_regular"), [("math", "variant", "math_vietnamese")]),
    (("inspect_evals", "lingoly"), [("lingoly", "variant", "lingoly_too")]),
    (("helm", "mmlu_anatomy"), [("anatomy", "inFamily", "mmlu")]),
    (("helm", "xcopa_id"), [("xcopa_id", "inFamily", "xcopa")]),
    (("helm", "winogrande_afr_zu"), [("winogrande_zulu", "inFamily", "winogrande_afr")]),
    (("helm", "winogrande_afr"), [("winogrande", "variant", "winogrande_afr")]),
    (("evalscope", "air_bench_chat"), [("air_bench_chat", "inFamily", "air_bench_audio")]),
    (("lmms_eval", "air_bench"), []),  # the family's own entry states nothing
])
def test_the_links_a_catalog_entrys_graph_states(
    report: LoadReport, index: BenchmarkIndex, key: tuple[str, str],
    links: list[tuple[str, str, str]],
) -> None:
    assert [(link.subject, link.predicate, link.object)
            for link in links_of(report, index, key)] == links


# -- the rule, on records made here -----------------------------------------------------------

TOY = read_lineage("""
[[variant]]
parent = "ToyQA"
variant = "toyqa_plus"
reason = "ToyQA+ adds tests to ToyQA's questions."

[[variant]]
parent = "toyqa"
variant = "toyqa"
reason = "A benchmark named as its own variant links nothing."

[[family]]
family = "ToyQA"
parts = ["toyqa_fr", "toyqa_de"]
reason = "The harness runs ToyQA's French and German parts as two entries."
""")

MOVE = read_overrides("""
[[tasks]]
harness = "lm_eval"
entry = "toyqa"
tasks = ["toyqa_plus"]
benchmark = "toyqa_plus"
reason = "lm-eval runs ToyQA+ as a task of its toyqa folder."
""")


def test_a_variant_is_linked_from_its_parent_by_each_entry_that_runs_it() -> None:
    toyqa = entry("lm_eval", "toyqa", "ToyQA", tasks=["toyqa", "toyqa_plus"])
    plus = entry("opencompass", "toyqa_plus", "ToyQA+ (plus)")
    french = entry("helm", "toyqa_fr", "ToyQA (French)")
    index = index_benchmarks([toyqa, plus, french], MOVE)
    expected = LineageLink("toyqa", "variant", "toyqa_plus")
    assert lineage_links(plus, index, TOY) == [expected]
    assert lineage_links(toyqa, index, TOY) == [expected]  # through its task moved there
    assert lineage_links(french, index, TOY) == [LineageLink("toyqa_fr", "inFamily", "toyqa")]


def test_a_benchmark_is_no_variant_of_itself() -> None:
    toyqa = entry("helm", "toyqa", "ToyQA")
    assert lineage_links(toyqa, index_benchmarks([toyqa]), TOY) == []


def test_the_fixture_catalog_states_no_lineage_of_the_bundled_file() -> None:
    records = [loaded.record for loaded in load_records([*SEEDS, MATCH], Settings()).records]
    index = index_benchmarks(records, bundled_overrides())
    assert [link for r in records for link in lineage_links(r, index)] == []


def test_lineage_asks_the_index_only_what_a_build_writes_down() -> None:
    """An incremental build sees a link change through the questions the record asked."""
    toyqa = entry("lm_eval", "toyqa", "ToyQA", tasks=["toyqa", "toyqa_plus"])
    index = index_benchmarks([toyqa], MOVE)
    asking = AskedIndex.of(index)
    lineage_links(toyqa, asking, TOY)
    assert [q.kind for q in asking.asked] == [
        "described_by", "tasks_moved", "resolve", "resolve"]  # toyqa's own item, toyqa_plus's
    assert all(q.asked_again(index, toyqa) for q in asking.asked)
    moved_elsewhere = index_benchmarks([toyqa])  # no override: toyqa_plus stays toyqa's task
    assert not all(q.asked_again(moved_elsewhere, toyqa) for q in asking.asked)


@pytest.mark.parametrize(("text", "message"), [
    ('[[family]]\nfamily = "A"\nparts = []\nreason = "r"\n', "parts"),
    ('[[family]]\nfamily = "A"\nparts = ["a1"]\nreason = "r"\n'
     '[[family]]\nfamily = "B"\nparts = ["a1"]\nreason = "r"\n', "listed twice: a1"),
    ('[[variant]]\nparent = "A"\nvariant = "b"\nreason = "r"\n' * 2, "listed twice"),
    ('[[variant]]\nparent = "A"\nvariant = "b"\n', "reason"),
    ('[[variant]]\nparent = "A"\nvariant = "b"\nreason = "r"\nsource = "x"\n', "source"),
])
def test_a_lineage_file_that_breaks_its_format_is_refused(text: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        read_lineage(text)
