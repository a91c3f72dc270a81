"""The memory a full build holds: what it keeps of the records it loaded is their pickles,
not their models, when its state is kept (``graph.build.build(keep=True)``)."""

import pickle
from pathlib import Path

import pytest

from graph.build import build
from graph.kept import KeptRecord
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
    result, held, peak = traced(lambda: build([catalog], Settings(), keep=keep))
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


def test_a_packed_record_pickles_as_the_record_did(catalog: Path) -> None:
    """The state's pickle of a packed record is the one made at import (not a second pass)
    and reads back as the same record."""
    result = build([catalog], Settings(), keep=True)
    made = result.report.records[0].made
    assert isinstance(made, KeptRecord)
    again = pickle.loads(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
    assert again.record == made.record
    assert again.identity == made.identity
