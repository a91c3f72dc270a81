"""The terms chunks of a store's state: the build's ``TermTable``, a chunk per build that
added terms, never changed once written, so the next generation hard-links them.

A chunk is three files: ``terms-N.nt``, the terms' N-Triples forms one a line;
``terms-N.json``, their kinds and the literals' datatypes and tags; ``terms-N.index.npy``,
their ``FormIndex``. The forms are split, not parsed, and no rdflib term is made until asked
for (``TermTable.restored``): a JSON document of every term made into rdflib terms took
several times as long to restore (perf/decisions/kept-state-read-lazily.md). A rebuild that
states a new literal adds a chunk; past ``TERMS_CHUNKS`` of them every term is written as
one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TextIO

from graph.dataset.form_index import FormIndex
from graph.dataset.table import TermSnapshot, TermTable
from graph.store.space import save_array
from graph.store.state.mapped_file import link_or_copy, map_file

TERMS_CHUNKS = 64
"""How many terms chunks a state keeps before it writes every term as one chunk (each is
three files to link and to read)."""
TERMS_AT_A_TIME = 10_000
"""How many terms a chunk's files are written at a time (``write_snapshot``)."""
LINES_AT_A_TIME = 1 << 16
"""How many bytes of a forms file ``lines`` decodes at a time (about; up to a line's end)."""


def save_terms(folder: Path, before: Path | None, terms: TermTable, chunks: list[str],
               ends: list[int]) -> tuple[list[str], list[int]]:
    """Write the terms chunks of ``terms`` into the state folder ``folder``: the ``chunks``
    of ``before`` (the state folder they were read from; ``ends``, how many terms there are
    once each is read) linked and the terms added since as one more, or every term as one
    chunk when there is no ``before`` or it holds ``TERMS_CHUNKS``; the chunks now and
    their ends."""
    if before is None or len(chunks) >= TERMS_CHUNKS:
        chunks, ends = [], []
    else:
        chunks, ends = list(chunks), list(ends)
        for name in chunks:
            for linked in chunk_files(name):
                link_or_copy(before / linked, folder / linked)
    start = ends[-1] if ends else 0
    if len(terms) > start or not chunks:
        name = f"terms-{len(chunks)}.json"
        write_snapshot(folder / name, terms.snapshot(start), start)
        chunks.append(name)
        ends.append(len(terms))
    return chunks, ends


def read_terms(folder: Path, chunks: list[str]) -> TermTable:
    """The table of the state folder ``folder``'s terms ``chunks``."""
    snapshots = [read_snapshot(folder / name) for name in chunks]
    index = FormIndex.joined(FormIndex.load(index_file(folder / name)) for name in chunks)
    return TermTable.restored(TermSnapshot.joined(snapshots), index)


def chunk_files(name: str) -> tuple[str, str, str]:
    """The files of the terms chunk ``name`` (its JSON file): the JSON, the forms, the
    index."""
    path = Path(name)
    return name, _forms_file(path).name, index_file(path).name


def index_file(chunk: Path) -> Path:
    """The ``FormIndex`` of the terms chunk ``chunk`` (its JSON file)."""
    return chunk.with_suffix(".index.npy")


def _forms_file(chunk: Path) -> Path:
    return chunk.with_suffix(".nt")


def write_snapshot(path: Path, snapshot: TermSnapshot, start: int) -> None:
    """A terms chunk (its first id ``start``): the N-Triples forms one a line (a form holds
    no line break: N-Triples escapes it) in ``.nt``, split, not parsed, when read again, and
    their ``FormIndex`` in ``.index.npy``; the kinds and extras (the datatype IRIs and
    language tags) as JSON. The literals' lexical forms are not written:
    ``TermTable.restored`` reads none (each is in its N-Triples form), and they were most of
    the JSON, to read and to write (perf/decisions/kept-state-read-lazily.md). The forms
    are written a run of terms at a time: joined whole they held as much again as the
    terms' text."""
    with path.open("w", encoding="utf-8") as out:
        out.write(f'{{"kinds": {json.dumps(snapshot.kinds.decode("ascii"))}, "extras": ')
        _write_json_list(out, snapshot.extras)
        out.write("}")
    forms = snapshot.ntriples
    with _forms_file(path).open("w", encoding="utf-8") as out:
        for at in range(0, len(forms), TERMS_AT_A_TIME):
            out.write(("\n" if at else "") + "\n".join(forms[at:at + TERMS_AT_A_TIME]))
    save_array(index_file(path), FormIndex.of(forms, start).keys)


def _write_json_list(out: TextIO, items: list[str]) -> None:
    """``json.dumps(items, ensure_ascii=False)`` into ``out``, a run of items at a time (the
    extras are one a typed or tagged literal: made whole, they held as much again)."""
    out.write("[")
    for start in range(0, len(items), TERMS_AT_A_TIME):
        run = json.dumps(items[start:start + TERMS_AT_A_TIME], ensure_ascii=False)
        out.write((", " if start else "") + run[1:-1])
    out.write("]")


def read_snapshot(path: Path) -> TermSnapshot:
    """A terms chunk read back for ``TermTable.restored``, which reads no lexical form (none
    is kept: ``write_snapshot``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return TermSnapshot(data["kinds"].encode("ascii"), lines(_forms_file(path)),
                        data["extras"])


def lines(path: Path) -> list[str]:
    """The lines of a UTF-8 file without line breaks (none for an empty file), decoded and
    split a run of ``LINES_AT_A_TIME`` bytes at a time. Decoded whole, one character
    outside ASCII makes the whole text two or four bytes a character, and each line split
    from it is scanned to be made narrow again; so, only the runs holding such a character
    are wide (perf/decisions/kept-state-read-lazily.md). The file is mapped, not read
    (``map_file``): its bytes are not new to the process."""
    data = map_file(path)
    if data is None:
        return []
    with data:
        found: list[str] = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start + LINES_AT_A_TIME)
            end = len(data) if end < 0 else end
            found += data[start:end].decode("utf-8").split("\n")
            start = end + 1
        return found


__all__ = ["LINES_AT_A_TIME", "TERMS_AT_A_TIME", "TERMS_CHUNKS", "chunk_files", "index_file",
           "lines", "read_snapshot", "read_terms", "save_terms", "write_snapshot"]
