"""A one-line progress bar on a terminal; nothing at all when stderr is not one."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # the loader is imported when a command builds: see graph.cli
    from graph.ingest.loader import Progress


def progress_bar(
    label: str, stream: TextIO | None = None, min_interval: float = 0.1
) -> Progress | None:
    """A ``progress(done, total)`` callback drawing on ``stream`` (stderr); None off a tty."""
    out = stream or sys.stderr
    if not out.isatty():
        return None
    last = 0.0

    def draw(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done < total and now - last < min_interval:
            return
        last = now
        width = 30
        filled = width * done // total if total else width
        out.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            out.write("\r\033[K")
        out.flush()

    return draw
