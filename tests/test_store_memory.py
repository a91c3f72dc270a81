"""What writing a store generation's state holds: the terms chunk is written a run of terms
at a time (``graph.store.state.terms.write_snapshot``), and the rows as the table holds
them."""

import json
import random
from pathlib import Path

import numpy as np
import pytest
from rdflib import URIRef

from graph.dataset.table import QuadTable, TermSnapshot, TermTable
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
