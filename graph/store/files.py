"""The files a store generation keeps beside its Oxigraph data: the dumps and the validation
report (the search index beside them is written by the store's writing process:
``graph.store.writing``).

- ``dump.ttl``, ``dump.nt``, ``dump.trig``, ``dump.nq``, ``dump.jsonld``: the graph in every
  dump format, each written from the generation's own Oxigraph store the first time it is
  asked for, in a process of its own (``graph.store.dumping``: ``DumpWriting``, or
  ``made_dump``, which waits for it), and then streamed as it is on every request. A
  generation's data never changes, so a dump is made once: into the generation folder, where
  the next process to serve it finds it too, or, when that folder cannot be written (a
  read-only mount, another user's folder), into a folder of the serving process's own. A
  dump is written to a temporary name and renamed when whole: two processes that make the
  same dump at once both write it, and either copy is the dump.
- ``validation.json`` and ``validation.ttl`` when the build was validated: the report in its
  JSON form (read back by ``ValidationReport.from_json``) and as the W3C SHACL report, written
  with the build.

RocksDB, which owns the rest of the folder, leaves files whose names are not its own alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import uuid
from pathlib import Path
from typing import IO

from rdflib import Graph

from graph.export.atomic import write_atomically
from graph.export.formats import JSONLD, NQUADS, NTRIPLES, TRIG, TURTLE, Format
from graph.store.base import StoredFile
from graph.store.errors import StoreError
from graph.store.space import NoSpace
from graph.store.writing import NO_SPACE
from graph.validation.report import ValidationReport

DUMP_STEM = "dump"
VALIDATION_JSON = "validation.json"
VALIDATION_TURTLE = "validation.ttl"
DUMP_FORMATS: tuple[Format, ...] = (TURTLE, NTRIPLES, TRIG, NQUADS, JSONLD)
"""Every dump: the graph formats of the registry but RDF/XML (which holds one graph, as
Turtle does, and is slower to read)."""


def dump_name(fmt: Format) -> str:
    """The dump's file name in a generation folder (``dump.ttl``): the format's preferred
    extension."""
    return f"{DUMP_STEM}{fmt.extension}"


def made_dump(generation: Path, fmt: Format, base: str, spare: Path) -> StoredFile:
    """``fmt``'s dump of the generation folder ``generation`` (whose data's base IRI is
    ``base``): the one there or in ``spare`` (the serving process's own folder), else written
    now from the generation's store, into the first of the two that can be written, and
    waited for. StoreError when it cannot be (``NoSpace`` for a full disk)."""
    found = kept_dump(generation, fmt, spare)
    if found is None:
        found = DumpWriting.start(generation, fmt, base, spare).done(None)
        assert found is not None, "a dump waited for without end is written, or fails"
    return found


def kept_dump(generation: Path, fmt: Format, spare: Path) -> StoredFile | None:
    """``fmt``'s dump of ``generation`` made already, there or in ``spare``; else None."""
    for folder in (generation, spare):
        if (folder / dump_name(fmt)).is_file():
            return StoredFile(folder / dump_name(fmt), generation.name)
    return None


class DumpWriting:
    """One dump being written by its own process (``graph.store.dumping``), to a temporary
    name renamed when whole. Any thread may wait for it; one at a time reads its end."""

    def __init__(self, process: subprocess.Popen[bytes], said: IO[bytes], generation: Path,
                 fmt: Format, path: Path, partial: Path) -> None:
        self._process, self._said = process, said
        self._generation, self._fmt, self._path, self._partial = generation, fmt, path, partial
        self._lock = threading.Lock()

    @classmethod
    def start(cls, generation: Path, fmt: Format, base: str, spare: Path) -> DumpWriting:
        """The dump's process started, writing into ``generation`` or, when that folder
        cannot be written, ``spare``; what it says of an error goes to a file (a pipe no one
        reads while it runs could fill)."""
        into = generation if os.access(generation, os.W_OK) else spare
        path = into / dump_name(fmt)
        partial = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.partial")
        said = tempfile.TemporaryFile()
        process = subprocess.Popen(
            [sys.executable, "-m", "graph.store.dumping", str(generation), fmt.name, base,
             str(partial)], stdout=subprocess.DEVNULL, stderr=said)
        return cls(process, said, generation, fmt, path, partial)

    def done(self, wait: float | None) -> StoredFile | None:
        """The dump once whole, waiting at most ``wait`` seconds for it (None: until it is);
        None while it is still being written. StoreError when it could not be (``NoSpace``
        for a full disk)."""
        if not self._lock.acquire(timeout=-1 if wait is None else wait):
            return None  # another thread is waiting for it
        try:
            try:
                code = self._process.wait(wait)
            except subprocess.TimeoutExpired:
                return None
            if code != 0:
                self._partial.unlink(missing_ok=True)
                if code == NO_SPACE:
                    raise NoSpace(self._path.parent)
                self._said.seek(0)
                said = self._said.read().decode(errors="replace").strip() or f"exit code {code}"
                raise StoreError(f"the {self._fmt.name} dump of {self._generation} could not "
                                 f"be written: {said}")
            self._said.close()
            if self._partial.exists():
                os.replace(self._partial, self._path)
            return StoredFile(self._path, self._generation.name)
        finally:
            self._lock.release()

    def stop(self) -> None:
        """End the process if it still runs, and remove what it wrote."""
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._partial.unlink(missing_ok=True)
        self._said.close()


def write_validation(folder: Path, report: ValidationReport) -> None:
    """Keep ``report`` in ``folder``: its JSON form, and the W3C SHACL report in Turtle."""
    with (folder / VALIDATION_JSON).open("w", encoding="utf-8") as handle:
        json.dump(report.to_json(), handle, ensure_ascii=False, separators=(",", ":"))
        handle.flush()
        os.fsync(handle.fileno())
    _write_turtle(folder / VALIDATION_TURTLE, report)


def read_validation(folder: Path, shapes_graph: Graph | None = None
                    ) -> ValidationReport | None:
    """The report kept in ``folder`` (with the shapes it came from, each result's path as
    they write it: ``ValidationReport.from_json``); None when the build was not validated."""
    path = folder / VALIDATION_JSON
    if not path.is_file():
        return None
    with path.open(encoding="utf-8") as handle:
        return ValidationReport.from_json(json.load(handle), shapes_graph)


def _write_turtle(path: Path, report: ValidationReport) -> None:
    turtle = report.to_turtle()
    write_atomically(path, lambda binary: binary.write(turtle))


__all__ = [
    "DUMP_FORMATS",
    "VALIDATION_JSON",
    "VALIDATION_TURTLE",
    "dump_name",
    "made_dump",
    "read_validation",
    "write_validation",
]
