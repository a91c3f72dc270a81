"""The results inspect_evals' READMEs state in their "Evaluation Report"
(``graph/ingest/harvest/inspect_results.py``), read from the hand-written READMEs of
``tests/data/harvest/inspect_results/``, one README a form, with the README rules of its
``rules.toml`` in place of the bundled ones."""

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from graph.ingest.harvest import harvest
from graph.ingest.harvest.archive import open_archive
from graph.ingest.harvest.inspect_results import results
from graph.ingest.harvest.inspect_results_commands import command_settings, commands
from graph.ingest.harvest.inspect_results_rules import Rules, bundled_rules, read_rules
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.harvest.result_figures import figure, pair, parse_date
from graph.ingest.harvest.snapshot import snapshot_bytes
from graph.ingest.importers.base import Problem
from graph.ingest.records.stated_result import StatedResult
from tests.test_harvest_archive import FIXTURES, build_wheel

FOLDER = FIXTURES / "inspect_results"
RULES = bundled_rules().with_readmes(read_rules((FOLDER / "rules.toml").read_text("utf-8")))


def read(name: str, rules: Rules = RULES) -> tuple[list[StatedResult], list[tuple[str, str]]]:
    """The results of fixture README ``name``, and its warnings as (reason, value)."""
    problems: list[Problem] = []
    readme = f"inspect_evals/{name}/README.md"
    with open_archive(FOLDER) as archive:
        found = results(MemberReader(archive, problems), readme, archive.read_text(readme),
                        rules)
    assert all(p.field == "results" and str(p.path).endswith(readme) for p in problems)
    return found, [(p.reason, p.value or "") for p in problems]


def one(found: list[StatedResult], **fields: Any) -> StatedResult:
    """The one result whose fields have these values."""
    (chosen,) = [r for r in found if all(getattr(r, k) == v for k, v in fields.items())]
    return chosen


def test_the_template_table_gives_each_figure_with_the_run_the_section_states() -> None:
    found, _ = read("toy_plain")
    assert [(r.model, r.model_provider, r.metric, r.value) for r in found] == [
        ("toy-model-1", "ToyCo", "Accuracy", "0.812"),
        ("toy-model-2", "Toyish", "Accuracy", "0.455"),
    ]  # not the table under "Results", not the Time column
    first = found[0]
    assert (first.scale, first.uncertainty and first.uncertainty.stderr) == ("fraction", "0.031")
    assert (first.samples, first.settings.epochs) == (120, 1)  # "(120 samples, 1 epoch)"
    # the command names both models: its -T arguments, its grader model as the judge
    assert (first.settings.judge, first.settings.other) == ("toyco/toy-judge",
                                                             {"shuffle": "true"})
    assert (first.date, first.date_stated_as) == ("2026-03", "Results generated March 2026")
    assert (first.harness, first.harness_version, first.ran_by, first.reported_as) == (
        "inspect_evals", "2-A", "harness_maintainers", None)  # no paper's figure beside
    assert (first.table, first.source) == ("Evaluation Report",
                                           "inspect_evals/toy_plain/README.md")


def test_an_entry_holds_its_readme_results_and_the_snapshot_does_not_vary(
    tmp_path: Path,
) -> None:
    folder = harvest([FOLDER])
    (entry,) = folder.snapshots[0].entries  # the one eval with a listing
    assert entry.version == "3-A"  # the listing's: not the version the report's runs used
    assert {r.harness_version for r in entry.results} == {"2-A"}
    assert entry.source == ["inspect_evals/toy_plain/README.md",
                            "inspect_evals/toy_plain/eval.yaml"]
    wheel = harvest([build_wheel("inspect_results", tmp_path / "a")])
    reverse = harvest([build_wheel("inspect_results", tmp_path / "b", reverse=True)])
    assert snapshot_bytes(folder.snapshots[0]) == snapshot_bytes(wheel.snapshots[0]) \
        == snapshot_bytes(reverse.snapshots[0])


def test_percent_signs_units_and_words_in_cells() -> None:
    found, problems = read("toy_percent")
    first = one(found, model="toy-model-1", metric="Accuracy")
    assert (first.value, first.scale, first.samples, first.date) == (
        "68.5", "percent", 1273, "2025-07-03")  # "Accuracy (%)"; "all 1,273 samples"
    assert first.uncertainty and first.uncertainty.stderr == "1.2"
    utility = one(found, model="toy-model-2", metric="Utility")  # "71.9±1.5%"
    assert (utility.value, utility.scale, utility.uncertainty and utility.uncertainty.stderr) \
        == ("71.9", "percent", "1.5")
    assert one(found, model="toy-model-1", metric="Rating").value == "2116"
    assert one(found, model="toy-model-2", metric="Pct.%").value == "0"  # "0 %"
    assert one(found, model="toy-model-1", metric="accuracy").value == "60.0"  # "60.0% accuracy"
    assert one(found, model="toy-model-2", metric="mean").value == "27.3"
    # ±0.025 beside 45.3%: another scale, so left out with a warning
    assert one(found, model="toy-model-2", metric="Accuracy").uncertainty is None
    assert ("a standard error printed on another scale than its value: left out",
            "Evaluation Report: toy-model-2 Accuracy: 45.3, stderr ±0.025") in problems


def test_ours_and_the_papers_figures_are_two_results() -> None:
    found, problems = read("toy_pairs")
    ours = one(found, metric="F-1 Score", reported_as="reproduction")
    paper = one(found, metric="F-1 Score", reported_as="paper")
    assert (ours.value, ours.ran_by, ours.harness, ours.date) == (
        "15.2", "harness_maintainers", "inspect_evals", "2025-09-22")
    assert ours.settings.other == {"scorer": "original"}  # -T in the heading
    assert (paper.value, paper.ran_by, paper.harness, paper.date, paper.settings.other) == (
        "14.4", "paper_authors", None, None, {})  # the run's words are not the paper's
    assert ("a cell of two figures that does not hold two: left out",
            "Scorer as in the paper (-T scorer=original, September 22, 2025): 10.8/n.a.") \
        in problems
    blog = one(found, value="0.96")  # "From original blogpost", the metric of its neighbour
    assert (blog.metric, blog.reported_as, blog.ran_by, blog.settings.prompt,
            blog.settings.epochs) == ("Harmfulness score", "paper", "paper_authors", "default",
                                      None)
    assert one(found, value="0.9").settings.epochs == 10  # "Epochs: 10"
    assert [r.value for r in found if r.settings.prompt == "goal_type=none"] == ["0.3"]  # "-"
    interval = one(found, value="17.5")
    assert (interval.metric, interval.subset, interval.model) == (
        "Failure Rate", "toy_cross", "toyco/toy-model-2")
    assert interval.uncertainty is not None
    assert (interval.uncertainty.ci_low, interval.uncertainty.ci_high,
            interval.uncertainty.ci_level) == ("12.0", "23.0", 0.95)
    judged = one(found, model="toy-model-3", reported_as="reproduction")
    assert (judged.settings.judge, judged.samples) == ("toy-judge-mini", 500)
    paper_score = one(found, model="toy-model-3", reported_as="paper")
    assert (paper_score.metric, paper_score.settings.judge, paper_score.samples) == (
        "Score", None, None)
    assert not [r for r in found if r.model == "toy-model-4" and r.reported_as == "paper"]


def test_headings_columns_and_cells_say_whose_figure_a_row_is() -> None:
    found, problems = read("toy_sides")
    assert problems == []
    leaderboard = one(found, table="Original Paper Results")
    assert (leaderboard.reported_as, leaderboard.ran_by, leaderboard.date) == (
        "paper", "paper_authors", "2025-02-24")  # its own Date cell
    inspect = one(found, table="Inspect Implementation Results")
    assert (inspect.reported_as, inspect.date, inspect.uncertainty
            and inspect.uncertainty.stderr) == ("reproduction", "2025-06-16", "3.8")
    original = one(found, table="Implementations", value="30.0")
    assert (original.reported_as, original.ran_by, original.settings.other) == (
        "paper", "not_stated", {"temp": "0"})
    assert one(found, table="Implementations", value="28.0").harness == "inspect_evals"
    noted = one(found, value="8.0")
    assert (noted.reported_as, noted.ran_by, noted.samples) == ("paper", "paper_authors", 198)
    partial = one(found, value="5.3")  # "5.3% (1/19)": the bracket is no figure
    assert (partial.reported_as, partial.samples) == ("reproduction", 19)
    theirs = one(found, model="toy-model-2", reported_as="paper")
    ours = one(found, model="toy-model-2", reported_as="reproduction")
    assert (theirs.value, theirs.samples, ours.value, ours.samples) == ("0.6", None, "0.9", 276)
    assert len(found) == 8  # the rule row of dashes is none


def test_a_table_of_one_metric_a_row() -> None:
    found, _ = read("toy_transposed")
    accuracy = one(found, metric="Accuracy")
    assert (accuracy.model, accuracy.value, accuracy.scale, accuracy.samples) == (
        "toyco/toy-model-1", "0.766", "fraction", 3680)
    assert accuracy.uncertainty and accuracy.uncertainty.stderr == "0.00698"  # the StdErr row
    assert (accuracy.date, accuracy.date_stated_as) == ("2025-07", "Timestamp: July 2025")
    toxic = [(r.subset, r.value, r.uncertainty and r.uncertainty.stderr, r.samples, r.date)
             for r in found if r.metric == "Toxicity Score"]
    assert toxic == [("Race", "0.000914", None, None, None),
                     ("Gender", "0.00156", None, None, None),
                     (None, "0.000718", "0.000174", 3680, None)]  # "All": the whole; its StdErr
    # the timestamp introduces the first table only; the samples line closes the section
    other = one(found, metric="Accuracy (lms)", reported_as="paper")
    assert (other.value, other.subset, other.ran_by) == ("94", None, "not_stated")
    assert one(found, metric="Accuracy (lms)", reported_as="reproduction").value == "96.7"


def test_subsets_settings_and_rows_that_are_no_results() -> None:
    found, problems = read("toy_subsets")
    assert problems == []
    easy = one(found, subset="toy_easy")
    assert (easy.samples, easy.settings.other) == (28, {"difficulty": "easy"})  # "(n=28)"
    whole = one(found, table="By task", subset=None)  # "All", difficulty "Unspecified"
    assert (whole.value, whole.samples, whole.settings.other) == ("0.100", 150, {})
    assert not [r for r in found if r.value in ("0.5", "0.13", "0.8", "0.9")]  # avg, humans
    assert one(found, table="toy-model-5").model == "toy-model-5"  # by the README's rule
    board = one(found, table="Comparison to the leaderboard", reported_as="paper")
    assert (board.model, board.metric, board.value, board.settings.other) == (
        "toy-model-9", "Accuracy", "0.536", {"mode": "FC"})
    assert [(r.model, r.value, r.samples) for r in found if r.metric == "IRR"] == [
        ("Toy 4", "40", 10), ("Toy 4.6", "90", 10)]


def test_the_rules_of_single_readmes() -> None:
    found, problems = read("toy_rules")
    assert problems == []
    assert [(r.metric, r.subset, r.value, r.scale) for r in found if r.table == "By language"] \
        == [("Correctness", "Python", "64", "percent"),
            ("Instruction Adherence", "Python", "29", "percent"),
            ("Correctness", "Java", "52", "percent"),
            ("Instruction Adherence", "Java", "16", "percent")]
    inspect = one(found, table="Accuracy Scores", reported_as="reproduction")
    reference = one(found, table="Accuracy Scores", reported_as="paper")
    assert (inspect.model, inspect.value, inspect.settings.prompt) == ("Toy 3 Haiku", "0.60",
                                                                       "plain")
    assert (reference.value, reference.ran_by, reference.settings.prompt) == (
        "0.5848", "paper_authors", None)
    assert reference.uncertainty and reference.uncertainty.stderr == "0.014"  # in brackets
    fast = one(found, metric="Fast_1")
    assert (fast.subset, fast.samples) == ("Level 1", 100)
    assert not [r for r in found if r.table == "Restated"]  # skipped by its rule
    board = one(found, table="Leaderboard")
    assert (board.reported_as, board.date, board.date_stated_as) == (
        "paper", "2025-07", "at time of commit July 2025")
    assert [(r.metric, r.subset) for r in found if r.model == "TOYAGENT (4o)"] == [
        ("Relative Improvement to Human", "Task One")]  # "-" is no figure
    compliance = [(r.reported_as, r.settings.judge, r.settings.prompt, r.subset, r.value)
                  for r in found if r.model == "TOY-4"]
    assert compliance == [
        ("paper", None, "no system prompt", "Incomplete", "29.8"),
        ("paper", None, "no system prompt", "Contrast", "97.4"),
        ("reproduction", "toy-judge", "no system prompt", "Incomplete", "11.1"),
        ("reproduction", "toy-judge", "no system prompt", "Contrast", "96.3"),
    ]


def test_what_the_text_states_holds_for_the_tables_it_governs() -> None:
    found, _ = read("toy_scope")
    own = one(found, table="Results")
    # "Epochs: 3" in Reproducibility; two dates in the report disagree: none
    assert (own.settings.epochs, own.date, own.harness_version) == (3, None, "1-A")
    assert own.settings.other == {}  # the two commands share no -T argument
    board = one(found, table="Leaderboard results", reported_as="paper")
    assert (board.model, board.subset, board.metric) == ("toyco/toy-model-0", "t-1", "score")
    # beside the report, "1-A" and "2-B" are the same distance away: no version
    assert one(found, table="Leaderboard results", reported_as="reproduction"
               ).harness_version is None
    without = RULES.model_copy(update={"eval": [], "table": RULES.table})
    found, _ = read("toy_scope", without)
    assert [(r.table, r.settings.epochs) for r in found] == [("Results", None)]


def test_what_cannot_be_read_is_a_warning_and_the_rest_still_loads() -> None:
    found, problems = read("toy_broken")
    assert [(r.model, r.value) for r in found] == [("toy-model-3", "0.40"),
                                                   ("toy-model-2", "0.50")]
    assert {r.harness_version for r in found} == {None}  # "1-A" and "2-B" disagree
    assert problems == [
        ("a table cell that is no figure: left out", "Evaluation Report: Accuracy: about 5"),
        ("a samples cell that is no count: left out", "Evaluation Report: many"),
        ("a date cell that is no date: left out", "Evaluation Report: soon"),
        ("a standard error that is no figure: left out", "Evaluation Report: ±x"),
        ("a confidence interval that is not [low, high]: left out",
         "Evaluation Report: [0.1 - 0.2]"),
        ("a date cell that is no date: left out", "Evaluation Report: 2026-13-40"),
        ("a results table that names no model: left out", "Evaluation Report: Score"),
        ("two figures for one result: the first kept",
         "Evaluation Report: toy-model-2 Accuracy: 0.50, 0.55"),
    ]
    assert read("toy_empty") == ([], [("an Evaluation Report whose tables state no result",
                                       "")])
    assert read("toy_prose") == ([], [])  # no table: nothing to say


def test_a_rule_the_readme_no_longer_bears_out_is_a_warning() -> None:
    plain, warned = read("toy_plain")
    assert len(plain) == 2  # the stale rule (skip = true) is not applied
    assert warned == [("a rule in inspect_results.toml whose words the README no longer "
                       "holds: left out", "words the README does not hold")]
    assert read("toy_percent")[1][-1] == (
        "a rule in inspect_results.toml that matches no table of the README",
        "Results from July 3, 2025")


@pytest.mark.parametrize(("text", "date"), [
    ("2026-03-06", "2026-03-06"), ("July 3, 2025", "2025-07-03"),
    ("4th of March 2026", "2026-03-04"), ("February 20th 2026", "2026-02-20"),
    ("December 2025", "2025-12"), ("February–March 2026", "2026"),
    ("14 June 2025", "2025-06-14"), ("2026-13-40", None), ("soon", None), ("2025", None),
])
def test_dates_as_the_readmes_write_them(text: str, date: str | None) -> None:
    assert parse_date(text) == date


@pytest.mark.parametrize(("cell", "parts"), [
    ("0.766", ("0.766", False, None, None, None)),
    ("68.5 %", ("68.5", True, None, None, None)),
    ("83.3%±3.8%", ("83.3", True, "3.8", None, None)),
    ("17.5 [12.0, 23.0]", ("17.5", False, None, ("12.0", "23.0"), None)),
    ("1,039", ("1039", False, None, None, None)),
    ("0.9% (+0.3%)", ("0.9", True, None, None, None)),
    ("60.0% accuracy", ("60.0", True, None, None, "accuracy")),
    ("-0.8", ("-0.8", False, None, None, None)),
])
def test_cells_as_the_readmes_write_them(cell: str, parts: tuple[Any, ...]) -> None:
    found = figure(cell, None)
    assert found is not None
    assert (found.value, found.percent, found.stderr, found.ci, found.word) == parts


def test_cells_that_are_no_figure() -> None:
    assert [figure(c, None) for c in ("about 5", "75.6% -> 91.1%", "+0.56", "5/1/4")] == [
        None] * 4
    bracketed = figure("0.60 (0.014)", "stderr")
    assert bracketed is not None and bracketed.stderr == "0.014"
    assert pair("64 / 29") is not None and pair("10.8/n.a.") is None


def test_commands_give_their_models_arguments_epochs_and_grader() -> None:
    rules = bundled_rules()
    code = ("# a comment\n"
            "uv run inspect eval inspect_evals/x --model a/m1,b/m2 -T k=1 -T grader_model=j/1 "
            "\\\n  --epochs 3\n"
            "inspect eval inspect_evals/x --model=b/m2 -T k=1 -T other=2 "
            "--model-role 'grader={\"model\": \"j/2\", \"temperature\": 1.0}'\n"
            "inspect eval inspect_evals/x --model <model> --model-role='{grader: \"j/3\"}'\n"
            "inspect eval inspect_evals/x --model \"unbalanced\n")
    first, second, third = commands(rules, code)
    assert (first.models, sorted(first.arguments), first.epochs, first.judge) == (
        ("a/m1", "b/m2"), [("k", "1")], "3", "j/1")
    assert (second.judge, third.models, third.judge) == ("j/2", ("*",), "j/3")
    # m2 is named by the first two: what they share
    shared = command_settings([[first, second]], "m2", "match")
    assert (shared.other, shared.epochs, shared.judge) == ({"k": "1"}, None, None)
    alone = command_settings([[first, second]], "m1", "match")
    assert (alone.other, alone.epochs, alone.judge) == ({"k": "1"}, "3", "j/1")
    assert command_settings([[first]], "m9", "match").other == {}


def test_the_bundled_rules_load_and_one_readme_has_one_rule() -> None:
    rules = bundled_rules()
    assert rules.section and rules.column and rules.fact
    assert len({r.eval for r in rules.eval}) == len(rules.eval)
    with pytest.raises(ValidationError, match="two \\[\\[eval\\]\\] rules name one eval"):
        read_rules('[[eval]]\neval = "x"\nquote = "q"\nreason = "r"\n' * 2)
    with pytest.raises(ValidationError):
        read_rules("[[section]]\npattern = '('\nreason = 'a pattern that does not compile'\n")
