"""Joining dump pages (``graph.store.joining.join``): the pages' bytes are copied by the kernel
into the dump between the layout's own bytes, and the dump is the very bytes of the layout
and the pages in order, whichever way the copy is made."""

import errno
import os
from pathlib import Path

import numpy as np
import pytest

from graph.export.formats import TURTLE
from graph.store import joining
from graph.store.concat import Joined
from graph.store.joining import copy_into, join
from graph.store.pages import PAGES, Layout, Page, PagesError, Partition

LAYOUT = Layout(b"@prefix x: <y> .\n\n", b"\n", b"#end\n", b"#empty\n")
BODIES = [b"<a> <b> <c> .\n", b"", "<d> <e> \"\u00e9t\u00e9\" .\n".encode() * 5000,
          b"<f> <g> <h> .\n"]


def _partition(folder: Path, bodies: list[bytes]) -> Partition:
    (folder / PAGES / TURTLE.name).mkdir(parents=True)
    found = []
    for number, body in enumerate(bodies):
        name = f"page-{number:06d}"
        (folder / PAGES / TURTLE.name / f"{name}{TURTLE.extension}").write_bytes(body)
        found.append(Page(name, f"<key{number}>", 1, np.empty(0, dtype=np.int64)))
    return Partition(False, found, {TURTLE.name: LAYOUT})


def _expected(bodies: list[bytes]) -> bytes:
    if not bodies:
        return LAYOUT.empty
    return LAYOUT.head + LAYOUT.separator.join(bodies) + LAYOUT.tail


@pytest.mark.parametrize("bodies", [BODIES, [], [b"<only> <one> <page> .\n"]])
def test_the_dump_is_the_layout_and_the_pages_in_order(tmp_path: Path,
                                                       bodies: list[bytes]) -> None:
    partition = _partition(tmp_path, bodies)
    target = tmp_path / "dump.ttl"
    size = join(tmp_path, partition, TURTLE, target)
    assert target.read_bytes() == _expected(bodies)
    assert size == len(_expected(bodies))


def test_without_the_kernel_copy_the_dump_is_the_same(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object) -> int:
        raise OSError(errno.EXDEV, "cross-device")

    monkeypatch.setattr(joining.os, "copy_file_range", refused, raising=False)
    partition = _partition(tmp_path, BODIES)
    join(tmp_path, partition, TURTLE, tmp_path / "dump.ttl")
    assert (tmp_path / "dump.ttl").read_bytes() == _expected(BODIES)


def test_a_copy_lands_at_the_offset_of_the_file_it_is_appended_to(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.write_bytes(b"0123456789" * 1000)
    target = tmp_path / "target"
    with target.open("wb") as handle:
        handle.write(b"before|")
        handle.flush()
        assert copy_into(source, handle.fileno()) == 10_000
        handle.write(b"|after")
    assert target.read_bytes() == b"before|" + b"0123456789" * 1000 + b"|after"


def test_another_error_of_the_copy_is_raised(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(*args: object) -> int:
        raise OSError(errno.EIO, "input/output error")

    monkeypatch.setattr(joining.os, "copy_file_range", failing, raising=False)
    source = tmp_path / "source"
    source.write_bytes(b"x")
    with (tmp_path / "target").open("wb") as handle, pytest.raises(OSError):
        copy_into(source, handle.fileno())
    assert os.path.getsize(tmp_path / "target") == 0


@pytest.mark.parametrize("bodies", [BODIES, [], [b"<only> <one> <page> .\n"]])
def test_the_pieces_read_as_one_file_are_the_joined_dump(tmp_path: Path,
                                                         bodies: list[bytes]) -> None:
    """What a server streams of a dump an incremental build did not join
    (``joining.pieces``, read by ``graph.store.concat.Joined``) is the joined dump."""
    partition = _partition(tmp_path, bodies)
    partition.save(tmp_path)
    join(tmp_path, partition, TURTLE, tmp_path / "dump.ttl")
    with Joined(joining.pieces(tmp_path, TURTLE)) as joined:
        assert joined.read() == (tmp_path / "dump.ttl").read_bytes() == _expected(bodies)


def test_a_missing_page_is_a_pages_error(tmp_path: Path) -> None:
    partition = _partition(tmp_path, BODIES)
    partition.save(tmp_path)
    (tmp_path / PAGES / TURTLE.name / f"{partition.pages[1].name}{TURTLE.extension}").unlink()
    with pytest.raises(PagesError, match="missing"):
        joining.pieces(tmp_path, TURTLE)
