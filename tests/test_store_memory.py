"""What writing a store generation holds: the dump pages are cut from the rows where the
table holds them (``graph.store.pages.write_partition``), and the state's terms chunk is
written a run of terms at a time (``graph.store.state.terms.write_snapshot``)."""

import hashlib
import json
import random
from pathlib import Path

import numpy as np
import pytest
from rdflib import URIRef

from graph.dataset.table import QuadTable, TermSnapshot, TermTable
from graph.store import pages
from graph.store.pages import write_partition
from graph.store.state import KeptBuild
from graph.store.state import terms as terms_chunks
from tests.memory import traced

IRI = "https://example.org/" + "a-long-namespace/" * 4


def many_rows(count: int, distinct: int) -> QuadTable:
    """``count`` quads over ``distinct`` IRIs, in no order (seeded)."""
    terms = TermTable()
    ids = [terms.iri(URIRef(f"{IRI}{i}")) for i in range(distinct)]
    chosen = np.random.default_rng(0).choice(np.asarray(ids), size=(count, 4))
    return QuadTable.of_rows(terms, chosen)


def digest(members: np.ndarray, rows: np.ndarray) -> str:
    return hashlib.sha256(members.astype(np.int64).tobytes() + rows.astype(np.int64).tobytes()
                          ).hexdigest()


@pytest.mark.parametrize("keep_graphs", [True, False])
def test_pages_are_cut_without_a_copy_of_the_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keep_graphs: bool
) -> None:
    """120,000 quads over 3,000 terms: cutting them into pages allocates less than one
    64-bit copy of the rows at its peak (sorting such a copy held two and an index), and
    each page gets the rows it got when a copy was sorted, in the same order."""
    table = many_rows(120_000, 3_000)
    table.terms.freeze()
    position = pages._group_position(keep_graphs)
    groups, sorted_rows, ends = pages._grouped(table.terms, table.rows(), position)
    expected = [digest(members, rows) for members, rows in pages._cut(groups, sorted_rows,
                                                                        ends)]
    del groups, sorted_rows, ends
    got: list[str] = []
    monkeypatch.setattr(pages, "_write_page", lambda folder, partition, terms, members, rows,
                        prefixes, number: got.append(digest(members, rows)))
    _, _, peak = traced(lambda: write_partition(tmp_path, table, "https://example.org/",
                                                keep_graphs=keep_graphs))
    assert got == expected
    assert len(expected) > 10
    assert peak < table.rows().nbytes, (peak, table.rows().nbytes)


def test_a_terms_chunk_is_written_a_run_of_terms_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """50,000 terms of 200 characters, 1,000 at a time: writing their chunk allocates less
    than a tenth of their text at its peak, and writes the bytes ``json.dumps`` and one
    join would."""
    monkeypatch.setattr(terms_chunks, "TERMS_AT_A_TIME", 1000)
    rng = random.Random(0)
    count = 50_000
    lexicals = ["".join(rng.choices("abcdé\"\\\n", k=200)) for _ in range(count)]
    forms = [json.dumps(text, ensure_ascii=False) for text in lexicals]
    snapshot = TermSnapshot(b"P" * count, forms, lexicals[::7])
    text = sum(map(len, forms)) + sum(map(len, lexicals))
    path = tmp_path / "terms-0.json"
    _, _, peak = traced(lambda: terms_chunks.write_snapshot(path, snapshot, 0))
    data = {"kinds": "P" * count, "extras": lexicals[::7]}  # no lexical form kept
    assert path.read_text(encoding="utf-8") == json.dumps(data, ensure_ascii=False)
    assert path.with_suffix(".nt").read_text(encoding="utf-8") == "\n".join(forms)
    assert peak < text / 10, (peak, text)


def test_the_state_keeps_the_rows_as_the_table_holds_them(tmp_path: Path) -> None:
    """``KeptBuild.save`` writes the table's own 32-bit rows (a 64-bit copy of them was 430 MB
    at 100,000 records), under half the bytes of such a copy at its peak, and they read
    back as the same table."""
    table = many_rows(120_000, 3_000)
    kept = KeptBuild("fingerprint", {}, {}, table, [], [])
    generation = tmp_path / "generation"
    generation.mkdir()
    _, _, peak = traced(lambda: kept.save(generation, None))
    again = KeptBuild.load(generation, "fingerprint")
    assert again is not None
    assert np.array_equal(again.table.rows(), table.rows())
    assert peak < table.rows().nbytes / 2, (peak, table.rows().nbytes)
