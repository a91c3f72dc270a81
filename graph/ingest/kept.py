"""What a load keeps of each file it imported, so that the next load can skip it.

An incremental build (``graph.store.rebuild``) hands ``graph.ingest.loader.load_records`` a
``Known``: what an earlier load's importer made of each file (``ImportedFile``), by the
SHA-256 of its bytes, and the stat each file had then (``FileStat``), trusted as git's index
trusts it (``RACY_NS``). A record is kept as what the rules across files and the benchmark
index read of it (``graph.mapping.identity.RecordIdentity``), with the record itself pickled
apart (``KeptRecord``): a state read back unpickles a record only when it is mapped again
(unpickling every record was most of an incremental build's reading:
perf/decisions/kept-state-read-lazily.md). ``graph.store.state`` writes and reads these
values in a store's generation.

A full build that keeps its state (``graph.build.graphs.read(keep=Spool())``) holds every
record from its import to the state's save. Its pickles go to a ``Spool``, an unnamed
temporary file, not into memory, where they would be a large share of the build's memory
target (perf/decisions/records-pickled-and-spooled.md); each is read back once to be mapped
and once to be saved. """

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
    """An unnamed temporary file that pickles are written to and read back from by place: a
    ``KeptRecord`` packed into one holds 16 bytes of where, not its pickle. The file has no
    name from the start (``tempfile.TemporaryFile``), so nothing is left behind however the
    process ends; it is closed when the last record that refers to it goes."""

    __slots__ = ("_file",)

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="benchgraph-records-", buffering=0)

    def put(self, blob: bytes) -> "Spooled":
        """Appends ``blob``; returns where it is."""
        descriptor = self._file.fileno()
        start = os.fstat(descriptor).st_size
        written = os.pwrite(descriptor, blob, start)
        if written != len(blob):  # a full disk or a signal: pwrite wrote less
            raise OSError(f"the records' spool took {written} of {len(blob)} bytes")
        return Spooled(self, start, written)

    def get(self, start: int, size: int) -> bytes:
        blob = os.pread(self._file.fileno(), size, start)
        if len(blob) != size:
            raise OSError(f"the records' spool gave {len(blob)} of {size} bytes at {start}")
        return blob


class Blobs(Protocol):
    """A file of pickles read back by place: a ``Spool``, or a records chunk's pickles in a
    store's state (``graph.store.state``)."""

    def get(self, start: int, size: int) -> bytes: ...


class Spooled:
    """Where one pickle is in a ``Spool`` or another file of them (``Blobs``)."""

    __slots__ = ("size", "spool", "start")

    def __init__(self, spool: Blobs, start: int, size: int) -> None:
        self.spool, self.start, self.size = spool, start, size

    def read(self) -> bytes:
        return self.spool.get(self.start, self.size)


class KeptRecord:
    """A record as a load keeps it: what the index reads of it, made when it is imported, and
    the record, pickled apart (``pickle`` of this value holds the record's own pickle as
    bytes, which costs nothing to read back): unpickled on first use only. The pickle is
    held in memory or, packed into a ``Spool``, on disk."""

    __slots__ = ("_blob", "_record", "identity")

    def __init__(self, known: RecordIdentity, record: Record | None = None,
                 blob: bytes | Spooled | None = None) -> None:
        self.identity = known
        self._record, self._blob = record, blob

    @classmethod
    def of(cls, record: Record) -> "KeptRecord":
        return cls(identity(record), record)

    @property
    def record(self) -> Record:
        if self._record is None:
            assert self._blob is not None
            # written by this code into a state only it reads (graph.store.state), or by
            # this process into its spool
            self._record = pickle.loads(self._pickled())
        return self._record

    @property
    def packed(self) -> bool:
        """Whether the record's pickle is made (``pack``, or read from a kept state)."""
        return self._blob is not None

    def pack(self, spool: Spool | None = None) -> None:
        """Pickle the record now (once), into ``spool`` when one is given, and let go of the
        model: a full build holds every record from its import to ``KeptBuild.save`` (a
        pickle is a fraction of the model: perf/decisions/records-pickled-and-spooled.md),
        and ``record`` reads it back for mapping; the state's pickle then reuses this one,
        so the records are pickled once either way."""
        if self._blob is None:
            blob = self._pickled()
            self._blob = blob if spool is None else spool.put(blob)
        self._record = None

    def _pickled(self) -> bytes:
        """The record's pickle: the one made before (read back from its spool), or made
        now."""
        blob = self._blob
        if isinstance(blob, Spooled):
            return blob.read()
        if blob is not None:
            return blob
        return pickle.dumps(self._record, protocol=pickle.HIGHEST_PROTOCOL)

    def __reduce__(self) -> tuple[type["KeptRecord"], tuple[RecordIdentity, None, bytes]]:
        return KeptRecord, (self.identity, None, self._pickled())


@dataclass(frozen=True)
class KeptPart:
    """One record of an imported file (``graph.ingest.importers.base.Part``), kept."""

    record: KeptRecord
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
        parts = tuple(KeptPart(KeptRecord.of(part.record), part.name, part.where)
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


__all__ = ["RACY_NS", "FileStat", "ImportedFile", "KeptPart", "KeptRecord", "Known", "Spool",
           "Spooled"]
