"""The process that writes a generation's Oxigraph store (``graph.store.disk``): the only
process that ever opens a store for writing.

- ``python -m graph.store.writing load PATH QUADS UNION BASE``: a new store at PATH,
  bulk-loaded with the named graphs (an N-Quads file) and their merge (an N-Triples file, whose
  repeated lines the loader keeps once) in the default graph (a full build).
- ``python -m graph.store.writing update PATH PREVIOUS BASE``: the store at PATH is made a
  checkpoint of the one at PREVIOUS (opened read-only: it may be serving; RocksDB hard-links
  the files they share); then the named graphs its standard input names are replaced by what
  that says they hold, and their merge in the default graph is mended (an incremental
  build). Its input is one JSON line (the graphs' IRIs), then the N-Quads they now hold; it
  is read after the checkpoint, so that a rebuild starts this process before it knows what
  changed, and the start and the checkpoint run beside its reading and mapping.

Either then writes the search index beside the store, from the graph it has just written
(``graph.search``, data of base IRI BASE): a load writes it whole; an update brings
PREVIOUS's index up to date around the statements it removed or added
(``graph.search.update``).

Each writes ``ready`` on its standard output once the folder PATH exists (the parent may
then write files beside the store's), and exits with 0 when the store and its index are
complete, an update having written on the line after ``ready`` how many statements the named
graphs and the merge hold more than before (``replace_graphs``), and 1 when it updated the
index, 0 when it wrote it whole; a system
error is written on its standard error, with exit code 1, or ``NO_SPACE`` when it says the
disk (or the quota) is full (RocksDB's errors carry the system's words, not its number).

A load gives pyoxigraph its files a block of ``LOAD_BLOCK`` lines at a time, one
``bulk_load`` each: pyoxigraph's bulk loader holds about a million statements of a file in
memory before it writes them out, while the build that started it still holds its own heap;
a block at a time it holds a few hundred megabytes whatever the size, for more seconds. Each
statement of an N-Quads or N-Triples file is one line, so a block is whole statements. Then
the store is compacted (``Store.optimize``): the blocks leave more, smaller files, which
every query reads (perf/decisions/load-in-blocks.md).

It is a fresh interpreter, not a forked child (``graph.system.child``). RocksDB keeps a
process-wide pool of background threads that a fork does not copy: a forked child of a
process that had opened any store (a test, the performance suite) waits for ever when it
opens or flushes one. And a process that has run RocksDB and then forks (a forking server
does, for its workers) leaves its threads behind in each child, whose exit then crashes.
It imports nothing but pyoxigraph until its store is written, so it starts in a tenth of a
second; an update imports the index's code while its parent still reads and maps.
"""

import errno
import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import pyoxigraph as ox

READY = b"ready\n"
NO_SPACE = 3
"""The exit code of a process that found the disk full."""
_FULL = (errno.ENOSPC, errno.EDQUOT)
"""A full disk, a full quota: ``graph.store.space``'s, repeated here, since this process
imports nothing of benchgraph."""
LOAD_BLOCK = 100_000
"""Lines of a dump given to one ``bulk_load``."""


def _ready() -> None:
    sys.stdout.buffer.write(READY)
    sys.stdout.flush()


def load(path: str, quads: str, union: str, base: str) -> None:
    store = ox.Store(path)
    _ready()
    _load_blocks(store, quads, ox.RdfFormat.N_QUADS)
    _load_blocks(store, union, ox.RdfFormat.N_TRIPLES)
    store.flush()
    store.optimize()
    from graph.search import INDEX_FILE, write_index

    write_index(Path(path) / INDEX_FILE, store, base)
    del store


def _load_blocks(store: ox.Store, dump: str, fmt: ox.RdfFormat) -> None:
    """Bulk-load the line-based dump at ``dump`` a block of ``LOAD_BLOCK`` lines at a time."""
    with open(dump, "rb") as lines:
        while block := b"".join(islice(lines, LOAD_BLOCK)):
            store.bulk_load(block, format=fmt)


def update(path: str, previous: str, base: str) -> None:
    old = ox.Store.read_only(previous)
    old.backup(path)
    del old
    _ready()
    from graph.search import INDEX_FILE
    from graph.search.update import update_index

    graphs = json.loads(sys.stdin.buffer.readline() or b"[]")
    nquads = sys.stdin.buffer.read()
    store = ox.Store(path)
    replaced = replace_graphs(store, graphs, nquads)
    store.flush()
    updated = update_index(Path(path) / INDEX_FILE, Path(previous) / INDEX_FILE, store, base,
                           replaced.mentioned)
    del store
    sys.stdout.write(f"{replaced.quads} {replaced.triples} {int(updated)}\n")


@dataclass(frozen=True)
class Replaced:
    """What ``replace_graphs`` changed."""

    quads: int
    """How many statements the named graphs hold more than before (or fewer: negative)."""
    triples: int
    """How many the merge holds more than before (or fewer: negative)."""
    mentioned: frozenset[ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple]
    """The subjects and objects of every statement removed or added."""


def replace_graphs(store: ox.Store, graphs: list[str], nquads: bytes) -> Replaced:
    """Make each of ``graphs`` hold exactly its statements in ``nquads``; a triple that no
    named graph holds any more leaves the default graph (the merge), a new one joins it.

    The statements are compared as the store keeps them: Oxigraph keeps a literal in its
    canonical form (``"100.0"^^xsd:decimal`` as ``"100"``, a time zone ``+00:00`` as ``Z``), so
    ``nquads`` are put in a store of their own in memory first and read back from it, and a
    statement written in another form of the same value is no change (else it would count as
    one removed and one added, and its literal, shared by many nodes, as a changed term)."""
    default = ox.DefaultGraph()
    kept = ox.Store()
    kept.extend(ox.parse(nquads, format=ox.RdfFormat.N_QUADS))
    stated: dict[ox.NamedNode, set[ox.Quad]] = {
        ox.NamedNode(g): set(kept.quads_for_pattern(None, None, None, ox.NamedNode(g)))
        for g in graphs}
    gone: list[ox.Triple] = []
    mentioned: set[ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple] = set()
    quads = triples = 0
    for graph, now in stated.items():
        before = set(store.quads_for_pattern(None, None, None, graph))
        for quad in before - now:
            store.remove(quad)
            gone.append(quad.triple)
            mentioned.update((quad.subject, quad.object))
            quads -= 1
        for quad in now - before:
            store.add(quad)
            mentioned.update((quad.subject, quad.object))
            quads += 1
            merged = ox.Quad(quad.subject, quad.predicate, quad.object, default)
            if merged not in store:
                store.add(merged)
                triples += 1
    for triple in set(gone):
        held = store.quads_for_pattern(triple.subject, triple.predicate, triple.object)
        if not any(quad.graph_name != default for quad in held):
            store.remove(ox.Quad(triple.subject, triple.predicate, triple.object, default))
            triples -= 1
    return Replaced(quads, triples, frozenset(mentioned))


def main(arguments: list[str]) -> int:
    command, *rest = arguments
    try:
        if command == "load":
            load(*rest)
        else:
            update(*rest)
    except (OSError, sqlite3.Error) as error:
        print(error, file=sys.stderr)
        return exit_code(error)
    return 0


def exit_code(error: OSError | sqlite3.Error) -> int:
    """The exit code of a process that met ``error``: ``NO_SPACE`` for a full disk or quota
    (SQLite's own code for it, writing the index)."""
    if isinstance(error, sqlite3.Error):
        full = getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    else:
        full = error.errno in _FULL or any(os.strerror(code) in str(error) for code in _FULL)
    return NO_SPACE if full else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
