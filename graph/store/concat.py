"""A file made of pieces: bytes, and files on disk, read one after the other as one file.

An incremental build keeps each dump as its pages (``graph.store.pages``: the head, the page
files apart by the separator, the tail) instead of joining them into one file again: on this
project's ext4 disk ``os.copy_file_range`` copies every byte (no shared blocks), so the join
wrote 800 MB per rebuild at 10,000 records whatever changed, 0.5 s on a quiet machine and
1-3.5 s with other work on the disk. A server streams the pieces as the one dump they make
(``Joined``: a seekable binary file, so an HTTP range is served from where it starts, not
read through from the first byte).

The standard library has nothing that reads files one after another as one seekable file
(``fileinput`` is text lines, ``itertools.chain`` not seekable), hence this module.
"""

from __future__ import annotations

import io
import os
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Piece:
    """Part of a joined file: ``data`` itself, or the whole of the file ``path``, ``size``
    bytes long."""

    size: int
    data: bytes | None = None
    path: Path | None = None

    @classmethod
    def of_bytes(cls, data: bytes) -> Piece:
        return cls(len(data), data=data)

    @classmethod
    def of_file(cls, path: Path) -> Piece:
        """The file at ``path`` as it is now (its size read once: the files of a store
        generation are never changed once written)."""
        return cls(os.stat(path).st_size, path=path)


class Joined(io.RawIOBase):
    """The ``pieces`` read as one file: readable, seekable, never written. A piece's file
    is opened when it is read and closed once read past; one that has become shorter than
    its recorded size raises ``OSError`` (the joined file would be wrong)."""

    def __init__(self, pieces: Sequence[Piece]) -> None:
        super().__init__()
        self._pieces = tuple(piece for piece in pieces if piece.size)
        starts, offset = [], 0
        for piece in self._pieces:
            starts.append(offset)
            offset += piece.size
        self._starts = starts
        self.size = offset
        self._position = 0
        self._open: tuple[int, io.BufferedReader] | None = None

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        origin = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self.size}
        if whence not in origin:
            raise ValueError(f"invalid whence ({whence})")
        position = origin[whence] + offset
        if position < 0:
            raise ValueError(f"negative seek position {position}")
        self._position = position
        return position

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        """Bytes from the current position into ``buffer``, from one piece at most (a short
        read is allowed: ``read`` and ``readall`` come back for the rest); 0 at the end."""
        if self.closed:
            raise ValueError("I/O operation on closed file")
        view = memoryview(buffer).cast("B")
        if self._position >= self.size or not len(view):
            return 0
        index = bisect_right(self._starts, self._position) - 1
        piece, within = self._pieces[index], self._position - self._starts[index]
        wanted = min(len(view), piece.size - within)
        if piece.data is not None:
            view[:wanted] = piece.data[within:within + wanted]
            got = wanted
        else:
            got = self._handle(index, within).readinto(view[:wanted])
            if not got:
                raise OSError(f"{piece.path} is shorter than the {piece.size} bytes it held "
                              "when the dump was made of it")
        self._position += got
        return got

    def _handle(self, index: int, within: int) -> io.BufferedReader:
        """The file of piece ``index``, open at its byte ``within``."""
        if self._open is None or self._open[0] != index:
            self._close_piece()
            path = self._pieces[index].path
            assert path is not None
            self._open = index, path.open("rb")
        handle = self._open[1]
        if handle.tell() != within:
            handle.seek(within)
        return handle

    def _close_piece(self) -> None:
        if self._open is not None:
            self._open[1].close()
            self._open = None

    def close(self) -> None:
        self._close_piece()
        super().close()


__all__ = ["Joined", "Piece"]
