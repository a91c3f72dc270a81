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
triple once per graph that holds it, so it is not the way.)
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
from graph.export import serialize
from graph.export.formats import NQUADS, NTRIPLES
from graph.search import INDEX_FILE, write_index
from graph.stats import GraphStats
from graph.store.base import BuildFacts, RecordGraph
from graph.store.executor import Stores

MANIFEST = "benchgraph-store.json"
FORMAT_VERSION = 1
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
    with_graph: bool = True,
) -> Manifest:
    """Write a new generation of ``table`` under ``folder`` and switch to it; ``stats`` are the
    table's counts, kept in the manifest. ``with_graph=False`` leaves the pyoxigraph store out
    of it (a memory store holds the graph in memory: ``load_in_memory``).

    StoreError when ``folder`` exists and is neither empty nor a benchgraph store (nothing
    in it is touched)."""
    _check_folder(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    generation = f"{_GENERATION_PREFIX}{stamp}-{secrets.token_hex(4)}"
    loading = folder / f".{generation}.loading"
    try:
        if with_graph:
            named = serialize(table, NQUADS)
            union = serialize(table, NTRIPLES)
            _load_apart(loading, named.data, union.data)
            del named, union
        else:
            loading.mkdir()
        write_index(loading / INDEX_FILE, table, facts.base)
        os.rename(loading, folder / generation)
    except BaseException:
        shutil.rmtree(loading, ignore_errors=True)
        raise
    manifest = Manifest(generation, facts, stats, quads=len(table),
                        triples=stats.statements.total)
    _write_manifest(folder, manifest)
    _remove_old_generations(folder, keep=generation)
    return manifest


def load_in_memory(table: QuadTable) -> Stores:
    """The graph of ``table`` in memory: a pyoxigraph store of every named graph and their
    merge in the default graph (as a store folder holds them), and one of the merge alone."""
    merge = serialize(table, NTRIPLES).data
    dataset = ox.Store()
    dataset.bulk_load(serialize(table, NQUADS).data, format=ox.RdfFormat.N_QUADS)
    dataset.bulk_load(merge, format=ox.RdfFormat.N_TRIPLES)
    merged = ox.Store()
    merged.bulk_load(merge, format=ox.RdfFormat.N_TRIPLES)
    return Stores(dataset, merged)


def _load_apart(path: Path, quads: bytes, union: bytes) -> None:
    """Bulk-load the named graphs and their merge into a new store at ``path``, in a forked
    child process.

    RocksDB, under pyoxigraph's on-disk store, starts threads of its own; a process that has
    run it and then forks (gunicorn's master does, for its workers) leaves those threads
    behind in each child, whose exit then crashes (seen: SIGSEGV in every worker on
    Ctrl-C). The child inherits the serialised data (no copy is made by the fork) and is the
    only process that ever opens the store for writing."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_bulk_load, args=(send, str(path), quads, union),
                            name="benchgraph-load")
    child.start()
    send.close()
    try:
        outcome = receive.recv() if receive.poll(None) else None
    except EOFError:
        outcome = None
    child.join()
    if outcome is not None:
        raise StoreError(f"the store could not be written in {path.parent}: {outcome}")
    if child.exitcode != 0:
        raise StoreError(f"loading the store stopped (exit code {child.exitcode})")


def _bulk_load(report: Connection, path: str, quads: bytes, union: bytes) -> None:
    try:
        store = ox.Store(path)
        store.bulk_load(quads, format=ox.RdfFormat.N_QUADS)
        store.bulk_load(union, format=ox.RdfFormat.N_TRIPLES)
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
