"""A full disk during a store build: one line naming the folder, and the store as it was.

Every write of a build into a store folder can meet a full disk (or a full quota): the dumps
and their pages, the search index (SQLite says so in its own words, ``SQLITE_FULL``), the
kept state, the validation report, the Oxigraph store in its own process
(``graph.store.writing``, which exits with ``NO_SPACE``), the manifest. Nothing is switched to
until all of it is written, and what was written is removed on the way out
(``graph.store.disk``), so the store is the one before the build. What the user needs is
which device to free space on: the error names the folder.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graph.store.errors import StoreError

NO_SPACE_ERRNOS = (errno.ENOSPC, errno.EDQUOT)
NO_SPACE_WORDS = tuple(os.strerror(code) for code in NO_SPACE_ERRNOS)
"""How the system says it (RocksDB's errors carry its words, not the number)."""


class NoSpace(StoreError):
    """A build that found no room for what it writes into a store folder."""

    def __init__(self, folder: Path) -> None:
        super().__init__(f"no space left on the device holding {folder}: the store is as it "
                         "was; free some space and build again")


def is_no_space(error: BaseException) -> bool:
    """Whether ``error`` says the disk (or the user's quota) is full."""
    if isinstance(error, OSError):
        return error.errno in NO_SPACE_ERRNOS or (
            error.errno is None and any(words in str(error) for words in NO_SPACE_WORDS))
    if isinstance(error, sqlite3.Error):
        return getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    return False


@contextmanager
def reported_when_full(folder: Path) -> Iterator[None]:
    """A full disk met in the block becomes ``NoSpace`` for ``folder``; any other error
    stays what it is."""
    try:
        yield
    except (OSError, sqlite3.Error) as error:
        if is_no_space(error):
            raise NoSpace(folder) from error
        raise


__all__ = ["NO_SPACE_ERRNOS", "NO_SPACE_WORDS", "NoSpace", "is_no_space", "reported_when_full"]
