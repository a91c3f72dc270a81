"""Snapshot files: the same packages give the same bytes; NOTICE; ``benchgraph harvest``."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from graph.cli import main
from graph.ingest.harvest import harvest
from graph.ingest.harvest.helm_repository import locate
from graph.ingest.harvest.snapshot import (
    combined_notice,
    read_snapshot,
    snapshot_bytes,
    write_snapshots,
)
from graph.ingest.harvest.text import arxiv_ids, short_description
from graph.ingest.records.harness_snapshot import SNAPSHOT_FORMAT, Entry, Snapshot
from graph.resources import data_dir
from tests.test_harvest_archive import FIXTURES, build_wheel

PACKAGES = ("helm", "lm_eval", "inspect_evals", "opencompass", "evalscope", "lighteval",
            "lmms_eval", "alpaca_eval")
FIXTURE_COMMIT = "0123456789abcdef0123456789abcdef01234567"
"""The commit ``tests/data/harness_records/`` names for the HELM repository fixture."""


def wheels(out: Path, reverse: bool = False, year: int = 2026) -> list[Path]:
    return [build_wheel(p, out, reverse=reverse, date_time=(year, 1, 1, 0, 0, 0))
            for p in PACKAGES]


def written(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_same_packages_give_the_same_bytes(tmp_path: Path) -> None:
    first = harvest(wheels(tmp_path / "a"))
    # other member order in the zip, other time stamps, and the unpacked folders
    second = harvest(wheels(tmp_path / "b", reverse=True, year=2030))
    third = harvest([FIXTURES / p for p in reversed(PACKAGES)])
    write_snapshots(first.snapshots, tmp_path / "out1")
    write_snapshots(second.snapshots, tmp_path / "out2")
    write_snapshots(third.snapshots, tmp_path / "out3")
    assert written(tmp_path / "out1") == written(tmp_path / "out2") == written(tmp_path / "out3")
    assert sorted(written(tmp_path / "out1")) == [
        "NOTICE", "alpaca_eval.json", "evalscope.json", "helm.json", "inspect_evals.json",
        "lighteval.json", "lm_eval.json", "lmms_eval.json", "opencompass.json"
    ]


def test_the_record_fixtures_are_what_harvest_writes_for_the_package_fixtures(
    tmp_path: Path,
) -> None:
    """``tests/data/harness_records/`` (its README) is this command's output, byte for byte."""
    repository = locate(FIXTURES / "helm_repository", FIXTURE_COMMIT)
    write_snapshots(harvest([FIXTURES / p for p in PACKAGES], repository).snapshots,
                    tmp_path / "out")
    records = Path(__file__).parent / "data" / "harness_records"
    assert written(tmp_path / "out") == {
        name: data for name, data in written(records).items() if name != "README.md"}


def test_the_bundled_snapshots_are_in_their_one_canonical_form() -> None:
    """``catalog/harnesses/``: each file is what the writer makes of what it holds, so
    harvesting the same wheels again gives the same bytes (and a hand edit shows)."""
    folder = data_dir("catalog") / "harnesses"
    names = sorted(path.name for path in folder.glob("*.json"))
    assert names == [
        "alpaca_eval.json", "evalscope.json", "helm.json", "inspect_evals.json", "lighteval.json",
        "lm_eval.json", "lmms_eval.json", "opencompass.json"]
    snapshots = [read_snapshot((folder / name).read_bytes()) for name in names]
    for name, snapshot in zip(names, snapshots, strict=True):
        assert snapshot_bytes(snapshot) == (folder / name).read_bytes(), name
    assert combined_notice(snapshots) == (folder / "NOTICE").read_text("utf-8")


def test_a_snapshot_reads_back_to_the_same_bytes(tmp_path: Path) -> None:
    for snapshot in harvest(wheels(tmp_path)).snapshots:
        data = snapshot_bytes(snapshot)
        assert read_snapshot(data) == snapshot
        assert snapshot_bytes(read_snapshot(data)) == data


def test_what_a_package_does_not_state_is_left_out(tmp_path: Path) -> None:
    for snapshot in harvest(wheels(tmp_path)).snapshots:
        text = snapshot_bytes(snapshot).decode()
        assert ": null" not in text and "[]" not in text and '"main": false' not in text
        assert f'"format": {SNAPSHOT_FORMAT}' in text


def test_the_models_put_themselves_in_order() -> None:
    entry = Entry(id="b", name="B", tags=["z", "a", "z"], source=["y", "x"])
    assert (entry.tags, entry.source) == (["a", "z"], ["x", "y"])
    snapshot = Snapshot(format=SNAPSHOT_FORMAT, harness="helm", package="p", version="1",
                        licence="MIT", entries=[entry, Entry(id="a", name="A", source=["x"])])
    assert [e.id for e in snapshot.entries] == ["a", "b"]
    with pytest.raises(ValidationError, match="two entries share an id"):
        Snapshot(format=SNAPSHOT_FORMAT, harness="helm", package="p", version="1",
                 licence="MIT", entries=[entry, entry])


def test_a_snapshot_file_with_an_unknown_key_is_refused() -> None:
    data = b'{"format": 2, "harness": "helm", "package": "p", "version": "1", ' \
           b'"licence": "MIT", "entries": [], "access": "gated"}'
    with pytest.raises(ValidationError, match="access"):
        read_snapshot(data)


def test_the_notice_names_each_package_its_licence_and_copyright(tmp_path: Path) -> None:
    write_snapshots(harvest(wheels(tmp_path)).snapshots, tmp_path / "out")
    notice = (tmp_path / "out" / "NOTICE").read_text()
    for line in ("crfm-helm 9.9.1", "Licence: Apache License 2.0",
                 "Copyright 2099 Fixture University", "lm_eval 9.9.2",
                 "Copyright (c) 2099 Fixture Harness Authors", "inspect_evals 9.9.3",
                 "Licence: MIT", "opencompass 9.9.4"):
        assert line in notice
    assert notice.index("crfm-helm") < notice.index("inspect_evals") < notice.index("lm_eval")


def test_a_repository_read_beside_a_package_gives_the_same_bytes_and_is_named(
    tmp_path: Path,
) -> None:
    repository = locate(FIXTURES / "helm_repository", FIXTURE_COMMIT)
    first = harvest(wheels(tmp_path / "a"), repository)
    second = harvest([FIXTURES / p for p in reversed(PACKAGES)], repository)
    write_snapshots(first.snapshots, tmp_path / "out1")
    write_snapshots(second.snapshots, tmp_path / "out2")
    assert written(tmp_path / "out1") == written(tmp_path / "out2")
    (helm,) = [s for s in first.snapshots if s.harness == "helm"]
    assert read_snapshot(snapshot_bytes(helm)) == helm and helm.repository is not None
    notice = (tmp_path / "out1" / "NOTICE").read_text()
    block = notice[notice.index("crfm-helm 9.9.1"):notice.index("inspect_evals")]
    assert block.splitlines()[4:7] == [
        "Beside it, https://github.com/stanford-crfm/helm at commit "
        "0123456789abcdef0123456789abcdef01234567",
        "Licence: Apache-2.0",
        "Copyright 2099 Fixture University",
    ]
    assert notice.count("Beside it") == 1  # only the snapshot read with a repository
    without = harvest(wheels(tmp_path / "b"))
    assert "Beside it" not in combined_notice(without.snapshots)


def test_the_command_writes_snapshots_and_reports_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "snapshots"
    assert main(["harvest", *map(str, wheels(tmp_path)), "-o", str(out)]) == 0
    assert sorted(written(out)) == [
        "NOTICE", "alpaca_eval.json", "evalscope.json", "helm.json", "inspect_evals.json",
        "lighteval.json", "lm_eval.json", "lmms_eval.json", "opencompass.json"
    ]
    err = capsys.readouterr().err
    assert "lm_eval.json: lm_eval 9.9.2, 3 entries, 5 tasks" in err
    assert "warning: " in err and "broken.yaml: not valid YAML" in err


@pytest.mark.parametrize("name", ["missing.whl", "not_a_wheel.whl"])
def test_the_command_names_a_bad_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    path = tmp_path / name
    if name == "not_a_wheel.whl":
        path.write_text("not a zip")
    assert main(["harvest", str(path), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"benchgraph harvest: {path}: ")
    assert not (tmp_path / "out").exists()


def test_the_help_says_how_to_get_the_wheels(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["harvest", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "pip download --no-deps crfm-helm lm-eval inspect-evals opencompass" in help_text


def test_a_description_is_its_first_paragraph_in_whole_sentences() -> None:
    assert short_description("One.\n\nTwo.") == "One."
    assert short_description("  A  wrapped\n line.  ") == "A wrapped line."
    long = "First sentence here. " + "x" * 490 + ". Third."
    assert short_description(long) == "First sentence here."
    cut = short_description("word " * 200)
    assert cut is not None and cut.endswith("…") and len(cut) <= 500
    assert short_description("  \n ") is None


def test_arxiv_references_in_every_form_give_bare_ids() -> None:
    text = ("[(A)](https://arxiv.org/abs/2211.08584v2), https://arxiv.org/pdf/2009.03300.pdf, "
            "arXiv:2406.12036, https://arxiv.org/abs/hep-th/9901001 and 2211.08584 again "
            "https://arxiv.org/abs/2211.08584")
    assert arxiv_ids(text) == ["2211.08584", "2009.03300", "2406.12036", "hep-th/9901001"]
