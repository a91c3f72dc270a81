"""A records chunk of a store's state (``graph.store.state.records.pickle_runs``): written a run of
files at a time, read back whole, written without holding every spooled record's pickle at
once, and the records' own pickles apart, read when asked for."""

from pathlib import Path

import pytest

from graph.build.graphs import read
from graph.ingest.kept import ImportedFile, Spool
from graph.settings import Settings
from graph.store.state import records as record_chunks
from perf.generate_catalog import write_catalog
from tests.memory import traced

RECORDS = 120


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ImportedFile]:
    """What a kept build imported: each record's pickle in the build's spool."""
    folder = tmp_path_factory.mktemp("catalog")
    write_catalog(RECORDS, folder, defect_share=0)
    made = read([folder], Settings(), keep=Spool()).report.imported
    return {str(relative): found for relative, found in made.items()}  # as the state keeps them


@pytest.mark.parametrize("run", [1, 7, 1_000])
def test_a_chunk_of_runs_reads_back_every_file(
        imported: dict[str, ImportedFile], tmp_path: Path, run: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record_chunks, "FILES_AT_A_TIME", run)
    record_chunks.pickle_runs(tmp_path / "records-0.pickle", imported)
    again = record_chunks.unpickle_runs(tmp_path / "records-0.pickle")
    assert list(again) == list(imported)
    for relative, made in imported.items():
        assert again[relative].digest == made.digest
        assert [part.record.record for part in again[relative].parts] == [
            part.record.record for part in made.parts]


def test_an_empty_chunk_reads_back_empty(tmp_path: Path) -> None:
    record_chunks.pickle_runs(tmp_path / "records-0.pickle", {})
    assert record_chunks.unpickle_runs(tmp_path / "records-0.pickle") == {}


def test_a_chunk_is_written_without_every_pickle_at_once(
        imported: dict[str, ImportedFile], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The spooled pickles are read back to be written: a run at a time, the pickler's memo
    cleared between runs, the chunk's writing holds a fraction of them (one pickle of the
    whole held all of them: its memo keeps every object it wrote)."""
    path = tmp_path / "records-0.pickle"
    monkeypatch.setattr(record_chunks, "FILES_AT_A_TIME", 10)
    _, _, peak = traced(lambda: record_chunks.pickle_runs(path, imported))
    written = path.stat().st_size + path.with_suffix(".blobs").stat().st_size
    assert peak < written / 4, (peak, written)


def test_the_records_pickles_are_apart_and_read_when_asked_for(
        imported: dict[str, ImportedFile], tmp_path: Path) -> None:
    """A chunk's pickle holds what the index reads of each record, not the record: its own
    pickle is in the blobs file, read from its map when the record is asked for, even once
    the chunk's files have gone (a rebuild's report outlives the generation it read)."""
    path = tmp_path / "records-0.pickle"
    record_chunks.pickle_runs(path, imported)
    blobs = path.with_suffix(".blobs")
    assert path.stat().st_size < blobs.stat().st_size / 5
    again = record_chunks.unpickle_runs(path)
    path.unlink()
    blobs.unlink()
    for relative, made in imported.items():
        assert [part.record.record for part in again[relative].parts] == [
            part.record.record for part in made.parts]
