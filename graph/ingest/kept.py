"""What a load keeps of each file it imported, so that the next load can skip it, and where a
full build keeps its records between their import and their mapping.

An incremental build (``graph.store.rebuild``) hands ``graph.ingest.loader.load_records`` a
``Known``: what an earlier load's importer made of each file (``ImportedFile``), by the
SHA-256 of its bytes, and the stat each file had then (``FileStat``), trusted as git's index
trusts it (``RACY_NS``). Of each record it keeps what the rules across files and the benchmark
index read (``graph.mapping.identity.RecordIdentity``), not the record: a record of an
unchanged file that must be mapped again is imported again from its file
(``graph.ingest.loader``). ``graph.store.state`` keeps these values in a store's generation.

A full build into a store (``graph.build.graphs.read(keep=Spool())``) holds every record from
its import to its mapping. Each is pickled into a ``Spool``, an unnamed temporary file, as it
is imported, and read back once to be mapped: 100,000 records' models would be most of the
build's memory target (perf/decisions/records-pickled-and-spooled.md).
"""

import copyreg
import dataclasses
import os
import pickle
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Protocol

from graph.ingest.importers.base import Imported, Problem
from graph.ingest.records import Record
from graph.ingest.records.verbatim import Verbatim
from graph.mapping.identity import RecordIdentity, identity


def _reduce_verbatim(value: Verbatim) -> tuple[type[Verbatim], tuple[str, str]]:
    return Verbatim, (str(value), value.reason)


copyreg.pickle(Verbatim, _reduce_verbatim)  # a str made with two arguments


class Spool:
    """An unnamed temporary file that records are pickled into and read back from by place.
    The file has no name from the start (``tempfile.TemporaryFile``), so nothing is left
    behind however the process ends; it is closed when the last record in it goes."""

    __slots__ = ("_file",)

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="benchgraph-records-", buffering=0)

    def keep(self, record: Record) -> "Spooled":
        """``record`` pickled at the end of the file."""
        blob = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
        descriptor = self._file.fileno()
        start = os.fstat(descriptor).st_size
        written = os.pwrite(descriptor, blob, start)
        if written != len(blob):  # a full disk or a signal: pwrite wrote less
            raise OSError(f"the records' spool took {written} of {len(blob)} bytes")
        return Spooled(identity(record), self, start, written)

    def get(self, start: int, size: int) -> bytes:
        blob = os.pread(self._file.fileno(), size, start)
        if len(blob) != size:
            raise OSError(f"the records' spool gave {len(blob)} of {size} bytes at {start}")
        return blob


class Spooled:
    """A record pickled into a ``Spool``: what the index reads of it, and where it is."""

    __slots__ = ("_size", "_spool", "_start", "identity")

    def __init__(self, known: RecordIdentity, spool: Spool, start: int, size: int) -> None:
        self.identity = known
        self._spool, self._start, self._size = spool, start, size

    def record(self) -> Record:
        """The record, read back (a new model at each call: the caller lets go of it)."""
        # pickled by this process into its own spool
        record: Record = pickle.loads(self._spool.get(self._start, self._size))
        return record


@dataclass(frozen=True)
class KeptPart:
    """One record of an imported file (``graph.ingest.importers.base.Part``), as a load
    keeps it."""

    identity: RecordIdentity
    name: str | None = None
    where: str | None = None


@dataclass(frozen=True)
class ImportedFile:
    """What importing one file made, and the SHA-256 of the bytes it was made of (hex)."""

    digest: str
    parts: tuple[KeptPart, ...]
    warnings: tuple[Problem, ...] = ()
    rejected: tuple[Problem, ...] = ()
    text_digest: str = ""
    """The SHA-256 of the text decoded from those bytes (``LoadReport.text_digests``)."""

    @classmethod
    def of(cls, digest: str, imported: Imported, text_digest: str) -> "ImportedFile":
        parts = tuple(KeptPart(identity(part.record), part.name, part.where)
                      for part in imported.parts)
        return cls(digest, parts, tuple(imported.warnings), tuple(imported.rejected),
                   text_digest)

    def at(self, path: Path) -> "ImportedFile":
        """The same, its problems naming the file at ``path`` (where it is found now): this
        very value when it has none, as most files have none (a copy of each was a
        measurable part of a rebuild: perf/decisions/rebuild-skips-unchanged-files.md)."""
        if not (self.warnings or self.rejected):
            return self

        def moved(problems: tuple[Problem, ...]) -> tuple[Problem, ...]:
            return tuple(dataclasses.replace(problem, path=path) for problem in problems)

        return dataclasses.replace(self, warnings=moved(self.warnings),
                                   rejected=moved(self.rejected))


RACY_NS = 2_000_000_000
"""A file is trusted unread next time only if its modification and change times are this
much older than the start of the load that read it (git's "racy clean" problem): a write
after the stat, in the same tick of the file system's clock as the one before, would leave
the stat as it was. Any later write moves the change time (which no user can set back) past
the stat's, so the stat differs. Two seconds cover the coarsest clocks (FAT's)."""


@dataclass(frozen=True)
class FileStat:
    """What a file's stat says of its content, as git's index keeps it."""

    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int
    device: int

    @classmethod
    def of(cls, info: os.stat_result) -> "FileStat":
        return cls(info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


class Known(Protocol):
    """An incremental build's memory of the files an earlier load imported."""

    def digest(self, relative: PurePosixPath, stat: FileStat) -> str | None:
        """The SHA-256 the file at this relative path had, if its stat is the one kept."""

    def imported_as(self, relative: PurePosixPath, digest: str) -> ImportedFile | None:
        """What the earlier load imported of the file, if its bytes had this SHA-256 then."""


__all__ = ["RACY_NS", "FileStat", "ImportedFile", "KeptPart", "Known", "Spool", "Spooled"]
