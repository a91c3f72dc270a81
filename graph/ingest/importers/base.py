"""The importer protocol, what an import gives (a file's records), and the two things it can
say about them: a warning or a rejection."""

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Protocol

from graph.errors import BenchgraphError, ErrorKind
from graph.ingest.records import Record
from graph.settings import Settings


@dataclass(frozen=True)
class SourceFile:
    """A record file, read and decoded once by the loader."""

    path: Path
    """The file as found on disk."""
    relative: PurePosixPath
    """Its path below the folder it was loaded from (its name alone when given directly)."""
    text: str
    """Its content, decoded from UTF-8 with any byte-order mark removed."""


@dataclass(frozen=True)
class Problem:
    """Something to tell the user about one file: where, which field, and why.

    ``reason`` says what is wrong in words that do not change with the value (so that a
    report can group the same problem met in many files); ``value``, when there is one, is
    the offending value as the record wrote it."""

    path: Path
    field: str | None
    reason: str
    value: str | None = None

    def __str__(self) -> str:
        where = f"{self.path}: {self.field}" if self.field else str(self.path)
        shown = "" if self.value is None else f" (value {_shown(self.value)})"
        return f"{where}: {self.reason}{shown}"


def _shown(value: str, limit: int = 60) -> str:
    return repr(value if len(value) <= limit else value[: limit - 1] + "…")


class RecordRejected(BenchgraphError):
    """A file that cannot become a record; ``field`` names the part at fault, if any."""

    kind = ErrorKind.INPUT

    def __init__(self, reason: str, field: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.field = field


@dataclass(frozen=True)
class Part:
    """One record of a file, and its name among the file's records: ``None`` for a file that is
    one record (a catalog page), the entry's id for a file of many (a harness snapshot)."""

    record: Record
    name: str | None = None
    where: str | None = None
    """How a problem names this part of the file, as a field path (``entries[gsm8k]``)."""


@dataclass(frozen=True)
class Imported:
    """What an importer made of one file: its records, their warnings, and the parts of the
    file that could not become records (a broken entry of a snapshot: the others still load).

    A file that cannot be read at all is no ``Imported``: the importer raises
    ``RecordRejected`` instead."""

    parts: list[Part]
    warnings: list[Problem] = field(default_factory=list)
    rejected: list[Problem] = field(default_factory=list)

    @classmethod
    def one(cls, record: Record, warnings: list[Problem]) -> "Imported":
        """A file that is one record."""
        return cls([Part(record)], warnings)

    @property
    def record(self) -> Record:
        """The record of a file that is one record."""
        (only,) = self.parts
        return only.record


class Importer(Protocol):
    """Reads one kind of record file. Chosen by content, never by file name."""

    name: str

    def can_read(self, source: SourceFile) -> bool:
        """Whether this file looks like this importer's kind (a cheap look at the content)."""
        ...

    def load(self, source: SourceFile, settings: Settings) -> Imported:
        """The records in ``source``; raises ``RecordRejected`` when the file is not a valid
        one, and names each part that is not a valid record in ``Imported.rejected``."""
        ...
