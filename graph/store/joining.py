"""Joining a generation's dump pages (``graph.store.pages``) into its dumps.

A dump is its layout's head, the bodies of its pages apart by the separator, then the tail
(``Layout.joined``). The bytes are copied by the kernel (``copy_into``:
``os.copy_file_range``), never read into Python: at 10,000 records the five dumps are
800 MB. An incremental build's pages are mostly the previous generation's, linked, in the
same order, so where pages follow one another as they did in the previous dump their bytes
are copied from that dump in one run (``_runs``): one copy of the 300 MB N-Quads dump takes
0.12 s, against 1.2-1.6 s for the 3,000 page files of every format one by one. What is
left of the join is writing 800 MB of new files (about 1 s at load 5, with or without their
``fsync``).
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from graph.export import write_atomically
from graph.export.formats import Format
from graph.store.pages import PagesError, Partition, page_files


def join(folder: Path, partition: Partition, fmt: Format, target: Path, *,
         previous: Path | None = None) -> int:
    """Write ``fmt``'s dump to ``target`` (atomically) from the pages in ``folder``; returns
    its size. ``previous``: the dump of the generation the pages were updated from
    (``update_partition``), beside its own ``pages/``: where pages follow one another as
    they did there, their bytes are copied from it in one run (``_runs``). Bytes are copied
    by the kernel (``copy_into``), never read into Python: at 10,000 records the dumps are
    800 MB, which read and written again took most of a rebuild's join (1.2-1.6 s, 0.35 s
    copied in runs of the previous dumps)."""
    found = partition.layouts[fmt.name]

    def write(handle: BinaryIO) -> int:
        size = 0
        for piece in found.joined(_runs(folder, partition, fmt, previous)):
            if isinstance(piece, _Bytes):
                handle.flush()
                size += copy_into(piece.path, handle.fileno(), piece.offset, piece.length)
            else:
                handle.write(piece)
                size += len(piece)
        return size

    try:
        return write_atomically(target, write)
    except FileNotFoundError as error:
        raise PagesError(f"a dump page of {folder} is missing ({error.filename}): build the "
                         "store again with --full") from None


@dataclass(frozen=True)
class _Bytes:
    """Bytes of a file that go into a dump as they are: ``length`` of them from ``offset``
    (None: to the end)."""

    path: Path
    offset: int = 0
    length: int | None = None


def _runs(folder: Path, partition: Partition, fmt: Format, previous: Path | None
          ) -> list[_Bytes]:
    """The dump's bodies (``Layout.joined`` puts the layout's bytes between them): each
    page's file, but for pages that follow one another as they did in the ``previous``
    dump, one run of that dump's bytes (the separators between them included)."""
    files = [_Bytes(path) for path in page_files(folder, partition, fmt)]
    placed = {} if previous is None else _placed(previous, partition, fmt)
    if previous is None or not placed:
        return files
    runs: list[_Bytes] = []
    last = -2
    for page, file in zip(partition.pages, files, strict=True):
        index, offset, size = placed.get(page.name, (-2, 0, 0))
        if index < 0:
            runs.append(file)
        elif index == last + 1:
            start = runs[-1].offset
            runs[-1] = _Bytes(previous, start, offset + size - start)
        else:
            runs.append(_Bytes(previous, offset, size))
        last = index
    return runs


def _placed(dump: Path, partition: Partition, fmt: Format) -> dict[str, tuple[int, int, int]]:
    """Where each page of the dump ``dump`` lies in it: its index, offset and size, by
    name; empty (nothing copied from it) when the dump is not those pages joined by this
    layout, as far as its size tells."""
    try:
        old = Partition.load(dump.parent, partition.keep_graphs, with_members=False)
        sizes = [os.stat(path).st_size for path in page_files(dump.parent, old, fmt)]
        total = os.stat(dump).st_size
    except (OSError, PagesError):
        return {}
    found = old.layouts.get(fmt.name)
    if found != partition.layouts[fmt.name] or found is None:
        return {}
    placed, offset = {}, len(found.head)
    for index, (page, size) in enumerate(zip(old.pages, sizes, strict=True)):
        offset += len(found.separator) if index else 0
        placed[page.name] = (index, offset, size)
        offset += size
    expected = offset + len(found.tail) if old.pages else len(found.empty)
    return placed if total == expected else {}


_NO_KERNEL_COPY = {errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EBADF}
"""What ``os.copy_file_range`` says where it cannot copy between these two files."""


def copy_into(source: Path, descriptor: int, offset: int = 0, length: int | None = None
              ) -> int:
    """Append ``length`` bytes of ``source`` from ``offset`` (None: to its end) to the open
    file ``descriptor`` (at its offset) and return how many: by ``os.copy_file_range`` (in
    the kernel; a reflink where the file system shares blocks), else read and written.
    PagesError when the file ends first."""
    with source.open("rb") as reading:
        if length is None:
            length = os.fstat(reading.fileno()).st_size - offset
        copied = 0
        kernel = hasattr(os, "copy_file_range")
        while copied < length:
            if kernel:
                try:
                    step = os.copy_file_range(reading.fileno(), descriptor, length - copied,
                                              offset + copied)
                except OSError as error:
                    if error.errno not in _NO_KERNEL_COPY:
                        raise
                    kernel = False
                    continue
            else:
                reading.seek(offset + copied)
                step = _write_all(descriptor, reading.read(min(length - copied, 1 << 20)))
            if step == 0:
                raise PagesError(f"{source} ended before its byte {offset + length}: build "
                                 "the store again with --full")
            copied += step
    return copied


def _write_all(descriptor: int, data: bytes) -> int:
    written = 0
    while written < len(data):
        written += os.write(descriptor, data[written:])
    return written


__all__ = ["copy_into", "join"]
