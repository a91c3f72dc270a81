"""A ``FormIndex`` finds each term of a restored table by its N-Triples form, also when two
forms share a checksum, and nothing for a form it does not hold; it reads back as written,
and the index of a table's chunks joined is the index of the whole table."""

from pathlib import Path

import numpy as np
import pytest

from graph.dataset.form_index import FormIndex, checksum
from graph.dataset.table import TermTable

COLLIDING = ('"9106889"', '"14000606"')
"""Two forms with one CRC-32."""
FORMS = ["<https://example.org/a>", '"say \\"hi\\""', '"2"^^<http://www.w3.org/2001/XMLSchema'
         '#integer>', '"colour"@en-gb', *COLLIDING, '"\\ud800 alone"', "<https://example.org/é>"]


def test_the_two_colliding_forms_share_a_checksum() -> None:
    assert checksum(COLLIDING[0]) == checksum(COLLIDING[1])


@pytest.mark.parametrize("forms", [FORMS, FORMS[::-1]])
def test_every_form_is_found_by_its_own_id(forms: list[str]) -> None:
    index = FormIndex.of(forms)
    assert [index.find(form, forms) for form in forms] == list(range(len(forms)))
    assert index.find('"9106890"', forms) is None
    assert index.find("<https://example.org/b>", forms) is None


def test_a_lone_surrogate_is_indexed() -> None:
    forms = ['"\ud800"', '"b"']
    assert FormIndex.of(forms).find('"\ud800"', forms) == 0


def test_chunks_joined_index_the_whole_table(tmp_path: Path) -> None:
    parts = [FormIndex.of(FORMS[:3]), FormIndex.of(FORMS[3:6], 3), FormIndex.of(FORMS[6:], 6)]
    for number, part in enumerate(parts):
        np.save(tmp_path / f"{number}.npy", part.keys)
    joined = FormIndex.joined(FormIndex.load(tmp_path / f"{number}.npy")
                              for number in range(len(parts)))
    whole = FormIndex.of(FORMS)
    assert joined.keys.tolist() == whole.keys.tolist()
    assert [joined.find(form, FORMS) for form in FORMS] == list(range(len(FORMS)))
    assert FormIndex.joined([]).find(FORMS[0], FORMS) is None


def test_a_table_restored_with_its_index_adds_only_new_terms() -> None:
    terms = TermTable()
    ids = [terms.plain(text) for text in ("9106889", "14000606", "x")]
    snapshot = terms.snapshot()
    restored = TermTable.restored(snapshot, FormIndex.of(snapshot.ntriples))
    assert [restored.plain(text) for text in ("9106889", "14000606", "x")] == ids
    assert restored.plain("new") == len(ids)
