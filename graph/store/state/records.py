"""The records chunks of a store's state: what the importer made of each file
(``graph.ingest.kept.ImportedFile``), by relative path as text.

A chunk is two files: ``records-N.pickle``, a pickle of a dictionary per run of
``FILES_AT_A_TIME`` files, and ``records-N.blobs``, each record's own pickle one after
another, which the chunk names by place and which is mapped, not read, so a record is read
only when it is mapped again. A generation links the chunks of the one before and writes the
files imported anew as one more (pickling every record again would cost every rebuild
seconds: perf/decisions/kept-state-read-lazily.md), until that would keep more than twice as
many entries as there are files, or ``RECORD_CHUNKS`` chunks: then every file is written as
one chunk.
"""

from __future__ import annotations

import pickle
from collections.abc import Collection
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from graph.ingest.kept import ImportedFile, KeptRecord, Spooled
from graph.store.state.mapped_file import link_or_copy, map_file

FILES_AT_A_TIME = 1_000
"""How many files' records a records chunk pickles at a time (``pickle_runs``)."""
RECORD_CHUNKS = 64
"""How many records chunks a state keeps before it writes all its files as one (each is
two files to link and to read, and a map of its blobs)."""

Chunks = list[tuple[str, int]]
"""A state's records chunks in the order they are read: each one's pickle and how many
files it holds (a later one's entry replaces an earlier one's)."""


def save_records(folder: Path, before: Path | None, imported: dict[str, ImportedFile],
                 chunks: Chunks, fresh: Collection[str]) -> Chunks:
    """Write the records chunks of ``imported`` into the state folder ``folder``: the
    ``chunks`` of ``before`` (the state folder they were read from) linked and the files of
    ``fresh`` as one more, or every file as one chunk (see the module); the chunks now."""
    held = sum(count for _, count in chunks)
    if (before is None or held + len(fresh) > 2 * len(imported)
            or len(chunks) >= RECORD_CHUNKS):
        chunks, written = [], dict(imported)
    else:
        chunks = list(chunks)
        for name, _ in chunks:
            for linked in chunk_files(name):
                link_or_copy(before / linked, folder / linked)
        written = {relative: imported[relative] for relative in fresh}
    if written or not chunks:
        name = f"records-{len(chunks)}.pickle"
        pickle_runs(folder / name, written)
        chunks.append((name, len(written)))
    return chunks


def read_records(folder: Path, chunks: Chunks) -> dict[str, ImportedFile]:
    """The files of the state folder ``folder``'s records ``chunks``, read in order."""
    imported: dict[str, ImportedFile] = {}
    for name, _ in chunks:
        imported.update(unpickle_runs(folder / name))
    return imported


def chunk_files(name: str) -> tuple[str, str]:
    """The files of the records chunk ``name`` (its pickle): the pickle, the blobs."""
    return name, _blobs_file(Path(name)).name


def pickle_runs(path: Path, imported: dict[str, ImportedFile]) -> None:
    """A records chunk: ``imported`` as a pickle of a dictionary per run of files, one after
    another, the pickler's memo cleared between runs; each record's own pickle is not in it
    but in the chunk's blobs file, which the chunk names by place.

    A memo holds every object pickled until it is cleared, and a spooled record's pickle
    (``graph.ingest.kept.Spool``) is read back from disk to be written: one pickle of the whole
    would hold them all. Apart, the records' pickles (nearly all of a chunk) are neither
    read nor held by a rebuild that maps none of them again (``unpickle_runs``), and their
    memory, new to the process, costs more on this project's machines
    (perf/decisions/kept-state-mapped.md)."""
    items = list(imported.items())
    with path.open("wb") as out, _blobs_file(path).open("wb") as blobs:
        pickler = _RecordsPickler(out, blobs)
        for start in range(0, max(len(items), 1), FILES_AT_A_TIME):
            pickler.dump(dict(items[start:start + FILES_AT_A_TIME]))
            pickler.clear_memo()


def unpickle_runs(path: Path) -> dict[str, ImportedFile]:
    """A records chunk read back (``pickle_runs``); each record's pickle stays in the
    chunk's blobs file, mapped, until the record is asked for (``KeptRecord.record``)."""
    imported: dict[str, ImportedFile] = {}
    blobs = _MappedBlobs(_blobs_file(path))
    with path.open("rb") as kept:
        while kept.peek(1):  # an unpickler a run: each run's memo starts empty
            # written by this code: the state is read only from a store folder it wrote
            imported.update(_RecordsUnpickler(kept, blobs).load())
    return imported


def _blobs_file(chunk: Path) -> Path:
    return chunk.with_suffix(".blobs")


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
    """A chunk's blobs file, mapped (``graph.ingest.kept.Blobs``): nothing of it is read until a
    pickle is asked for, and the map keeps the file, so a record of a rebuild's report is
    read after the generation that held it has gone."""

    __slots__ = ("_map",)

    def __init__(self, path: Path) -> None:
        self._map = map_file(path)

    def get(self, start: int, size: int) -> bytes:
        blob = b"" if self._map is None else self._map[start:start + size]
        if len(blob) != size:
            raise OSError(f"a records chunk's blobs gave {len(blob)} of {size} bytes at {start}")
        return blob


__all__ = ["FILES_AT_A_TIME", "RECORD_CHUNKS", "Chunks", "chunk_files", "pickle_runs",
           "read_records", "save_records", "unpickle_runs"]
