"""The state's files: mapped, not read, so that their bytes stay the system's cached pages
instead of becoming memory new to the process (perf/decisions/kept-state-mapped.md); and
kept from one generation to the next."""

from __future__ import annotations

import mmap
import os
import shutil
from pathlib import Path


def map_file(path: Path) -> mmap.mmap | None:
    """``path`` mapped read-only (the map keeps the file, should it be removed); None for an
    empty file, which cannot be mapped."""
    with path.open("rb") as file:
        if os.fstat(file.fileno()).st_size == 0:
            return None
        return mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)


def link_or_copy(source: Path, target: Path) -> None:
    """``target`` the same file as ``source`` (a file of the generation before, never changed
    once written): a hard link, or a copy where the system refuses the link. It does for a
    store served read-only: Linux links another user's file only if it may write it
    (``fs.protected_hardlinks``), and no system links across file systems."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


__all__ = ["link_or_copy", "map_file"]
