"""An Oxigraph store on disk, built once and opened read-only: the ``oxigraph:DIR`` kind.

A store folder holds one or more *generations* (each a complete pyoxigraph store in its own
subfolder) and ``benchgraph-store.json``, the manifest naming the current one with the facts
of its build (base IRI, when, from which files, a SHA-256 per record, the counts). A build
bulk-loads a new generation beside the current one and then replaces the manifest with
``os.replace``, the one step that switches: a crash or Ctrl-C at any moment before it leaves
the old store whole, and after it the new one is complete. Older generations are removed
after the switch (a reader that still has one open keeps reading it: the files stay until it
closes them).

What a generation holds (DESIGN.md, "The served graph"): every record's named graph, the
build graph and the ontology, each as a named graph; and in the default graph their RDF
merge, so that a triple stated by two records is one triple there while ``GRAPH ?g`` still
sees each record's own statement. (pyoxigraph's ``use_default_graph_as_union`` returns such a
triple once per graph that holds it, so it is not the way.) Beside the Oxigraph data, the
generation folder keeps the graph in every dump format and, when the build was validated, the
validation report (``graph.store.files``): a server streams them as they are.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import secrets
import shutil
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from graph.dataset.table import QuadTable
from graph.errors import BenchgraphError, ErrorKind
from graph.export.formats import NQUADS, NTRIPLES
from graph.search import INDEX_FILE, write_index
from graph.stats import GraphStats
from graph.store.base import BuildFacts, RecordGraph
from graph.store.executor import Stores
from graph.store.files import (
    LOADED_FORMATS,
    OTHER_FORMATS,
    dump_name,
    write_dumps,
    write_validation,
)
from graph.validation.report import ValidationReport

MANIFEST = "benchgraph-store.json"
FORMAT_VERSION = 2
"""2: a generation holds the dumps (``graph.store.files``) beside the Oxigraph data."""
_GENERATION_PREFIX = "generation-"


class StoreError(BenchgraphError):
    """A store that cannot be opened or built as asked."""

    kind = ErrorKind.STORE


@dataclass(frozen=True)
class Manifest:
    """The facts a store folder keeps about the build it holds."""

    generation: str
    """The subfolder holding the current pyoxigraph store."""
    facts: BuildFacts
    counts: GraphStats
    quads: int
    """Statements in the named graphs (each record's own, the build graph, the ontology)."""
    triples: int
    """Statements in the default graph: their merge."""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "generation": self.generation,
            "base": self.facts.base,
            "built_at": self.facts.built_at,
            "quads": self.quads,
            "triples": self.triples,
            "records": [asdict(record) for record in self.facts.records],
            "rejected": list(self.facts.rejected),
            "counts": self.counts.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        facts = BuildFacts(
            base=data["base"],
            built_at=data["built_at"],
            records=tuple(RecordGraph(**record) for record in data["records"]),
            rejected=tuple(data["rejected"]),
        )
        return cls(data["generation"], facts, GraphStats.from_json(data["counts"]),
                   data["quads"], data["triples"])


def build_store(
    folder: Path, table: QuadTable, facts: BuildFacts, stats: GraphStats, *,
    with_graph: bool = True, validation: ValidationReport | None = None,
) -> Manifest:
    """Write a new generation of ``table`` under ``folder`` and switch to it: the dumps of
    every format, the search index, ``validation`` (the build's report, when it was
    validated) and, unless ``with_graph=False`` (a memory store holds the graph in memory:
    ``load_in_memory``), the pyoxigraph store bulk-loaded from the dumps. ``stats`` are the
    table's counts, kept in the manifest.

    StoreError when ``folder`` exists and is neither empty nor a benchgraph store (nothing
    in it is touched)."""
    _check_folder(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    generation = f"{_GENERATION_PREFIX}{stamp}-{secrets.token_hex(4)}"
    loading = folder / f".{generation}.loading"
    try:
        loading.mkdir()
        loaded = write_dumps(loading, table, facts.base, LOADED_FORMATS)
        with _Loading(loading, *(loading / dump_name(fmt) for fmt in LOADED_FORMATS),
                      enabled=with_graph):
            write_dumps(loading, table, facts.base, OTHER_FORMATS)
            write_index(loading / INDEX_FILE, table, facts.base)
            if validation is not None:
                write_validation(loading, validation)
        os.rename(loading, folder / generation)
    except BaseException:
        shutil.rmtree(loading, ignore_errors=True)
        raise
    manifest = Manifest(generation, facts, stats, quads=loaded[NQUADS].statements,
                        triples=loaded[NTRIPLES].statements)
    _write_manifest(folder, manifest)
    _remove_old_generations(folder, keep=generation)
    return manifest


def load_in_memory(generation: Path) -> Stores:
    """The graph of a generation folder (its N-Quads and N-Triples dumps) in memory: a
    pyoxigraph store of every named graph and their merge in the default graph, as a store
    folder holds them, and one of the merge alone."""
    quads, merge = (generation / dump_name(fmt) for fmt in LOADED_FORMATS)
    dataset = ox.Store()
    dataset.bulk_load(path=quads, format=ox.RdfFormat.N_QUADS)
    dataset.bulk_load(path=merge, format=ox.RdfFormat.N_TRIPLES)
    merged = ox.Store()
    merged.bulk_load(path=merge, format=ox.RdfFormat.N_TRIPLES)
    return Stores(dataset, merged)


class _Loading:
    """The named graphs (an N-Quads file) and their merge (an N-Triples file) bulk-loaded into
    a new store at ``path`` by a forked child process, while the block runs; leaving the
    block waits for it and raises StoreError if it failed. (With ``enabled=False``, nothing.)

    RocksDB, under pyoxigraph's on-disk store, starts threads of its own; a process that has
    run it and then forks (gunicorn's master does, for its workers) leaves those threads
    behind in each child, whose exit then crashes (seen: SIGSEGV in every worker on
    Ctrl-C). The child is the only process that ever opens the store for writing; the
    parent meanwhile writes the other dumps."""

    def __init__(self, path: Path, quads: Path, union: Path, *, enabled: bool = True) -> None:
        self._enabled = enabled
        if not enabled:
            return
        context = multiprocessing.get_context("fork")
        self._path = path
        self._receive, send = context.Pipe(duplex=False)
        self._child = context.Process(target=_bulk_load,
                                      args=(send, str(path), str(quads), str(union)),
                                      name="benchgraph-load")
        self._child.start()
        send.close()

    def __enter__(self) -> _Loading:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if not self._enabled:
            return
        if kind is not None:  # the block failed: the load is of no use
            self._child.kill()
        try:
            outcome = self._receive.recv() if self._receive.poll(None) else None
        except EOFError:
            outcome = None
        self._child.join()
        self._receive.close()
        if kind is not None:
            return
        if outcome is not None:
            raise StoreError(f"the store could not be written in {self._path.parent}: {outcome}")
        if self._child.exitcode != 0:
            raise StoreError(f"loading the store stopped (exit code {self._child.exitcode})")


def _bulk_load(report: Connection, path: str, quads: str, union: str) -> None:
    try:
        store = ox.Store(path)
        store.bulk_load(path=quads, format=ox.RdfFormat.N_QUADS)
        store.bulk_load(path=union, format=ox.RdfFormat.N_TRIPLES)
        store.flush()
        del store
    except OSError as error:
        report.send(str(error))
    else:
        report.send(None)
    finally:
        report.close()


def read_manifest(folder: Path, base: str | None = None) -> Manifest:
    """The manifest of the store in ``folder``; StoreError when there is none, when it is
    unreadable, or when it was built with another base IRI than ``base``."""
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StoreError(f"{folder} holds no benchgraph store: build one with "
                         f"`benchgraph build --store oxigraph:{folder}`") from None
    except (OSError, ValueError) as error:
        raise StoreError(f"{path} cannot be read as a store manifest: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_VERSION:
        raise StoreError(f"{folder} was built by another version of benchgraph: build it again")
    manifest = Manifest.from_json(data)
    if base is not None and manifest.facts.base != base:
        raise StoreError(f"the store in {folder} was built with the base IRI "
                         f"{manifest.facts.base}, not {base}: give --base "
                         f"{manifest.facts.base} or build the store again")
    if not (folder / manifest.generation).is_dir():
        raise StoreError(f"the store in {folder} is incomplete (no {manifest.generation}/): "
                         "build it again")
    return manifest


def _check_folder(folder: Path) -> None:
    if not folder.exists():
        return
    if not folder.is_dir():
        raise StoreError(f"{folder} is not a folder")
    if (folder / MANIFEST).exists():
        return
    if any(not entry.name.startswith(f".{_GENERATION_PREFIX}") for entry in folder.iterdir()):
        raise StoreError(f"{folder} is not empty and holds no benchgraph store: choose a new "
                         "or empty folder")


def _write_manifest(folder: Path, manifest: Manifest) -> None:
    temporary = folder / f".{MANIFEST}.{secrets.token_hex(4)}.tmp"
    with temporary.open("w", encoding="utf-8") as handle:
        json.dump(manifest.to_json(), handle, indent=1, ensure_ascii=False)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, folder / MANIFEST)


def _remove_old_generations(folder: Path, keep: str) -> None:
    for entry in folder.iterdir():
        name = entry.name
        stale = name.startswith(_GENERATION_PREFIX) and name != keep
        interrupted = name.startswith(f".{_GENERATION_PREFIX}") and name.endswith(".loading")
        if (stale or interrupted) and entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)


__all__ = ["MANIFEST", "Manifest", "StoreError", "build_store", "load_in_memory", "read_manifest"]
