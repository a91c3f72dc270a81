"""Finding record files and reading them safely: size first, then bytes, then text.

``find_record_files`` turns the PATHs a user gave into the record files to read, in an
order that never depends on the file system. ``read_source`` reads one of them and
rejects, with one line, a file that is too large, empty, binary or not UTF-8.

Which files a folder holds: every regular file below it, at any depth, except names
starting with ``.`` (hidden files and folders such as ``.git`` are skipped whole) and
README and NOTICE files (``README``, ``README.md``, ``readme.txt``, ``NOTICE``...), which
describe a folder (a NOTICE attributes what it holds: the harness snapshots') and are never a
record. A file named directly on the command line is always read. Symbolic links to
files are followed; links to folders are not (no loops, no surprises outside the folder).
"""

import os
import stat
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from graph.errors import BenchgraphError, ErrorKind
from graph.importers.base import RecordRejected, SourceFile
from graph.settings import Settings

UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


class InputPathError(BenchgraphError):
    """A PATH the user gave that cannot be searched: missing, or a folder that cannot be read."""

    kind = ErrorKind.INPUT

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def find_record_files(paths: Sequence[Path]) -> list[tuple[Path, PurePosixPath]]:
    """Every record file in ``paths`` as (path on disk, path below the folder given).

    A file given directly is relative to its own folder (its name alone). The result is
    sorted by relative path, then by path, and holds each file once even when two PATHs
    reach it. Raises ``InputPathError`` for a PATH that does not exist.
    """
    return [(path, relative) for path, relative, _ in list_record_files(paths)]


def list_record_files(paths: Sequence[Path]
                      ) -> list[tuple[Path, PurePosixPath, os.stat_result | None]]:
    """``find_record_files``, each file with the stat that told it apart from the others
    (None for a file that cannot be looked at): the loader's stat of it, taken before the
    file is read, so that a load stats each file once (10,000 stats of 10,000 records
    cost 0.1 s). The folders are listed, sorted and looked at as text, and a path made of
    each file once: two ``pathlib`` joins a file and a sort by ``parts`` took 0.15-0.25 s
    of a rebuild at 10,000 records, more than the stats."""
    found: list[tuple[tuple[str, ...], str]] = []
    for given in paths:
        if given.is_dir():
            found.extend(_files_below(given))
        elif given.exists() or given.is_symlink():
            found.append(((given.name,), str(given)))
        else:
            raise InputPathError(given, "no such file or folder")
    found.sort()
    unique: list[tuple[Path, PurePosixPath, os.stat_result | None]] = []
    seen: set[object] = set()
    for parts, path in found:
        info = _stat(path)
        identity = os.path.abspath(path) if info is None else (info.st_dev, info.st_ino)
        if identity not in seen:
            seen.add(identity)
            unique.append((Path(path), PurePosixPath(*parts), info))
    return unique


def _stat(path: str) -> os.stat_result | None:
    """What makes two paths the same file: its device and inode (one ``stat``, where
    resolving the path would look at every folder on the way); None for a file that cannot
    be looked at (its path then tells it apart, and ``read_source`` says why)."""
    try:
        return os.stat(path)
    except OSError:
        return None


def _files_below(folder: Path) -> list[tuple[tuple[str, ...], str]]:
    """The record files below ``folder``: (the parts of its path below the folder, its path)."""
    def fail(error: OSError) -> None:
        where = Path(error.filename) if error.filename else folder
        raise InputPathError(where, f"cannot read the folder: {error.strerror}")

    files: list[tuple[tuple[str, ...], str]] = []
    for top, dirs, names in os.walk(folder, onerror=fail):
        dirs[:] = [name for name in dirs if not name.startswith(".")]
        below = Path(top).relative_to(folder).parts
        for name in names:
            if not name.startswith(".") and not _describes_folder(name):
                files.append(((*below, name), os.path.join(top, name)))
    return files


def _describes_folder(name: str) -> bool:
    return name.split(".", 1)[0].casefold() in ("readme", "notice")


def read_source(path: Path, relative: PurePosixPath, settings: Settings) -> SourceFile:
    """The decoded text of one record file; raises ``RecordRejected`` when it cannot be one.

    Rejected: not a regular file, larger than ``settings.max_file_bytes`` (checked before
    reading), empty or only whitespace, binary (holds a NUL byte), not UTF-8. A UTF-8
    byte-order mark is removed.
    """
    return SourceFile(path=path, relative=relative,
                      text=decode_record_bytes(read_record_bytes(path, settings)))


def read_record_bytes(path: Path, settings: Settings) -> bytes:
    """The bytes of one record file (``read_source`` before decoding, for a caller that
    hashes them first); raises ``RecordRejected`` for a file that is not a regular one, is
    larger than ``settings.max_file_bytes`` or cannot be read."""
    limit = settings.max_file_bytes
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise RecordRejected("not a regular file")
        if info.st_size > limit:
            raise RecordRejected(_too_large(info.st_size, limit))
        with path.open("rb") as stream:
            data = stream.read(limit + 1)  # the file may have grown since stat
    except OSError as error:
        raise RecordRejected(f"cannot read the file: {error.strerror or error}") from None
    if len(data) > limit:
        raise RecordRejected(_too_large(len(data), limit))
    return data


def decode_record_bytes(data: bytes) -> str:
    """The text in ``data``: UTF-8, BOM removed; raises ``RecordRejected`` otherwise.

    The one gate for what an importer reads: the text it is given is never empty, only
    white space, or holding a NUL, so no importer checks for those again."""
    skipped = 0
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM):]
        skipped = len(UTF8_BOM)
    if not data:
        raise RecordRejected("the file is empty")
    if data.startswith(_UTF16_BOMS):
        raise RecordRejected("the file is UTF-16; records must be UTF-8")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise RecordRejected(f"a binary file, not text (NUL byte at byte offset {nul + skipped})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = data[error.start:error.start + 1].hex()
        raise RecordRejected(
            f"not UTF-8: byte 0x{bad} at byte offset {error.start + skipped} "
            f"({error.reason}); save the file as UTF-8"
        ) from None
    if not text.strip():
        raise RecordRejected("the file holds only whitespace")
    return text


def _too_large(size: int, limit: int) -> str:
    return f"the file has {size} bytes, more than max_file_bytes = {limit}"
