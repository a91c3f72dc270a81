"""The memory a full build holds: what it keeps of the records it loaded is where their
pickles are in a temporary file, not their models nor the pickles themselves, when its state
is kept (``graph.build.graphs.read(keep=Spool())``)."""

import pickle
from pathlib import Path

import pytest

from graph.build.graphs import read
from graph.ingest.kept import Spool, Spooled
from graph.ingest.records import Record
from graph.mapping.identity import identity
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


class _Held(Spooled):
    """A record's pickle held in memory."""

    __slots__ = ("_blob",)

    def __init__(self, record: Record, spool: Spool) -> None:
        super().__init__(identity(record), spool, 0, 0)
        self._blob = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)

    def record(self) -> Record:
        held: Record = pickle.loads(self._blob)
        return held


class _HeldSpool:
    """A spool that keeps each pickle in memory: where the pickles were before they went to
    a file."""

    def __init__(self) -> None:
        self._spool = Spool()  # unused: named by each record, as a spool's records do

    def keep(self, record: Record) -> Spooled:
        return _Held(record, self._spool)


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


def test_a_spooled_record_reads_back_as_the_record(catalog: Path) -> None:
    """A record kept in a spool reads back as the record, a new model each time (the caller
    lets go of it); what the index reads of it is held beside its place."""
    loaded = read([catalog], Settings()).report.records[0]
    spooled = Spool().keep(loaded.record)
    assert isinstance(spooled, Spooled)
    assert spooled.record() == loaded.record and spooled.record() is not spooled.record()
    assert spooled.identity == loaded.identity
    made = read([catalog], Settings(), keep=Spool()).report.records[0].made
    assert isinstance(made, Spooled) and made.record() == loaded.record
