"""Results from several sources, end to end (issue 37): one model node however a source names
the model, a dated snapshot linked to its family, results as claims with their settings and
provenance, and the comparability rule (results are ranked only within one metric, subset and
setting; overlapping standard errors share a rank; unstated settings are not ranked).
The catalog is the seeds and ``tests/data/results/`` (its README says what each stands for)."""

from decimal import Decimal
from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from graph.build.graphs import GraphInMemory
from graph.ingest.records.stated_result import Settings as Stated
from graph.mapping.model_names import bundled_model_rules, read_model_rules
from graph.mapping.results import settings_key
from graph.namespace import BENCH, BENCH_IRI, DQV, RDF, RDFS, XSD
from graph.settings import Settings
from graph.sparql.named import load_named_queries
from graph.sparql.parameters import bind_parameters
from graph.store.base import Store
from graph.validation.validate import validate
from tests.store_kinds import seeds_and

RESULTS = Path(__file__).parent / "data" / "results"
SETTINGS = Settings()
BASE = SETTINGS.base
GSM8K = URIRef(f"{BASE}benchmark/gsm8k")
QUERIES = load_named_queries()


def model(key: str) -> URIRef:
    return URIRef(f"{BASE}model/{key}")


built, triples, store = seeds_and(RESULTS, SETTINGS)


def ask(store: Store, name: str, **params: str) -> list[dict[str, str | None]]:
    """The named query's rows, each value as text (a number by its value: ``0.56``)."""
    query = QUERIES[name]
    answer = store.query(query.text, bindings=bind_parameters(query, params, BASE))
    return [{variable: _text(value) for variable, value in zip(answer.variables, row,
                                                                strict=True)}
            for row in answer.rows]


def _text(value: object) -> str | None:
    if value is None:
        return None
    text = str(value.value)  # type: ignore[attr-defined]
    try:
        return format(Decimal(text).normalize(), "f")
    except ArithmeticError:
        return text


@pytest.mark.parametrize(("name", "key"), [
    ("meta-llama/Llama-2-70b-hf", "llama_2_70b"),  # the Hub id: its last part
    ("llama-2-70b-turbomind", "llama_2_70b"),  # a serving backend: the same model
    ("llama-2-70b-vllm", "llama_2_70b"),
    ("meta/llama-2-70b", "llama_2_70b"),  # HELM's name
    ("Qwen/Qwen1.5-72B", "qwen1_5_72b"),
    ("qwen1.5-72b-hf", "qwen1_5_72b"),
    ("gpt-4o-2024-05-13", "gpt_4o_2024_05_13"),  # a dated snapshot keeps its own key
])
def test_the_names_of_one_model_meet_on_one_key(name: str, key: str) -> None:
    assert bundled_model_rules().key(name) == key


@pytest.mark.parametrize(("key", "family"), [
    ("gpt_4o_2024_05_13", "gpt_4o"), ("claude_3_5_sonnet_20240620", "claude_3_5_sonnet"),
    ("gpt_4_0613", "gpt_4"), ("llama_2_70b", None), ("mistral_large_2407", None),
])
def test_a_dated_snapshot_names_its_family(key: str, family: str | None) -> None:
    assert bundled_model_rules().family(key) == family


def test_a_known_miss_is_data_with_its_reason() -> None:
    rules = read_model_rules('[[same]]\nname = "gpt4_turbo"\nmodel = "gpt_4_turbo"\n'
                             'reason = "AlpacaEval writes it without a dash."\n')
    assert rules.key("gpt4_turbo") == "gpt_4_turbo"
    with pytest.raises(ValueError, match="reason"):
        read_model_rules('[[same]]\nname = "a"\nmodel = "b"\n')


def test_results_of_three_sources_meet_on_one_model(triples: set) -> None:
    llama = model("llama_2_70b")
    results = {s for s, p, o in triples if p == BENCH.model and o == llama}
    assert len(results) == 2  # OpenCompass's llama-2-70b-turbomind, inspect's Hub id
    assert (llama, BENCH.madeBy, URIRef(f"{BASE}org/meta")) in triples  # HELM says who
    assert (llama, BENCH.hubId, Literal("meta-llama/Llama-2-70b-hf")) in triples
    assert (llama, BENCH.parameterCount, Literal("70000000000", datatype=XSD.integer)) \
        in triples
    assert (model("gpt_4o_2024_05_13"), BENCH.snapshotOf, model("gpt_4o")) in triples


def test_a_result_is_a_claim_with_its_settings_and_provenance(triples: set) -> None:
    found = [s for s, p, o in triples if p == BENCH.model and o == model("gpt_4o_2024_05_13")]
    ours = next(r for r in found if (r, BENCH.reportedAs, Literal("reproduction")) in triples)
    assert (ours, RDF.type, DQV.QualityMeasurement) in triples
    # decimals as the store keeps them: 0.920 as 0.92, the same value
    assert (ours, BENCH.score, Literal(Decimal("0.92"))) in triples
    assert (ours, BENCH.normalisedScore, Literal(Decimal("0.92"))) in triples
    assert (ours, BENCH.standardError, Literal(Decimal("0.01"))) in triples
    assert (ours, BENCH.settingsKey, Literal("inspect_evals · 5-shot")) in triples
    assert (ours, BENCH.ranBy, URIRef(f"{BENCH_IRI}RunByHarnessMaintainers")) in triples
    assert (ours, BENCH.dateStatedAs, Literal("Results generated December 2025")) in triples
    assert (ours, BENCH.statedIn, Literal("inspect_evals/gsm8k/README.md")) in triples
    metric = next(o for s, p, o in triples if s == ours and p == DQV.isMeasurementOf)
    assert (metric, RDFS.label, Literal("accuracy")) in triples
    turbomind = next(s for s, p, o in triples if p == BENCH.model and o == model("llama_2_70b")
                     and (s, BENCH.unit, Literal("percent")) in triples)
    assert (turbomind, BENCH.normalisedScore, Literal(Decimal("0.576"))) in triples


def test_settings_make_one_canonical_line() -> None:
    assert settings_key(None, None, Stated()) is None  # nothing stated: not comparable
    assert settings_key("inspect_evals", "2-B", Stated(shots=5, chain_of_thought=True,
                                                       epochs=1, other={"t": "0.5"})) == \
        "inspect_evals 2-B · 5-shot · chain of thought · 1 epoch · t=0.5"


def test_the_leaderboard_ranks_only_what_was_run_alike(store: Store) -> None:
    rows = ask(store, "leaderboard", benchmark="gsm8k")
    by_setting: dict[str, list[tuple[str | None, str | None]]] = {}
    for row in rows:
        by_setting.setdefault(row["settings"] or "", []).append((row["rank"], row["score"]))
    assert by_setting["inspect_evals · 5-shot"] == [("1", "0.92"), ("1", "0.905"),
                                                    ("3", "0.56")]  # a tie, then a gap
    assert by_setting["inspect_evals · 0-shot"] == [("1", "0.99")]  # never ranked with 5-shot
    assert by_setting["opencompass · prompt gsm8k_gen_1d7fe4"] == [("1", "79.5"), ("2", "57.6")]
    assert by_setting["not stated"] == [(None, "0.95")]  # the paper's figure: apart
    assert rows[-1]["settings"] == "not stated"
    assert {row["ran_by"] for row in rows} == {"HarnessMaintainers", "PaperAuthors"}


def test_paper_against_reproduction(store: Store) -> None:
    (row,) = ask(store, "paper-vs-reproduction")
    assert (row["reproduction"], row["paper"], row["difference"]) == ("0.92", "0.95", "-0.03")


def test_a_models_results_across_sources(store: Store) -> None:
    rows = ask(store, "model-results", model="llama 2")
    assert sorted(row["score"] for row in rows) == ["0.56", "57.6"]
    assert {row["date"] for row in rows} == {"not stated"}


def test_the_graph_validates(built: GraphInMemory) -> None:
    report = validate(built.store, SETTINGS)
    assert report.conforms, [str(result) for result in report.results][:5]
