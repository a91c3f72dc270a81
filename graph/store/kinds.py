"""Which store a command or the web app gets: ``--store`` / ``BENCHGRAPH_STORE``.

- ``memory`` (the default): built at start from the PATHs given (or the bundled catalog)
  into a temporary store folder, removed when the store closes, and served as an
  ``oxigraph`` one is;
- ``oxigraph:DIR``: the store ``benchgraph build --store oxigraph:DIR`` made, opened
  read-only without reading a record;
- ``sparql:URL``: a remote SPARQL 1.1 engine that ``benchgraph push`` loaded, queried at
  URL (``graph.store.remote``).

Chosen once, when a command or the app starts (``open_store``); nothing above this module
knows which kind it has.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from graph.errors import BenchgraphError, ErrorKind
from graph.mapping.iris import Iris
from graph.settings import Settings
from graph.store.base import BuildFacts, Limits, RecordGraph
from graph.store.changes import BuildChanges
from graph.store.disk import Manifest, build_store
from graph.store.generations import lease_current
from graph.store.local import LocalStore
from graph.store.process.pool import PoolLimits
from graph.store.remote.manifest import engine_for, open_manifest
from graph.store.remote.store import RemoteStore

if TYPE_CHECKING:  # imported when a store is built: a store folder is opened without it
    from graph.build.graphs import BuildResult, Read
    from graph.ingest.importers.base import SourceFile
    from graph.ingest.loader import LoadReport
    from graph.store.lock import BuildLock
    from graph.store.state import KeptBuild

StoreKind = Literal["memory", "oxigraph", "sparql"]


@dataclass(frozen=True)
class StoreSpec:
    """A store as the user names it."""

    kind: StoreKind
    location: str = ""
    """The folder of an ``oxigraph`` store, as an absolute path; the query URL of a
    ``sparql`` one."""

    @classmethod
    def parse(cls, text: str) -> StoreSpec:
        """``memory``, ``oxigraph:DIR`` or ``sparql:URL``; BenchgraphError (usage) otherwise.

        A relative DIR is made absolute here, against the working directory of the moment
        the setting is read, once: the folder is then the same from wherever it is used
        later (a server's files are sent by a library that would take a relative path
        against its own root, not the user's working directory)."""
        kind, _, location = text.strip().partition(":")
        if kind == "memory" and not location:
            return cls("memory")
        if kind == "oxigraph" and location:
            return cls("oxigraph", os.path.abspath(location))
        if kind == "sparql" and location:
            return cls("sparql", location)
        raise BenchgraphError(f"--store {text!r}: give memory, oxigraph:DIR or sparql:URL",
                              ErrorKind.USAGE)

    def __str__(self) -> str:
        return self.kind if self.kind == "memory" else f"{self.kind}:{self.location}"


def limits_from(settings: Settings) -> Limits:
    """The query limits the settings give."""
    return Limits(timeout=settings.query_timeout, rows=settings.row_limit or None,
                  query_bytes=settings.max_query_bytes)


def pool_limits_from(settings: Settings) -> PoolLimits:
    """What the settings hold a local store's query processes to."""
    return PoolLimits(memory_mb=settings.query_memory_mb, long_queries=settings.long_queries)


def build_facts(report: LoadReport, base: str) -> BuildFacts:
    """The facts a store keeps about the build whose load ``report`` is."""
    iris = Iris(base)
    # by file (a harness snapshot is one file of many records); the load's, where it kept them
    digests: dict[Path, str] = dict(report.text_digests)

    def digest(source: SourceFile) -> str:
        found = digests.get(source.path)
        if found is None:
            found = digests[source.path] = hashlib.sha256(source.text.encode()).hexdigest()
        return found

    records = tuple(
        RecordGraph(
            graph=str(iris.record(loaded.key)),
            source_file=str(loaded.source.relative),
            sha256=digest(loaded.source),
        )
        for loaded in report.records
    )
    return BuildFacts(
        base=base,
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        records=records,
        rejected=tuple(str(problem) for problem in report.rejected),
    )


def build_into(folder: Path, records: Read, settings: Settings, *, validate: bool = False,
               state: Callable[[BuildResult], KeptBuild] | None = None,
               lock: BuildLock | None = None, served: bool = True
               ) -> tuple[BuildResult, Manifest]:
    """Put the graph of ``records`` into the store folder ``folder`` (``benchgraph build
    --store``, a memory store, a push); with ``validate``, check it against the shapes and keep
    the report with it (the ``/validation`` page and the benchmark pages' findings read it);
    with ``state`` (``graph.store.rebuild.kept_build``), keep what the next build needs to be
    an incremental one. ``lock`` is the folder's build lock when the caller holds it already
    (``graph.store.lock``); else it is taken for the writing. A store built to be read once
    and removed is not ``served`` (``graph.store.disk.build_store``).

    Validation is a choice, not a step of every build: it costs more than the build itself.
    It reads the store graph by graph, in the process that wrote it (``graph.store.writing``):
    the whole catalog is never held as rdflib quads."""
    return build_store(folder, records, build_facts(records.report, settings.base),
                       validate=validate, state=state, lock=lock, served=served)


def open_store(
    spec: StoreSpec,
    settings: Settings,
    paths: Sequence[Path] = (),
    *,
    processes: int = 1,
    built: Read | None = None,
    lazy: bool = False,
    validate: bool = False,
) -> LocalStore | RemoteStore:
    """The store ``spec`` names. A ``memory`` store is built now from ``paths`` (or ``built``,
    the records already read) into a temporary store folder, validated too with ``validate``;
    an ``oxigraph`` or ``sparql`` store is opened as it is (``paths`` must be empty; a
    ``sparql`` store starts making its search index and dumps from the engine in a process
    of its own, or with ``lazy`` makes them when first asked for them)."""
    limits = limits_from(settings)
    if spec.kind == "memory":
        from graph.build.graphs import read

        folder = Path(tempfile.mkdtemp(prefix="benchgraph-memory-"))
        try:
            records = built or read(paths, settings)
            manifest = build_into(folder, records, settings, validate=validate)[1]
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        built_now = replace(manifest.facts, changes=BuildChanges("start"))  # nothing before it
        return LocalStore(folder, built_now, manifest.counts, limits,
                          folder / manifest.generation, processes, remove_on_close=True,
                          pool_limits=pool_limits_from(settings), kind="memory")
    if spec.kind == "oxigraph":
        if paths:
            raise BenchgraphError(
                f"--store {spec} serves the store as it was built; to build it from record "
                f"files, run `benchgraph build PATH... --store {spec}`", ErrorKind.USAGE)
        folder = Path(spec.location)
        expected = settings.base if "base" in settings.model_fields_set else None
        opened = lease_current(folder, expected)  # held while the store reads it
        manifest, generation = opened.manifest, opened.generation
        return LocalStore(folder, manifest.facts, manifest.counts, limits, generation,
                          processes, opened=opened,
                          pool_limits=pool_limits_from(settings))
    if paths:
        raise BenchgraphError(
            f"--store {spec} serves what was pushed to the engine; to load it from record "
            f"files, run `benchgraph push PATH... --store {spec}`", ErrorKind.USAGE)
    return _remote(spec, settings, limits, lazy)


def _remote(spec: StoreSpec, settings: Settings, limits: Limits, lazy: bool) -> RemoteStore:
    engine = engine_for(spec.location, settings)
    try:
        store = RemoteStore(engine, open_manifest(engine, settings), limits)
        if not lazy:
            store.start_preparing()
    except BaseException:
        engine.close()
        raise
    return store


__all__ = ["StoreSpec", "build_facts", "build_into", "limits_from", "open_store",
           "pool_limits_from"]
