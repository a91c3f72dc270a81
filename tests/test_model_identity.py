"""Which names are one model: the rules of ``graph/mapping/models.toml`` beyond the key rule's
owner and backend steps, each on fixture records (``tests/data/model_identity/``, its README
says what each stands for), and what stays apart.

- ``[api_respelling]``: a package's model whose id is the id it calls a provider's API with,
  written with other separators (AlpacaEval's ``gpt4_1106_preview`` calling OpenAI's
  ``gpt-4-1106-preview``), is keyed by that API id, and so meets HELM's
  ``openai/gpt-4-1106-preview`` and its maker; one that adds to the API id (``_concise``) does
  not, nor does a dated snapshot meet its family.
- ``[[respelling]]``: Meta's Hub names ``Meta-Llama-3-70B`` are HELM's ``meta/llama-3-70b``.
- ``[[same]]``: known misses, each a key the rules give, joined to one of the same numbers.
- A system built on a model (AlpacaEval's best-of-n config sampling a model's weights) is a
  model of its own: the weights it loads do not key it, and its results stay off their node.
"""

import re
from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from graph.build.graphs import GraphInMemory, build
from graph.ingest.harvest.alpaca_eval import AlpacaEvalReader
from graph.ingest.harvest.model_ids import with_model_ids
from graph.ingest.harvest.snapshot import read_snapshot
from graph.ingest.records.harness_snapshot import Entry
from graph.mapping.model_names import bundled_model_rules, read_model_rules
from graph.namespace import BENCH, RDFS, SKOS
from graph.settings import Settings
from tests.seeds import SEEDS
from tests.test_harvest_archive import FIXTURES, read_package

FOLDER = Path(__file__).parent / "data" / "model_identity"
SETTINGS = Settings()
BASE = SETTINGS.base
RULES = bundled_model_rules()
Triples = set[tuple[object, object, object]]


def model(key: str) -> URIRef:
    return URIRef(f"{BASE}model/{key}")


def org(key: str) -> URIRef:
    return URIRef(f"{BASE}org/{key}")


@pytest.fixture(scope="module")
def built() -> GraphInMemory:
    result = build([*SEEDS, FOLDER], SETTINGS)
    assert result.report.rejected == [] and result.report.warnings == []
    return result


@pytest.fixture(scope="module")
def triples(built: GraphInMemory) -> Triples:
    return {(s, p, o) for s, p, o, _g in built.quads}


def results_of(triples: Triples, key: str) -> set[str]:
    """The entries (``…/benchmark/{entry}``) whose results name the model ``key``."""
    return {str(s).split("/result/")[0].rsplit("/", 1)[1]
            for s, p, o in triples if p == BENCH.model and o == model(key)}


def makers(triples: Triples, key: str) -> set[object]:
    return {o for s, p, o in triples if s == model(key) and p == BENCH.madeBy}


def scores(triples: Triples, key: str) -> set[str]:
    """The values of the results that name the model ``key``."""
    named = {s for s, p, o in triples if p == BENCH.model and o == model(key)}
    return {str(o) for s, p, o in triples if s in named and p == BENCH.score}


def unlinked(entries: list[Entry]) -> list[Entry]:
    """``entries`` as the reader gives them, before the harvest links their models."""
    return [entry.model_copy(update={"results": [
        r.model_copy(update={"model_id": None}) for r in entry.results]})
        for entry in entries]


# -- [api_respelling] -----------------------------------------------------------------------


def test_a_package_id_that_respells_its_api_id_is_keyed_by_the_api_id() -> None:
    assert RULES.record_name("gpt4_1106_preview", None, "gpt-4-1106-preview") == \
        "gpt-4-1106-preview"
    assert RULES.record_name("gpt35_turbo_instruct", None, "gpt-3.5-turbo-instruct") == \
        "gpt-3.5-turbo-instruct"
    # a Hugging Face id first; an id that adds to the API id, or another name, is its own
    assert RULES.record_name("gpt4", "openai/gpt-4", "gpt-4") == "openai/gpt-4"
    assert RULES.record_name("gpt4_1106_preview_concise", None, "gpt-4-1106-preview") == \
        "gpt4_1106_preview_concise"
    assert RULES.record_name("Meta-Llama-3-70B-Instruct", None,
                             "meta-llama/Llama-3-70b-chat-hf") == "Meta-Llama-3-70B-Instruct"
    assert RULES.record_name("claude", None, "claude-v1") == "claude"
    # without the rule in models.toml, the package's id
    without = read_model_rules("")
    assert without.record_name("gpt4_1106_preview", None, "gpt-4-1106-preview") == \
        "gpt4_1106_preview"


def test_the_alpaca_eval_reader_states_the_id_an_api_decoder_calls() -> None:
    found = {m.id: m for m in read_package(AlpacaEvalReader(), FIXTURES / "alpaca_eval").models}
    assert found["toy-api"].api_id == "toyorg/Toy-Api-Instruct"  # openai_completions
    assert found["toy-replicate"].api_id == "replicate/toy-chat:0123abcd"
    # a Hugging Face loader's model_name is a hub id, a config that decodes nothing none
    assert found["toy-chat-7b"].api_id is None and found["toy-hfapi"].api_id is None
    assert found["toy-null"].api_id is None


def test_the_harvest_gives_each_result_the_name_its_model_is_keyed_by() -> None:
    stated = read_snapshot((FOLDER / "alpaca_eval.json").read_bytes())
    bare = unlinked(stated.entries)
    linked = {r.model: r.model_id for e in with_model_ids(bare, stated.models) for r in e.results}
    assert linked["gpt4_1106_preview"] == "gpt-4-1106-preview"
    assert linked["gpt4_1106_preview_concise"] == "gpt4_1106_preview_concise"
    assert linked["Meta-Llama-3-70B-Instruct"] == "Meta-Llama-3-70B-Instruct"
    # the fixture's results are what the harvest makes of its models
    assert with_model_ids(bare, stated.models) == stated.entries


def test_an_api_models_names_meet_on_one_node_with_its_maker(triples: Triples) -> None:
    preview = model("gpt_4_1106_preview")
    assert results_of(triples, "gpt_4_1106_preview") == {"identity_win_rate"}
    assert makers(triples, "gpt_4_1106_preview") == {org("openai")}  # HELM says who
    assert (preview, RDFS.label, Literal("GPT-4 Turbo (1106 preview)")) in triples  # HELM
    assert (preview, RDFS.label, Literal("GPT-4 Preview (11/06)")) in triples  # AlpacaEval
    assert (preview, SKOS.altLabel, Literal("gpt4_1106_preview")) in triples
    # AlpacaEval's gpt4 (OpenAI's gpt-4) is the model inspect's README names gpt-4
    assert results_of(triples, "gpt_4") == {"identity_qa", "identity_win_rate"}
    assert not any(s == model("gpt4_1106_preview") for s, _p, _o in triples)


def test_a_variant_and_a_snapshot_stay_apart(triples: Triples) -> None:
    # the same API model asked for short answers: an entry of its own, no maker stated
    concise = Literal("GPT-4 Preview (concise)")
    assert results_of(triples, "gpt4_1106_preview_concise") == {"identity_win_rate"}
    assert (model("gpt4_1106_preview_concise"), RDFS.label, concise) in triples
    assert (model("gpt_4_1106_preview"), RDFS.label, concise) not in triples
    assert makers(triples, "gpt4_1106_preview_concise") == set()
    # a dated snapshot meets its other spellings, not its family
    assert results_of(triples, "gpt_4_0613") == {"identity_qa", "identity_win_rate"}
    assert (model("gpt_4_0613"), BENCH.snapshotOf, model("gpt_4")) in triples
    assert (model("gpt_4"), RDFS.label, Literal("gpt-4")) in triples
    assert makers(triples, "gpt_4") == set()  # HELM states the snapshot's maker, not gpt-4's


# -- a system built on a model ------------------------------------------------------------


def test_a_best_of_n_system_is_keyed_by_its_own_name() -> None:
    # the harvest fixture's pairrm-toy-chat-7b submits one of 16 completions (best_of: 16) of
    # toyorg/Toy-Chat-7b, the weights toy-chat-7b loads: this fixture's records are the
    # reader's, and the harvest links the system's result to the system, not to those weights
    read = {m.id: m for m in read_package(AlpacaEvalReader(), FIXTURES / "alpaca_eval").models}
    stated = read_snapshot((FOLDER / "alpaca_eval.json").read_bytes())
    assert [m for m in stated.models if m.id in read] == [
        read["pairrm-toy-chat-7b"], read["toy-chat-7b"]]
    linked = {r.model: r.model_id for e in with_model_ids(unlinked(stated.entries),
                                                          list(read.values()))
              for r in e.results}
    assert RULES.key(linked["pairrm-toy-chat-7b"] or "") == "pairrm_toy_chat_7b"
    assert RULES.key(linked["toy-chat-7b"] or "") == "toy_chat_7b"


def test_a_best_of_n_system_s_result_is_not_the_model_it_samples(triples: Triples) -> None:
    system = model("pairrm_toy_chat_7b")
    assert scores(triples, "pairrm_toy_chat_7b") == {"41.2"}
    assert scores(triples, "toy_chat_7b") == {"35.3"}  # the weights' own result alone
    assert (model("toy_chat_7b"), BENCH.hubId, Literal("toyorg/Toy-Chat-7b")) in triples
    assert not any(s == system and o == Literal("toyorg/Toy-Chat-7b")
                   for s, _p, o in triples)  # no hub id, no other name of it
    assert (system, RDFS.label, Literal("PairRM 0.4B+Toy Chat 7B (best-of-16)")) in triples


# -- [[respelling]] and [[same]] ------------------------------------------------------------


def test_meta_s_hub_names_are_helm_s_llama_3(triples: Triples) -> None:
    # OpenCompass's config loading meta-llama/Meta-Llama-3-70B, HELM's meta/llama-3-70b
    assert results_of(triples, "llama_3_70b") == {"identity_exam"}
    assert makers(triples, "llama_3_70b") == {org("meta")}
    # Together's id of the 405B Turbo, called by AlpacaEval and by HELM's deployment
    assert results_of(triples, "llama_3_1_405b_instruct_turbo") == {"identity_win_rate"}
    assert makers(triples, "llama_3_1_405b_instruct_turbo") == {org("meta")}
    assert not any(s == model("meta_llama_3_70b") for s, _p, _o in triples)


def test_one_provider_id_stated_by_two_packages_is_one_model(triples: Triples) -> None:
    # HELM's meta/llama-3-70b-chat calls Together's meta-llama/Llama-3-70b-chat-hf, as
    # AlpacaEval's Meta-Llama-3-70B-Instruct does; OpenCompass loads the Hub's repository
    instruct = model("llama_3_70b_instruct")
    assert results_of(triples, "llama_3_70b_instruct") == {"identity_exam", "identity_win_rate"}
    assert makers(triples, "llama_3_70b_instruct") == {org("meta")}
    assert (instruct, BENCH.hubId, Literal("meta-llama/Meta-Llama-3-70B-Instruct")) in triples
    assert (instruct, SKOS.altLabel, Literal("together/llama-3-70b-chat")) in triples
    # the base model, and the 8B, stay apart
    assert results_of(triples, "llama_3_8b_instruct") == {"identity_win_rate"}
    assert makers(triples, "llama_3_8b_instruct") == set()
    assert (model("llama_3_70b"), BENCH.hubId, Literal("meta-llama/Meta-Llama-3-70B")) in triples


def test_a_readme_spelling_the_rules_miss_meets_its_model(triples: Triples) -> None:
    assert results_of(triples, "qwen2_5_7b_instruct") == {"identity_exam"}
    assert results_of(triples, "gemma_2_9b_it") == {"identity_qa"}


@pytest.mark.parametrize(("name", "key"), [
    ("GPT3.5-Turbo", "gpt_3_5_turbo"),  # OpenCompass's s3eval table
    ("qwen-2_5-7b-instruct", "qwen2_5_7b_instruct"),  # OpenCompass's omni_math table
    ("Qwen/Qwen2.5-7B-Instruct", "qwen2_5_7b_instruct"),
    ("LLaMA3.1-70B-Instruct", "llama_3_1_70b_instruct"),  # OpenCompass's ARC Prize table
    ("meta-llama/Meta-Llama-3.1-70B-Instruct", "llama_3_1_70b_instruct"),
    ("meta/llama-3.1-70b-instruct", "llama_3_1_70b_instruct"),
    ("groq/gemma2-9b-it", "gemma_2_9b_it"),  # inspect's pre_flight table
    ("gemma2-9b-it-hf", "gemma_2_9b_it"),  # OpenCompass's config
    ("meta/llama-3-8b-chat", "llama_3_8b_instruct"),  # HELM
    ("meta-llama/Meta-Llama-3-8B-Instruct", "llama_3_8b_instruct"),
    ("meta-llama/Llama-3.1-8B-Instruct", "llama_3_1_8b_instruct"),  # HELM's hub id
    ("meta-llama/Meta-Llama-3.1-8B-Instruct", "llama_3_1_8b_instruct"),  # OpenCompass's
    # apart: the baseline no config names, a Turbo deployment, a guard model, a size
    ("gpt4_turbo", "gpt4_turbo"),
    ("meta/llama-3.1-70b-instruct-turbo", "llama_3_1_70b_instruct_turbo"),
    ("meta-llama/Llama-Guard-3-8B", "llama_guard_3_8b"),
    ("meta-llama/Meta-Llama-3-8B", "llama_3_8b"),
])
def test_the_names_sources_write_and_their_keys(name: str, key: str) -> None:
    assert RULES.key(name) == key


def test_no_known_miss_joins_two_sizes_versions_or_a_snapshot_and_its_family() -> None:
    names = {item.name for item in RULES.same}
    for item in RULES.same:
        assert RULES.spelled(item.name) == item.name, item  # a key the rules give, else dead
        assert item.model not in names, item  # no chains
        assert re.findall(r"[0-9]+", item.name) == re.findall(r"[0-9]+", item.model), item
        assert RULES.family(item.name) != item.model, item
        assert RULES.family(item.model) != item.name, item
        assert item.reason.strip(), item
    with pytest.raises(ValueError, match="itself"):
        read_model_rules('[[same]]\nname = "a"\nmodel = "a"\nreason = "r"\n')


def test_a_respelling_is_data_with_its_reason() -> None:
    rules = read_model_rules("[[respelling]]\npattern = '^toy_corp_(?=[0-9])'\n"
                             "replacement = 'toy_'\nreason = \"The Hub's names.\"\n")
    assert (rules.key("toyorg/Toy-Corp-3-8B"), rules.key("Toy-Corp-Guard")) == \
        ("toy_3_8b", "toy_corp_guard")
    with pytest.raises(ValueError, match="reason"):
        read_model_rules("[[respelling]]\npattern = 'a'\nreplacement = 'b'\n")
