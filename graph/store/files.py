"""The files a store generation keeps beside its Oxigraph data: the dumps and the validation report.

A store is built once and served many times, so what a server hands out whole is written once,
at build time, into the generation folder, and streamed from there on every request:

- ``dump.ttl``, ``dump.nt``, ``dump.trig``, ``dump.nq``, ``dump.jsonld``: the graph in every
  format of ``graph.export.formats``, written by ``graph.export.write_file`` from the build's
  table with the data's base IRI, so each is byte for byte what ``benchgraph build -o FILE``
  writes for the same records. The N-Quads and N-Triples are the very files the store is
  bulk-loaded from (the named graphs and their merge), so they cost nothing more than keeping
  them. Formats are written one at a time: a build never holds two serialisations at once.
- ``validation.json`` and ``validation.ttl`` when the build was validated: the report in its
  JSON form (read back by ``ValidationReport.from_json``) and as the W3C SHACL report.

A store folder built with ``benchgraph build --store`` keeps each dump as pages too
(``graph.store.pages``), which an incremental build rewrites only in part and does not join:
its generation holds no ``dump.*`` file, and each dump is served as its pages read as one
file (``stored_dump``, ``graph.store.concat``), byte for byte the joined dump. Joining them
wrote 800 MB at 10,000 records whatever changed (0.5 s quiet, 1-3.5 s with other work on the
disk: ext4 copies every byte of ``os.copy_file_range``).
Every file is there before the generation is switched to: nothing is made on first use, so
a store folder serves as well from a read-only place (a read-only mount, a folder of another
user) after an incremental build as after a full one.

RocksDB, which owns the rest of the folder, leaves files whose names are not its own alone.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from graph.dataset.table import QuadTable
from graph.export import Written, write_atomically, write_file
from graph.export.formats import JSONLD, NQUADS, NTRIPLES, TRIG, TURTLE, Format
from graph.store.base import StoredFile
from graph.store.joining import join, pieces
from graph.store.pages import Partition, write_partition
from graph.validation.report import ValidationReport

DUMP_STEM = "dump"
VALIDATION_JSON = "validation.json"
VALIDATION_TURTLE = "validation.ttl"
DUMP_FORMATS: tuple[Format, ...] = (TURTLE, NTRIPLES, TRIG, NQUADS, JSONLD)
"""Every dump: the graph formats of the registry but RDF/XML (which holds one graph, as
Turtle does, and is slower to read)."""
LOADED_FORMATS: tuple[Format, ...] = (NQUADS, NTRIPLES)
"""The dumps the store is bulk-loaded from (the named graphs, and their merge)."""
assert set(LOADED_FORMATS) <= set(DUMP_FORMATS), "a loaded format without a dump"


def dump_name(fmt: Format) -> str:
    """The dump's file name in a generation folder (``dump.ttl``): the format's preferred
    extension."""
    return f"{DUMP_STEM}{fmt.extension}"


def write_dumps(folder: Path, table: QuadTable, base: str,
                formats: tuple[Format, ...]) -> dict[Format, Written]:
    """Write ``table`` in each of ``formats`` into ``folder``, one after another."""
    return {fmt: write_file(folder / dump_name(fmt), table, fmt, base=base) for fmt in formats}


def write_pages(folder: Path, table: QuadTable, base: str) -> dict[Format, int]:
    """Write every dump of ``table`` as pages into ``folder``, with their indexes; returns how
    many statements each dump holds."""
    counts = {}
    for keep_graphs in (True, False):
        partition = write_partition(folder, table, base, keep_graphs=keep_graphs)
        partition.save(folder)
        counts.update(dict.fromkeys(partition.formats, partition.statements))
    return counts


def join_dumps(folder: Path, formats: tuple[Format, ...]) -> None:
    """Make the dumps of ``formats`` from the pages in ``folder`` (a full build's)."""
    for fmt in formats:
        partition = Partition.load(folder, fmt.keeps_graphs, with_members=False)
        join(folder, partition, fmt, folder / dump_name(fmt))


def stored_dump(generation: Path, fmt: Format) -> StoredFile:
    """``fmt``'s dump of the generation folder ``generation``: its file, or, in a generation
    an incremental build wrote, its pages as one file (``graph.store.concat``). PagesError
    when it has neither."""
    path = generation / dump_name(fmt)
    if path.is_file():
        return StoredFile(path, generation.name)
    return StoredFile(path, generation.name, pieces(generation, fmt))


def write_validation(folder: Path, report: ValidationReport) -> None:
    """Keep ``report`` in ``folder``: its JSON form, and the W3C SHACL report in Turtle."""
    with (folder / VALIDATION_JSON).open("w", encoding="utf-8") as handle:
        json.dump(report.to_json(), handle, ensure_ascii=False, separators=(",", ":"))
        handle.flush()
        os.fsync(handle.fileno())
    _write_turtle(folder / VALIDATION_TURTLE, report)


def _write_turtle(path: Path, report: ValidationReport) -> None:
    turtle = report.to_turtle()
    write_atomically(path, lambda binary: binary.write(turtle))


__all__ = [
    "DUMP_FORMATS",
    "LOADED_FORMATS",
    "VALIDATION_JSON",
    "VALIDATION_TURTLE",
    "dump_name",
    "join_dumps",
    "stored_dump",
    "write_dumps",
    "write_pages",
    "write_validation",
]
