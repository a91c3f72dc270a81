"""A state file mapped, not read: its bytes stay the system's cached pages instead of
becoming memory new to the process (``perf/README.md``, "Memory new to a process")."""

from __future__ import annotations

import mmap
import os
from pathlib import Path


def map_file(path: Path) -> mmap.mmap | None:
    """``path`` mapped read-only (the map keeps the file, should it be removed); None for an
    empty file, which cannot be mapped."""
    with path.open("rb") as file:
        if os.fstat(file.fileno()).st_size == 0:
            return None
        return mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)


__all__ = ["map_file"]
