"""The memory a full build holds: what it keeps of the records it loaded is where their
pickles are in a temporary file, not their models nor the pickles themselves, when its state
is kept (``graph.build.graphs.read(keep=Spool())``)."""

import pickle
from pathlib import Path

import pytest

from graph.build.graphs import read
from graph.ingest.kept import KeptRecord, Spool
from graph.settings import Settings
from perf.generate_catalog import write_catalog
from tests.memory import traced

RECORDS = 600


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("catalog")
    write_catalog(RECORDS, folder, defect_share=0)
    return folder


def held_by_build(catalog: Path, keep: bool) -> tuple[int, int]:
    """What the build allocated and still holds once it is made, and its peak (bytes)."""
    result, held, peak = traced(lambda: read([catalog], Settings(),
                                              keep=Spool() if keep else None))
    assert len(result.report.records) == RECORDS
    return held, peak


def test_a_kept_build_holds_its_records_pickled_not_as_models(catalog: Path) -> None:
    """A record's model is 27 KB, its pickle 6 KB (the lean profile): the records of a build
    that keeps its state are pickled as imported and read back one at a time to be mapped,
    so the build holds well under the models' size, at its end and at its peak."""
    whole, whole_peak = held_by_build(catalog, keep=False)
    packed, packed_peak = held_by_build(catalog, keep=True)
    models = RECORDS * 15_000  # the models and texts let go: at least this much less
    assert packed < whole - models, (packed, whole)
    assert packed_peak < whole_peak - models, (packed_peak, whole_peak)


class _HeldSpool:
    """A spool that keeps each pickle in memory: where the pickles were before they went to
    a file."""

    def put(self, blob: bytes) -> bytes:
        return blob


def test_a_kept_build_holds_no_record_pickle_in_memory(catalog: Path) -> None:
    """Each record's pickle (6 KB in the lean profile) is spooled to a temporary file: the
    build holds at least 80 % of the pickles' size less than it does with them in memory."""
    read([catalog], Settings(), keep=Spool())  # what a first build caches is not measured
    result, spooled, _ = traced(lambda: read([catalog], Settings(), keep=Spool()))
    pickles = sum(len(pickle.dumps(loaded.record, protocol=pickle.HIGHEST_PROTOCOL))
                  for loaded in result.report.records)
    assert pickles > RECORDS * 3_000
    _, held, _ = traced(lambda: read([catalog], Settings(),
                                      keep=_HeldSpool()))  # type: ignore[arg-type]
    assert spooled < held - 0.8 * pickles, (spooled, held, pickles)


def test_a_spooled_record_reads_back_and_pickles_as_one_held(catalog: Path) -> None:
    """A record packed into a spool reads back as the record, and the state pickles it to
    the bytes of one packed in memory; its pickle is in the spool's file, not the value."""
    loaded = read([catalog], Settings()).report.records[0]
    spool = Spool()
    on_disk, in_memory = KeptRecord.of(loaded.record), KeptRecord.of(loaded.record)
    on_disk.pack(spool)
    in_memory.pack()
    assert on_disk.packed and on_disk.record == loaded.record
    assert (pickle.dumps(on_disk, protocol=pickle.HIGHEST_PROTOCOL)
            == pickle.dumps(in_memory, protocol=pickle.HIGHEST_PROTOCOL))
    assert len(pickle.dumps(on_disk.identity)) > 0


def test_a_packed_record_pickles_as_the_record_did(catalog: Path) -> None:
    """The state's pickle of a packed record is the one made at import (not a second pass)
    and reads back as the same record."""
    result = read([catalog], Settings(), keep=Spool())
    made = result.report.records[0].made
    assert isinstance(made, KeptRecord)
    again = pickle.loads(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
    assert again.record == made.record
    assert again.identity == made.identity
