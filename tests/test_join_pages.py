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
from graph.store.joining import copy_into, join
from graph.store.pages import PAGES, Layout, Page, Partition

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


OLD = [b"<p0> <q> <r> .\n", b"<p1> <q> <r> .\n" * 3, b"<p2> <q> <r> .\n", b"<p3> <q> <r> .\n",
       b"<p4> <q> <r> .\n" * 2]


def _generations(tmp_path: Path, order: list[int | bytes]) -> tuple[Path, Partition, Path]:
    """A generation ``old`` of the pages OLD with its dump, and the new folder whose pages
    are those of ``order``: an old page by its index (linked), or new bytes."""
    old_folder, new_folder = tmp_path / "old", tmp_path / "new"
    old = _partition(old_folder, OLD)
    old.save(old_folder)
    join(old_folder, old, TURTLE, old_folder / "dump.ttl")
    (new_folder / PAGES / TURTLE.name).mkdir(parents=True)
    found = []
    for number, item in enumerate(order):
        if isinstance(item, int):
            page = old.pages[item]
            name = f"{page.name}{TURTLE.extension}"
            os.link(old_folder / PAGES / TURTLE.name / name,
                    new_folder / PAGES / TURTLE.name / name)
            found.append(page)
        else:
            name = f"new-{number:06d}"
            (new_folder / PAGES / TURTLE.name / f"{name}{TURTLE.extension}").write_bytes(item)
            found.append(Page(name, f"<new{number}>", 1, np.empty(0, dtype=np.int64)))
    return new_folder, Partition(False, found, {TURTLE.name: LAYOUT}), old_folder / "dump.ttl"


@pytest.mark.parametrize("order", [
    [0, 1, b"<new> <q> <r> .\n", 3, 4],  # a page written again: two runs around it
    [0, 2, 3],  # a page gone: the runs skip it
    [1, 0, 2, 3, 4],  # out of the old order: no run across the swap
    [b"<first> <q> <r> .\n", 0, 1, 2, 3, 4, b"<last> <q> <r> .\n"],
    [0, 1, 2, 3, 4],
    [b"<only> <new> <page> .\n"],
])
def test_runs_of_the_previous_dump_join_into_the_same_dump(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, order: list[int | bytes]) -> None:
    folder, partition, previous = _generations(tmp_path, order)
    bodies = [OLD[item] if isinstance(item, int) else item for item in order]
    copied: list[Path] = []
    original = joining.copy_into

    def counted(source: Path, descriptor: int, offset: int = 0,
                length: int | None = None) -> int:
        copied.append(source)
        return original(source, descriptor, offset, length)

    monkeypatch.setattr(joining, "copy_into", counted)
    join(folder, partition, TURTLE, folder / "dump.ttl", previous=previous)
    assert (folder / "dump.ttl").read_bytes() == _expected(bodies)
    runs = sum(1 for index, item in enumerate(order) if isinstance(item, int) and (
        index == 0 or not isinstance(order[index - 1], int)
        or order[index - 1] != item - 1))  # type: ignore[operator]
    assert copied.count(previous) == runs


def test_a_previous_dump_that_is_not_its_pages_joined_is_not_copied(tmp_path: Path) -> None:
    folder, partition, previous = _generations(tmp_path, [0, 1, 2, 3, 4])
    damaged = previous.read_bytes()
    cut = len(LAYOUT.head) + 2
    previous.write_bytes(damaged[:cut] + damaged[cut + 1:])  # a byte short, in a page
    join(folder, partition, TURTLE, folder / "dump.ttl", previous=previous)
    assert (folder / "dump.ttl").read_bytes() == _expected(OLD)
