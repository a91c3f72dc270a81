"""Finding record files and reading them safely: size first, then bytes, then text.

``find_record_files`` turns the PATHs a user gave into the record files to read, in an
order that never depends on the file system. ``read_source`` reads one of them and
rejects, with one line, a file that is too large, empty, binary or not UTF-8.

Which files a folder holds: every regular file below it, at any depth, except names
starting with ``.`` (hidden files and folders such as ``.git`` are skipped whole) and
README and NOTICE files (``README``, ``README.md``, ``readme.txt``, ``NOTICE``...), which
describe a folder (a NOTICE attributes what it holds: the harness snapshots') and are never a
record. A file named directly on the command line is always read, as given (a link too).

Below a folder, a symbolic link that leads outside it (to ``/etc/passwd``, to a folder
elsewhere) is skipped with a warning naming it: what a folder holds is what the user chose
to put in it, never whatever a link in it points at. A link that stays inside is read once:
a link to a file is the file (read under its own name when the search meets it too), and a
link to a folder is not walked (the folder is searched in its own place; no loop).
"""

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from graph.errors import BenchgraphError, ErrorKind
from graph.ingest.importers.base import Problem, RecordRejected, SourceFile
from graph.regular_file import NotRegular, TooLarge, read_regular
from graph.settings import Settings

UTF8_BOM = b"\xef\xbb\xbf"
LINK_OUTSIDE = "the link leads outside the folder searched: skipped"
"""The warning of a symbolic link below a folder that leads outside it (its value: where)."""
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


class InputPathError(BenchgraphError):
    """A PATH the user gave that cannot be searched: missing, or a folder that cannot be read."""

    kind = ErrorKind.INPUT

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class RecordFiles:
    """What the PATHs given hold: the record files to read, and the links skipped."""

    files: list[tuple[Path, PurePosixPath, os.stat_result | None]]
    """Each record file once, as (path on disk, path below the folder given, its stat: None
    for a file that cannot be looked at), sorted by relative path, then by path."""
    outside: list[Problem] = field(default_factory=list)
    """A warning for each symbolic link below a folder that leads outside it: skipped."""


def find_record_files(paths: Sequence[Path]) -> list[tuple[Path, PurePosixPath]]:
    """Every record file in ``paths`` as (path on disk, path below the folder given).

    A file given directly is relative to its own folder (its name alone). The result is
    sorted by relative path, then by path, and holds each file once even when two PATHs
    reach it. Raises ``InputPathError`` for a PATH that does not exist.
    """
    return [(path, relative) for path, relative, _ in list_record_files(paths).files]


def list_record_files(paths: Sequence[Path]) -> RecordFiles:
    """``find_record_files``, each file with the stat that told it apart from the others:
    the loader's stat of it, taken before the file is read, so that a load stats each file
    once; and the links skipped. The folders are listed, sorted and looked at as text, and a
    path made of each file once: ``pathlib`` joins and a sort by ``parts`` cost a rebuild
    more than the stats (perf/decisions/rebuild-skips-unchanged-files.md).

    A file reached twice (two PATHs, or a link inside a folder and the file it leads to) is
    listed once: under a name that is no link where there is one (the file's own name keys
    its record graph, whatever links to it), else under the first name in sorted order."""
    found: list[tuple[tuple[str, ...], str, bool]] = []
    outside: list[Problem] = []
    for given in paths:
        if given.is_dir():
            outside.extend(_files_below(given, found))
        elif given.exists() or given.is_symlink():
            found.append(((given.name,), str(given), False))  # read as given, link or not
        else:
            raise InputPathError(given, "no such file or folder")
    chosen: dict[object, tuple[bool, tuple[str, ...], str, os.stat_result | None]] = {}
    for parts, path, linked in found:
        info = _stat(path)
        identity = os.path.abspath(path) if info is None else (info.st_dev, info.st_ino)
        held = chosen.get(identity)
        if held is None or (linked, parts, path) < held[:3]:
            chosen[identity] = (linked, parts, path, info)
    unique = sorted(chosen.values(), key=lambda entry: (entry[1], entry[2]))
    return RecordFiles([(Path(path), PurePosixPath(*parts), info)
                        for _, parts, path, info in unique], outside)


def _stat(path: str) -> os.stat_result | None:
    """What makes two paths the same file: its device and inode (one ``stat``, where
    resolving the path would look at every folder on the way); None for a file that cannot
    be looked at (its path then tells it apart, and ``read_source`` says why)."""
    try:
        return os.stat(path)
    except OSError:
        return None


def _files_below(folder: Path, found: list[tuple[tuple[str, ...], str, bool]]
                 ) -> list[Problem]:
    """Add the record files below ``folder`` to ``found``, each as (the parts of its path
    below the folder, its path, whether it is a link); a warning for each link skipped.

    A folder's entries say whether each is a link, a folder or a file without a look at the
    file itself; only a link is resolved (``os.path.realpath``), and is skipped when it leads
    outside ``folder`` (the folder as it really is, wherever the PATH that named it points).
    A link to a folder is never walked: one inside is searched in its own place, so nothing
    is read twice and no loop is followed."""
    root = os.path.realpath(folder)
    outside: list[Problem] = []
    pending: list[tuple[str, tuple[str, ...]]] = [(str(folder), ())]
    while pending:
        top, below = pending.pop()
        try:
            with os.scandir(top) as listing:
                entries = list(listing)
        except OSError as error:
            where = Path(error.filename) if error.filename else folder
            raise InputPathError(where, f"cannot read the folder: {error.strerror}") from None
        for entry in entries:
            if entry.name.startswith("."):
                continue
            parts = (*below, entry.name)
            linked = entry.is_symlink()
            if not linked and entry.is_dir(follow_symlinks=False):
                pending.append((entry.path, parts))
                continue
            target = os.path.realpath(entry.path) if linked else entry.path
            leads_out = linked and os.path.commonpath([root, target]) != root
            if leads_out:
                outside.append(Problem(Path(entry.path), None, LINK_OUTSIDE, target))
            elif not (linked and os.path.isdir(target)) and not _describes_folder(entry.name):
                found.append((parts, entry.path, linked))
    return outside


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
        data = read_regular(path, limit)
    except NotRegular:
        raise RecordRejected("not a regular file") from None
    except TooLarge as large:
        raise RecordRejected(_too_large(large.size, limit)) from None
    except OSError as error:
        raise RecordRejected(f"cannot read the file: {error.strerror or error}") from None
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
