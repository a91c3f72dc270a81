"""An npm tarball made in a test: the members given, as ``npm pack`` would hold them."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path


def write_tarball(path: Path, members: dict[str, bytes], leave_out: str | None = None) -> Path:
    """``path``, a gzipped tar of ``members`` (by name), but ``leave_out``."""
    with tarfile.open(path, "w:gz") as tar:
        for name, content in members.items():
            if name == leave_out:
                continue
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return path
