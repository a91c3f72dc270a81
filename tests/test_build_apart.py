"""A store's full build made in a forked child (``graph.build.apart``): the parent gets the
build an in-process one makes, and the child's failures as its own; and the table let go
of before the store's load starts (``build_store(let_go=True)``)."""

import os
import signal
from pathlib import Path

import numpy as np
import pytest

from graph.build import apart
from graph.build.graphs import build
from graph.errors import BenchgraphError, ErrorKind
from graph.ingest import loader
from graph.ingest.importers.reading import InputPathError
from graph.ingest.kept import KeptRecord, Spool
from graph.settings import Settings
from graph.store import disk
from graph.store.kinds import build_into
from graph.store.rebuild import kept_build
from perf.generate_catalog import write_catalog

RECORDS = 150


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("catalog")
    write_catalog(RECORDS, folder, defect_share=0.1)  # warnings too
    (folder / "broken.txt").write_text('{"page": ', encoding="utf-8")  # and a rejection
    return folder


def test_the_parent_gets_the_build_an_in_process_one_makes(
        catalog: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(apart, "_TERMS_AT_A_TIME", 1_000)  # the forms in several pickles
    monkeypatch.setattr(loader, "RACY_NS", 0)  # every file's stat kept, however new
    here = build([catalog], Settings(), keep=Spool())
    there = apart.build_apart([catalog], Settings())
    assert there.table.terms.ntriples == here.table.terms.ntriples
    assert there.table.terms.terms[:] == here.table.terms.terms[:]
    assert np.array_equal(there.table.held_rows(), here.table.held_rows())
    assert [str(p) for p in there.report.warnings] == [str(p) for p in here.report.warnings]
    assert [str(p) for p in there.report.rejected] == [str(p) for p in here.report.rejected]
    assert there.report.rejected  # the catalog's file-level defects
    assert there.report.text_digests == here.report.text_digests
    assert there.report.stats == here.report.stats
    assert there.report.stats
    assert there.asked == here.asked
    assert [(r.key, r.identity) for r in there.report.records] == [
        (r.key, r.identity) for r in here.report.records]
    sent, made = there.report.records[7].made, here.report.records[7].made
    assert isinstance(sent, KeptRecord) and isinstance(made, KeptRecord)
    assert sent.record == made.record  # read back from the spool both processes wrote


def test_a_record_keeps_its_place_in_the_shared_spool(catalog: Path) -> None:
    """A record is sent as where its pickle is, and one record is one object in the
    report (a file's records and the load's are the same), as in the build sent."""
    there = apart.build_apart([catalog], Settings())
    loaded = there.report.records[0]
    made = loaded.made
    assert isinstance(made, KeptRecord) and made.packed
    assert made.reduce_in_place()[1][2].__class__.__name__ == "Spooled"
    imported = there.report.imported[loaded.source.relative]
    assert any(part.record is made for part in imported.parts)


def test_an_error_in_the_child_is_raised_in_the_parent(tmp_path: Path) -> None:
    with pytest.raises(InputPathError) as raised:
        apart.build_apart([tmp_path / "missing"], Settings())
    assert "missing" in str(raised.value)
    assert raised.value.kind is InputPathError.kind


def test_a_bug_in_the_child_carries_its_traceback(
        catalog: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("broken mapping")

    monkeypatch.setattr(apart, "build", broken)
    with pytest.raises(ValueError, match="broken mapping") as raised:
        apart.build_apart([catalog], Settings())
    assert "in the build's process" in "".join(raised.value.__notes__)
    assert "broken" in "".join(raised.value.__notes__)


def test_a_child_that_dies_is_an_error_that_says_so(
        catalog: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def killed(*args: object, **kwargs: object) -> None:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel does when memory runs out

    monkeypatch.setattr(apart, "build", killed)
    with pytest.raises(BenchgraphError, match=r"killed by signal 9 \(SIGKILL\)") as raised:
        apart.build_apart([catalog], Settings())
    assert raised.value.kind is ErrorKind.STORE


@pytest.mark.parametrize("let_go", [True, False])
def test_a_store_build_lets_go_of_its_table_before_the_load(
        catalog: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, let_go: bool) -> None:
    settings = Settings()
    result = apart.build_apart([catalog], settings)
    rows, terms = len(result.table), len(result.table.terms)
    quads = len(set(map(tuple, result.table.held_rows().tolist())))  # distinct
    held_at_load: list[int] = []

    class Watched(disk._Writing):
        def __init__(self, command: str, *arguments: object, **options: object) -> None:
            held_at_load.append(len(result.table.terms))
            super().__init__(command, *arguments, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(disk, "_Writing", Watched)
    manifest = build_into(tmp_path / "store", result, settings, validate=True,
                          kept=kept_build(result, settings), let_go=let_go)
    assert held_at_load == [0 if let_go else terms]
    assert manifest.quads == quads  # every quad stored all the same
    assert len(result.table) == (0 if let_go else rows)
