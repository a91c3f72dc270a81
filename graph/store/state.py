"""What a store generation keeps of its build so that the next build can be incremental.

A full build reads every record file; an incremental one (``graph.store.rebuild``) reads
again only the files whose bytes changed. For that each generation keeps, in ``state/``:

- ``build.json``: the fingerprint of what decides the graph (this code and its data, the
  base IRI, the reading limits: a build whose fingerprint differs is a full one);
- ``records.pickle``: what the importer made of each file (``graph.loader.ImportedFile``: its
  SHA-256, records and warnings), and for each record graph the file and part it was mapped
  from and what its mapping asked the benchmark index (``graph.build.Question``: a directory
  page whose titles resolve otherwise now must be mapped again, though its file did not
  change). Pickled: the records are the importers' models as they were made, which a
  full build's index and mapping read. The state is this code's own (its fingerprint), read
  only from a store folder a build of it wrote;
- the build's ``QuadTable``: its terms (``terms-N.json``, a chunk per build that added
  terms: chunks are never changed, so the next generation hard-links them) and its quads
  (``rows.npy``, four term ids a quad).

The dump pages (``graph.store.pages``) are kept beside it, in ``pages/``.
"""

from __future__ import annotations

import copyreg
import hashlib
import json
import os
import pickle
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import numpy as np

from graph.build import Question
from graph.dataset.table import QuadTable, TermSnapshot, TermTable
from graph.loader import ImportedFile
from graph.records.verbatim import Verbatim
from graph.resources import data_dir
from graph.settings import Settings

STATE = "state"
BUILD_FILE = "build.json"
ROWS_FILE = "rows.npy"
RECORDS_FILE = "records.pickle"
STATE_VERSION = 2
_READING_SETTINGS = ("base", "max_file_bytes", "max_string_chars", "max_nesting_depth")
"""The settings a graph depends on: a build with other values is a full one."""


def _reduce_verbatim(value: Verbatim) -> tuple[type[Verbatim], tuple[str, str]]:
    return Verbatim, (str(value), value.reason)


copyreg.pickle(Verbatim, _reduce_verbatim)  # a str made with two arguments


@dataclass(frozen=True)
class MappedRecord:
    """One record graph of a build: where its record came from, what its mapping asked."""

    source: tuple[str, str | None]
    """The relative path of its file and its part there (``LoadedRecord.part``)."""
    questions: tuple[Question, ...]


@dataclass
class KeptBuild:
    """The state of one generation: its files' records, its record graphs and its table."""

    fingerprint: str
    imported: dict[PurePosixPath, ImportedFile]
    """By relative path."""
    mapped: dict[str, MappedRecord]
    """By record key."""
    table: QuadTable
    chunks: list[str]
    """The terms files, in id order."""
    chunk_ends: list[int]
    """The number of terms once each chunk is read."""

    def known(self, relative: PurePosixPath, digest: str) -> ImportedFile | None:
        """``graph.loader.Known``: what importing a file with these bytes made."""
        found = self.imported.get(relative)
        return found if found is not None and found.digest == digest else None

    def save(self, generation: Path, before: Path | None) -> None:
        """Keep this state in ``generation``: the terms chunks of ``before`` (the generation
        it was read from) are linked, the terms added since written as a new chunk."""
        folder = generation / STATE
        folder.mkdir()
        chunks, ends = [], []
        for name, end in zip(self.chunks, self.chunk_ends, strict=True):
            if before is None:
                break
            os.link(before / STATE / name, folder / name)
            chunks.append(name)
            ends.append(end)
        start = ends[-1] if ends else 0
        if len(self.table.terms) > start or not chunks:
            name = f"terms-{len(chunks)}.json"
            _write_snapshot(folder / name, self.table.terms.snapshot(start))
            chunks.append(name)
            ends.append(len(self.table.terms))
        np.save(folder / ROWS_FILE, self.table.rows())
        with (folder / RECORDS_FILE).open("wb") as out:
            pickle.dump((self.imported, self.mapped), out, protocol=pickle.HIGHEST_PROTOCOL)
        build = {"version": STATE_VERSION, "fingerprint": self.fingerprint,
                 "chunks": chunks, "chunk_ends": ends}
        (folder / BUILD_FILE).write_text(json.dumps(build, ensure_ascii=False),
                                         encoding="utf-8")
        self.chunks, self.chunk_ends = chunks, ends

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
        snapshots = [_read_snapshot(folder / name) for name in build["chunks"]]
        terms = TermTable.restored(TermSnapshot.joined(snapshots))
        table = QuadTable.of_rows(terms, np.load(folder / ROWS_FILE))
        with (folder / RECORDS_FILE).open("rb") as kept:
            imported, mapped = pickle.load(kept)  # written by this code: see the module
        return cls(fingerprint, imported, mapped, table, build["chunks"], build["chunk_ends"])


def _write_snapshot(path: Path, snapshot: TermSnapshot) -> None:
    data = {"kinds": snapshot.kinds.decode("ascii"), "ntriples": snapshot.ntriples,
            "lexicals": snapshot.lexicals, "extras": snapshot.extras}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def _read_snapshot(path: Path) -> TermSnapshot:
    data = json.loads(path.read_text(encoding="utf-8"))
    return TermSnapshot(data["kinds"].encode("ascii"), data["ntriples"], data["lexicals"],
                        data["extras"])


def fingerprint(settings: Settings) -> str:
    """What decides the graph of a set of record files: this code and its data (the Python
    files of ``graph``, the ontology, the shapes), the state's own version and the settings
    that reading and mapping depend on."""
    digest = hashlib.sha256(f"state {STATE_VERSION}\n".encode())
    for name in _READING_SETTINGS:
        digest.update(f"{name}={getattr(settings, name)!r}\n".encode())
    package = Path(__file__).resolve().parent.parent
    files = sorted(package.rglob("*.py"))
    for folder in ("ontology", "shapes"):
        files += sorted(data_dir(folder).glob("*.ttl"))
    for path in files:
        digest.update(f"{path.relative_to(path.parent.parent)}\n".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


__all__ = ["STATE", "KeptBuild", "MappedRecord", "fingerprint"]
