"""OpenCompass's result tables (its dataset READMEs) and model configs, read from the fixture
package ``tests/data/harvest/opencompass_results/``: one README a form, each folder named as
the real one where a rule of ``opencompass_results.toml`` names the folder."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from graph.ingest.harvest import harvest
from graph.ingest.harvest.opencompass import OpenCompassReader
from graph.ingest.harvest.opencompass_results_rules import bundled_rules, read_rules
from graph.ingest.harvest.reader import Reading
from graph.ingest.harvest.snapshot import snapshot_bytes
from graph.ingest.records.harness_snapshot import SNAPSHOT_FORMAT, Snapshot
from graph.ingest.records.stated_model import StatedModel
from graph.ingest.records.stated_result import StatedResult
from tests.test_harvest_archive import FIXTURES, build_wheel, entry_of, read_package

NOT_STATED = None
"""A metric the README does not name."""

PACKAGE = "opencompass_results"
DATASETS = "opencompass/configs/datasets/"
MODELS = "opencompass/configs/models/"


@pytest.fixture(scope="module")
def reading(tmp_path_factory: pytest.TempPathFactory) -> Reading:
    out = tmp_path_factory.mktemp("wheel")
    broken = {f"{MODELS}toy_broken/broken.py": b"models = [dict(abbr='x'\n"}
    return read_package(OpenCompassReader(), build_wheel(PACKAGE, out, extra=broken))


def results(reading: Reading, entry_id: str, **fields: object) -> list[StatedResult]:
    """The entry's results whose fields have those values."""
    return [r for r in entry_of(reading, entry_id).results
            if all(getattr(r, k) == v for k, v in fields.items())]


def one(reading: Reading, entry_id: str, **fields: object) -> StatedResult:
    (found,) = results(reading, entry_id, **fields)
    return found


def model(reading: Reading, model_id: str) -> StatedModel:
    (found,) = [m for m in reading.models if m.id == model_id]
    return found


def warnings(reading: Reading, member: str) -> list[tuple[str | None, str, str | None]]:
    return [(p.field, p.reason, p.value) for p in reading.problems
            if str(p.path).endswith(member)]


# -- model configs ------------------------------------------------------------------------


def test_a_hub_model_has_every_abbr_of_every_config_loading_it(reading: Reading) -> None:
    toy = model(reading, "toyorg/Toy-7B")
    assert toy.hub_id == "toyorg/Toy-7B"
    assert toy.aliases == ["toy-7b-hf", "toy-7b-turbomind"]  # a dict and a loop's row
    assert toy.source == [f"{MODELS}hf_toy/hf_toy_7b.py", f"{MODELS}hf_toy/lmdeploy_toy_series.py"]
    assert toy.maker is None  # "toyorg" is the hub id's owner, not a stated maker


def test_a_dict_literal_and_an_f_string_without_fields_are_read(reading: Reading) -> None:
    assert model(reading, "toyorg/Toy-7B-Chat").aliases == ["toy-7b-chat-hf",
                                                            "toy-7b-chat-lmdeploy"]


def test_a_loop_row_or_a_computed_abbr_without_a_name_still_loads_its_model(
    reading: Reading,
) -> None:
    assert model(reading, "toyorg/Toy-70B").aliases == ["toy-70b-turbomind"]
    assert model(reading, "toyorg/Toy-1B").aliases == []  # the row's abbr is None
    assert model(reading, "toyorg/Toy-3B").aliases == []  # abbr=path.split(...): computed


def test_an_api_model_is_the_model_its_service_names(reading: Reading) -> None:
    gpt = model(reading, "toy-gpt-0613")
    assert (gpt.hub_id, gpt.aliases) == (None, ["Toy-GPT-0613", "toy-gpt-0613-streaming"])
    served = model(reading, "toyorg/Toy-Served")  # a hub id's shape, asked of an API
    assert (served.hub_id, served.aliases) == (None, ["toy-served"])
    assert model(reading, "Toy-Lite-1116").aliases == []  # no abbr: its path names it


def test_a_local_or_modelscope_model_is_named_by_its_abbr(reading: Reading) -> None:
    assert model(reading, "toy-moe-32k").hub_id is None  # ./models/toy-moe: a folder
    assert model(reading, "toy-7b-ms").hub_id is None  # a ModelScope id, not the Hub's
    assert not [m for m in reading.models if m.id.startswith(("./", "toyorg/Toy-7B-MS"))]


def test_a_config_naming_no_model_or_not_python_is_one_warning(reading: Reading) -> None:
    assert warnings(reading, f"{MODELS}toy_local/toy_local.py") == [
        ("abbr", "a model config with no abbr and no model it loads: names no model", None)]
    assert [w[1] for w in warnings(reading, f"{MODELS}toy_broken/broken.py")] == [
        "not valid Python"]


def test_the_models_reach_the_snapshot(tmp_path: Path) -> None:
    (snapshot,) = harvest([build_wheel(PACKAGE, tmp_path)]).snapshots
    assert snapshot.format == SNAPSHOT_FORMAT == 4
    assert "toyorg/Toy-7B" in [m.id for m in snapshot.models]
    assert Snapshot.model_validate_json(snapshot_bytes(snapshot)) == snapshot


# -- "Base Models" / "Chat Models" tables (gsm8k, mmlu, ceval...) -------------------------


def test_a_base_models_table_takes_the_base_models_run_command(reading: Reading) -> None:
    toy = one(reading, "toy_qa", model="toy-7b-turbomind", table="Base Models", subset=None)
    assert (toy.value, toy.metric, toy.scale) == ("10.31", NOT_STATED, None)
    assert (toy.ran_by, toy.harness, toy.date) == ("harness_maintainers", "opencompass", None)
    assert toy.settings.prompt == "toy_qa_5shot_gen_abc123"  # hf_toy_7b: a base model
    assert (toy.settings.shots, toy.settings.chain_of_thought) == (5, None)
    assert toy.source == f"{DATASETS}toy_qa/README.md"


def test_a_chat_models_table_takes_the_chat_models_run_command(reading: Reading) -> None:
    chat = one(reading, "toy_qa", model="toy-7b-chat-lmdeploy")
    assert (chat.table, chat.value) == ("Chat Models", "55.00")
    assert chat.settings.prompt == "toy_qa_gen_def456"
    assert chat.settings.shots is None  # the config's name states none


def test_a_column_names_a_subset_unless_it_names_the_benchmark(reading: Reading) -> None:
    assert one(reading, "toy_qa", model="toy-7b-turbomind", subset="toy_qa-easy").value == (
        "20.50")  # **20.50**: bold dropped
    details = one(reading, "toy_qa", subset="college_toys")
    assert (details.table, details.value) == ("Base Models / Details", "37.50")
    assert not results(reading, "toy_qa", subset="ToyQA")  # the README's title: the whole


def test_an_empty_cell_states_nothing_and_a_word_is_a_warning(reading: Reading) -> None:
    assert not results(reading, "toy_qa", model="toy-70b-turbomind", subset="toy_qa-easy")
    assert not results(reading, "toy_qa", model="toy-7b-chat-lmdeploy", subset="toy_qa-easy")
    readme = f"{DATASETS}toy_qa/README.md"
    assert ("Chat Models", "result cells that are no number: left out",
            "'xx.xx' (1 cell)") in warnings(reading, readme)


def test_a_result_stated_twice_differently_keeps_the_first_and_warns(reading: Reading) -> None:
    assert one(reading, "toy_qa", model="toy-7b-chat-hf", subset=None).value == "56.25"
    assert ("Chat Models", "a result stated twice with different values: the first kept",
            "toy-7b-chat-hf: 56.25, 56.30") in warnings(
        reading, f"{DATASETS}toy_qa/README.md")


def test_metric_headings_and_subset_metric_headings(reading: Reading) -> None:
    stated = {(r.subset, r.metric): r.value for r in results(reading, "toy_code")}
    assert stated == {
        (None, "pass@1"): "25.29", (None, "pass"): "65",  # a count: no scale either way
        ("en", "pass@1"): "2.61", ("en", "timeout"): "8",
        ("toy/extra", NOT_STATED): "1.00",  # "extra" is no metric: the heading is a subset
    }
    assert {r.settings.prompt for r in results(reading, "toy_code")} == {None}  # no command


def test_one_config_for_every_command_serves_a_models_table(reading: Reading) -> None:
    bbeh = one(reading, "bbeh")
    assert (bbeh.model, bbeh.metric, bbeh.table) == ("Toy-7B-Chat-LMDeploy-API", "score",
                                                     "Models")
    assert (bbeh.settings.prompt, bbeh.ran_by) == ("bbeh_gen", "harness_maintainers")


def test_oc_results_are_the_maintainers_and_others_are_not_attributed(
    reading: Reading,
) -> None:
    assert one(reading, "toy_pro", table="OC results").ran_by == "harness_maintainers"
    other = one(reading, "toy_pro", table="Toy-pro results")
    assert (other.ran_by, other.harness, other.value) == ("not_stated", None, "61")


# -- OpenCompass's summary layout (babilong, musr, korbench, apps) -------------------------


def test_a_dataset_row_table_gives_subset_metric_version_and_mode(reading: Reading) -> None:
    rows = {(r.model, r.settings.other["mode"]): (r.metric, r.value, r.settings.other)
            for r in results(reading, "toy_summary", subset="toy_summary_a")}
    assert rows[("toy-70b-turbomind", "gen")] == (
        "accuracy", "9.60", {"version": "21f998", "mode": "gen"})
    assert rows[("toy-70b-turbomind", "fewshot")][1] == "3.20"  # same dataset, another mode
    assert len(rows) == 4
    average = one(reading, "toy_summary", subset="toy_summary_average")
    assert (average.model, average.metric, average.settings.other) == (
        "toy-7b-chat-turbomind", "naive_average", {"mode": "gen"})  # version "-": not stated
    assert average.ran_by == "not_stated"


def test_a_dataset_metric_table_and_a_dataset_table_without_metric(reading: Reading) -> None:
    coder = one(reading, "toy_summary", model="Toy-Coder-7b")
    assert (coder.subset, coder.metric, coder.value) == (None, "pass@1", "1.3")
    assert not results(reading, "toy_summary", table="Details of Datasets")


def test_a_readme_saying_opencompass_ran_it_is_the_maintainers(reading: Reading) -> None:
    babilong = one(reading, "babilong")
    assert (babilong.subset, babilong.metric, babilong.ran_by) == (
        "babilong_0k", "naive_average", "harness_maintainers")


# -- other forms --------------------------------------------------------------------------


def test_stacked_tables_of_models_by_column_are_split(reading: Reading) -> None:
    stated = {r.model: r.value for r in results(reading, "toy_stacked")}
    assert stated == {"Toy-Math-72B-Instruct": "20.00", "Toy-Math-7B-Instruct": "16.67",
                      "toy-math-chat": "3.33", "Toy-72B-Instruct": "31.25",
                      "toy_chat": "9.13"}  # the second's padding cells dropped
    assert {(r.table, r.metric, r.ran_by) for r in results(reading, "toy_stacked")} == {
        ("Performance", NOT_STATED, "not_stated")}


def test_models_by_column_in_two_rows_are_not_told_apart(reading: Reading) -> None:
    assert not results(reading, "toy_stacked", table="By year")
    assert ("By year", "a table of models by column with more than one row of values: the "
            "rows are not told apart, none is read", None) in warnings(
        reading, f"{DATASETS}toy_stacked/README.md")


def test_a_percent_value_and_a_setting_column(reading: Reading) -> None:
    found = {(r.metric, r.settings.other["Condition"]): (r.value, r.scale)
             for r in results(reading, "scicode", model="Toy-70B-Instruct")}
    assert found == {
        ("Subproblem Accuracy", "w/o Background"): ("21.53", "percent"),
        ("Main Problem Accuracy", "w/o Background"): ("4.62", "percent"),
        ("Subproblem Accuracy", "w/ Background"): ("24.31", "percent"),
        ("Main Problem Accuracy", "w/ Background"): ("7.69", "percent"),
    }
    assert {r.settings.prompt for r in results(reading, "scicode")} == {None}  # no rule ties


def test_a_model_column_by_rule_and_a_metric_in_brackets(reading: Reading) -> None:
    stated = {(r.model, r.subset, r.metric): r.value for r in results(reading, "livecodebench")}
    assert stated == {("Toy-7B-Instruct(HF)", "Code Generation", "pass@1"): "39.25",
                      ("Toy-7B-Instruct(HF)", "Code Execution", "pass@1"): "41.96"}
    assert not warnings(reading, f"{DATASETS}livecodebench/README.md")  # ✅/❌: no results


def test_a_judge_named_by_a_heading_and_a_title_below_level_one(reading: Reading) -> None:
    (first, second) = results(reading, "atlas")
    assert {first.settings.judge, second.settings.judge} == {"OpenAI o4-mini"}
    assert first.table == "Performance / OpenAI o4-mini as Judge"  # "## ToyAtlas": the title


def test_a_metric_the_readme_states_in_another_table(reading: Reading) -> None:
    stated = {r.subset: r.metric for r in results(reading, "toy_seed")}
    assert stated == {"QA-1": "Accuracy", "QA-2": "ROUGE-L", "Avg": NOT_STATED}
    assert {r.table for r in results(reading, "toy_seed")} == {
        "Key Results / Performance by Task Types"}


# -- the rules and the snapshot -------------------------------------------------------------


def test_the_bundled_rules_read_and_each_has_its_reason() -> None:
    rules = bundled_rules()
    assert rules.loads()["HuggingFaceBaseModel"] == "hub"
    assert rules.loads()["OpenAISDK"] == "api"
    assert "ModelScopeCausalLM" not in rules.loads()
    assert all(rule.reason for rule in [*rules.model_class, *rules.metric, *rules.table])


@pytest.mark.parametrize("text", [
    '[[metric]]\nname = "pass@1"\n',  # no reason
    '[[metric]]\nname = "pass@1"\nreason = "r"\nunknown = 1\n',
    '[shots]\npattern = "([0-9]+)shot"\nreason = "r"\n',  # no (?P<shots>...)
    '[[compound]]\npattern = "(?P<subset>.+)/(.+)"\nreason = "r"\n',  # no metric group
    '[[table]]\nran_by = "someone"\nreason = "r"\n',
])
def test_a_malformed_rule_file_is_refused(text: str) -> None:
    with pytest.raises(ValidationError):
        read_rules(text)


def test_the_same_package_gives_the_same_results(tmp_path: Path) -> None:
    reader = OpenCompassReader()
    folder = read_package(reader, FIXTURES / PACKAGE)
    wheel = read_package(reader, build_wheel(PACKAGE, tmp_path, reverse=True))
    assert folder.entries == wheel.entries and folder.models == wheel.models
