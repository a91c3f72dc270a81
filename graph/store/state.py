"""What a store generation keeps of its build so that the next build can be incremental.

A full build reads every record file; an incremental one (``graph.store.rebuild``) reads
again only the files whose bytes changed. For that each generation keeps, in ``state/``:

- ``stats.json``: the stat and SHA-256 of each file the next build may trust unread while
  its stat stays the same (``graph.kept.RACY_NS``);
- ``build.json``: the fingerprint of what decides the graph (this code and its data, the
  base IRI, the reading limits: a build whose fingerprint differs is a full one);
- ``records-N.pickle`` (a chunk per build that imported files, pickled a run of files at a
  time; its records' own pickles one after another in ``records-N.blobs``) and
  ``mapped.pickle``:
  what the importer made of each file (``graph.kept.ImportedFile``: its
  SHA-256, records and warnings), and for each record graph the file and part it was mapped
  from and what its mapping asked the benchmark index (``graph.build.Question``: a directory
  page whose titles resolve otherwise now must be mapped again, though its file did not
  change). Pickled: the records are the importers' models as they were made, each with
  what the index reads of it (``graph.kept.KeptRecord``); a record's own pickle is kept
  apart, in the blobs file, and read only when the record is mapped again. The state is
  this code's own (its fingerprint), read only from a store folder a build of it wrote;
- the build's ``QuadTable``: its terms (``terms-N.nt``, their N-Triples forms one a line,
  ``terms-N.json``, their kinds and the literals' datatypes and tags, and
  ``terms-N.index.npy``, their ``FormIndex``: a chunk per build that added terms, never
  changed, so the next generation hard-links them) and its quads
  (``rows.npy``, four term ids a quad). The forms are split, not parsed, and no rdflib term
  is made until asked for (``TermTable.restored``): restoring the table of 10,000 records
  took 6 s as one JSON document of every term made into rdflib terms, 1.4 s so (load 10).

The dump pages (``graph.store.pages``) are kept beside it, in ``pages/``.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import pickle
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO, NamedTuple, TextIO

import numpy as np

from graph.build import Question
from graph.dataset.form_index import FormIndex
from graph.dataset.table import QuadTable, TermSnapshot, TermTable
from graph.kept import FileStat, ImportedFile, KeptRecord, Spooled
from graph.resources import data_dir
from graph.settings import Settings
from graph.store.pages import link_or_copy

STATE = "state"
BUILD_FILE = "build.json"
ROWS_FILE = "rows.npy"
MAPPED_FILE = "mapped.pickle"
STATS_FILE = "stats.json"
STATE_VERSION = 10
"""6: the terms chunks keep no lexical forms (``_write_snapshot``); 7: files by their
relative path as text; 8: a records chunk pickled a run of files at a time; 9: each terms
chunk has its ``FormIndex``; 10: a records chunk's records' pickles are in its blobs file."""
_FILES_AT_A_TIME = 1_000
"""How many files' records a records chunk pickles at a time (``_pickle_runs``)."""
_RECORD_CHUNKS = 64
"""How many records chunks a state keeps before it writes all its files as one (each is
two files to link and to read, and a map of its blobs)."""
_TERMS_CHUNKS = 64
"""How many terms chunks a state keeps before it writes every term as one chunk (each is
three files to link and to read; a rebuild that states a new literal adds one). Writing
the 345,517 terms of 10,000 records as one took 0.21 s, once in this many rebuilds."""
_TERMS_AT_A_TIME = 10_000
"""How many terms a chunk's files are written at a time (``_write_snapshot``)."""
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
    """The state of one generation: its files' records, its record graphs and its table."""

    fingerprint: str
    imported: dict[str, ImportedFile]
    """By relative path, as text: the state's files hold no ``PurePosixPath`` (making 20,000
    of them, from the records' pickle and the stats, took 0.2-0.3 s of a rebuild's read at
    10,000 records, load 3); ``digest`` and ``imported_as`` take the load's paths."""
    mapped: dict[str, MappedRecord]
    """By record key."""
    table: QuadTable
    chunks: list[str]
    """The terms files, in id order."""
    chunk_ends: list[int]
    """The number of terms once each chunk is read."""
    record_chunks: list[tuple[str, int]] = field(default_factory=list)
    """The files of ``imported`` (name, how many files each holds), read in order, a later
    one's entry replacing an earlier one's."""
    stats: dict[str, tuple[FileStat, str]] = field(default_factory=dict)
    """The files the next load may trust unread while their stat stays the same
    (``LoadReport.stats``), by relative path as text."""

    def digest(self, relative: PurePosixPath, stat: FileStat) -> str | None:
        """``graph.kept.Known``: the SHA-256 of a file whose stat is the one kept."""
        found = self.stats.get(str(relative))
        return found[1] if found is not None and found[0] == stat else None

    def imported_as(self, relative: PurePosixPath, digest: str) -> ImportedFile | None:
        """``graph.kept.Known``: what importing a file with these bytes made."""
        found = self.imported.get(str(relative))
        return found if found is not None and found.digest == digest else None

    def save(self, generation: Path, before: Path | None, fresh: Collection[str] = ()) -> None:
        """Keep this state in ``generation``: the terms chunks of ``before`` (the generation
        it was read from) are linked, the terms added since written as a new chunk (every
        term as one once there are ``_TERMS_CHUNKS``); so are the records chunks, and the
        files imported anew (``fresh``) written as a new one (pickling every record took 9 s
        at 10,000), unless the old chunks hold more than twice as many entries as there are
        files or there are ``_RECORD_CHUNKS``: then all of ``imported`` is written as one."""
        folder = generation / STATE
        folder.mkdir()
        self._save_records(folder, before, fresh)
        chunks, ends = self._link_terms(folder, before)
        start = ends[-1] if ends else 0
        if len(self.table.terms) > start or not chunks:
            name = f"terms-{len(chunks)}.json"
            _write_snapshot(folder / name, self.table.terms.snapshot(start), start)
            chunks.append(name)
            ends.append(len(self.table.terms))
        np.save(folder / ROWS_FILE, self.table.held_rows())  # 32-bit, as the table holds them
        _pickle(folder / MAPPED_FILE, self.mapped)
        stats = {relative: [*_fields(stat), digest]
                 for relative, (stat, digest) in self.stats.items()}
        (folder / STATS_FILE).write_text(json.dumps(stats), encoding="utf-8")
        build = {"version": STATE_VERSION, "fingerprint": self.fingerprint,
                 "chunks": chunks, "chunk_ends": ends,
                 "record_chunks": [list(chunk) for chunk in self.record_chunks]}
        (folder / BUILD_FILE).write_text(json.dumps(build, ensure_ascii=False),
                                         encoding="utf-8")
        self.chunks, self.chunk_ends = chunks, ends

    def _link_terms(self, folder: Path, before: Path | None) -> tuple[list[str], list[int]]:
        """The terms chunks of ``before`` linked into ``folder``, and their ends; none when
        there is no ``before`` or it holds ``_TERMS_CHUNKS`` of them (every term is then
        written as one chunk)."""
        if before is None or len(self.chunks) >= _TERMS_CHUNKS:
            return [], []
        for name in self.chunks:
            for linked in _terms_chunk_files(name):
                link_or_copy(before / STATE / linked, folder / linked)
        return list(self.chunks), list(self.chunk_ends)

    def _save_records(self, folder: Path, before: Path | None, fresh: Collection[str]) -> None:
        held = sum(count for _, count in self.record_chunks)
        if (before is None or held + len(fresh) > 2 * len(self.imported)
                or len(self.record_chunks) >= _RECORD_CHUNKS):
            chunks, written = [], dict(self.imported)
        else:
            chunks = list(self.record_chunks)
            for name, _ in chunks:
                for linked in _records_chunk_files(name):
                    link_or_copy(before / STATE / linked, folder / linked)
            written = {relative: self.imported[relative] for relative in fresh}
        if written or not chunks:
            name = f"records-{len(chunks)}.pickle"
            _pickle_runs(folder / name, written)
            chunks.append((name, len(written)))
        self.record_chunks = chunks

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
        index = FormIndex.joined(FormIndex.load(_index_file(folder / name))
                                 for name in build["chunks"])
        terms = TermTable.restored(TermSnapshot.joined(snapshots), index)
        # mapped, not read: the table copies the rows from the system's cached pages, not
        # from 21 MB more new to the process (perf/README.md, "Memory new to a process")
        table = QuadTable.of_rows(terms, np.load(folder / ROWS_FILE, mmap_mode="r"))
        imported: dict[str, ImportedFile] = {}
        record_chunks = [(name, count) for name, count in build["record_chunks"]]
        for name, _ in record_chunks:
            imported.update(_unpickle_runs(folder / name))
        stats = {relative: (FileStat(*kept[:5]), kept[5])
                 for relative, kept in json.loads((folder / STATS_FILE).read_text()).items()}
        return cls(fingerprint, imported, _unpickle(folder / MAPPED_FILE), table,
                   build["chunks"], build["chunk_ends"], record_chunks, stats)


def _fields(stat: FileStat) -> tuple[int, int, int, int, int]:
    """``dataclasses.astuple`` of a stat, by hand: that deep-copies every field (0.3-0.7 s
    for the 10,000 stats of 10,000 records)."""
    return stat.size, stat.mtime_ns, stat.ctime_ns, stat.inode, stat.device


def _pickle(path: Path, kept: object) -> None:
    with path.open("wb") as out:
        pickle.dump(kept, out, protocol=pickle.HIGHEST_PROTOCOL)


def _unpickle(path: Path) -> Any:
    with path.open("rb") as kept:
        return pickle.load(kept)  # written by this code: see the module


def _pickle_runs(path: Path, imported: dict[str, ImportedFile]) -> None:
    """A records chunk: ``imported`` as a pickle of a dictionary per run of files, one after
    another, the pickler's memo cleared between runs; each record's own pickle is not in it
    but in the chunk's blobs file (``_blobs_file``), which the chunk names by place.

    A memo holds every object pickled until it is cleared, and a spooled record's pickle
    (``graph.kept.Spool``) is read back from disk to be written: one pickle of the whole
    would hold them all (0.6 GB at 100,000 records). Apart, the records' pickles (58 MB of
    the 60 MB chunk at 10,000 records) are neither read nor held by a rebuild that maps
    none of them again (``_unpickle_runs``): reading them took 0.05 s of its 0.17, and
    their memory, new to the process, costs more on this project's machines (``perf/README.md``,
    "Memory new to a process")."""
    items = list(imported.items())
    with path.open("wb") as out, _blobs_file(path).open("wb") as blobs:
        pickler = _RecordsPickler(out, blobs)
        for start in range(0, max(len(items), 1), _FILES_AT_A_TIME):
            pickler.dump(dict(items[start:start + _FILES_AT_A_TIME]))
            pickler.clear_memo()


def _unpickle_runs(path: Path) -> dict[str, ImportedFile]:
    """A records chunk read back (``_pickle_runs``); each record's pickle stays in the
    chunk's blobs file, mapped, until the record is asked for (``KeptRecord.record``)."""
    imported: dict[str, ImportedFile] = {}
    blobs = _MappedBlobs(_blobs_file(path))
    with path.open("rb") as kept:
        while kept.peek(1):  # an unpickler a run: each run's memo starts empty
            imported.update(_RecordsUnpickler(kept, blobs).load())  # this code's: see the module
    return imported


class _Placed(NamedTuple):
    """Where a record's pickle is in a chunk's blobs file."""

    start: int
    size: int


class _RecordsPickler(pickle.Pickler):
    """Pickles a record's own pickle into ``blobs`` and where it is in its place."""

    def __init__(self, out: BinaryIO, blobs: BinaryIO) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self._blobs = blobs

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is not KeptRecord:
            return NotImplemented
        made, (known, _, blob) = obj.__reduce__()
        place = _Placed(self._blobs.tell(), len(blob))
        self._blobs.write(blob)
        return made, (known, None, place)

    def persistent_id(self, obj: Any) -> tuple[int, int] | None:
        return (obj.start, obj.size) if type(obj) is _Placed else None


class _RecordsUnpickler(pickle.Unpickler):
    """Reads what ``_RecordsPickler`` wrote, a record's pickle as where it is in ``blobs``."""

    def __init__(self, source: BinaryIO, blobs: _MappedBlobs) -> None:
        super().__init__(source)
        self._blobs = blobs

    def persistent_load(self, pid: Any) -> Spooled:
        start, size = pid
        return Spooled(self._blobs, start, size)


class _MappedBlobs:
    """A chunk's blobs file, mapped (``graph.kept.Blobs``): nothing of it is read until a
    pickle is asked for, and the map keeps the file, so a record of a rebuild's report is
    read after the generation that held it has gone."""

    __slots__ = ("_map",)

    def __init__(self, path: Path) -> None:
        self._map = _map_file(path)

    def get(self, start: int, size: int) -> bytes:
        blob = b"" if self._map is None else self._map[start:start + size]
        if len(blob) != size:
            raise OSError(f"a records chunk's blobs gave {len(blob)} of {size} bytes at {start}")
        return blob


def _map_file(path: Path) -> mmap.mmap | None:
    """``path`` mapped read-only (the map keeps the file, should it be removed); None for an
    empty file, which cannot be mapped."""
    with path.open("rb") as file:
        if os.fstat(file.fileno()).st_size == 0:
            return None
        return mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)


def _blobs_file(chunk: Path) -> Path:
    return chunk.with_suffix(".blobs")


def _records_chunk_files(name: str) -> tuple[str, str]:
    """The files of the records chunk ``name`` (its pickle): the pickle, the blobs."""
    return name, _blobs_file(Path(name)).name


def _terms_chunk_files(name: str) -> tuple[str, str, str]:
    """The files of the terms chunk ``name`` (its JSON file): the JSON, the forms, the
    index."""
    path = Path(name)
    return name, _forms_file(path).name, _index_file(path).name


def _forms_file(chunk: Path) -> Path:
    return chunk.with_suffix(".nt")


def _index_file(chunk: Path) -> Path:
    return chunk.with_suffix(".index.npy")


def _write_snapshot(path: Path, snapshot: TermSnapshot, start: int) -> None:
    """A terms chunk (its first id ``start``): the N-Triples forms one a line (a form holds
    no line break: N-Triples escapes it) in ``.nt``, split, not parsed, when read again, and
    their ``FormIndex`` in ``.index.npy``; the kinds and extras (the datatype IRIs and
    language tags) as JSON. The literals' lexical forms are not written:
    ``TermTable.restored`` reads none (each is in its N-Triples form), and they were most of
    the JSON (35 MB at 10,000 records, 0.3-0.8 s of a rebuild to read at load 3, and as
    long again to write). The forms are written a run of terms at a time: joined whole they
    held as much again as the terms' text (hundreds of megabytes at 100,000 records)."""
    with path.open("w", encoding="utf-8") as out:
        out.write(f'{{"kinds": {json.dumps(snapshot.kinds.decode("ascii"))}, "extras": ')
        _write_json_list(out, snapshot.extras)
        out.write("}")
    forms = snapshot.ntriples
    with _forms_file(path).open("w", encoding="utf-8") as out:
        for at in range(0, len(forms), _TERMS_AT_A_TIME):
            out.write(("\n" if at else "") + "\n".join(forms[at:at + _TERMS_AT_A_TIME]))
    FormIndex.of(forms, start).save(_index_file(path))


def _write_json_list(out: TextIO, items: list[str]) -> None:
    """``json.dumps(items, ensure_ascii=False)`` into ``out``, a run of items at a time (the
    extras are one a typed or tagged literal: made whole, they held as much again)."""
    out.write("[")
    for start in range(0, len(items), _TERMS_AT_A_TIME):
        run = json.dumps(items[start:start + _TERMS_AT_A_TIME], ensure_ascii=False)
        out.write((", " if start else "") + run[1:-1])
    out.write("]")


def _read_snapshot(path: Path) -> TermSnapshot:
    """A terms chunk read back for ``TermTable.restored``, which reads no lexical form (none
    is kept: ``_write_snapshot``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return TermSnapshot(data["kinds"].encode("ascii"), _lines(_forms_file(path)),
                        data["extras"])


_LINES_AT_A_TIME = 1 << 16
"""How many bytes of a forms file ``_lines`` decodes at a time (about; up to a line's end)."""


def _lines(path: Path) -> list[str]:
    """The lines of a UTF-8 file without line breaks (none for an empty file), decoded and
    split a run of ``_LINES_AT_A_TIME`` bytes at a time. Decoded whole, one character
    outside ASCII makes the whole text two or four bytes a character, and each line split
    from it is scanned to be made narrow again: 0.17-0.22 s for the 600,000 forms of 10,000
    records, against 0.11 s so, where only the runs holding such a character are wide. The
    file is mapped, not read: its bytes are the system's cached pages, not 42 MB new to the
    process (``perf/README.md``, "Memory new to a process")."""
    data = _map_file(path)
    if data is None:
        return []
    with data:
        lines: list[str] = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start + _LINES_AT_A_TIME)
            end = len(data) if end < 0 else end
            lines += data[start:end].decode("utf-8").split("\n")
            start = end + 1
        return lines


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
