"""The load report: each rejection on its own line, repeated warnings grouped, a short report
whatever the catalog, ``--verbose`` and ``--report FILE.json`` for every command that builds."""

import json
from pathlib import Path
from typing import Any, cast

import pytest

from graph.build.graphs import GraphInMemory
from graph.cli import main
from graph.cli.report import MAX_LINES, group_problems, normalised_field, report_lines
from graph.ingest.importers.base import Problem
from graph.ingest.loader import LoadedRecord, LoadReport
from graph.resources import data_dir

SEED = data_dir("catalog") / "000_501ccd0cd0e2608f.txt"
UNKNOWN = "unknown key, kept as data"


def a_report(records: int, warnings: list[Problem], rejected: list[Problem]) -> LoadReport:
    """A report as the loader makes one; only the number of records is read from them."""
    return LoadReport(cast(list[LoadedRecord], [None] * records), warnings, rejected)


def many_warnings(files: int = 10_000, kinds: int = 100) -> list[Problem]:
    """Three sources a file with an unknown key, one more unknown key in every file, and one of
    ``kinds`` rarer keys in each: 50,000 warnings of ``kinds + 2`` kinds."""
    problems = []
    for n in range(files):
        path = Path(f"catalog/{n:05}.json")
        problems += [Problem(path, f"page.sources[{i}].archived", UNKNOWN) for i in range(3)]
        problems.append(Problem(path, "page.legacy_rank", UNKNOWN))
        problems.append(Problem(path, f"page.custom_{n % kinds}", UNKNOWN))
    return problems


def test_list_indices_are_dropped_from_the_field() -> None:
    assert normalised_field("page.sources[12].links[0].url") == "page.sources[].links[].url"
    assert normalised_field("page.name") == "page.name"
    assert normalised_field(None) is None


def test_warnings_are_grouped_by_field_and_reason_the_most_frequent_first() -> None:
    warnings = many_warnings(files=10, kinds=5)
    groups = group_problems(warnings)
    assert [(g.field, len(g.problems), len(g.files)) for g in groups[:2]] == [
        ("page.sources[].archived", 30, 10), ("page.legacy_rank", 10, 10)]
    assert len(groups) == 7
    line = groups[0].line()
    assert line.startswith(f"warning: page.sources[].archived: {UNKNOWN} — 30 times in 10 files")
    assert "(in catalog/: 00000.json, 00001.json, 00002.json, …)" in line
    assert groups[1].line().startswith(f"warning: page.legacy_rank: {UNKNOWN} — 10 files (")


LONG = "a_file_name_long_enough_that_two_of_them_fill_a_terminal_line"


@pytest.mark.parametrize(("files", "named", "more"), [(2, 2, False), (3, 3, False),
                                                      (5, 3, True)])
def test_a_group_names_up_to_three_files_before_the_ellipsis(files: int, named: int,
                                                             more: bool) -> None:
    """However long the names and however narrow the terminal: a name left out to fit the
    line hid a file behind "…" (a group of two named one)."""
    paths = [Path(f"catalog/part_{n}/{LONG}_{n}.json") for n in range(files)]
    (group,) = group_problems(Problem(path, "page.x", UNKNOWN) for path in paths)
    line = group.line()
    assert line.startswith(f"warning: page.x: {UNKNOWN} — {files} files (")
    assert [str(path) in line for path in paths] == [n < named for n in range(files)]
    assert line.endswith(", …)" if more else f"{paths[-1]})")


def test_a_group_of_one_file_names_it_once() -> None:
    problems = [Problem(Path(f"catalog/{LONG}.json"), f"page.sources[{n}].x", UNKNOWN)
                for n in range(2)]
    (group,) = group_problems(problems)
    assert group.line() == (f"warning: page.sources[].x: {UNKNOWN} — 2 times in 1 file "
                            f"(in catalog/: {LONG}.json)")
    (alone,) = group_problems(problems[:1])
    assert alone.line() == f"warning: catalog/{LONG}.json: page.sources[0].x: {UNKNOWN}"


def test_a_warning_met_once_is_its_own_line_with_its_value() -> None:
    (group,) = group_problems([Problem(Path("a.json"), "page.released", "not a date", "c. 2018")])
    assert group.line() == "warning: a.json: page.released: not a date (value 'c. 2018')"


def test_ten_thousand_records_make_a_short_report_that_says_what_it_leaves_out() -> None:
    rejected = [Problem(Path(f"bad/{n}.json"), "page.id", "is missing") for n in range(50)]
    lines = report_lines(a_report(10_000, many_warnings(), rejected))
    assert len(lines) <= MAX_LINES
    assert lines[0] == ("10,000 records loaded, 50 files rejected, "
                        "50,000 warnings of 102 kinds")
    shown = [line for line in lines if line.startswith("rejected: ")]
    assert shown and shown[0] == "rejected: bad/0.json: page.id: is missing"
    assert len(shown) == MAX_LINES - 2 - 8  # the counts, the last line, 8 kinds of warning
    assert lines[-1] == ("… and 20 more rejected files and 94 more kinds of warning: "
                         "--verbose lists every one, --report FILE.json writes them for tools")
    assert any(line.startswith("warning: page.sources[].archived:") for line in lines)


def test_rejections_come_first_and_all_of_them_when_they_fit() -> None:
    rejected = [Problem(Path(f"bad/{n}.json"), None, "not valid JSON") for n in range(30)]
    lines = report_lines(a_report(100, many_warnings(files=100, kinds=20), rejected))
    assert len(lines) == MAX_LINES
    assert [line for line in lines if line.startswith("rejected: ")] == [
        f"rejected: bad/{n}.json: not valid JSON" for n in range(30)]
    assert lines[-1].startswith("… and 14 more kinds of warning:")


def test_verbose_lists_every_warning_and_rejection() -> None:
    warnings = many_warnings(files=200, kinds=50)
    rejected = [Problem(Path("bad.json"), "page.id", "is missing")]
    lines = report_lines(a_report(200, warnings, rejected), verbose=True)
    assert len(lines) == 1 + 1 + len(warnings)
    assert lines[2] == f"warning: catalog/00000.json: page.sources[0].archived: {UNKNOWN}"


# -- through the commands -------------------------------------------------------------------------

def catalog_with_warnings(folder: Path, files: int = 3) -> Path:
    """Copies of the seed page, each with its own id, two unknown keys and one source with an
    unknown key; and one file that is not JSON."""
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(files):
        record: dict[str, Any] = json.loads(SEED.read_text(encoding="utf-8"))
        record["page"]["id"] = f"bench_{n}"
        record["page"]["legacy_rank"] = n
        record["page"]["sources"][1]["archived"] = True
        (folder / f"page_{n}.json").write_text(json.dumps(record), encoding="utf-8")
    (folder / "broken.json").write_text("{ not json", encoding="utf-8")
    return folder


COMMANDS = [["build", "-o", "{out}/g.ttl"], ["stats"], ["query", "gated-medhelm"], ["validate"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_every_command_that_builds_takes_report_and_verbose_alike(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = catalog_with_warnings(tmp_path / "catalog")
    argv = [word.format(out=tmp_path) for word in command]
    report = tmp_path / "report.json"
    assert main([*argv, "--report", str(report), str(catalog)]) == 2  # PATH after the options
    err = capsys.readouterr().err
    assert "rejected: " in err and "broken.json" in err
    assert f"warning: page.legacy_rank: {UNKNOWN} — 3 files (" in err
    data = json.loads(report.read_text(encoding="utf-8"))
    assert (data["files_read"], data["records_loaded"]) == (4, 3)
    assert data["rejected"] == [{
        "kind": "rejected", "file": str(catalog / "broken.json"), "field": None,
        "reason": data["rejected"][0]["reason"], "value": None}]
    assert len(data["warnings"]) == 6
    assert {(p["kind"], p["field"]) for p in data["warnings"]} == {
        ("warning", "page.legacy_rank"), ("warning", "page.sources[1].archived")}
    assert main([*argv, str(catalog), "--verbose"]) == 2
    err = capsys.readouterr().err
    assert err.count("warning: ") == 6
    assert f"page_2.json: page.sources[1].archived: {UNKNOWN}" in err


def test_a_one_line_text_file_is_warned_about_with_its_name_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stray note in the catalog folder is no benchmark page: it says nothing but a name."""
    (tmp_path / "notes.txt").write_text("remember to add the new ones\n", encoding="utf-8")
    (tmp_path / "page.txt").write_text("A benchmark\nWhat it measures.\n", encoding="utf-8")
    assert main(["build", str(tmp_path), "-o", str(tmp_path / "g.nt")]) == 0
    err = capsys.readouterr().err
    (warning,) = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert warning.startswith(f"warning: {tmp_path / 'notes.txt'}: summary: line 1: the page "
                              "is its title alone")
    assert "2 records loaded, 0 files rejected, 1 warning" in err


def test_a_report_file_that_cannot_be_written_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", "--report", str(tmp_path / "no" / "such" / "r.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("benchgraph stats: cannot write ") and err.count("\n") == 1


def test_a_build_and_its_report_name_their_size_not_their_contents(
        seed_build: GraphInMemory) -> None:
    """pytest writes the arguments of each frame of a failing test: a build's repr holding
    every record and quad took gigabytes on the bundled catalog, and killed the worker."""
    for shown in (repr(seed_build), repr(seed_build.report)):
        assert len(shown) < 200, shown[:300]
    assert repr(seed_build.report) == (
        f"LoadReport({len(seed_build.report.records)} records, "
        f"{len(seed_build.report.warnings)} warnings, 0 rejected)")
    assert repr(seed_build).startswith("GraphInMemory(LoadReport(")
