"""An Oxigraph store on disk, built once and opened read-only: the ``oxigraph:DIR`` kind.

A store folder holds one or more *generations* (each a complete pyoxigraph store in its own
subfolder) and ``benchgraph-store.json``, the manifest naming the current one with the facts
of its build (base IRI, when, from which files, a SHA-256 per record, the counts). A build
bulk-loads a new generation beside the current one and then replaces the manifest with
``os.replace``, the one step that switches: a crash or Ctrl-C at any moment before it leaves
the old store whole, and after it the new one is complete, as the generation is written out
to disk before it (``_write_out``) and the replaced name after. A build that fails, a full
disk included (``graph.store.space``), removes what it wrote and leaves the store as it was.
Older generations are removed after the switch, but for any that a reader still holds
(``graph.store.generations``: a server moves to the new one at its next request, and lets go
of the old one once the requests under way on it are answered). One build at a time writes
into a folder (``graph.store.lock``).

What a generation holds (DESIGN.md, "The served graph"): every record's named graph, the
build graph and the ontology, each as a named graph; and in the default graph their RDF
merge, so that a triple stated by two records is one triple there while ``GRAPH ?g`` still
sees each record's own statement. (pyoxigraph's ``use_default_graph_as_union`` returns such a
triple once per graph that holds it, so it is not the way.) Beside the Oxigraph data, the
generation folder keeps the search index, the validation report when the build was validated
and, once asked for, the dumps (``graph.store.files``).
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from graph.build.stats import GraphStats
from graph.store.base import BuildFacts
from graph.store.changes import NOT_KEPT, BuildChanges
from graph.store.errors import StoreError
from graph.store.generations import (
    CHECKPOINTING,
    loading_name,
    new_generation_name,
    remove_old_generations,
)
from graph.store.lock import BuildLock
from graph.store.manifest import (
    MANIFEST,
    Manifest,
    current_generation,
    manifest_version,
    read_manifest,
    read_versioned,
)
from graph.store.manifest import write_manifest as _write_manifest
from graph.store.space import NO_SPACE_ERRNOS, NoSpace, reported_when_full
from graph.store.writing import NO_SPACE, READY, LoadHeader, Outcome, StoreUse, UpdateHeader
from graph.system.libc import libc_function

if TYPE_CHECKING:  # imported by a build: a store folder is opened without them
    from graph.build.graphs import BuildResult, Read
    from graph.export.formats import Format
    from graph.store.state import KeptBuild

def build_store(
    folder: Path, records: Read, facts: BuildFacts, *, validate: bool = False,
    state: Callable[[BuildResult], KeptBuild] | None = None, lock: BuildLock | None = None,
    served: bool = True,
) -> tuple[BuildResult, Manifest]:
    """Write a new generation of the graph of ``records`` under ``folder`` and switch to it.

    Each record's graph is mapped and streamed, as it is made, into the process that writes
    the store (``graph.store.writing``), which derives the build graph, counts the graph,
    writes its search index and, with ``validate``, validates it and keeps the report. With
    ``state`` (``graph.store.rebuild.kept_build``), what the next build needs to be an
    incremental one is kept with it. A store that will not be ``served`` (read once, then
    removed) is neither compacted nor given a search index. The dumps are not written here: a
    store writes each from its Oxigraph data when it is first asked for it
    (``graph.store.files``).

    The build is compared with the build the folder held before, under the lock
    (``compared_with``), and the manifest keeps what it changed. The folder's build lock is
    held throughout: ``lock``, the caller's, or taken here (``graph.store.lock``). StoreError
    when ``folder`` exists and is neither empty nor a benchgraph store (nothing in it is
    touched), when another build holds it, and when the disk is full (``graph.store.space``:
    nothing written is left)."""
    if validate:
        shapes_readable()
    with BuildLock.take(folder) if lock is None else nullcontext(lock) as held:
        assert held.folder == folder and held.held, "a build under another folder's lock"
        facts = compared_with(folder, facts)
        with reported_when_full(folder):
            return _build_store(folder, records, facts, validate, state, served)


def shapes_readable() -> None:
    """Read the shapes before a build that validates, so that shapes that cannot be used
    stop it at once, in their own words (``ShapesError``), not after the whole build in the
    writing process's."""
    from graph.validation.shapes import bundled_shapes

    bundled_shapes()


def _build_store(folder: Path, records: Read, facts: BuildFacts, validate: bool,
                 state: Callable[[BuildResult], KeptBuild] | None, served: bool
                 ) -> tuple[BuildResult, Manifest]:
    generation = new_generation_name()
    loading = folder / loading_name(generation)
    try:
        loading.mkdir()
        use: StoreUse = "served" if served else "read_once"
        result, outcome = _load(loading, records, facts.base, LoadHeader([], validate, use=use),
                                state)
    except BaseException:
        shutil.rmtree(loading, ignore_errors=True)
        raise
    manifest = Manifest(generation, facts, GraphStats.from_json(outcome.counts),
                        quads=outcome.quads, triples=outcome.triples)
    _switch(folder, loading, manifest)
    return result, manifest


def build_files(folder: Path, records: Read, base: str, *, dump: Format | None = None,
                validate: bool = False) -> tuple[BuildResult, Outcome]:
    """The graph of ``records`` made by the writing process without keeping a store
    (``benchgraph build -o``, ``validate``): only ``dump``'s file (``graph.store.files``'
    name for it) and, with ``validate``, the report are written into ``folder``, a new
    folder. The graph is held in memory while it is small (``graph.store.writing``)."""
    if validate:
        shapes_readable()
    with reported_when_full(folder.parent):
        return _load(folder, records, base, LoadHeader(
            [], validate, use="not_kept", dump=None if dump is None else dump.name))


def _load(path: Path, records: Read, base: str, header: LoadHeader,
          state: Callable[[BuildResult], KeptBuild] | None = None
          ) -> tuple[BuildResult, Outcome]:
    """The writing process's ``load`` into ``path`` of the graph of ``records``, each
    record's graph mapped and streamed as it is made, after ``header`` (with the benchmarks
    catalogued); with ``state``, what the next build needs kept beside it."""
    from graph.build.graphs import BuildResult
    from graph.mapping.iris import Iris
    from graph.mapping.nquads import NQuads

    iris = Iris(base)
    with _Writing("load", path, base) as child:
        child.write(replace(header, catalogued=sorted(records.catalogued(iris))).line())
        asked = records.write(NQuads(child.write, merge=True), iris)
        child.end_input()
        result = BuildResult(records.report, asked)
        if state is not None:
            state(result).save(path)
    return result, child.outcome()


def load_generation(path: Path, quads: Path, union: Path, base: str) -> Outcome:
    """Write a new store at ``path`` from the N-Quads file ``quads`` (named graphs that hold
    their build graph already) and the N-Triples file ``union`` (their merge, repeats
    allowed), and its search index, the data's base IRI being ``base``: by the writing
    process (``graph.store.writing``)."""
    with _Writing("load", path, base) as child:
        child.write(LoadHeader([], derive=False).line())  # the engine's data holds its build graph
        for lines in (quads, union):
            with lines.open("rb") as text:
                while block := text.read(1 << 20):
                    child.write(block)
        child.end_input()
    return child.outcome()


def compared_with(folder: Path, facts: BuildFacts) -> BuildFacts:
    """``facts`` with what the build changed against the one the store folder ``folder``
    holds now, by the records' files (``BuildChanges.between``): as its ``first`` build when
    it holds none, ``unknown`` when its manifest cannot be read (another version's)."""
    if manifest_version(folder) is None:
        return replace(facts, changes=BuildChanges("first"))
    try:
        before = read_versioned(folder)[0]
    except StoreError:
        return replace(facts, changes=NOT_KEPT)
    return replace(facts, changes=BuildChanges.between(before.facts, facts.records))


@dataclass(frozen=True)
class GraphUpdate:
    """What changed in the named graphs between two generations, for the store to apply."""

    graphs: tuple[str, ...]
    """Every named graph whose statements may have changed (gone, new or other)."""
    nquads: bytes
    """The statements those graphs now hold, as N-Quads."""
    catalogued: frozenset[str]
    """The benchmarks a record of their own now describes."""


class StoreUpdate:
    """The generation after ``previous`` in ``folder``, being written (``updating_store``)."""

    def __init__(self, folder: Path, previous: Manifest) -> None:
        self._folder = folder
        self._previous = previous
        self._generation = new_generation_name()
        self._loading = folder / loading_name(self._generation)
        self._child = _Writing("update", self._loading, folder / previous.generation,
                               previous.facts.base)

    def apply(self, update: GraphUpdate, facts: BuildFacts, validate: bool,
              write: Callable[[Path], None]) -> tuple[Manifest, Outcome]:
        """Give the store's process ``update`` and, while it applies it (and brings the search
        index up to date, and validates the graph with ``validate``), let ``write`` put the
        rest of the generation into its folder (the state); then switch to it, ``facts``
        with what changed against the previous build. As for
        ``build_store``, nothing is switched to until all of it is complete, and a full disk
        is ``NoSpace``."""
        if validate:
            shapes_readable()
        header = UpdateHeader(sorted(update.catalogued), validate, graphs=list(update.graphs),
                        counts=self._previous.counts.to_json())
        with reported_when_full(self._folder):
            with self._child as child:
                child.write(header.line())
                child.write(update.nquads)
                child.end_input()
                child.wait_ready()
                write(self._loading)
            outcome = child.outcome()
            # a record is changed when its graph's statements are not the same, not merely
            # mapped again
            changes = BuildChanges.between(self._previous.facts, facts.records,
                                           set(outcome.changed))
            manifest = Manifest(self._generation, replace(facts, changes=changes),
                                GraphStats.from_json(outcome.counts),
                                quads=self._previous.quads + outcome.quads,
                                triples=self._previous.triples + outcome.triples)
            _switch(self._folder, self._loading, manifest)
        return manifest, outcome

    def abandon(self) -> None:
        """Stop the store's process, if it still runs, and remove what was written: the
        folder, or the one RocksDB makes its checkpoint in before naming it so
        (``CHECKPOINTING``), when the process was stopped during it."""
        self._child.kill()
        for written in (self._loading, self._loading.with_name(self._loading.name
                                                                + CHECKPOINTING)):
            shutil.rmtree(written, ignore_errors=True)


@contextmanager
def updating_store(folder: Path, previous: Manifest, lock: BuildLock) -> Iterator[StoreUpdate]:
    """The next generation after ``previous``, its writing started at once: its pyoxigraph
    store is a checkpoint of the previous one (RocksDB hard-links the files they share),
    made in a process of its own (``graph.store.writing``) while the block reads and maps
    what changed (perf/decisions/writing-process-starts-first.md), then given the changed graphs
    (``StoreUpdate.apply``). Leaving the block without applying it, or by an exception,
    leaves the store as it was. The caller holds the folder's build ``lock`` throughout."""
    assert lock.folder == folder and lock.held, "an update without the folder's build lock"
    update = StoreUpdate(folder, previous)
    try:
        yield update
    finally:
        update.abandon()  # once applied, nothing: the process has ended, the folder moved


def _switch(folder: Path, loading: Path, manifest: Manifest) -> None:
    """Name the generation written in ``loading`` as ``manifest`` says, write it out to disk
    and switch the folder to it: the one step that switches is the manifest's replacement.
    If any of it fails, the new generation is removed, unless the manifest names it (the
    replacement done, a later step failed). Then the clean-up."""
    written = folder / manifest.generation
    try:
        os.rename(loading, written)
    except BaseException:
        shutil.rmtree(loading, ignore_errors=True)
        raise
    try:
        _write_out(folder)
        _write_manifest(folder, manifest)
    except BaseException:
        if current_generation(folder) != manifest.generation:
            shutil.rmtree(written, ignore_errors=True)
        raise
    remove_old_generations(folder, keep=manifest.generation)


def _write_out(folder: Path) -> None:
    """Wait until what was written in ``folder``'s file system is on disk: a generation is
    switched to (and the one before it removed) only once all its files are, so that a
    crash or power cut after the switch finds a whole store, not files the system had yet to
    write out (a file's data is not written before another file's rename: only the
    manifest's own is synced).

    One ``syncfs`` of the file system, not an ``fsync`` a file: a generation links most of
    its files from the one before (clean, already written), and an ``fsync`` each, even of a
    clean file, costs far more than one ``syncfs`` (perf/decisions/generation-synced.md).
    Where the C library has no ``syncfs`` (it is Linux's), ``os.sync``."""
    syncfs = libc_function("syncfs", (ctypes.c_int,))
    if syncfs is None:
        os.sync()
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        if syncfs(descriptor) != 0:
            error = ctypes.get_errno()
            if error in NO_SPACE_ERRNOS:
                raise NoSpace(folder)
            raise StoreError(f"{folder} could not be written out: {os.strerror(error)}")
    finally:
        os.close(descriptor)


class _Writing:
    """A store's Oxigraph data and search index written at ``path`` by its own process
    (``graph.store.writing``, which says why not a forked one) while the block runs:
    ``load`` (a new store of what ``write`` gives it, the data's base IRI the argument) or
    ``update`` (a checkpoint of the store at ``arguments[0]``, with what ``write`` gives it
    applied; the base IRI second). ``wait_ready`` returns once the folder ``path`` is there;
    leaving the block waits for the rest and raises StoreError if it failed; ``outcome`` is
    then what it made."""

    def __init__(self, command: str, path: Path, *arguments: Path | str) -> None:
        self._path = path
        self._output = ""
        self._child = subprocess.Popen(
            [sys.executable, "-m", "graph.store.writing", command, str(path), *map(str, arguments)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def write(self, data: bytes) -> None:
        """Give the process more of its input; if it has stopped, StoreError saying why."""
        assert self._child.stdin is not None
        try:
            self._child.stdin.write(data)
        except BrokenPipeError:
            self._finish(check=True)
            raise StoreError(f"the store could not be written in {self._path.parent}: its "
                             "process stopped reading") from None

    def end_input(self) -> None:
        """Close the process's input: it has all of it."""
        assert self._child.stdin is not None
        try:
            self._child.stdin.close()
        except BrokenPipeError:
            pass  # it stopped: wait_ready or leaving the block says why

    def kill(self) -> None:
        """Stop the process if it still runs (its pipes closed, its exit waited for)."""
        if not self._finished():
            self._child.kill()
            self._finish(check=False)

    def __enter__(self) -> _Writing:
        return self

    def wait_ready(self) -> None:
        assert self._child.stdout is not None
        if self._child.stdout.readline() != READY:
            self._finish(check=True)

    def outcome(self) -> Outcome:
        """What the process made, once it ended well."""
        return Outcome(**json.loads(self._output))

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not None:  # the block failed: the store is of no use
            self.kill()
        else:
            self._finish(check=True)

    def _finished(self) -> bool:
        assert self._child.stderr is not None
        return self._child.stderr.closed

    def _finish(self, *, check: bool) -> None:
        """Wait for the process (once); when ``check``, StoreError if it failed."""
        child = self._child
        assert child.stderr is not None and child.stdout is not None
        if self._finished():
            return
        if child.stdin is not None and not child.stdin.closed:
            try:
                child.stdin.close()
            except BrokenPipeError:
                pass
        errors = child.stderr.read()
        self._output = child.stdout.read().decode(errors="replace").removeprefix(READY.decode())
        child.wait()
        child.stdout.close()
        child.stderr.close()
        if check and child.returncode == NO_SPACE:
            raise NoSpace(self._path.parent)
        if check and child.returncode != 0:
            message = errors.decode(errors="replace").strip() or f"exit code {child.returncode}"
            raise StoreError(f"the store could not be written in {self._path.parent}: "
                             f"{message}")


__all__ = ["MANIFEST", "GraphUpdate", "Manifest", "StoreUpdate", "build_files", "build_store",
           "compared_with", "read_manifest", "updating_store"]
