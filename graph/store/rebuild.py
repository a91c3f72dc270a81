"""An incremental build of an ``oxigraph:DIR`` store: only what changed is read, mapped and
written again, and the result is the store a full build of the same files makes.

``benchgraph build PATH... --store oxigraph:DIR`` builds this way when the folder holds a store
whose generation kept its state (``graph.store.state``) under the same fingerprint (this code,
the base IRI, the reading limits); ``--full`` builds everything again.

1. Every record file is listed and stat-ed; one whose stat is the one the state kept is not
   read, the others are read and hashed (SHA-256 of their bytes: ``graph.ingest.kept.RACY_NS``
   says when a stat is trusted). A file whose bytes the kept state knows is not imported
   again (``graph.ingest.kept.Known``): its warnings come from the state, and of its records
   only what the index reads (``graph.mapping.identity.RecordIdentity``), each record
   unpickled only if it is mapped again. The loader's rules across files run again over
   every record, so the load report is a full load's.
2. The benchmark index is made again from every record's identity
   (``graph.build.graphs.index_records``), and so is ``bench:catalogued``. A changed or new record
   is mapped; so is an unchanged one whose mapping would now hear other answers from the
   index (a directory page whose related title now resolves to another benchmark:
   ``graph.build.graphs.Question``), or whose graph name an other file held before. No other
   record's graph can depend on a change: mapping reads nothing else of the build.
3. The kept table loses the graphs of those records, of records gone, and the build graph;
   the records are mapped into it and the build graph is derived again from the whole.
4. The next generation is written beside the current one (``graph.store.disk.updating_store``,
   whose process starts the checkpoint of the Oxigraph store as the rebuild starts):
   the Oxigraph store as a checkpoint of the current one with the changed graphs replaced and
   their merge mended, and then, by the same process from the store it has written, the
   search index: the previous one with the rows around the change written again where no
   number moves (``graph.search.update``), else whole; beside it, the state.
   Then the manifest switches to it, as after a full build. Its dumps are written from its
   store when first asked for (``graph.store.files``).

The cyclic collector is paused throughout (``rebuild_store``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import TypeVar

import numpy as np
import numpy.typing as npt
from rdflib import URIRef

from graph.build.graphs import (
    BuildResult,
    Question,
    add_build_graph,
    catalogued_benchmarks,
    default_paths,
    index_records,
    map_one,
)
from graph.build.stats import updated_stats
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT, QuadTable
from graph.ingest.loader import LoadedRecord, LoadReport, Progress, load_records
from graph.mapping.context import MappingContext
from graph.mapping.identity import BenchmarkIndex
from graph.mapping.iris import Iris
from graph.namespace import BENCH
from graph.settings import Settings
from graph.store.base import BuildFacts
from graph.store.changes import BuildChanges
from graph.store.disk import (
    GraphUpdate,
    Manifest,
    StoreUpdate,
    read_manifest,
    updating_store,
)
from graph.store.errors import StoreError
from graph.store.files import write_validation
from graph.store.kinds import build_facts
from graph.store.lock import BuildLock
from graph.store.manifest import manifest_version
from graph.store.state import KeptBuild, MappedRecord, fingerprint
from graph.system.gc_pause import gc_paused
from graph.vocabulary import bundled_vocabulary

Ids = np.ndarray
_Kept = TypeVar("_Kept")


@dataclass
class RebuildFigures:
    """What an incremental build did, for the user and the performance suite."""

    files: int = 0
    files_imported: int = 0
    """Files imported now: new, or their bytes changed (the others' records are kept)."""
    records: int = 0
    records_read: int = 0
    """Records imported and mapped because their file is new or changed."""
    records_remapped: int = 0
    """Unchanged records mapped again because the index answers them otherwise."""
    graphs_changed: int = 0
    subjects_changed: int = 0
    index_updated: bool = False
    """Whether the search index was the previous one updated (``graph.search.update``), not
    written whole."""
    seconds: dict[str, float] = field(default_factory=dict)

    def summary(self) -> str:
        return (f"incremental build: {self.records_read:,} of {self.records:,} records "
                f"imported again, from {self.files_imported:,} of {self.files:,} files; "
                f"unchanged records mapped again: {self.records_remapped:,}; graphs changed: "
                f"{self.graphs_changed:,}")


@dataclass(frozen=True)
class Rebuilt:
    """An incremental build: what it built, the manifest it switched to, what it did."""

    result: BuildResult
    manifest: Manifest
    figures: RebuildFigures


def kept_build(result: BuildResult, settings: Settings) -> KeptBuild:
    """The state a full build keeps with its generation (``build_store(kept=...)``)."""
    mapped = {loaded.key: _mapped(loaded, result.asked[loaded.key])
              for loaded in result.report.records}
    report = result.report
    return KeptBuild(fingerprint(settings), _by_text(report.imported), mapped, result.table,
                     [], [], stats=_by_text(report.stats))


def rebuild_store(folder: Path, paths: Sequence[Path], settings: Settings,
                  progress: Progress | None = None, *, validate: bool = False,
                  lock: BuildLock | None = None) -> Rebuilt | None:
    """Build the store in ``folder`` again from ``paths``, incrementally; None when the folder
    holds no store an incremental build can start from (then build it in full). With
    ``validate``, the new graph is validated, in full and graph by graph from the table, as
    ``build_into`` does (the validation session's state is not kept between builds; the
    whole catalog is never made into rdflib quads: 13 million of them, several gigabytes, at
    100,000 records), and its report kept.

    The folder's build lock is held throughout (``graph.store.lock``): ``lock``, the
    caller's (who may then build in full under it when this answers None), or taken here
    when the folder holds a store (StoreError if another build holds it).

    The cyclic collector is paused throughout (``gc_paused``): the kept state is millions of
    objects, and with it running, the allocations of reading it and of the steps after set
    off collections walking all of them: 0.2-0.4 s each in the state's unpickling, the
    stats' dictionary and the manifest's records at 10,000 records (load 5, cProfile). What
    it hands back (the report: every file's kept state) is then old (``survivors_old``)."""
    with gc_paused(survivors_old=True):
        if lock is not None:
            return _rebuild(folder, paths, settings, progress, validate, lock)
        if manifest_version(folder) is None:  # no store to start from (and none made)
            return None
        with BuildLock.take(folder) as taken:
            return _rebuild(folder, paths, settings, progress, validate, taken)


def _rebuild(folder: Path, paths: Sequence[Path], settings: Settings,
             progress: Progress | None, validate: bool, lock: BuildLock) -> Rebuilt | None:
    clock = _Clock()
    previous = _previous(folder, settings)
    if previous is None:
        return None
    with updating_store(folder, previous.manifest, lock) as next_generation:
        return _rebuild_into(next_generation, previous, paths, settings, progress, validate,
                             clock)


def _rebuild_into(next_generation: StoreUpdate, previous: _Previous, paths: Sequence[Path],
                  settings: Settings, progress: Progress | None, validate: bool,
                  clock: _Clock) -> Rebuilt:
    manifest, kept, before = previous.manifest, previous.kept, previous.generation
    figures = RebuildFigures(seconds=clock.seconds)
    report = load_records(default_paths(paths), settings, progress, known=kept)
    clock.lap("read")
    index = index_records(report)
    planned = _plan(report, kept, index)
    clock.lap("plan")
    table, change, asked, before_change = _map(planned, report, kept, index, settings)
    clock.lap("map")
    stats = updated_stats(manifest.counts, before_change, table, change.subjects, settings.base)
    clock.lap("stats")
    validation = None
    if validate:
        from graph.validation.validate import validate as run_validation

        validation = run_validation(table, settings)
        clock.lap("validate")
    figures.files = report.files_read
    figures.records = len(report.records)
    figures.records_read = sum(not loaded.remembered for loaded in report.records)
    figures.records_remapped = len(planned.again)
    figures.graphs_changed = len(change.graphs)
    figures.subjects_changed = len(change.subjects)
    mapped = {loaded.key: (kept.mapped[loaded.key] if loaded.key in planned.unchanged
                           else _mapped(loaded, asked[loaded.key]))
              for loaded in report.records}
    result = BuildResult(report, table, {key: m.questions for key, m in mapped.items()})
    facts = _with_changes(build_facts(result, settings.base), manifest.facts,
                          table.terms.ntriples, change.records)
    update = GraphUpdate(tuple(table.terms.ntriples[g][1:-1] for g in change.graphs.tolist()),
                         _nquads(table, change.graphs))
    state = KeptBuild(kept.fingerprint, _by_text(report.imported), mapped, table, kept.chunks,
                      kept.chunk_ends, kept.record_chunks, _by_text(report.stats))
    fresh = [relative for relative, made in state.imported.items()
             if kept.imported.get(relative) is not made]
    figures.files_imported = len(fresh)

    def write(loading: Path) -> None:
        if validation is not None:
            write_validation(loading, validation)
        state.save(loading, before, fresh)
        clock.lap("state")

    switched = next_generation.apply(update, facts, stats, write)
    figures.index_updated = next_generation.index_updated
    clock.lap("switch")
    return Rebuilt(result, switched, figures)


def _with_changes(facts: BuildFacts, before: BuildFacts, ntriples: Sequence[str],
                  differ: Ids) -> BuildFacts:
    """``facts`` with what the build changed against ``before``: a record in both is changed
    when its graph's statements are not the same (``differ``, term ids of graphs), not merely
    mapped again (``_Change.records``)."""
    graphs = {ntriples[graph][1:-1] for graph in differ.tolist()}
    return replace(facts, changes=BuildChanges.between(before, facts.records, graphs))


class _Clock:
    """The seconds each step of a rebuild took, from the rebuild's start."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.seconds[name] = round(now - self._last, 4)
        self._last = now


@dataclass(frozen=True)
class _Previous:
    """The generation an incremental build starts from: the store's folder, its manifest and
    the state that generation kept."""

    folder: Path
    manifest: Manifest
    kept: KeptBuild

    @property
    def generation(self) -> Path:
        return self.folder / self.manifest.generation


def _previous(folder: Path, settings: Settings) -> _Previous | None:
    """The store's manifest and kept state, if an incremental build can start from them."""
    try:
        manifest = read_manifest(folder)
    except StoreError:
        return None
    if manifest.facts.base != settings.base:
        return None
    kept = KeptBuild.load(folder / manifest.generation, fingerprint(settings))
    return None if kept is None else _Previous(folder, manifest, kept)


@dataclass(frozen=True)
class _Plan:
    """Which records of the build are mapped now, and which keep their graph."""

    unchanged: set[str]
    """The keys of the records whose graph is kept as it is."""
    again: set[str]
    """The keys of unchanged records mapped again (the index answers them otherwise)."""


def _plan(report: LoadReport, kept: KeptBuild, index: BenchmarkIndex) -> _Plan:
    unchanged: set[str] = set()
    again: set[str] = set()
    for loaded in report.records:
        before = kept.mapped.get(loaded.key)
        if not loaded.remembered or before is None or before.source != _source(loaded):
            continue  # read now, or its graph name was another record's
        if all(question.asked_again(index, loaded.identity) for question in before.questions):
            unchanged.add(loaded.key)
        else:
            again.add(loaded.key)
    return _Plan(unchanged, again)


@dataclass(frozen=True)
class _Change:
    graphs: Ids
    """Term ids of the named graphs whose statements may have changed."""
    subjects: Ids
    """Term ids of the subjects whose statements (in any graph) may have changed."""
    records: Ids
    """Term ids of the record graphs whose statements are not the same in the two tables
    (of ``graphs``, those that were not merely mapped again to the same statements)."""


def _map(plan: _Plan, report: LoadReport, kept: KeptBuild, index: BenchmarkIndex,
         settings: Settings
         ) -> tuple[QuadTable, _Change, dict[str, tuple[Question, ...]], QuadTable]:
    """The table of this build, made in place of the kept one; what changed; what the records
    mapped now asked the index; the kept table's statements about the subjects that changed."""
    iris = Iris(settings.base)
    # The kept table becomes this build's, in place: nothing reads the kept one after this
    # (what the statistics need of it is ``_before``): a copy beside it held 215 MB more at
    # 100,000 records, and a rebuild peaked at 2,026 MB where it now peaks at 1,701.
    table = kept.table
    terms = table.terms
    graphs = [terms.find_iri(iris.record(key)) for key in kept.mapped
              if key not in plan.unchanged]
    build = terms.iri(iris.build())
    gone = np.asarray([graph for graph in graphs if graph is not None] + [build],
                      dtype=np.int32)
    # The kept table's own 32-bit rows, read in place: ``rows()`` copied the 1.3 M rows of
    # 10,000 records as 64-bit ids three times here (0.1-0.2 s each at load 3).
    held = table.held_rows()
    keep = ~_in(held[:, GRAPH], gone)
    dropped = held[~keep].astype(np.int64)
    del held  # no view of the buffer is alive: it can be compacted
    table.keep_where(keep)
    in_build = dropped[:, GRAPH] == build
    kept_build, removed = dropped[in_build], dropped[~in_build]
    kept_rows = len(table)
    ctx = MappingContext(iris, bundled_vocabulary(), index)
    asked: dict[str, tuple[Question, ...]] = {}
    for loaded in report.records:
        if loaded.key not in plan.unchanged:
            asked[loaded.key] = map_one(loaded, ctx, table)
    catalogued = catalogued_benchmarks(report.records, index, iris)
    mapped = table.held_rows()[kept_rows:].astype(np.int64)
    table, built, unbuilt = _mend_build_graph(table, kept_build, removed, mapped, catalogued,
                                              iris)
    change = _changes(np.concatenate([removed, unbuilt]), np.concatenate([mapped, built]), build)
    return table, change, asked, _before(table, kept_rows, dropped, change.subjects)


def _before(table: QuadTable, kept_rows: int, dropped: Ids, subjects: Ids) -> QuadTable:
    """The statements about ``subjects`` that the kept table held, for the statistics
    (``updated_stats``): of the rows this build kept, the first ``kept_rows`` of ``table``, and
    of those it ``dropped``."""
    held = table.held_rows()[:kept_rows]
    rows = np.concatenate([held[np.isin(held[:, SUBJECT], subjects)],
                           dropped[np.isin(dropped[:, SUBJECT], subjects)]])
    return QuadTable.of_rows(table.terms, rows)


def _mend_build_graph(table: QuadTable, kept_build: Ids, removed: Ids, mapped: Ids,
                      catalogued: set[URIRef], iris: Iris) -> tuple[QuadTable, Ids, Ids]:
    """``table`` (the record graphs, no build graph) given the build graph of this build, in
    place (its rows added at its end, not copied with them into a new table: at 100,000
    records that held four copies of the table's 215 MB of rows at once), and the build
    graph's rows added and removed against the kept one (``kept_build``; ``removed``
    holds the rows of the record graphs dropped, ``mapped`` those of the records mapped now).

    A benchmark's build statements (``add_build_graph``) read only its own statements and
    whether it is catalogued: only the nodes that are subjects of a statement removed or
    mapped, or whose ``bench:catalogued`` turns, are derived again, by ``add_build_graph``
    itself on a table of their statements alone; every other node keeps its rows. Deriving
    it from the whole table read four columns of 1.3 M rows and stated 12,000 benchmarks' facts
    again (0.13 s at 10,000 records, of 0.45 s for the map)."""
    flag = table.terms.find_iri(BENCH.catalogued)
    turned = [subject for subject, predicate, value in kept_build[:, :3].tolist()
              if predicate == flag
              and (str(table.terms.terms[value]) == "true") != (
                  table.terms.terms[subject] in catalogued)]
    changed = np.union1d(np.union1d(removed[:, SUBJECT], mapped[:, SUBJECT]),
                         np.asarray(turned, dtype=np.int64))
    held = table.held_rows()
    about = table.select(np.isin(held[:, SUBJECT], changed))
    del held
    derived_from = len(about)
    add_build_graph(about, catalogued, iris)
    built = about.held_rows()[derived_from:].astype(np.int64)
    again = np.isin(kept_build[:, SUBJECT], changed)
    table.add_rows(np.concatenate([kept_build[~again], built]))
    return table, built, kept_build[again]


def _in(column: npt.NDArray[np.int32], few: npt.NDArray[np.int32]) -> npt.NDArray[np.bool_]:
    """Where ``column`` holds one of ``few`` ids: ``np.isin`` sorts the whole column first
    (0.15-0.2 s for the 1.3 M rows of 10,000 records at load 3); a comparison per id is a
    pass each over it, cheaper while they are few (one record changed: two ids)."""
    if len(few) > 8:
        return np.isin(column, few)
    found = np.zeros(len(column), dtype=np.bool_)
    for one in few.tolist():
        found |= column == one
    return found


def _changes(removed: Ids, added: Ids, build: int) -> _Change:
    """The graphs and subjects whose statements differ between ``removed`` and ``added``
    rows: every record graph in either, the build graph and its subjects where it changed."""
    in_build = removed[:, GRAPH] == build, added[:, GRAPH] == build
    before = _statements(removed[in_build[0]])
    after = _statements(added[in_build[1]])
    build_subjects = np.asarray(sorted({row[0] for row in before ^ after}), dtype=np.int64)
    old_records, new_records = removed[~in_build[0]], added[~in_build[1]]
    records = np.concatenate([old_records, new_records])
    graphs = np.unique(records[:, GRAPH])
    if len(build_subjects):
        graphs = np.union1d(graphs, [build])
    subjects = np.union1d(np.unique(records[:, SUBJECT]), build_subjects)
    differ = sorted({quad[0] for quad in _quads(old_records) ^ _quads(new_records)})
    return _Change(graphs.astype(np.int64), subjects.astype(np.int64),
                   np.asarray(differ, dtype=np.int64))


def _statements(rows: Ids) -> set[tuple[int, int, int]]:
    """The statements of ``rows``, whatever their graph."""
    return set(map(tuple, rows[:, [SUBJECT, PREDICATE, OBJECT]].tolist()))


def _quads(rows: Ids) -> set[tuple[int, int, int, int]]:
    """The statements of ``rows``, each with its graph first."""
    return set(map(tuple, rows[:, [GRAPH, SUBJECT, PREDICATE, OBJECT]].tolist()))


def _nquads(table: QuadTable, graphs: Ids) -> bytes:
    """The statements of ``graphs`` as N-Quads."""
    held = table.held_rows()
    chosen = held[_in(held[:, GRAPH], graphs.astype(np.int32))]
    forms = table.terms.ntriples
    return "".join(f"{forms[s]} {forms[p]} {forms[o]} {forms[g]} .\n" for s, p, o, g in
                   chosen[:, [SUBJECT, PREDICATE, OBJECT, GRAPH]].tolist()).encode()


def _by_text(by_path: dict[PurePosixPath, _Kept]) -> dict[str, _Kept]:
    """A load's files by relative path as text, as the state keeps them."""
    return {str(relative): value for relative, value in by_path.items()}


def _source(loaded: LoadedRecord) -> tuple[str, str | None]:
    return str(loaded.source.relative), loaded.part


def _mapped(loaded: LoadedRecord, questions: tuple[Question, ...]) -> MappedRecord:
    return MappedRecord(_source(loaded), questions)


__all__ = ["RebuildFigures", "Rebuilt", "kept_build", "rebuild_store"]
