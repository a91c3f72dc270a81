"""alpaca-eval: AlpacaEval 2.0 and AlpacaEval as entries with their leaderboards' results
(each file's annotator a setting, each row's mode who ran it), the README's results table,
and one model per model config (a best-of-n system one of its own, not the model it samples);
a bad member, row or cell spoils only itself."""

from pathlib import Path

import pytest

from graph.ingest.harvest import harvest
from graph.ingest.harvest.alpaca_eval import AlpacaEvalReader
from graph.ingest.harvest.alpaca_eval_rules import RULES_FILE, read_rules
from graph.ingest.harvest.archive import open_archive
from graph.ingest.harvest.reader import Reading
from graph.ingest.harvest.snapshot import snapshot_bytes
from graph.ingest.records.stated_model import StatedModel
from graph.ingest.records.stated_result import StatedResult
from tests.test_harvest_archive import FIXTURES, build_wheel, entry_of, read_package

AE2 = "alpaca_eval/leaderboards/data_AlpacaEval_2/"
AE1 = "alpaca_eval/leaderboards/data_AlpacaEval/"
MAIN = AE2 + "weighted_alpaca_eval_gpt4_turbo_leaderboard.csv"
README = "alpaca_eval-9.9.7.dist-info/METADATA"
RULES = (Path(__file__).parents[1] / "graph" / "ingest" / "harvest" / RULES_FILE).read_text(
    "utf-8")


def read(path: Path, reader: AlpacaEvalReader | None = None) -> Reading:
    return read_package(reader or AlpacaEvalReader(), path)


@pytest.fixture(scope="module")
def reading(tmp_path_factory: pytest.TempPathFactory) -> Reading:
    return read(build_wheel("alpaca_eval", tmp_path_factory.mktemp("wheels")))


def warnings(reading: Reading) -> set[tuple[str, str | None, str]]:
    return {(str(p.path).split(".whl/", 1)[1], p.field, p.reason) for p in reading.problems}


def results(reading: Reading, entry_id: str, model: str, source: str = MAIN,
            ) -> dict[str, StatedResult]:
    """One model's results in one file, by metric."""
    return {r.metric: r for r in entry_of(reading, entry_id).results
            if r.model == model and r.source == source}


def model(reading: Reading, model_id: str) -> StatedModel:
    (found,) = [m for m in reading.models if m.id == model_id]
    return found


def test_the_reader_is_chosen_by_the_packages_metadata_name() -> None:
    with open_archive(FIXTURES / "alpaca_eval") as archive:
        assert archive.package().normalized_name == AlpacaEvalReader.distribution
    assert AlpacaEvalReader.harness == "alpaca_eval"


def test_one_entry_per_version_with_what_the_package_states_of_it(reading: Reading) -> None:
    assert sorted(e.id for e in reading.entries) == ["alpaca_eval", "alpaca_eval_2"]
    two, one = entry_of(reading, "alpaca_eval_2"), entry_of(reading, "alpaca_eval")
    assert (two.name, two.aliases, one.name, one.aliases) == (
        "AlpacaEval 2.0", [], "AlpacaEval", ["AlpacaEval 1.0"])
    # the README's Overview paragraph, its link as text; not the paragraph after it
    assert one.description == two.description == (
        "ToyEval compares a model's outputs with a baseline's, and a judge picks the better "
        "one. It is a stand-in written for tests.")
    # constants.py's load_dataset and hf_hub_download(repo_type="dataset"), never a model
    # repository, a file reader or a computed name
    assert [(d.id, d.hub) for d in two.datasets] == [
        ("toy-lab/toy_eval", "huggingface"), ("toy-lab/toy_eval_extra", "huggingface")]
    assert [(m.name, m.main) for m in two.metrics] == [
        ("discrete_win_rate", False), ("length_controlled_winrate", True), ("win_rate", False)]
    assert [m.name for m in one.metrics if m.main] == ["win_rate"]


def test_papers_are_the_readme_citations_the_rules_name(reading: Reading) -> None:
    tool, length = entry_of(reading, "alpaca_eval_2").papers
    assert (tool.cite_key, tool.title, tool.authors, tool.year, tool.venue) == (
        "alpaca_eval", "ToyEval: A Stand-in Evaluator", ["Ana Müller", "Octo Cat"], 2023,
        "GitHub repository")
    assert (length.cite_key, length.arxiv, length.authors) == (
        "dubois2024length", "2401.00071", ["Octo Cat", "Ana Müller"])
    assert [p.cite_key for p in entry_of(reading, "alpaca_eval").papers] == ["alpaca_eval"]


def test_each_score_of_a_row_is_a_result_with_its_error_samples_and_settings(
    reading: Reading,
) -> None:
    scores = results(reading, "alpaca_eval_2", "toy-chat-7b")
    assert sorted(scores) == ["discrete_win_rate", "length_controlled_winrate", "win_rate"]
    win = scores["win_rate"]
    assert (win.value, win.scale, win.samples, win.date) == (
        "35.3416149068323", "percent", 805, None)
    assert win.uncertainty is not None and win.uncertainty.stderr == "1.684737662232649"
    assert (win.settings.judge, win.settings.other) == (
        "toy-judge-2", {"annotator": "weighted_alpaca_eval_gpt4_turbo", "baseline": "gpt4_turbo"})
    assert (win.harness, win.ran_by, win.table, win.source_type) == (
        "alpaca_eval", "harness_maintainers", "AlpacaEval 2.0", "documentation")
    lc = scores["length_controlled_winrate"]
    assert lc.uncertainty is not None and lc.uncertainty.stderr == "0.7231521957654523"
    assert scores["discrete_win_rate"].uncertainty is None  # no error column for it
    # the first row of a model listed twice is kept
    assert "99.0" not in {r.value for r in scores.values()}


def test_a_rows_mode_says_who_ran_it(reading: Reading) -> None:
    ran_by = {m: results(reading, "alpaca_eval_2", m)["win_rate"].ran_by for m in (
        "toy-chat-7b", "toy-api", "toy-community", "toy-dev_verbose", "toy-no-mode",
        "toy-beta")}
    assert ran_by == {"toy-chat-7b": "harness_maintainers", "toy-api": "harness_maintainers",
                      "toy-community": "community", "toy-dev_verbose": "not_stated",
                      "toy-no-mode": "not_stated", "toy-beta": "not_stated"}
    assert (MAIN, "mode", "a mode no rule in alpaca_eval.toml names: who ran it is not "
            "stated") in warnings(reading)


def test_an_empty_cell_is_no_result_and_no_warning(reading: Reading) -> None:
    assert sorted(results(reading, "alpaca_eval_2", "toy-community")) == [
        "discrete_win_rate", "win_rate"]
    api = results(reading, "alpaca_eval_2", "toy-api")
    assert api["length_controlled_winrate"].uncertainty is None  # an empty lc_standard_error
    assert api["win_rate"].uncertainty is not None
    assert api["win_rate"].uncertainty.stderr == "0.0"


def test_columns_that_are_no_score_give_no_result(reading: Reading) -> None:
    metrics = {r.metric for e in reading.entries for r in e.results}
    assert metrics == {"win_rate", "discrete_win_rate", "length_controlled_winrate", "Win Rate"}


def test_a_malformed_cell_spoils_only_itself(reading: Reading) -> None:
    odd = results(reading, "alpaca_eval_2", "toy-odd")
    assert sorted(odd) == ["discrete_win_rate", "length_controlled_winrate"]  # no "n/a"
    assert odd["discrete_win_rate"].samples is None  # n_total "80x"
    plain = results(reading, "alpaca_eval_2", "toy-no-mode")["win_rate"]
    assert (plain.value, plain.uncertainty) == ("11.0", None)  # its stderr "1e-3"
    assert {
        (MAIN, "win_rate", "not a number in digits and a point: left out"),
        (MAIN, "standard_error", "not a number in digits and a point: left out"),
        (MAIN, "n_total", "not a count: left out"),
    } <= warnings(reading)


def test_rows_without_a_model_of_the_wrong_length_or_repeated_are_warnings(
    reading: Reading,
) -> None:
    assert {
        (MAIN, "row 9", "a model listed twice: the first row kept: left out"),
        (MAIN, "row 10", "a row with another number of cells than the header: left out"),
        (MAIN, "row 11", "a row with no model name: left out"),
    } <= warnings(reading)
    assert "toy-short" not in {r.model for r in entry_of(reading, "alpaca_eval_2").results}


def test_another_leaderboard_is_the_same_benchmark_under_its_annotator(
    reading: Reading,
) -> None:
    ranked = results(reading, "alpaca_eval_2", "toy-chat-7b", AE2 + "toy_ranking_leaderboard.csv")
    win = ranked["win_rate"]
    # its evaluator config names no model: the judge is not stated, and that is a warning
    assert (win.settings.judge, win.settings.other["annotator"], win.table, win.samples) == (
        None, "toy_ranking", None, 805)
    assert ("alpaca_eval/evaluators_configs/toy_ranking/configs.yaml",
            "toy_ranking.completions_kwargs.model_name",
            "an evaluator config with no completions_kwargs.model_name: the judge is not "
            "stated") in warnings(reading)
    assert (AE2 + "toy_ranking_leaderboard.csv", "elo",
            "a column no rule in alpaca_eval.toml names: left out") in warnings(reading)
    # no evaluator config at all: the annotator as the file names it, no judge
    ghost = results(reading, "alpaca_eval_2", "toy-chat-7b", AE2 + "ghost_leaderboard.csv")
    assert ghost["win_rate"].settings.model_dump(exclude_defaults=True) == {
        "other": {"annotator": "ghost", "baseline": "gpt4_turbo"}}
    # a file not named ANNOTATOR_leaderboard.csv states no annotator
    old = results(reading, "alpaca_eval", "toy-chat-7b", AE1 + "old_results.csv")["win_rate"]
    assert old.settings.model_dump(exclude_defaults=True) == {
        "other": {"baseline": "text_davinci_003"}}


def test_leaderboards_outside_the_rules_folders(reading: Reading) -> None:
    sources = {r.source for e in reading.entries for r in e.results}
    assert not any("evaluators" in s or "data_Unknown" in s or s.endswith(".md")
                   for s in sources)
    found = warnings(reading)
    assert ("alpaca_eval/leaderboards/data_Unknown/toy_leaderboard.csv", None,
            "a leaderboard in a folder no rule in alpaca_eval.toml names: left out") in found
    assert not any("evaluators_leaderboard" in member for member, _, _ in found)
    assert (AE2 + "broken_leaderboard.csv", "header",
            "no model name in the first column: left out") in found


def test_the_readme_results_table_named_by_the_rules(reading: Reading) -> None:
    told = [r for r in entry_of(reading, "alpaca_eval").results if r.source == README]
    assert [(r.model, r.metric, r.value, r.uncertainty.stderr if r.uncertainty else None)
            for r in sorted(told, key=lambda r: r.model)] == [
        ("toy-api", "Win Rate", "50.0", "0.0"),  # `toy-api` in the table: its code text
        ("toy-chat-7b", "Win Rate", "91.5", "0.9"),
        ("toy-stderr-odd", "Win Rate", "12.5", None),
    ]
    first = told[0]
    assert (first.table, first.ran_by, first.scale, first.samples) == (
        "AlpacaEval minimal leaderboard", "harness_maintainers", "percent", None)
    assert (first.settings.judge, first.settings.other) == (
        "toy-judge-1", {"annotator": "alpaca_eval_gpt4", "baseline": "text_davinci_003"})
    # neither the table no rule names nor the untitled one inside <details>
    assert not [r for r in entry_of(reading, "alpaca_eval_2").results if r.source == README]
    assert {(README, "Win Rate", "not a number in digits and a point: left out"),
            (README, "Std Error", "not a number in digits and a point: left out"),
            (README, "citation", "a BibTeX entry that cannot be read: left out")
            } <= warnings(reading)


def test_one_model_per_config_with_its_names(reading: Reading) -> None:
    assert [m.id for m in reading.models] == [
        "pairrm-toy-chat-7b", "toy-api", "toy-chat-7b", "toy-hfapi", "toy-local",
        "toy-mismatch", "toy-null", "toy-replicate"]
    chat = model(reading, "toy-chat-7b")
    assert (chat.display_name, chat.hub_id, chat.aliases, chat.maker, chat.source) == (
        "Toy Chat 7B", "toyorg/Toy-Chat-7b", ["Toy Chat 7B", "toyorg/Toy-Chat-7b"], None,
        ["alpaca_eval/models_configs/toy-chat-7b/configs.yaml"])
    assert model(reading, "toy-hfapi").hub_id == "toyorg/toy-33b-merged"


def test_a_hub_id_only_where_a_hugging_face_loader_loads_it(reading: Reading) -> None:
    # an API's model name in the hub's form, or a config that loads nothing: an alias only
    for api in ("toy-api", "toy-null"):
        assert model(reading, api).hub_id is None
    assert "toyorg/Toy-Api-Instruct" in model(reading, "toy-api").aliases
    assert model(reading, "toy-replicate").aliases == [
        "Toy Replicate", "replicate/toy-chat:0123abcd"]
    # a local path is no name
    assert model(reading, "toy-local").aliases == ["Toy Local 13B"]
    assert model(reading, "toy-local").hub_id is None


def test_a_best_of_n_system_is_not_the_model_it_samples(tmp_path: Path) -> None:
    # pairrm-toy-chat-7b loads toy-chat-7b's toyorg/Toy-Chat-7b and submits one of 16 of its
    # completions (best_of: 16): a system of its own, whose scores are not toy-chat-7b's
    snapshot = harvest([build_wheel("alpaca_eval", tmp_path)]).snapshots[0]
    system = next(m for m in snapshot.models if m.id == "pairrm-toy-chat-7b")
    assert (system.display_name, system.hub_id, system.api_id, system.aliases) == (
        "PairRM 0.4B+Toy Chat 7B (best-of-16)", None, None,
        ["PairRM 0.4B+Toy Chat 7B (best-of-16)"])
    assert next(m for m in snapshot.models if m.id == "toy-chat-7b").hub_id == \
        "toyorg/Toy-Chat-7b"
    linked = {r.model_id for e in snapshot.entries for r in e.results
              if r.model == "pairrm-toy-chat-7b"}
    assert linked == {"pairrm-toy-chat-7b"}


SAMPLING_CONFIG = """{folder}:
  fn_completions: "vllm_local_completions"
  completions_kwargs:
    model_name: "toyorg/Toy-Chat-7b"
    {setting}
  pretty_name: "{pretty}"
"""


@pytest.mark.parametrize(("folder", "setting", "pretty", "own"), [
    ("toy-sampled", "n: 64", "Toy Sampled", False),  # vLLM's n
    ("toy-sampled", "num_return_sequences: 8", "Toy Sampled", False),  # transformers'
    ("toy-sampled", "temperature: 0.7", "Toy Chat 7B (best-of-4)", False),  # its name says it
    ("toy-chat-7b-best-of-4", "temperature: 0.7", "Toy Sampled", False),  # its folder's name
    ("toy-sampled", "best_of: 1", "Toy Sampled", True),  # one completion
    ("toy-sampled", "use_beam_search: true", "Toy Sampled", True),  # the model's own decoding
])
def test_what_states_a_best_of_n_system(tmp_path: Path, folder: str, setting: str,
                                        pretty: str, own: bool) -> None:
    config = SAMPLING_CONFIG.format(folder=folder, setting=setting, pretty=pretty)
    wheel = build_wheel("alpaca_eval", tmp_path, extra={
        f"alpaca_eval/models_configs/{folder}/configs.yaml": config.encode()})
    found = model(read(wheel), folder)
    assert found.hub_id == ("toyorg/Toy-Chat-7b" if own else None)
    assert ("toyorg/Toy-Chat-7b" in found.aliases) is own


def test_odd_model_configs_are_warnings(reading: Reading) -> None:
    other = model(reading, "toy-mismatch")
    assert (other.hub_id, other.aliases) == (
        "toyorg/Toy-Other", ["Toy Other", "toy-other", "toyorg/Toy-Other"])
    configs = "alpaca_eval/models_configs/"
    assert {
        (configs + "toy-mismatch/configs.yaml", "toy-other",
         "the config's key is not its folder's name"),
        (configs + "toy-nokey/configs.yaml", "toy-nokey",
         "no settings under the folder's name: left out"),
        (configs + "toy-list/configs.yaml", "toy-list",
         "no settings under the folder's name: left out"),
        (configs + "toy-broken/configs.yaml", None, "not valid YAML"),
    } <= warnings(reading)
    assert not any("toy-aligner" in member for member, _, _ in warnings(reading))


def test_every_warning_is_one_the_fixture_means(reading: Reading) -> None:
    assert len(reading.problems) == 18
    assert len(warnings(reading)) == 18


def test_a_member_that_cannot_be_read_spoils_only_itself(tmp_path: Path) -> None:
    broken = {AE2 + "latin1_leaderboard.csv": ",win_rate\nmod\xe8le,1.0\n".encode("latin-1"),
              "alpaca_eval/constants.py": b"ANNOTATOR_CONFIG_AE2 = (\n"}
    reading = read(build_wheel("alpaca_eval", tmp_path, extra=broken))
    found = warnings(reading)
    assert (AE2 + "latin1_leaderboard.csv", None, "not UTF-8") in found
    assert ("alpaca_eval/constants.py", None, "not valid Python") in found
    two = entry_of(reading, "alpaca_eval_2")
    # no default annotator known: every leaderboard still loads, none is the main one
    assert results(reading, "alpaca_eval_2", "toy-chat-7b")["win_rate"].table is None
    assert (two.datasets, len(reading.models)) == ([], 8)


def test_rules_that_no_longer_match_the_package_are_warnings(tmp_path: Path) -> None:
    rules = read_rules(RULES.replace('"AlpacaEval minimal leaderboard"', '"Gone leaderboard"')
                       .replace('"dubois2024length"', '"gone2024"')
                       .replace('"ANNOTATOR_CONFIG_AE1"', '"GONE_CONSTANT"'))
    reading = read(build_wheel("alpaca_eval", tmp_path), AlpacaEvalReader(rules))
    assert {
        (README, "table", "a README table that alpaca_eval.toml names and the README does "
                          "not hold"),
        (README, "citation", "a cite key that alpaca_eval.toml names and the README holds "
                             "no paper for"),
        ("alpaca_eval/constants.py", "GONE_CONSTANT",
         "no string assigned to the annotator constant that alpaca_eval.toml names"),
    } <= warnings(reading)
    assert [p.cite_key for p in entry_of(reading, "alpaca_eval_2").papers] == ["alpaca_eval"]
    assert results(reading, "alpaca_eval", "toy-chat-7b", AE1 + "alpaca_eval_gpt4_leaderboard"
                   ".csv")["win_rate"].table is None


def test_every_rule_says_why(tmp_path: Path) -> None:
    rules = read_rules(RULES)
    reasons = [r.reason for r in (*rules.benchmark, *rules.column, *rules.mode,
                                  *rules.readme_table)]
    assert all(len(reason) > 20 for reason in reasons)
    with pytest.raises(ValueError):
        read_rules(RULES.replace('role = "data"', 'role = "whatever"', 1))


def test_the_same_package_gives_the_same_bytes(tmp_path: Path) -> None:
    one = harvest([build_wheel("alpaca_eval", tmp_path / "a")])
    other = harvest([build_wheel("alpaca_eval", tmp_path / "b", reverse=True,
                                 date_time=(2030, 6, 1, 12, 0, 0))])
    assert snapshot_bytes(one.snapshots[0]) == snapshot_bytes(other.snapshots[0])
    assert one.snapshots[0].harness == "alpaca_eval" and one.snapshots[0].models
    with open_archive(FIXTURES / "alpaca_eval") as archive:  # a folder reads as the wheel
        assert read(FIXTURES / "alpaca_eval").entries == AlpacaEvalReader().read(
            archive).entries
