"""A page's body is written as its document less its format's head and tail, a piece of the
writer's at a time, however the document is cut into pieces: the bytes are those of the
whole document cut, and a document without the layout is refused."""

import io

import pytest

from graph.store.pages import Layout

LAYOUT = Layout(b"@prefix x: <y> .\n", b"", b"]", b"[]")
PIECES = [b"@prefix x: ", b"<y> .\n", b"a b c .\n", b"", b"d e f .\n", b"]"]


def _cut(pieces: list[bytes], size: int) -> list[bytes]:
    """The same bytes, in pieces of ``size`` (0: as given)."""
    if not size:
        return pieces
    whole = b"".join(pieces)
    return [whole[at:at + size] for at in range(0, len(whole), size)]


@pytest.mark.parametrize("size", [1, 5, 17, 0, 1 << 20])
def test_the_body_is_the_document_cut(size: int) -> None:
    out = io.BytesIO()
    LAYOUT.write_body(out, iter(_cut(PIECES, size)))
    assert out.getvalue() == b"a b c .\nd e f .\n"


@pytest.mark.parametrize("size", [1, 0])
@pytest.mark.parametrize("pieces", [[b"@prefix z: <y> .\n", b"a b c .\n]"],
                                    [b"@prefix x: <y> .\n", b"a b c .\n"],
                                    [b"@prefix x:"], []])
def test_a_document_without_the_layout_is_refused(size: int, pieces: list[bytes]) -> None:
    with pytest.raises(AssertionError, match="layout"):
        LAYOUT.write_body(io.BytesIO(), iter(_cut(pieces, size)))


def test_an_empty_head_and_tail_write_every_byte() -> None:
    out = io.BytesIO()
    Layout(b"", b"", b"", b"").write_body(out, iter([b"x", b"", b"yz"]))
    assert out.getvalue() == b"xyz"
