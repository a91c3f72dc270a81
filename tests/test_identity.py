"""Which benchmark a record describes and a title names (``graph.mapping.identity``): one rule
for every kind of record, independent of the order the records are read in."""

import itertools

import pytest

from graph.build import BuildResult
from graph.mapping.identity import index_benchmarks, own_id, split_abbreviation, stated_claim
from graph.records import CatalogPage, DirectoryPage, Record


def catalog(benchmark_id: str, name: str, *aliases: str) -> CatalogPage:
    return CatalogPage.model_validate(
        {"page": {"id": benchmark_id, "name": name, "aliases": list(aliases)}}
    )


@pytest.mark.parametrize(("title", "split"), [
    ("BIG-Bench Hard (BBH)", ("BIG-Bench Hard", "BBH")),
    ("Massive Multitask Language Understanding (MMLU)",
     ("Massive Multitask Language Understanding", "MMLU")),
    ("Graduate-Level Google-Proof Q&A (GPQA)", ("Graduate-Level Google-Proof Q&A", "GPQA")),
    ("Humanity's Last Exam (HLE)", ("Humanity's Last Exam", "HLE")),
    ("SWE-bench Verified (SWE-V)", ("SWE-bench Verified", "SWE-V")),
    ("LiveCodeBench (LCB)", ("LiveCodeBench", "LCB")),
    ("Logical Deduction  (LD) ", ("Logical Deduction", "LD")),
    # Brackets that qualify the name: not abbreviations.
    ("MIMIC-CXR (classification)", None),  # a lower-case word
    ("MIMIC-RRS (MedHELM)", None),  # a suite: its letters are not the name's
    ("AIME (2025)", None),  # no letter
    ("GPT-5 (high)", None),
    ("TruthfulQA (MC1)", None),
    ("HealthBench (Professional)", None),
    ("ARC (AI2 Reasoning Challenge)", None),  # more than one word
    ("Foo (B (C))", None),
    ("(BBH)", None),  # no name before it
    ("BBH (BBH)", None),  # not shorter than the name
    ("Hard (H)", None),  # one letter
    ("BIG-Bench Hard (BBH) tasks", None),  # not at the end
    ("Big Bench (BBX)", None),  # X is not in the name
    ("Bench Big (BB)", ("Bench Big", "BB")),
    ("ench Big (EB)", ("ench Big", "EB")),
    ("Bench (EB)", None),  # E does not start a word, B is past it
])
def test_split_abbreviation(title: str, split: tuple[str, str] | None) -> None:
    assert split_abbreviation(title) == split


def test_own_ids() -> None:
    assert own_id("BIG-Bench Hard (BBH)") == "big_bench_hard"
    assert own_id("MIMIC-CXR (classification)") == "mimic_cxr_classification"
    assert own_id("***").startswith("h")


def test_the_seeds_resolve_by_name_alias_and_title(seed_build: BuildResult) -> None:
    records = [loaded.record for loaded in seed_build.report.records]
    index = index_benchmarks(records)
    assert [index.described_by(r) for r in records] == ["mimic_rrs", "mimic_cxr_classification"]
    assert index.resolve("MIMIC-RRS (MedHELM)") == "mimic_rrs"
    assert index.resolve("Radiology Report Summarization") == "mimic_rrs"
    assert index.resolve("MIMIC-CXR (classification)") == "mimic_cxr_classification"
    assert index.resolve("HealthBench") == "healthbench"
    assert index.resolve("MedHELM") == "medhelm"  # "(MedHELM)" is no alias of mimic_rrs


BBH = catalog("bbh", "BIG-Bench Hard", "Challenging BIG-Bench Tasks")


@pytest.mark.parametrize("title", [
    "BBH", "bbh", "BIG-Bench Hard", "Challenging BIG-Bench Tasks", "BIG-Bench Hard (BBH)",
    "Big Bench Hard", "Challenging BIG-Bench Tasks (CBT)",
])
def test_a_page_by_any_name_describes_the_catalogued_benchmark(title: str) -> None:
    page = DirectoryPage(title=title)
    index = index_benchmarks([page, BBH])
    assert index.described_by(page) == "bbh"
    assert index.has_stated_name("bbh")


def test_a_page_no_record_with_an_id_claims_is_its_own_benchmark() -> None:
    page, reference = DirectoryPage(title="BIG-Bench Hard (BBH)"), "BIG-Bench Hard"
    index = index_benchmarks([page])
    assert index.described_by(page) == index.resolve(reference) == "big_bench_hard"
    assert index.resolve("BBH") == "big_bench_hard"  # the page's abbreviation is an alias
    assert not index.has_stated_name("big_bench_hard")


def test_the_name_before_the_bracket_beats_the_abbreviation() -> None:
    mmlu, pro = catalog("mmlu", "MMLU"), catalog("mmlu_pro", "MMLU-Pro")
    index = index_benchmarks([mmlu, pro])
    assert index.resolve("MMLU-Pro (MMLU)") == "mmlu_pro"
    assert index.resolve("Massive Multitask Language Understanding (MMLU)") == "mmlu"


def test_an_id_beats_a_name_beats_an_alias_then_the_smaller_id() -> None:
    records: list[Record] = [
        catalog("zeta", "Zeta", "Shared"), catalog("alpha", "Alpha", "Shared"),
        catalog("shared_name", "Zed"), catalog("beta", "Shared Name"), catalog("gamma", "Beta"),
    ]
    index = index_benchmarks(records)
    assert index.resolve("Shared") == "alpha"  # two aliases: the smaller id
    assert index.resolve("Shared Name") == "shared_name"  # an id beats a name
    assert index.resolve("Beta") == "beta"  # an id beats a name


def test_a_record_with_an_id_beats_a_page_for_a_reference() -> None:
    """A page titled like another benchmark's alias is about that benchmark; a page's own
    abbreviation does not take a slug a record with an id claims."""
    other = catalog("bbh", "Bee Bee Aitch")
    page = DirectoryPage(title="BIG-Bench Hard (BBH)")
    index = index_benchmarks([page, other])
    assert index.described_by(page) == "bbh"  # by the abbreviation, after the name failed
    assert index.resolve("BBH") == "bbh"


def test_the_answer_never_depends_on_the_order() -> None:
    records: list[Record] = [
        BBH, catalog("bbh_lite", "BBH Lite", "BBH"), DirectoryPage(title="BBH"),
        DirectoryPage(title="Word Sorting (WS)"), DirectoryPage(title="WS"),
        DirectoryPage(title="Challenging BIG-Bench Tasks"),
    ]
    titles = ["BBH", "WS", "Word Sorting", "BBH Lite", "Challenging BIG-Bench Tasks (CBT)"]
    answers = set()
    for order in itertools.permutations(records):
        index = index_benchmarks(order)
        answers.add((tuple(index.described_by(r) for r in records),
                     tuple(index.resolve(t) for t in titles)))
    assert answers == {(("bbh", "bbh_lite", "bbh", "word_sorting", "ws", "bbh"),
                        ("bbh", "ws", "word_sorting", "bbh_lite", "bbh"))}


def test_stated_claims_key_the_duplicate_rule() -> None:
    assert stated_claim(BBH) == stated_claim(catalog("bbh", "Other"))
    assert stated_claim(DirectoryPage(title="BBH")).benchmark_id == "bbh"
    assert stated_claim(DirectoryPage(title="BBH")) != stated_claim(BBH)  # another kind
    assert stated_claim(DirectoryPage(title="***")).benchmark_id == ""
