"""The process that writes a generation's Oxigraph store (``graph.store.disk``): the only
process that ever opens a store for writing.

- ``python -m graph.store.writing load PATH BASE``: a new store at PATH, bulk-loaded from
  its standard input (a full build): one JSON line (``LoadHeader``), then the named graphs'
  N-Quads, each statement followed by its triple in the default graph, which holds their
  merge (the loader keeps a repeated line once). The build graph is then derived from the
  record graphs it holds (``graph.build.derived``). A store that is not kept (the header's
  ``use``: ``benchgraph build -o``, ``validate``) is held in memory while it is small, where
  it loads and reads several times faster than on disk, and only the files the header asks
  for (a dump, the report) are written into PATH.
- ``python -m graph.store.writing update PATH PREVIOUS BASE``: the store at PATH is made a
  checkpoint of the one at PREVIOUS (opened read-only: it may be serving; RocksDB hard-links
  the files they share); then the named graphs its input's header (``UpdateHeader``) names
  are replaced by what the N-Quads after it say they hold, the build graph's facts about the
  nodes they mention are derived again, and the merge is mended (an incremental build). The
  input is read after the checkpoint, so that a rebuild starts this process before it knows
  what changed, and the start and the checkpoint run beside its reading and mapping.

Either then counts the graph it has written (``graph.build.stats``: a load counts it all, an
update from the previous counts and the statements about what changed), writes the search
index beside the store (``graph.search``: a load writes it whole; an update brings PREVIOUS's
index up to date around the statements it removed or added, ``graph.search.update``) and,
when the header asks, validates the graph against the shapes and writes the report beside
it (``graph.store.files``). Everything the build makes of its graph is read back from the
store here; the build that sends the statements never holds them.

Each writes ``ready`` on its standard output once the folder PATH exists (the parent may
then write files beside the store's), and exits with 0 when the store, its index and its
report are complete, having written on the line after ``ready`` what it made (``Outcome``,
as JSON); a system error is written on its standard error, with exit code 1, or ``NO_SPACE``
when it says the disk (or the quota) is full (RocksDB's errors carry the system's words, not
its number).

A load gives pyoxigraph its input a block of about ``LOAD_BLOCK`` bytes at a time, cut at a
line's end (each statement of N-Quads is one line, so a block is whole statements). On disk
each block is one ``bulk_load``: pyoxigraph's bulk loader holds about a million statements of
its input in memory before it writes them out; a block at a time it holds a few hundred
megabytes whatever the size, for more seconds. Then the store is compacted
(``Store.optimize``): the blocks leave more, smaller files, which every query reads
(perf/decisions/load-in-blocks.md). In memory each block is one ``load``, which there takes a
block faster than the bulk loader. The next block is read while one loads (pyoxigraph lets go
of the interpreter's lock as it loads), so the build writing the input is not kept waiting.

It is a fresh interpreter, not a forked child (``graph.system.child``). RocksDB keeps a
process-wide pool of background threads that a fork does not copy: a forked child of a
process that had opened any store (a test, the performance suite) waits for ever when it
opens or flushes one. And a process that has run RocksDB and then forks (a forking server
does, for its workers) leaves its threads behind in each child, whose exit then crashes: so
the build, whose process may go on to serve, never opens its store itself. This process
imports nothing but pyoxigraph until its store is written, so it starts in a tenth of a
second; an update imports the rest while its parent still reads and maps.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import sys
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TypeVar

import pyoxigraph as ox

if TYPE_CHECKING:  # imported once the store is written: see the module
    from graph.build.derived import Changed
    from graph.export.formats import Format

READY = b"ready\n"
StoreUse = Literal["served", "read_once", "not_kept"]
_Header = TypeVar("_Header", bound="Header")
NO_SPACE = 3
"""The exit code of a process that found the disk full."""
_FULL = (errno.ENOSPC, errno.EDQUOT)
"""A full disk, a full quota: ``graph.store.space``'s, repeated here, since this process
imports nothing of benchgraph until its store is written."""
LOAD_BLOCK = 1 << 24
"""Bytes of the input given to one load (and the rest of the line they end in)."""
MEMORY_STATEMENTS = 5_000_000
"""The most statements a store that is not kept holds in memory (about 350 bytes each);
past them it goes on disk (perf/decisions/read-once-store-in-memory.md)."""


@dataclass(frozen=True)
class Header:
    """The first line of the process's input: what the build knows before its statements."""

    catalogued: list[str]
    """The benchmarks a record of their own describes (``bench:catalogued`` true)."""
    validate: bool = False
    """Whether to validate the graph and keep the report."""

    def line(self) -> bytes:
        return json.dumps(asdict(self)).encode() + b"\n"


@dataclass(frozen=True, kw_only=True)
class LoadHeader(Header):
    """A ``load``'s header."""

    derive: bool = True
    """Whether to derive the build graph (not when the input holds it already)."""
    use: StoreUse = "served"
    """What becomes of the store: ``served``, kept in PATH, compacted and given its search
    index; ``read_once``, kept in PATH until it is read once and removed (``push``); or
    ``not_kept`` (``benchgraph build -o``, ``validate``): held in memory while it has at most
    ``MEMORY_STATEMENTS`` statements, and only the files asked for (the dump, the report)
    are written into PATH."""
    dump: str | None = None
    """The name of a format to write the whole graph in, into PATH
    (``graph.store.files.dump_name``)."""


@dataclass(frozen=True, kw_only=True)
class UpdateHeader(Header):
    """An ``update``'s header."""

    graphs: list[str]
    """Every named graph whose statements may have changed."""
    counts: dict[str, Any]
    """The previous generation's counts (``GraphStats.to_json``)."""


@dataclass(frozen=True)
class Outcome:
    """What the process wrote on the line after ``ready``."""

    counts: dict[str, Any]
    """The new graph's counts (``GraphStats.to_json``)."""
    quads: int
    """Statements of the named graphs (an update: how many more than before)."""
    triples: int
    """Statements of the merge (an update: how many more than before)."""
    changed: list[str] = field(default_factory=list)
    """An update's: the named graphs whose statements are not the same as before."""
    index_updated: bool = False
    """An update's: whether the search index was the previous one updated, not written
    whole."""
    dumped: dict[str, Any] | None = None
    """A load's that wrote a dump: the statements it holds, by part (``StatementCounts``)."""
    validated: int | None = None
    """An update's that validated: the record graphs it checked (the others' results are the
    previous report's)."""


def _ready() -> None:
    sys.stdout.buffer.write(READY)
    sys.stdout.flush()


def _header(stream: BinaryIO, kind: type[_Header]) -> _Header:
    header: _Header = kind(**json.loads(stream.readline()))
    return header


def load(path: str, base: str) -> None:
    header = _header(sys.stdin.buffer, LoadHeader)
    kept = header.use != "not_kept"
    store = ox.Store(path) if kept else ox.Store()
    Path(path).mkdir(exist_ok=True)
    _ready()
    store, in_memory = _loaded(store, not kept, path, sys.stdin.buffer)
    if header.derive:
        from graph.build.derived import add_derived
        from graph.mapping.iris import Iris

        add_derived(store, ox.NamedNode(Iris(base).build()), frozenset(header.catalogued))
    store.flush()
    served = header.use == "served"
    if served:
        store.optimize()
    from graph.build.stats import graph_stats, statement_counts

    stats = graph_stats(store, base)
    quads = statement_counts(store, base, keep_graphs=True)
    if served:
        from graph.search import INDEX_FILE, write_index

        write_index(Path(path) / INDEX_FILE, store, base)
    _validated(header, store, path, base)
    dumped = None
    if header.dump is not None:
        from graph.export.formats import format_named

        fmt = format_named(header.dump)
        _write_dump(store, fmt, Path(path), base, grouped=in_memory)
        dumped = asdict(quads if fmt.keeps_graphs else stats.statements)
    _done(Outcome(stats.to_json(), quads.total, stats.statements.total, dumped=dumped))


def _loaded(store: ox.Store, in_memory: bool, path: str, stream: BinaryIO
            ) -> tuple[ox.Store, bool]:
    """``store`` with the N-Quads of ``stream`` loaded into it a block at a time (the module
    says how), the next block read while one loads; one ``in_memory`` is moved to ``path``
    before it would hold more than ``MEMORY_STATEMENTS`` statements. The store, and whether
    it is still in memory."""
    held = 0
    with ThreadPoolExecutor(1) as reader:
        coming = reader.submit(_block, stream)
        while block := coming.result():
            coming = reader.submit(_block, stream)
            held += block.count(b"\n")
            if in_memory and held > MEMORY_STATEMENTS:
                on_disk = ox.Store(path)
                on_disk.bulk_extend(store)
                store, in_memory = on_disk, False
            load = store.load if in_memory else store.bulk_load
            load(block, format=ox.RdfFormat.N_QUADS)
    return store, in_memory


def _block(stream: BinaryIO) -> bytes:
    """The next ``LOAD_BLOCK`` bytes of ``stream`` and the rest of the line they end in; empty
    at the end."""
    block = stream.read(LOAD_BLOCK)
    return block if not block or block.endswith(b"\n") else block + stream.readline()


def _write_dump(store: ox.Store, fmt: Format, folder: Path, base: str, *, grouped: bool
                ) -> None:
    """Write the graph of ``store`` in ``fmt`` into ``folder``, as its dump is named there,
    each subject's statements ``grouped`` when the store does not keep them together (one in
    memory)."""
    from graph.export import prefixes_for
    from graph.export.store_dump import write_dump
    from graph.store.files import dump_name

    with (folder / dump_name(fmt)).open("wb") as out:
        write_dump(store, fmt, out, prefixes_for(base), grouped=grouped)


def _validated(header: Header, store: ox.Store, path: str, base: str) -> None:
    """With the header's ``validate``, the graph validated and its report written at ``path``."""
    if header.validate:
        from graph.settings import Settings
        from graph.store.files import write_validation
        from graph.validation.validate import validate

        write_validation(Path(path), validate(store, Settings(base=base)))


def _done(outcome: Outcome) -> None:
    sys.stdout.write(json.dumps(asdict(outcome)) + "\n")


def update(path: str, previous: str, base: str) -> None:
    old = ox.Store.read_only(previous)
    old.backup(path)
    del old
    _ready()
    from graph.build.stats import GraphStats, about, count_record_graphs, updated_stats
    from graph.errors import BenchgraphError
    from graph.search import INDEX_FILE
    from graph.search.update import update_index
    from graph.validation.validate import bundled_shapes

    # parsed while the parent still reads and maps: a validation needs them (shapes that
    # cannot be used are said by the validation, if one is asked)
    with suppress(BenchgraphError):
        bundled_shapes()
    header = _header(sys.stdin.buffer, UpdateHeader)
    nquads = sys.stdin.buffer.read()
    store = ox.Store(path)
    replaced = replace_graphs(store, header, nquads, base)
    records = count_record_graphs(store, base)
    stats = updated_stats(GraphStats.from_json(header.counts), replaced.was,
                          about(store, replaced.subjects), records, base)
    store.flush()
    updated = update_index(Path(path) / INDEX_FILE, Path(previous) / INDEX_FILE, store, base,
                           replaced.changed.mentioned)
    validated = _revalidated(store, path, previous, replaced, records, base) \
        if header.validate else None
    _done(Outcome(stats.to_json(), replaced.changed.quads, replaced.changed.triples,
                  sorted(replaced.graphs), updated, validated=validated))


def _revalidated(store: ox.Store, path: str, previous: str, replaced: Replaced, records: int,
                 base: str) -> int:
    """The graph validated after an update, and its report written at ``path``: from the
    report of the store at ``previous``, re-checking only what the update may have changed
    (``ValidationSession.update_store``); in full when ``previous`` kept no report (it was
    built without validating); ``records`` is how many record graphs the store holds. How many
    record graphs were checked."""
    from rdflib import URIRef

    from graph.settings import Settings
    from graph.store.files import read_validation, write_validation
    from graph.validation.validate import ValidationSession

    session = ValidationSession(Settings(base=base))
    before = read_validation(Path(previous), session.shapes.graph)
    if before is None:
        report = session.validate_store(store)
        checked = report.records_checked
    else:
        report, checked = session.update_store(
            store, before, {URIRef(graph) for graph in replaced.graphs},
            replaced.changed.mentioned, records)
    write_validation(Path(path), report)
    return checked


@dataclass(frozen=True)
class Replaced:
    """What ``replace_graphs`` changed."""

    changed: Changed
    graphs: set[str]
    """The named graphs whose statements are not the same as before."""
    subjects: set[ox.NamedNode | ox.BlankNode]
    """Every node whose statements may have changed (of a record graph or the build graph)."""
    was: ox.Store
    """Every statement about ``subjects`` before the change (``graph.build.stats.about``)."""


def replace_graphs(store: ox.Store, header: UpdateHeader, nquads: bytes, base: str
                   ) -> Replaced:
    """Make each of the header's graphs hold exactly its statements in ``nquads``, and derive
    the build graph's facts about the nodes they mention again (``graph.build.derived``),
    keeping the default graph their merge.

    The statements are compared as the store keeps them: Oxigraph keeps a literal in its
    canonical form (``"100.0"^^xsd:decimal`` as ``"100"``, a time zone ``+00:00`` as ``Z``), so
    ``nquads`` are put in a store of their own in memory first and read back from it, and a
    statement written in another form of the same value is no change (else it would count as
    one removed and one added, and its literal, shared by many nodes, as a changed term)."""
    from graph.build.derived import Changed, change, flipped, mend
    from graph.build.stats import about
    from graph.mapping.iris import Iris

    kept = ox.Store()
    kept.extend(ox.parse(nquads, format=ox.RdfFormat.N_QUADS))
    build = ox.NamedNode(Iris(base).build())
    catalogued = frozenset(header.catalogued)
    removed: list[ox.Quad] = []
    added: list[ox.Quad] = []
    graphs: set[str] = set()
    for name in header.graphs:
        graph = ox.NamedNode(name)
        now = set(kept.quads_for_pattern(None, None, None, graph))
        before = set(store.quads_for_pattern(None, None, None, graph))
        if now != before:
            graphs.add(name)
            removed += before - now
            added += now - before
    subjects: set[ox.NamedNode | ox.BlankNode] = {
        quad.subject for quad in (*removed, *added)
        if isinstance(quad.subject, (ox.NamedNode, ox.BlankNode))}  # the graph quotes none
    subjects |= flipped(store, build, catalogued)
    was = about(store, subjects)
    changed = Changed()
    change(store, removed, added, changed)
    mend(store, build, catalogued, subjects, changed)
    for name in header.graphs:  # a graph left empty is gone (Oxigraph would list it still)
        graph = ox.NamedNode(name)
        if next(store.quads_for_pattern(None, None, None, graph), None) is None:
            store.remove_graph(graph)
    return Replaced(changed, graphs, subjects, was)


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
    except Exception as error:  # one a user can fix (the shapes), in its own words
        from graph.errors import BenchgraphError

        if not isinstance(error, BenchgraphError):
            raise
        print(error.message, file=sys.stderr)
        return 1
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
