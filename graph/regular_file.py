"""Reading a regular file, and nothing else, up to a size: the one way record files, query
files and the members of an unpacked harness package are read.

A path can name a FIFO (opening it waits for a writer, for ever), a device (``/dev/zero``
never ends), a folder, or a file larger than anything its reader means to hold.
``read_regular`` looks at what the path names first (a FIFO or a device is never opened),
opens it without waiting, judges what was opened (a file swapped for a FIFO between the two
looks is refused too), and reads one byte past the limit at most: a size on disk can be
wrong (a file of ``/proc`` says 0 bytes) or grow after the look.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_OPEN = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
"""Opened for reading without waiting (a FIFO), never as the controlling terminal."""


class NotRegular(Exception):
    """What the path names is no regular file: ``kind`` says what it is, in words."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class TooLarge(Exception):
    """The file holds more than the limit: ``size`` bytes, or more."""

    def __init__(self, size: int) -> None:
        super().__init__(f"{size} bytes")
        self.size = size


def read_regular(path: Path, limit: int, *, follow_links: bool = True) -> bytes:
    """The bytes of the regular file at ``path``; ``NotRegular`` when it is something else
    (with ``follow_links`` False, a symbolic link too), ``TooLarge`` past ``limit`` bytes,
    ``OSError`` when the system cannot read it."""
    _judge((os.stat if follow_links else os.lstat)(path), limit)
    flags = _OPEN if follow_links else _OPEN | os.O_NOFOLLOW
    with os.fdopen(os.open(path, flags), "rb") as stream:
        _judge(os.fstat(stream.fileno()), limit)
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise TooLarge(len(data))
    return data


def _judge(info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise NotRegular(kind_of(info.st_mode))
    if info.st_size > limit:
        raise TooLarge(info.st_size)


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words (``a folder``, ``a FIFO`` ...)."""
    for test, kind in ((stat.S_ISREG, "a file"), (stat.S_ISDIR, "a folder"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISLNK, "a symbolic link"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return "not a file"


__all__ = ["NotRegular", "TooLarge", "kind_of", "read_regular"]
