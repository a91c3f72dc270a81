"""Which benchmark a record describes and a title names (``graph.mapping.identity``): one rule
for every kind of record, independent of the order the records are read in; for harness
entries, checked against what they say of themselves (``graph.mapping.matching``: papers by
arXiv id, DOI and title, dataset ids), and overridden by data (``graph.mapping.overrides``).
The fixtures are ``tests/data/harness_match/`` (its README lists the cases) and records made
here."""

import itertools
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from graph.build.graphs import GraphInMemory
from graph.ingest.loader import load_records
from graph.ingest.records import CatalogPage, DirectoryPage, HarnessEntry, HarnessPackage, Record
from graph.ingest.records.harness_snapshot import Entry
from graph.mapping.identity import (
    BenchmarkIndex,
    grouping_id,
    index_benchmarks,
    naming,
    own_id,
    split_abbreviation,
    stated_claim,
    unmatched_evidence,
)
from graph.mapping.matching import Evidence, datasets_disagree, papers_agree, papers_disagree
from graph.mapping.overrides import Overrides, bundled_overrides, read_overrides
from graph.settings import Settings
from tests.seeds import SEEDS

MATCH = Path(__file__).parent / "data" / "harness_match"


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


def test_the_seeds_resolve_by_name_alias_and_title(seed_build: GraphInMemory) -> None:
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


# -- harness entries: what they say of themselves --------------------------------------------


def entry(harness: str, entry_id: str, name: str | None = None, *, papers: Any = (),
          datasets: Any = (), tasks: Any = ()) -> HarnessEntry:
    """A harness entry made here: ``papers`` as the snapshot writes them (dicts)."""
    return HarnessEntry(
        HarnessPackage(harness, harness, "9.9.1"),  # type: ignore[arg-type]
        Entry.model_validate({"id": entry_id, "name": name or entry_id, "papers": list(papers),
                              "datasets": [{"id": d} for d in datasets], "tasks": list(tasks),
                              "source": [f"{harness}/{entry_id}/"]}))


def evidence(**paper: str) -> Evidence:
    return naming(entry("helm", "x", papers=[paper])).evidence


def test_an_entry_names_its_papers_by_arxiv_id_doi_and_title_and_folds_its_datasets() -> None:
    found = naming(entry("lm_eval", "x", papers=[
        {"arxiv": "2101.00001", "doi": "10.1/AbC", "title": "A Title"}, {"title": "A Title"}],
        datasets=["Org/Data"]))
    assert found.papers == frozenset({"2101.00001", "doi:10.1/abc"})
    assert found.titles == ("A Title",)
    assert found.datasets == frozenset({"org/data"})


@pytest.mark.parametrize(("one", "other", "agree", "disagree"), [
    ({"arxiv": "2101.00001"}, {"arxiv": "2101.00001"}, True, False),
    ({"arxiv": "2101.00001"}, {"arxiv": "2101.00002"}, False, True),
    ({"doi": "10.1/A"}, {"doi": "10.1/a"}, True, False),  # a DOI in another case
    ({"doi": "10.1/a"}, {"doi": "10.1/b"}, False, True),
    ({"arxiv": "2101.00001"}, {"doi": "10.1/a"}, False, False),  # nothing to compare
    ({"title": "ToyQA: A Toy"}, {"title": "toyqa - a toy."}, True, False),
    ({"title": "ToyQA: A Toy Benchmark"}, {"title": "ToyQA: a toy"}, True, False),  # cut short
    ({"title": "ToyQA"}, {"title": "OtherQA"}, False, False),  # a title is no id
    ({"arxiv": "2101.00001", "title": "Same"}, {"arxiv": "2101.00002", "title": "Same"},
     True, False),  # the same title outweighs two ids
])
def test_papers_agree_by_id_or_title_and_disagree_only_by_ids_of_one_kind(
    one: dict[str, str], other: dict[str, str], agree: bool, disagree: bool,
) -> None:
    assert papers_agree(evidence(**one), evidence(**other)) is agree
    assert papers_disagree(evidence(**one), evidence(**other)) is disagree


@pytest.mark.parametrize(("one", "other", "disagree"), [
    (["org/chembench"], ["other/chembench4k"], True),
    (["org/chembench"], [], False),  # one side states none
    (["org/gsm8k", "org/extra"], ["org/gsm8k"], False),  # one shared
    (["openai/gsm8k"], ["AI-ModelScope/GSM8K"], False),  # the same name: a mirror
    (["Maxwell-Jia/AIME_2024"], ["opencompass/aime2024"], False),
    (["hellaswag"], ["Rowan/hellaswag"], False),  # an old short name
    (["AI-ModelScope/winogrande_val"], ["allenai/winogrande"], False),  # a split's word added
    (["EleutherAI/hendrycks_math"], ["opencompass/math"], False),  # a source's word added
    (["DigitalLearningGmbH/MATH-lighteval"], ["opencompass/math"], False),
    (["opencompass/ChemBench4K"], ["jablonkagroup/ChemBench"], True),  # runs on in the word
    (["org/qa_val"], ["org/qa"], True),  # too short a name to stand for another's words
    (["https://example.org/toy/test.csv"], ["org/other"], False),  # an address is no id
    (["https://example.org/toy/test.csv", "org/one"], ["org/other"], True),
])
def test_datasets_disagree_when_both_state_some_and_share_none_even_as_a_mirror(
    one: list[str], other: list[str], disagree: bool,
) -> None:
    def of(datasets: list[str]) -> Evidence:
        return naming(entry("helm", "x", datasets=datasets)).evidence
    assert datasets_disagree(of(one), of(other)) is disagree
    agreeing = Evidence(frozenset({"2101.00001"}))  # a paper that agrees outweighs them
    assert not datasets_disagree(
        Evidence(agreeing.papers, datasets=of(one).datasets),
        Evidence(agreeing.papers, datasets=of(other).datasets))


def test_a_name_match_is_vetoed_by_datasets_that_disagree_with_a_warning() -> None:
    chem = entry("inspect_evals", "chembench", "ChemBench: Are LLMs superhuman chemists?",
                 papers=[{"arxiv": "2404.01475"}], datasets=["jablonkagroup/ChemBench"])
    chem4k = entry("opencompass", "ChemBench", datasets=["opencompass/ChemBench4K"])
    plain = entry("lm_eval", "chembench", "ChemBench")  # says nothing: joins neither alone
    index = index_benchmarks([chem, chem4k, plain])
    assert index.entries[chem.key] != index.entries[chem4k.key]
    (problem,) = index.problems
    assert problem.field in ("entries[chembench].datasets", "entries[ChemBench].datasets")
    assert "load other datasets" in problem.reason
    # without the datasets, the name alone joins all three
    bare = entry("opencompass", "ChemBench")
    assert len(set(index_benchmarks([chem, bare, plain]).entries.values())) == 1


def test_papers_that_agree_outweigh_datasets_that_disagree() -> None:
    one = entry("lighteval", "toyqa", "ToyQA", papers=[{"doi": "10.1/Toy"}], datasets=["a/x"])
    other = entry("evalscope", "toyqa", "ToyQA", papers=[{"doi": "10.1/toy"}], datasets=["b/y"])
    index = index_benchmarks([one, other])
    assert index.entries[one.key] == index.entries[other.key] and index.problems == ()


def test_a_mirror_in_the_overrides_is_one_dataset() -> None:
    one = entry("lighteval", "toyqa", "ToyQA", datasets=["a/toyqa"])
    other = entry("evalscope", "toyqa", "ToyQA", datasets=["b/toy-questions"])
    apart = index_benchmarks([one, other])
    assert apart.entries[one.key] != apart.entries[other.key]
    mirrors = read_overrides('[[mirror]]\ndatasets = ["A/ToyQA", "b/toy-questions"]\n'
                             'reason = "b/toy-questions is a copy of a/toyqa."\n')
    joined = index_benchmarks([one, other], mirrors)
    assert joined.entries[one.key] == joined.entries[other.key] and joined.problems == ()


@pytest.fixture(scope="module")
def matched() -> BenchmarkIndex:
    records = [loaded.record for loaded in load_records([*SEEDS, MATCH], Settings()).records]
    return index_benchmarks(records, bundled_overrides())


@pytest.mark.parametrize(("key", "benchmark"), [
    (("evalscope", "toyqa"), "toyqa"),  # a mirror: joins ToyQA of four harnesses
    (("lighteval", "toychem"), "toychem_lighteval"),  # datasets disagree, no paper agrees
    (("evalscope", "toychem"), "toychem"),
    (("lighteval", "doibench"), "doibench"), (("evalscope", "doibench"), "doibench"),
    (("lighteval", "titleqa"), "titleqa"), (("evalscope", "titleqa"), "titleqa"),
    (("lighteval", "doitwin"), "doitwin_lighteval"), (("evalscope", "doitwin"), "doitwin"),
    (("lighteval", "toysplit"), "toysplit"), (("evalscope", "toysplit"), "toysplit"),
    (("lighteval", "toyweb"), "toyweb"), (("evalscope", "toyweb"), "toyweb"),
])
def test_the_fixture_entries_meet_or_stay_apart_on_what_they_say(
    matched: BenchmarkIndex, key: tuple[str, str], benchmark: str,
) -> None:
    assert matched.entries[key] == benchmark


def test_the_fixtures_warnings_name_the_field_that_disagrees(matched: BenchmarkIndex) -> None:
    fields = {(p.field, p.value) for p in matched.problems}
    assert ("entries[doitwin].papers", "doitwin: DOI 10.1234/twin.b") in fields
    assert ("entries[toychem].datasets", "toychem: otherorg/toychem4k") in fields
    assert ("entries[twin].papers", "twin: arXiv 2402.00002") in fields


def test_the_new_evidence_never_depends_on_the_order() -> None:
    records = [loaded.record for loaded in load_records([*SEEDS, MATCH], Settings()).records]
    answers = {tuple(sorted(index_benchmarks(order, bundled_overrides()).entries.items()))
               for order in (records, records[::-1], records[1::2] + records[::2])}
    assert len(answers) == 1


def test_entries_that_share_a_dataset_and_a_paper_but_no_name_are_listed() -> None:
    one = entry("lm_eval", "darija_sentiment", "DarijaBench: Sentiment",
                papers=[{"arxiv": "2409.17912"}], datasets=["MBZUAI-Paris/DarijaBench"])
    other = entry("lm_eval", "darija_translation", "DarijaBench: Translation",
                  papers=[{"arxiv": "2409.17912"}], datasets=["MBZUAI-Paris/DarijaBench"])
    third = entry("lm_eval", "darija_other", "Other", datasets=["MBZUAI-Paris/DarijaBench"])
    records = [one, other, third]
    index = index_benchmarks(records)
    assert len({index.entries[r.key] for r in records}) == 3  # no merge on evidence alone
    (pair,) = unmatched_evidence(records, index)
    assert (pair.one, pair.other) == (one.key, other.key)
    assert pair.datasets == ("mbzuai-paris/darijabench",) and pair.papers == ("2409.17912",)


# -- entries that are no benchmark ------------------------------------------------------------

NOT_BENCHMARKS = read_overrides("""
[[not_a_benchmark]]
harness = "lm_eval"
entry = "leaderboard"
kind = "collection"
reason = "Groups other benchmarks' tasks."

[[not_a_benchmark]]
harness = "opencompass"
entry = "demo"
kind = "leave-out"
reason = "Example configs."

[[not_a_benchmark]]
harness = "lm_eval"
entry = "c4"
kind = "corpus"
reason = "A corpus of web text."

[[tasks]]
harness = "lm_eval"
entry = "leaderboard"
tasks = ["leaderboard_musr"]
benchmark = "MuSR"
reason = "The leaderboard runs MuSR as leaderboard_musr."
""")


def test_a_collection_is_its_own_grouping_and_claims_no_name() -> None:
    board = entry("lm_eval", "leaderboard", "Leaderboard", tasks=["leaderboard_musr", "x"])
    other = entry("helm", "leaderboard", "Leaderboard")  # a benchmark named like it
    musr = entry("inspect_evals", "musr", "MuSR")
    index = index_benchmarks([board, other, musr], NOT_BENCHMARKS)
    assert index.entries[board.key] == grouping_id(board.key) == "lm_eval_leaderboard"
    assert index.entries[other.key] == "leaderboard"
    assert index.kind_of(board) == "collection" and index.kind_of(other) == "benchmark"
    (move,) = index.tasks_moved(board)  # the benchmarks it groups
    assert (move.benchmark_id, move.tasks) == ("musr", ("leaderboard_musr",))
    assert index.problems == ()
    assert index.resolve("Leaderboard") == "leaderboard"


def test_an_entry_left_out_is_a_warning_naming_it() -> None:
    demo = entry("opencompass", "demo")
    index = index_benchmarks([demo], NOT_BENCHMARKS)
    assert index.kind_of(demo) == "leave-out"
    assert index.entries[demo.key] == "opencompass_demo"
    (problem,) = index.problems
    assert (problem.field, problem.value) == ("entries[demo]", "Example configs.")
    assert "left out" in problem.reason


def test_a_corpus_is_matched_as_any_entry_and_typed_a_corpus() -> None:
    c4 = entry("lm_eval", "c4", "C4")
    helm_c4 = entry("helm", "c4", "C4")
    index = index_benchmarks([c4, helm_c4], NOT_BENCHMARKS)
    assert index.entries[c4.key] == index.entries[helm_c4.key] == "c4"
    assert index.kind_of(c4) == "corpus"
    assert index.kind_of(helm_c4) == "benchmark"  # the file names each entry it means
    assert index.kind_of(DirectoryPage(title="C4")) == "benchmark"


@pytest.mark.parametrize(("text", "message"), [
    ('[[entry]]\nharness = "helm"\nentry = "a"\nbenchmark = "A"\nreason = "r"\n' * 2,
     "listed twice: helm:a"),
    ('[[not_a_benchmark]]\nharness = "helm"\nentry = "a"\nkind = "collection"\n'
     'reason = "r"\n[[entry]]\nharness = "helm"\nentry = "a"\nbenchmark = "A"\n'
     'reason = "r"\n', "no benchmark, yet an"),
    ('[[not_a_benchmark]]\nharness = "helm"\nentry = "a"\nkind = "suite"\nreason = "r"\n',
     "kind"),
    ('[[mirror]]\ndatasets = ["a/x"]\nreason = "r"\n', "datasets"),
    ('[[mirror]]\ndatasets = ["a/x", "b/x"]\nreason = "r"\n'
     '[[mirror]]\ndatasets = ["A/X", "c/x"]\nreason = "r"\n', "listed twice: a/x"),
])
def test_overrides_that_contradict_themselves_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        read_overrides(text)


def test_no_overrides_keep_every_entry_a_benchmark() -> None:
    demo = entry("opencompass", "demo")
    assert index_benchmarks([demo], Overrides()).kind_of(demo) == "benchmark"
