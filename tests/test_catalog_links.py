"""Symbolic links in a catalog folder: a link that leads outside the folder searched is
skipped with a warning naming it; one that stays inside is read once, under the name of the
file it leads to; a file named on the command line is read as given, link or not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.cli import main
from tests.seeds import SEED_DIRECTORY, SEED_PAGE

OUTSIDE = "the link leads outside the folder searched: skipped"


def record(benchmark_id: str) -> str:
    """The seed catalog page, as the record of another benchmark."""
    data = json.loads(SEED_PAGE.read_text("utf-8"))
    data["page"]["id"] = benchmark_id
    return json.dumps(data)


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    """A catalog folder with the two seeds, beside a folder ``outside`` with a record of
    ``secret_benchmark`` and a folder of one more (``elsewhere/more.json``)."""
    folder = tmp_path / "catalog"
    folder.mkdir()
    (folder / "page.json").write_bytes(SEED_PAGE.read_bytes())
    (folder / "directory.txt").write_bytes(SEED_DIRECTORY.read_bytes())
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.json").write_text(record("secret_benchmark"))
    (tmp_path / "outside" / "elsewhere").mkdir()
    (tmp_path / "outside" / "elsewhere" / "more.json").write_text(record("more_benchmark"))
    return folder


def build(tmp_path: Path, capsys: pytest.CaptureFixture[str], *paths: Path
          ) -> tuple[dict[str, object], str, str]:
    """``benchgraph build PATHS``: the JSON report, the N-Quads written and the load report."""
    report, out = tmp_path / "report.json", tmp_path / "graph.nq"
    code = main(["build", *map(str, paths), "--report", str(report), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    return json.loads(report.read_text()), out.read_text(), err


def test_links_that_lead_outside_are_skipped_with_a_warning_naming_each(
    tmp_path: Path, catalog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (catalog / "p.txt").symlink_to(Path("/etc/passwd"))
    (catalog / "secret.json").symlink_to(tmp_path / "outside" / "secret.json")
    (catalog / "sub").mkdir()
    (catalog / "sub" / "more").symlink_to(tmp_path / "outside" / "elsewhere",
                                          target_is_directory=True)
    (catalog / "sub" / "up.json").symlink_to(Path("..") / ".." / "outside" / "secret.json")
    report, quads, err = build(tmp_path, capsys, catalog)
    assert report["records_loaded"] == 2 and report["rejected"] == []
    warned = {(w["file"], w["reason"]) for w in report["warnings"]}  # type: ignore[attr-defined]
    assert warned == {(str(catalog / name), OUTSIDE)
                      for name in ("p.txt", "secret.json", "sub/more", "sub/up.json")}
    assert "secret_benchmark" not in quads and "more_benchmark" not in quads
    assert "root:" not in quads
    assert f"warning: {OUTSIDE} — 4 files (" in err


def test_a_link_that_stays_inside_is_read_once_under_its_target_s_name(
    tmp_path: Path, catalog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (catalog / "a_alias.json").symlink_to("page.json")  # sorts before its target
    (catalog / "sub").mkdir()
    (catalog / "sub" / "loop").symlink_to(catalog, target_is_directory=True)
    (catalog / "sub" / "same").symlink_to("..", target_is_directory=True)
    report, quads, _ = build(tmp_path, capsys, catalog)
    assert report == {"files_read": 2, "records_loaded": 2, "rejected": [], "warnings": []}
    assert "/record/page>" in quads and "/record/a_alias>" not in quads


def test_a_file_named_on_the_command_line_is_read_as_given(
    tmp_path: Path, catalog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "given.json").symlink_to(tmp_path / "outside" / "secret.json")
    report, quads, _ = build(tmp_path, capsys, catalog, tmp_path / "given.json")
    assert report["records_loaded"] == 3 and report["warnings"] == []
    assert "secret_benchmark" in quads


def test_a_folder_named_through_a_link_is_searched_as_itself(
    tmp_path: Path, catalog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The folder given is where a link's target is judged from, whatever path named it."""
    (tmp_path / "named").symlink_to(catalog, target_is_directory=True)
    (catalog / "again.json").symlink_to(catalog / "page.json")
    report, _, _ = build(tmp_path, capsys, tmp_path / "named")
    assert report == {"files_read": 2, "records_loaded": 2, "rejected": [], "warnings": []}
