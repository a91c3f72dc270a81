"""An incremental build of an ``oxigraph:DIR`` store: only what changed is read, mapped and
written again, and the result is the store a full build of the same files makes.

``benchgraph build PATH... --store oxigraph:DIR`` builds this way when the folder holds a store
whose generation kept its state (``graph.store.state``) under the same fingerprint (this code,
the base IRI, the reading limits); ``--full`` builds everything again.

1. Every record file is listed and stat-ed; one whose stat is the one the state kept is not
   read, the others are read and hashed (SHA-256 of their bytes: ``graph.ingest.kept.RACY_NS``
   says when a stat is trusted). A file whose bytes the kept state knows is not imported
   again (``graph.ingest.kept.Known``): its warnings come from the state, and of its records
   only what the index reads (``graph.mapping.identity.RecordIdentity``); it is imported
   again only if one of its records is mapped again. The loader's rules across files run
   again over every record, so the load report is a full load's.
2. The benchmark index is made again from every record's identity
   (``graph.build.graphs.index_records``), and so is the set of catalogued benchmarks. A
   changed or new record is mapped; so is an unchanged one whose mapping would now hear other
   answers from the index (a directory page whose related title now resolves to another
   benchmark: ``graph.build.graphs.Question``), or whose graph name an other file held
   before. No other record's graph can depend on a change: mapping reads nothing else of the
   build.
3. The next generation is written beside the current one (``graph.store.disk.updating_store``,
   whose process starts the checkpoint of the Oxigraph store as the rebuild starts): the
   graphs of the records mapped now and of the records gone are replaced by what they now
   hold, the build graph's facts about the nodes they mention are derived again, the merge
   is mended, the counts are brought up to date from the statements about what changed, and
   the search index and the validation report around it (``graph.store.writing``); beside
   it, the state. Then the
   manifest switches to it, as after a full build. Its dumps are written from its store when
   first asked for (``graph.store.files``).

The cyclic collector is paused throughout (``rebuild_store``).
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TypeVar

from graph.build.graphs import BuildResult, Question, Read, read
from graph.ingest.loader import LoadedRecord, Progress
from graph.mapping.iris import Iris
from graph.mapping.nquads import NQuads
from graph.settings import Settings
from graph.store.disk import GraphUpdate, Manifest, StoreUpdate, read_manifest, updating_store
from graph.store.errors import StoreError
from graph.store.kinds import build_facts
from graph.store.lock import BuildLock
from graph.store.manifest import manifest_version
from graph.store.state import KeptBuild, MappedRecord, fingerprint
from graph.system.gc_pause import gc_paused

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
    index_updated: bool = False
    """Whether the search index was the previous one updated (``graph.search.update``), not
    written whole."""
    records_validated: int | None = None
    """Record graphs validated again (every one when the previous build was not validated);
    None without validating."""
    seconds: dict[str, float] = field(default_factory=dict)

    def summary(self) -> str:
        validated = "" if self.records_validated is None else \
            f"; records validated again: {self.records_validated:,}"
        return (f"incremental build: {self.records_read:,} of {self.records:,} records "
                f"imported again, from {self.files_imported:,} of {self.files:,} files; "
                f"unchanged records mapped again: {self.records_remapped:,}; graphs changed: "
                f"{self.graphs_changed:,}{validated}")


@dataclass(frozen=True)
class Rebuilt:
    """An incremental build: what it built, the manifest it switched to, what it did."""

    result: BuildResult
    manifest: Manifest
    figures: RebuildFigures


def kept_build(result: BuildResult, settings: Settings) -> KeptBuild:
    """The state a full build keeps with its generation (``build_into(state=...)``)."""
    mapped = {loaded.key: _mapped(loaded, result.asked.get(loaded.key, ()))
              for loaded in result.report.records}
    report = result.report
    return KeptBuild(fingerprint(settings), _by_text(report.imported), mapped,
                     stats=_by_text(report.stats))


def rebuild_store(folder: Path, paths: Sequence[Path], settings: Settings,
                  progress: Progress | None = None, *, validate: bool = False,
                  lock: BuildLock | None = None) -> Rebuilt | None:
    """Build the store in ``folder`` again from ``paths``, incrementally; None when the folder
    holds no store an incremental build can start from (then build it in full). With
    ``validate``, the new graph is validated and its report kept: what the change may touch
    is checked again and every other result is the previous build's report's
    (``ValidationSession.update_store``), or all of it, graph by graph from the store as
    ``build_into`` does, when the previous build was not validated.

    The folder's build lock is held throughout (``graph.store.lock``): ``lock``, the
    caller's (who may then build in full under it when this answers None), or taken here
    when the folder holds a store (StoreError if another build holds it).

    The cyclic collector is paused throughout (``gc_paused``): the kept state is millions of
    objects, and with it running, the allocations of reading it and of the steps after set
    off collections walking all of them (perf/decisions/collector-paused.md). What it hands
    back (the report: every file's kept state) is then old (``survivors_old``)."""
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
    kept = previous.kept
    figures = RebuildFigures(seconds=clock.seconds)
    records = read(paths, settings, progress, known=kept)
    clock.lap("read")
    report = records.report
    unchanged, again = _plan(records, kept)
    clock.lap("plan")
    iris = Iris(settings.base)
    text = io.BytesIO()
    asked = records.write(NQuads(text.write, merge=False), iris,
                          keys={loaded.key for loaded in report.records} - unchanged)
    graphs = {str(iris.record(key)) for key in (*kept.mapped, *asked) if key not in unchanged}
    update = GraphUpdate(tuple(sorted(graphs)), text.getvalue(), records.catalogued(iris))
    clock.lap("map")
    figures.files = report.files_read
    figures.records = len(report.records)
    figures.records_read = sum(not loaded.remembered for loaded in report.records)
    figures.records_remapped = len(again)
    mapped = {loaded.key: (kept.mapped[loaded.key] if loaded.key in unchanged
                           else _mapped(loaded, asked.get(loaded.key, ())))
              for loaded in report.records}
    result = BuildResult(report, {key: m.questions for key, m in mapped.items()})
    state = KeptBuild(kept.fingerprint, _by_text(report.imported), mapped,
                      _by_text(report.stats))
    figures.files_imported = sum(kept.imported.get(relative) is not made
                                 for relative, made in state.imported.items())

    def write(loading: Path) -> None:
        state.save(loading)
        clock.lap("state")

    switched, outcome = next_generation.apply(update, build_facts(report, settings.base),
                                              validate, write)
    figures.graphs_changed = len(outcome.changed)
    figures.index_updated = outcome.index_updated
    figures.records_validated = outcome.validated
    clock.lap("switch")
    return Rebuilt(result, switched, figures)


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


def _plan(records: Read, kept: KeptBuild) -> tuple[set[str], set[str]]:
    """The keys of the records whose graph is kept as it is, and of the unchanged records
    mapped again (the index answers them otherwise)."""
    unchanged: set[str] = set()
    again: set[str] = set()
    for loaded in records.report.records:
        before = kept.mapped.get(loaded.key)
        if not loaded.remembered or before is None or before.source != _source(loaded):
            continue  # read now, or its graph name was another record's
        if all(question.asked_again(records.index, loaded.identity)
               for question in before.questions):
            unchanged.add(loaded.key)
        else:
            again.add(loaded.key)
    return unchanged, again


def _by_text(by_path: dict[PurePosixPath, _Kept]) -> dict[str, _Kept]:
    """A load's files by relative path as text, as the state keeps them."""
    return {str(relative): value for relative, value in by_path.items()}


def _source(loaded: LoadedRecord) -> tuple[str, str | None]:
    return str(loaded.source.relative), loaded.part


def _mapped(loaded: LoadedRecord, questions: tuple[Question, ...]) -> MappedRecord:
    return MappedRecord(_source(loaded), questions)


__all__ = ["RebuildFigures", "Rebuilt", "kept_build", "rebuild_store"]
