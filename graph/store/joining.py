"""Joining a generation's dump pages (``graph.store.pages``) into its dumps.

A dump is its layout's head, the bodies of its pages apart by the separator, then the tail
(``Layout.joined``). A full build joins them into one file per format (the N-Quads and
N-Triples are what the store is bulk-loaded from), the bytes copied by the kernel
(``copy_into``: ``os.copy_file_range``), never read into Python: at 10,000 records the five
dumps are 800 MB. An incremental build joins none: its generation's dumps are served as
their pieces (``pieces``, read as one file by ``graph.store.concat.Joined``), since on this
project's ext4 disk the kernel's copy still writes every byte (0.5 s quiet, 1-3.5 s with
other work on the disk, for a rebuild at 10,000 records whatever changed).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import BinaryIO

from graph.export import write_atomically
from graph.export.formats import Format
from graph.store.concat import Piece
from graph.store.pages import PagesError, Partition, page_files


def join(folder: Path, partition: Partition, fmt: Format, target: Path) -> int:
    """Write ``fmt``'s dump to ``target`` (atomically) from the pages in ``folder``; returns
    its size. Bytes are copied by the kernel (``copy_into``), never read into Python."""
    found = partition.layouts[fmt.name]
    files = page_files(folder, partition, fmt)

    def write(handle: BinaryIO) -> int:
        size = 0
        for piece in found.joined(files):
            if isinstance(piece, Path):
                handle.flush()
                size += copy_into(piece, handle.fileno())
            else:
                handle.write(piece)
                size += len(piece)
        return size

    try:
        return write_atomically(target, write)
    except FileNotFoundError as error:
        raise PagesError(f"a dump page of {folder} is missing ({error.filename}): build the "
                         "store again with --full") from None


def pieces(folder: Path, fmt: Format) -> tuple[Piece, ...]:
    """``fmt``'s dump of the generation ``folder`` as the pieces it is made of, unjoined: the
    layout's bytes and the page files, read as one file by ``graph.store.concat.Joined``
    (what a server streams of a generation an incremental build wrote: it joins no dump).
    PagesError when the generation has no pages, or one of them is missing."""
    partition = Partition.load(folder, fmt.keeps_graphs, with_members=False)
    found = partition.layouts.get(fmt.name)
    if found is None:
        raise PagesError(f"the dump pages in {folder} hold no {fmt.name}: build the store "
                         "again with --full")
    try:
        files = [Piece.of_file(path) for path in page_files(folder, partition, fmt)]
    except FileNotFoundError as error:
        raise PagesError(f"a dump page of {folder} is missing ({error.filename}): build the "
                         "store again with --full") from None
    return tuple(piece if isinstance(piece, Piece) else Piece.of_bytes(piece)
                 for piece in found.joined(files))


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


__all__ = ["copy_into", "join", "pieces"]
