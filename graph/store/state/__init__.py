"""What a store generation keeps of its build so that the next build can be incremental.

A full build reads every record file; an incremental one (``graph.store.rebuild``) reads
again only the files whose bytes changed. For that each generation keeps, in ``state/``:

- ``stats.json``: the stat and SHA-256 of each file the next build may trust unread while
  its stat stays the same (``graph.ingest.kept.RACY_NS``);
- ``build.json``: the fingerprint of what decides the graph (this code and its data, the
  base IRI, the reading limits: a build whose fingerprint differs is a full one);
- ``imported.pickle``: what the importer made of each file (``graph.ingest.kept.ImportedFile``:
  its SHA-256, warnings, and what the index reads of each of its records, not the records);
- ``mapped.pickle``: for each record graph, the file and part it was mapped from and what its
  mapping asked the benchmark index (``graph.build.graphs.Question``: a directory page whose
  titles resolve otherwise now must be mapped again, though its file did not change; its
  record is then imported again from its file).

Pickled: the state is this code's own (its fingerprint), read only from a store folder a
build of it wrote. The graph itself is the store's: nothing of it is kept here.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import graph
from graph.build.graphs import Question
from graph.ingest.kept import FileStat, ImportedFile
from graph.resources import data_dir
from graph.settings import Settings

STATE = "state"
BUILD_FILE = "build.json"
MAPPED_FILE = "mapped.pickle"
IMPORTED_FILE = "imported.pickle"
STATS_FILE = "stats.json"
STATE_VERSION = 12
"""7: files by their relative path as text; 8: a records chunk pickled a run of files at a
time; 10: a records chunk's records' pickles are in its blobs file; 11: no table of the
graph (the store is the graph); 12: no records, their identities only."""
_READING_SETTINGS = ("base", "max_file_bytes", "max_string_chars", "max_nesting_depth")
"""The settings a graph depends on: a build with other values is a full one."""


@dataclass(frozen=True)
class MappedRecord:
    """One record graph of a build: where its record came from, what its mapping asked."""

    source: tuple[str, str | None]
    """The relative path of its file and its part there (``LoadedRecord.part``)."""
    questions: tuple[Question, ...]


@dataclass
class KeptBuild:
    """The state of one generation: its files' records and its record graphs."""

    fingerprint: str
    imported: dict[str, ImportedFile]
    """By relative path, as text: the state's files hold no ``PurePosixPath`` (making them
    back was a measurable part of a rebuild's read: perf/decisions/kept-state-read-lazily.md);
    ``digest`` and ``imported_as`` take the load's paths."""
    mapped: dict[str, MappedRecord]
    """By record key."""
    stats: dict[str, tuple[FileStat, str]] = field(default_factory=dict)
    """The files the next load may trust unread while their stat stays the same
    (``LoadReport.stats``), by relative path as text."""

    def digest(self, relative: PurePosixPath, stat: FileStat) -> str | None:
        """``graph.ingest.kept.Known``: the SHA-256 of a file whose stat is the one kept."""
        found = self.stats.get(str(relative))
        return found[1] if found is not None and found[0] == stat else None

    def imported_as(self, relative: PurePosixPath, digest: str) -> ImportedFile | None:
        """``graph.ingest.kept.Known``: what importing a file with these bytes made."""
        found = self.imported.get(str(relative))
        return found if found is not None and found.digest == digest else None

    def save(self, generation: Path) -> None:
        """Keep this state in ``generation``."""
        folder = generation / STATE
        folder.mkdir()
        _pickle(folder / IMPORTED_FILE, self.imported)
        _pickle(folder / MAPPED_FILE, self.mapped)
        stats = {relative: [*_fields(stat), digest]
                 for relative, (stat, digest) in self.stats.items()}
        (folder / STATS_FILE).write_text(json.dumps(stats), encoding="utf-8")
        build = {"version": STATE_VERSION, "fingerprint": self.fingerprint}
        (folder / BUILD_FILE).write_text(json.dumps(build), encoding="utf-8")

    @classmethod
    def load(cls, generation: Path, fingerprint: str) -> KeptBuild | None:
        """The state kept in ``generation``; None when it has none, or one of another
        fingerprint (the next build is then a full one)."""
        folder = generation / STATE
        try:
            build = json.loads((folder / BUILD_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if build.get("version") != STATE_VERSION or build.get("fingerprint") != fingerprint:
            return None
        stats = {relative: (FileStat(*kept[:5]), kept[5])
                 for relative, kept in json.loads((folder / STATS_FILE).read_text()).items()}
        return cls(fingerprint, _unpickle(folder / IMPORTED_FILE),
                   _unpickle(folder / MAPPED_FILE), stats)


def _fields(stat: FileStat) -> tuple[int, int, int, int, int]:
    """``dataclasses.astuple`` of a stat, by hand: that deep-copies every field
    (perf/decisions/kept-state-read-lazily.md)."""
    return stat.size, stat.mtime_ns, stat.ctime_ns, stat.inode, stat.device


def _pickle(path: Path, kept: object) -> None:
    with path.open("wb") as out:
        pickle.dump(kept, out, protocol=pickle.HIGHEST_PROTOCOL)


def _unpickle(path: Path) -> Any:
    with path.open("rb") as kept:
        return pickle.load(kept)  # written by this code: see the module


def fingerprint(settings: Settings) -> str:
    """What decides the graph of a set of record files: this code and its data (the Python
    files of ``graph`` and the data beside them, its overrides and lineage, the ontology, the
    shapes), the state's own version and the settings
    that reading and mapping depend on."""
    digest = hashlib.sha256(f"state {STATE_VERSION}\n".encode())
    for name in _READING_SETTINGS:
        digest.update(f"{name}={getattr(settings, name)!r}\n".encode())
    package = Path(graph.__file__).resolve().parent
    files = sorted(package.rglob("*.py")) + sorted(package.rglob("*.toml"))
    for folder in ("ontology", "shapes"):
        files += sorted(data_dir(folder).glob("*.ttl"))
    for path in files:
        digest.update(f"{path.relative_to(path.parent.parent)}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


__all__ = ["STATE", "KeptBuild", "MappedRecord", "fingerprint"]
