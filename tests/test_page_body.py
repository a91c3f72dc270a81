"""A page's body is written as its document less its format's head and tail, a run of the
writer's pieces at a time, whatever the runs' size: the bytes are those of the whole
document cut, and a document without the layout is refused."""

import io

import pytest

from graph.store import pages
from graph.store.pages import Layout

LAYOUT = Layout(b"@prefix x: <y> .\n", b"", b"]", b"[]")
PIECES = [b"@prefix x: ", b"<y> .\n", b"a b c .\n", b"", b"d e f .\n", b"]"]


@pytest.mark.parametrize("run_bytes", [1, 5, 17, 1 << 20])
def test_the_body_is_the_document_cut(monkeypatch: pytest.MonkeyPatch, run_bytes: int) -> None:
    monkeypatch.setattr(pages, "_RUN_BYTES", run_bytes)
    out = io.BytesIO()
    LAYOUT.write_body(out, iter(PIECES))
    assert out.getvalue() == b"a b c .\nd e f .\n"


@pytest.mark.parametrize("run_bytes", [1, 1 << 20])
@pytest.mark.parametrize("pieces", [[b"@prefix z: <y> .\n", b"a b c .\n]"],
                                    [b"@prefix x: <y> .\n", b"a b c .\n"],
                                    [b"@prefix x:"], []])
def test_a_document_without_the_layout_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                  run_bytes: int, pieces: list[bytes]) -> None:
    monkeypatch.setattr(pages, "_RUN_BYTES", run_bytes)
    with pytest.raises(AssertionError, match="layout"):
        LAYOUT.write_body(io.BytesIO(), iter(pieces))


def test_an_empty_head_and_tail_write_every_byte() -> None:
    out = io.BytesIO()
    Layout(b"", b"", b"", b"").write_body(out, iter([b"x", b"", b"yz"]))
    assert out.getvalue() == b"xyz"
