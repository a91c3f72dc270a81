"""The third record kind, the harness registry entry: the snapshot importer, the matching of
entries across harnesses and with curated records, and what the mapping states (and does not
guess). The catalog is the two seeds and ``tests/data/harness_match/`` (its README lists the
case each entry stands for)."""

import json
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest
from pybtex.database import parse_string
from rdflib import Literal, URIRef

from graph.build.graphs import GraphInMemory, Question, build
from graph.dataset.quads import Quad
from graph.export.bibtex import bibtex
from graph.ingest.importers.base import RecordRejected
from graph.ingest.importers.harness_snapshot import HarnessSnapshotImporter
from graph.ingest.importers.reading import read_source
from graph.ingest.loader import load_records
from graph.ingest.records import HarnessEntry
from graph.mapping.identity import index_benchmarks
from graph.namespace import BENCH, BENCH_IRI, DCTERMS, RDFS, SKOS, XSD
from graph.settings import Settings
from graph.sparql.named import load_named_queries
from graph.sparql.parameters import bind_parameters
from graph.store.base import Store
from graph.store.kinds import StoreSpec, open_store
from tests.seeds import SEEDS

DATA = Path(__file__).parent / "data"
MATCH = DATA / "harness_match"
SETTINGS = Settings()
BASE = SETTINGS.base


@pytest.fixture(scope="module")
def built() -> GraphInMemory:
    result = build([*SEEDS, MATCH], SETTINGS)
    assert result.report.rejected == []
    return result


@pytest.fixture(scope="module")
def store(built: GraphInMemory) -> Iterator[Store]:
    opened = open_store(StoreSpec.parse("memory"), SETTINGS, built=built.records)
    yield opened
    opened.close()


def rows(store: Store, name: str, **params: str) -> list[tuple[str, ...]]:
    query = load_named_queries()[name]
    result = store.query(query.text, bindings=bind_parameters(query, params, BASE))
    nodes = {link.node for link in query.node_links}  # the IRIs the names link to
    return [tuple(str(getattr(term, "value", term)).replace(BENCH_IRI, "bench:")
                  for name, term in zip(result.variables, row, strict=True) if name not in nodes)
            for row in result.rows]


def benchmark(benchmark_id: str) -> URIRef:
    return URIRef(f"{BASE}benchmark/{benchmark_id}")


def record(key: str) -> URIRef:
    return URIRef(f"{BASE}record/{key}")


def described(quads: list[Quad]) -> dict[str, str]:
    """Record key -> the id of the benchmark its record describes."""
    return {str(g).removeprefix(f"{BASE}record/"): str(o).removeprefix(f"{BASE}benchmark/")
            for s, p, o, g in quads if p == BENCH.describes and s == g}


# -- the importer -----------------------------------------------------------------------


def snapshot_text(**changes: object) -> str:
    data = json.loads((MATCH / "opencompass.json").read_text("utf-8"))
    data.update(changes)
    return json.dumps(data)


def load(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "h" / "snap.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    report = load_records([tmp_path / "h"], SETTINGS)
    return [str(p) for p in report.rejected] + [str(loaded.key) for loaded in report.records]


def test_a_snapshot_is_one_record_per_entry_each_with_its_key(tmp_path: Path) -> None:
    assert load(tmp_path, snapshot_text()) == ["snap_superglue_boolq", "snap_toyqa"]


def test_a_broken_entry_is_rejected_alone_named_by_its_id(tmp_path: Path) -> None:
    data = json.loads(snapshot_text())
    data["entries"][0]["tasks"] = "BoolQ"  # a list in the model
    data["entries"].append({"id": "toyqa", "name": "again", "source": ["x/"]})
    got = load(tmp_path, json.dumps(data))
    path = tmp_path / "h" / "snap.json"
    assert got[0].startswith(f"{path}: entries[SuperGLUE_BoolQ].tasks: ")
    assert got[1] == f"{path}: entries[toyqa].id: an earlier entry of the file has this id"
    assert got[2:] == ["snap_toyqa"]


def test_a_broken_header_rejects_the_file(tmp_path: Path) -> None:
    got = load(tmp_path, snapshot_text(harness="no_such_harness"))
    assert len(got) == 1 and ": harness: " in got[0]


def test_only_a_snapshot_is_claimed_by_the_importer(tmp_path: Path) -> None:
    importer = HarnessSnapshotImporter()
    path = tmp_path / "page.json"
    path.write_text('{"page": {"id": "x", "name": "uses the word \\"entries\\": here"}}')
    assert not importer.can_read(read_source(path, Path("page.json"), SETTINGS))  # type: ignore[arg-type]
    path.write_text(snapshot_text())
    assert importer.can_read(read_source(path, Path("page.json"), SETTINGS))  # type: ignore[arg-type]
    path.write_text("[]")
    with pytest.raises(RecordRejected):
        importer.load(read_source(path, Path("page.json"), SETTINGS), SETTINGS)  # type: ignore[arg-type]


def test_the_notice_beside_the_snapshots_is_no_record() -> None:
    report = load_records([DATA / "harness_records"], SETTINGS)
    assert report.rejected == []
    assert {loaded.source.relative.name for loaded in report.records} == {
        "alpaca_eval.json", "evalscope.json", "helm.json", "inspect_evals.json", "lighteval.json",
        "lm_eval.json", "lmms_eval.json", "opencompass.json"}


# -- matching -----------------------------------------------------------------------------


def test_entries_meet_by_name_confirmed_by_the_arxiv_id(built: GraphInMemory) -> None:
    found = described(built.quads)
    assert {k: v for k, v in found.items() if not k[0].isdigit()} == {
        "helm_mimic_rrs": "mimic_rrs",        # the seed's catalog page
        "helm_gsm": "gsm8k",                  # the bundled override
        "lm_eval_gsm8k": "gsm8k",
        "inspect_evals_gsm8k": "gsm8k",
        "helm_toyqa": "toyqa",
        "lm_eval_toyqa": "toyqa",
        "inspect_evals_toyqa": "toyqa",
        "opencompass_toyqa": "toyqa",
        "helm_toyqa_hard": "toyqa_hard",      # cites ToyQA's paper: no merge
        "lm_eval_grade_math": "grademath",    # loads GSM8K's data: no merge
        "helm_twin": "twin",                  # two papers: kept apart
        "lm_eval_twin": "twin_lm_eval",
        "helm_toy_planned": "toy_planned",
        "lm_eval_super_glue": "superglue",
        "opencompass_superglue_boolq": "boolq",  # the bundled override
        "evalscope_toyqa": "toyqa",           # AI-ModelScope/toyqa: a mirror, no veto
        "lighteval_toychem": "toychem_lighteval",  # other datasets, no paper that agrees
        "evalscope_toychem": "toychem",
        "lighteval_doibench": "doibench",     # other datasets, the same DOI
        "evalscope_doibench": "doibench",
        "lighteval_titleqa": "titleqa",       # other datasets, the same title
        "evalscope_titleqa": "titleqa",
        "lighteval_doitwin": "doitwin_lighteval",  # two DOIs: kept apart
        "evalscope_doitwin": "doitwin",
        "lighteval_toysplit": "toysplit",     # toysplit_val: the name and its split, no veto
        "evalscope_toysplit": "toysplit",
        "lighteval_toyweb": "toyweb",         # a web address is no dataset id: no veto
        "evalscope_toyweb": "toyweb",
    }


def test_a_disagreement_of_papers_is_a_warning_and_no_merge(built: GraphInMemory) -> None:
    warned = [str(w) for w in built.report.warnings]
    assert f"{MATCH / 'lm_eval.json'}: entries[twin].papers: entries of the same name cite " \
           "another paper: kept apart (value 'twin: arXiv 2402.00002')" in warned


def test_an_override_naming_a_task_the_entry_lacks_is_a_warning(built: GraphInMemory) -> None:
    warned = [str(w) for w in built.report.warnings]
    assert any("entries[super_glue].tasks: an override names a task the entry does not have"
               in w for w in warned)


def test_a_task_override_moves_the_task_to_its_benchmark(built: GraphInMemory) -> None:
    quads = set(built.quads)
    boolq_task = URIRef(f"{BASE}benchmark/boolq/task/lm_eval")
    glue_task = URIRef(f"{BASE}benchmark/superglue/task/lm_eval")
    graph = record("lm_eval_super_glue")
    assert (boolq_task, BENCH.taskName, Literal("boolq"), graph) in quads
    assert (glue_task, BENCH.taskName, Literal("boolq"), graph) not in quads
    assert (glue_task, BENCH.taskName, Literal("cb"), graph) in quads


def test_the_match_never_depends_on_the_order() -> None:
    records = [loaded.record for loaded in load_records([*SEEDS, MATCH], SETTINGS).records]
    forward = index_benchmarks(records)
    backward = index_benchmarks(list(reversed(records)))
    assert forward.entries == backward.entries
    assert forward.entry_labels == backward.entry_labels


def test_a_planted_merge_on_the_arxiv_id_alone_would_be_caught(built: GraphInMemory) -> None:
    """The test above fails on the over-merge it guards against: give ToyQA-Hard ToyQA's
    name as an alias and it joins ToyQA."""
    records = [loaded.record for loaded in load_records([*SEEDS, MATCH], SETTINGS).records]
    changed = []
    for item in records:
        if isinstance(item, HarnessEntry) and item.entry.id == "toyqa_hard":
            entry = item.entry.model_copy(update={"aliases": ["ToyQA"]})
            item = HarnessEntry(item.package, entry)
        changed.append(item)
    assert index_benchmarks(changed).entries["helm", "toyqa_hard"] == "toyqa"


# -- what an entry states -------------------------------------------------------------------


def test_curated_and_harvested_records_meet_on_one_node_in_their_own_graphs(
    built: GraphInMemory,
) -> None:
    quads = set(built.quads)
    node = benchmark("mimic_rrs")
    page, entry = record("000_501ccd0cd0e2608f"), record("helm_mimic_rrs")
    assert (page, BENCH.importer, Literal("catalog-page"), page) in quads
    assert (entry, BENCH.importer, Literal("harness-registry"), entry) in quads
    assert (node, RDFS.label, Literal("MIMIC-RRS (MedHELM)"), page) in quads
    assert (node, SKOS.altLabel, Literal("MIMIC-RRS"), entry) in quads  # the curated name leads
    assert (entry, BENCH.statedIn, Literal("helm/benchmark/static/schema_medhelm.yaml"),
            entry) in quads
    package = URIRef(f"{BASE}package/crfm_helm_9_9_1")
    assert any(s == entry and o == package for s, _, o, _ in quads)


def test_access_is_stated_never_guessed(built: GraphInMemory) -> None:
    quads = set(built.quads)
    entry = record("helm_mimic_rrs")
    stated = {(s, p, o) for s, p, o, g in quads if g == entry}
    assert not any(p == BENCH.accessLevel for _, p, _ in stated)
    subtask = URIRef(f"{BASE}benchmark/mimic_rrs/task/helm/mimic_rrs")
    assert (subtask, BENCH.needsLocalData, Literal("data_path")) in stated
    assert (subtask, BENCH.statedIn,
            Literal("helm/benchmark/run_specs/medhelm_run_specs.py")) in stated
    # the curated record's gated level stays the only one
    levels = {o for s, p, o, _ in quads if s == benchmark("mimic_rrs") and p == BENCH.accessLevel}
    assert levels == {URIRef(BENCH_IRI + "Gated")}
    # a benchmark only harnesses describe has no access level at all
    assert not any(s == benchmark("toyqa") and p == BENCH.accessLevel for s, p, _, _ in quads)


def test_local_data_is_stated_as_where_it_lies_and_what_downloads_it() -> None:
    result = build([DATA / "harness_records"], SETTINGS)
    task = f"{BASE}benchmark/toy_plain/task/opencompass/toy_plain_gen"
    stated = {(p, o) for s, p, o, _ in result.quads if s == URIRef(task)}
    assert (BENCH.localPath, Literal("./data/toy_plain/test.jsonl")) in stated
    assert (BENCH.downloadUrl, Literal("https://example.org/toy_plain_old.zip",
                                       datatype=XSD.anyURI)) in stated
    # only what OpenCompass cannot download is the user's to supply, named by the key
    assert {o for p, o in stated if p == BENCH.needsLocalData} == {Literal("path")}
    assert (BENCH.statedIn, Literal("opencompass/configs/datasets/toy_plain/toy_plain_gen.py")
            ) in stated


def _citing(harness: str, title: str) -> str:
    """A snapshot of ``harness`` with one entry that cites arXiv 2406.10149 as ``title``."""
    return json.dumps({"format": 4, "harness": harness, "package": harness, "version": "1",
                       "entries": [{"id": "babi_long", "name": "BABILong", "source": ["x/"],
                                    "papers": [{"arxiv": "2406.10149", "title": title}]}]})


def test_a_title_two_entries_write_in_two_cases_is_one_title(tmp_path: Path) -> None:
    (tmp_path / "lm_eval.json").write_text(_citing("lm_eval", "Babilong: Long Context"))
    (tmp_path / "opencompass.json").write_text(_citing("opencompass", "BABILong: Long Context"))
    result = build([tmp_path], SETTINGS)
    paper = URIRef(f"{BASE}paper/2406.10149")
    assert {o for s, p, o, _ in result.quads if s == paper and p == DCTERMS.title} == {
        Literal("BABILong: Long Context")}  # the capitals BibTeX's styles drop are kept
    asked = Question("title_as", "Babilong: Long Context", "BABILong: Long Context")
    assert asked in result.asked["lm_eval_babi_long"]
    # an incremental build maps the entry again once no other entry writes the title so
    (tmp_path / "opencompass.json").unlink()
    (record,) = [loaded.record for loaded in load_records([tmp_path], SETTINGS).records]
    assert not asked.asked_again(index_benchmarks([record]), record)


def test_a_titles_capitals_stay_in_its_bibtex(tmp_path: Path) -> None:
    (tmp_path / "lm_eval.json").write_text(_citing("lm_eval", "BABILong: Testing {LLMs"))
    built = build([tmp_path], SETTINGS)
    store = open_store(StoreSpec.parse("memory"), SETTINGS, built=built.records)
    try:
        written = bibtex(store, [ox.NamedNode(f"{BASE}paper/2406.10149")])
    finally:
        store.close()
    (entry,) = parse_string(written, "bibtex").entries.values()
    # a style lowers what braces do not protect; the title's own unpaired brace is left out
    assert entry.fields["title"] == "{BABILong:} Testing {LLMs}"


def test_a_harness_suite_is_the_vocabularys_member(built: GraphInMemory) -> None:
    quads = {(s, p, o) for s, p, o, _ in built.quads}
    assert (benchmark("mimic_rrs"), BENCH.inSuite, URIRef(BENCH_IRI + "MedHELM")) in quads
    assert (benchmark("gsm8k"), BENCH.inSuite, URIRef(BENCH_IRI + "HELMLite")) in quads


def test_two_spellings_of_one_tag_are_one_tag_node(built: GraphInMemory) -> None:
    tag = URIRef(f"{BASE}tag/math_word_problems")
    notations = {o for s, p, o, _ in built.quads if s == tag and p == SKOS.notation}
    assert notations == {Literal("math-word-problems")}


# -- the named queries of the cross-walk ------------------------------------------------------


def test_benchmarks_run_by_several_harnesses_with_their_task_names(store: Store) -> None:
    assert rows(store, "multi-harness", least="3") == [
        ("toyqa", "ToyQA", "5", "bench:EvalScope", "toyqa"),
        ("toyqa", "ToyQA", "5", "bench:HELM", "toyqa"),
        ("toyqa", "ToyQA", "5", "bench:InspectEvals", "toyqa"),
        ("toyqa", "ToyQA", "5", "bench:LMEvalHarness", "toyqa toyqa_all"),
        ("toyqa", "ToyQA", "5", "bench:OpenCompass", "ToyQA"),
        ("gsm8k", "GSM8K", "3", "bench:HELM", "gsm"),
        ("gsm8k", "GSM8K", "3", "bench:InspectEvals", "gsm8k"),
        ("gsm8k", "GSM8K", "3", "bench:LMEvalHarness", "gsm8k gsm8k_cot"),
    ]
    assert {row[0] for row in rows(store, "multi-harness")} == {
        "toyqa", "gsm8k", "boolq", "doibench", "titleqa", "toysplit", "toyweb"}


def test_benchmarks_whose_harnesses_disagree(store: Store) -> None:
    assert rows(store, "harness-conflicts") == [
        ("doibench", "DoiBench", "dataset", "bench:EvalScope", "mirrororg/db-full"),
        ("doibench", "DoiBench", "dataset", "bench:Lighteval", "toyorg/doibench"),
        ("gsm8k", "GSM8K", "metric", "bench:HELM", "final_number_exact_match"),
        ("gsm8k", "GSM8K", "metric", "bench:LMEvalHarness", "exact_match"),
        ("titleqa", "TitleQA", "dataset", "bench:EvalScope", "otherorg/tq"),
        ("titleqa", "TitleQA", "dataset", "bench:Lighteval", "toyorg/titleqa"),
        ("toyqa", "ToyQA", "dataset", "bench:EvalScope", "AI-ModelScope/toyqa"),
        ("toyqa", "ToyQA", "dataset", "bench:HELM", "toyorg/toyqa"),
        ("toyqa", "ToyQA", "dataset", "bench:LMEvalHarness", "toyorg/toyqa-mirror"),
        ("toyqa", "ToyQA", "metric", "bench:HELM", "exact_match"),
        ("toyqa", "ToyQA", "metric", "bench:LMEvalHarness", "acc"),
        ("toyqa", "ToyQA", "samples", "bench:HELM", "120"),
        ("toyqa", "ToyQA", "samples", "bench:InspectEvals", "100"),
        ("toysplit", "ToySplit", "dataset", "bench:EvalScope", "mirrororg/toysplit_val"),
        ("toysplit", "ToySplit", "dataset", "bench:Lighteval", "toyorg/toysplit"),
        ("toyweb", "ToyWeb", "dataset", "bench:EvalScope", "otherorg/toyweb-questions"),
        ("toyweb", "ToyWeb", "dataset", "bench:Lighteval", "https://example.org/toyweb/test.csv"),
    ]
