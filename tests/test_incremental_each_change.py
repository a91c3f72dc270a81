"""An incremental build after each change to the record files gives the store a full build of
the same files gives (``tests.test_incremental`` says what "the same" holds), and the same
validation report, though it checks again only what the change may touch. Its own module,
the longest of the incremental tests, so that the suite's workers run it beside the others."""

from __future__ import annotations

import json
import shutil
from functools import partial
from pathlib import Path

import pytest

from graph.settings import Settings
from tests.test_incremental import (
    SEED_DIRECTORY,
    SEED_PAGE,
    full_build,
    records,
    rewrite_page,
)
from tests.test_incremental import check as check_validated

pytestmark = pytest.mark.slow

__all__ = ["records"]  # the fixture this module's test takes


def test_each_change_gives_the_store_a_full_build_gives(
    tmp_path: Path, records: Path, settings: Settings
) -> None:
    store = tmp_path / "store"
    full_build(store, records, settings, validate=True)
    check = partial(check_validated, validate=True)

    nothing = check(tmp_path, store, records, settings, "nothing")
    assert nothing.figures.records_read == 0 and nothing.figures.graphs_changed == 0
    assert nothing.figures.records_validated == 0

    page = records / "generated" / "00003_f106c292e922328e.txt"
    rewrite_page(page, lambda p: p.update(summary="A summary written again, quixotically."))
    one = check(tmp_path, store, records, settings, "summary")
    assert one.figures.records_read == 1 and one.figures.records_remapped == 0
    # the record, and any other typing its benchmark: not the 445
    assert one.figures.records_validated is not None and 1 <= one.figures.records_validated <= 3
    assert one.figures.index_updated  # the summary's rows, not the whole index
    # a word no other record has, gone again: the one-typo lookup forgets it
    rewrite_page(page, lambda p: p.update(summary="A summary written a third time."))
    assert check(tmp_path, store, records, settings, "summary again").figures.index_updated
    # renamed: its rows written again, and every order of the list made again (it moves)
    rewrite_page(page, lambda p: p.update(name="Aaa, first of all"))
    assert check(tmp_path, store, records, settings, "renamed").figures.index_updated

    # An alias of the seed page now names the directory page's benchmark and one of its
    # related entries: the unchanged directory page lands on mimic_rrs.
    def aliases(p: dict[str, object]) -> None:
        p["aliases"] = [*p["aliases"], "MIMIC-CXR (classification)", "HealthBench"]  # type: ignore[list-item]
    rewrite_page(records / SEED_PAGE, aliases)
    resolved = check(tmp_path, store, records, settings, "aliases")
    assert resolved.figures.records_read == 1 and resolved.figures.records_remapped == 1

    (records / "generated" / "00005_2a0b4be8b3f47cd2.txt").unlink(missing_ok=True)
    new = records / "generated" / "new_record.txt"
    shutil.copy(page, new)
    rewrite_page(new, lambda p: p.update(id="brand_new", name="Brand New Bench"))
    added = check(tmp_path, store, records, settings, "added and removed")
    assert not added.figures.index_updated  # a benchmark more: every number after it moves

    # A record claiming an id a later file holds: the later one is rejected as a duplicate,
    # and loads again once the first is gone.
    early = records / "generated" / "00000_duplicate.txt"
    shutil.copy(new, early)
    check(tmp_path, store, records, settings, "duplicate")
    early.unlink()
    check(tmp_path, store, records, settings, "duplicate gone")

    broken = records / "generated" / "00007_broken.txt"
    broken.write_text('{"page": {"id": "brok', encoding="utf-8")
    check(tmp_path, store, records, settings, "rejected")
    shutil.copy(page, broken)
    rewrite_page(broken, lambda p: p.update(id="mended", name="Mended"))
    check(tmp_path, store, records, settings, "mended")

    (records / SEED_DIRECTORY).unlink()
    check(tmp_path, store, records, settings, "directory page gone")

    # A harness snapshot whose one entry is renamed and another gone: its file is read
    # again (every entry of it), the other snapshots are not.
    snapshot = records / "harnesses" / "opencompass.json"
    data = json.loads(snapshot.read_text(encoding="utf-8"))
    data["entries"][0]["name"] = "GPQA"
    del data["entries"][1]
    snapshot.write_text(json.dumps(data, indent=1), encoding="utf-8")
    harness = check(tmp_path, store, records, settings, "harness entry renamed")
    assert harness.figures.records_read == len(data["entries"]) + len(data.get("models", []))
