"""The build: record files -> the dataset, one named graph per record plus the build graph.

Derived facts live in the build graph ``{base}build``, never in a record's graph:
``bench:catalogued`` for every benchmark node (true when a record of its own describes
it), and a label for a benchmark known only by id. The ontology and its vocabularies
come along in their own named graph (``graph.ontology``).

A record's graph depends on the other records through the benchmark index alone
(``graph.mapping.identity``: which benchmark a record or a title means, which entry names a
benchmark, which tasks an override moves). The build writes down what each record's mapping
asked it (``AskedIndex``), so that an incremental build (``graph.store.rebuild``) can tell
which unchanged records would now be mapped otherwise.
"""

from __future__ import annotations

import io
from collections.abc import Container, Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Literal

import pyoxigraph as ox

from graph.build.derived import add_derived
from graph.dataset.quads import Quad
from graph.ingest.importers.base import Problem
from graph.ingest.kept import Known, Spool
from graph.ingest.loader import LoadedRecord, LoadReport, Progress, load_records
from graph.mapping.context import MappingContext
from graph.mapping.identity import BenchmarkIndex, Identified, TaskMove, identity, index_benchmarks
from graph.mapping.iris import Iris
from graph.mapping.nquads import NQuads
from graph.mapping.overrides import bundled_overrides
from graph.mapping.record import map_record
from graph.ontology import ontology_quads
from graph.resources import data_dir
from graph.settings import Settings
from graph.system.gc_pause import gc_paused
from graph.validation.stream import StoreGraphs
from graph.vocabulary import Vocabulary, bundled_vocabulary

Answer = str | bool | None | tuple[TaskMove, ...]


@dataclass(frozen=True)
class Question:
    """One thing a record's mapping asked the build's benchmark index, and the answer."""

    kind: Literal["described_by", "resolve", "has_stated_name", "label_from", "tasks_moved",
                  "title_as"]
    """The ``BenchmarkIndex`` method asked."""
    argument: str | None
    """The title or id asked about; None when the record asked about itself."""
    answer: Answer

    def asked_again(self, index: BenchmarkIndex, record: Identified) -> bool:
        """Whether ``index`` answers it as it was answered (``record`` the one that asked)."""
        answer: Answer
        if self.kind == "resolve" and self.argument is not None:
            answer = index.resolve(self.argument)
        elif self.kind == "title_as" and self.argument is not None:
            answer = index.title_as(self.argument)
        elif self.kind == "has_stated_name" and self.argument is not None:
            answer = index.has_stated_name(self.argument)
        elif self.kind == "described_by":
            answer = index.described_by(record)
        elif identity(record).entry is not None:
            answer = (index.label_from(record) if self.kind == "label_from"
                      else index.tasks_moved(record))
        else:
            return False
        return answer == self.answer


@dataclass(frozen=True)
class AskedIndex(BenchmarkIndex):
    """A build's index that writes down every question one record's mapping asks it."""

    asked: list[Question] = field(default_factory=list)

    @classmethod
    def of(cls, index: BenchmarkIndex) -> AskedIndex:
        return cls(**{f.name: getattr(index, f.name) for f in fields(BenchmarkIndex)})

    def described_by(self, record: Identified) -> str:
        answer = super().described_by(record)
        self.asked.append(Question("described_by", None, answer))
        return answer

    def resolve(self, title: str) -> str:
        answer = super().resolve(title)
        self.asked.append(Question("resolve", title, answer))
        return answer

    def title_as(self, title: str) -> str:
        answer = super().title_as(title)
        self.asked.append(Question("title_as", title, answer))
        return answer

    def has_stated_name(self, benchmark_id: str) -> bool:
        answer = super().has_stated_name(benchmark_id)
        self.asked.append(Question("has_stated_name", benchmark_id, answer))
        return answer

    def label_from(self, record: Identified) -> str | None:
        answer = super().label_from(record)
        self.asked.append(Question("label_from", None, answer))
        return answer

    def tasks_moved(self, record: Identified) -> tuple[TaskMove, ...]:
        answer = super().tasks_moved(record)
        self.asked.append(Question("tasks_moved", None, answer))
        return answer


@dataclass(frozen=True, repr=False)
class BuildResult:
    """What a build read and what each record's mapping asked, whatever it was written into.

    Its repr names sizes: pytest writes the arguments of a failing test's frames, and the
    repr of every record of the bundled catalog is large."""

    report: LoadReport
    asked: dict[str, tuple[Question, ...]] = field(default_factory=dict)
    """What each record's mapping asked the benchmark index, by record key."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.report!r})"


@dataclass(frozen=True, repr=False, kw_only=True)
class GraphInMemory(BuildResult):
    """A build whose graph is held in a pyoxigraph store in memory (``build``): for a few
    records (a test, a fixture); a catalog is built into a store folder
    (``graph.store.disk.build_store``), which never holds it."""

    store: ox.Store
    """Every record's named graph, the build graph and the ontology, their merge in the
    default graph."""
    index: BenchmarkIndex

    @property
    def records(self) -> Read:
        """The records it was built from, to build them into a store folder too."""
        return Read(self.report, self.index)

    @cached_property
    def quads(self) -> list[Quad]:
        """The named graphs' statements as rdflib quads, made on first use."""
        return [quad for _, quads in StoreGraphs(self.store).each() for quad in quads]


@dataclass(frozen=True)
class Read:
    """The records of a build, read, and which benchmark each describes: what mapping needs."""

    report: LoadReport
    index: BenchmarkIndex

    def catalogued(self, iris: Iris) -> frozenset[str]:
        """The benchmarks a record of their own describes; a harness entry that is a
        collection of other benchmarks' tasks, or left out, catalogues none."""
        index = self.index
        return frozenset(str(iris.benchmark(index.described_by(loaded.identity)))
                         for loaded in self.report.records
                         if not loaded.identity.about_model
                         and index.kind_of(loaded.identity) in ("benchmark", "corpus"))

    def write(self, out: NQuads, iris: Iris, vocabulary: Vocabulary | None = None,
              keys: Container[str] | None = None) -> dict[str, tuple[Question, ...]]:
        """Every record's named graph as N-Quads lines into ``out`` (only those of ``keys``,
        when given: an incremental build), then the ontology's (not with ``keys``); what each
        mapping asked the index, by record key."""
        ctx = MappingContext(iris, vocabulary or bundled_vocabulary(), self.index)
        asked: dict[str, tuple[Question, ...]] = {}
        for loaded in self.report.records:
            if keys is None or loaded.key in keys:
                asked[loaded.key] = map_one(loaded, ctx, out)
        if keys is None:
            out.add_quads(ontology_quads())
        out.flush()
        return asked


def default_paths(paths: Sequence[Path]) -> list[Path]:
    """The PATHs given, or the bundled catalog when none are."""
    return list(paths) or [data_dir("catalog")]


def read(paths: Sequence[Path], settings: Settings, progress: Progress | None = None, *,
         keep: Spool | None = None, known: Known | None = None) -> Read:
    """Load the record files under ``paths`` (default: the bundled catalog) and index which
    benchmark each record describes.

    With ``keep`` (a full build into a store), the records are pickled into that spool as
    they are imported and read back one at a time to be mapped, so the build never holds
    every record's model at once (perf/decisions/records-pickled-and-spooled.md). With
    ``known`` (the state of the build before), a file whose bytes it knows is not imported
    again (``graph.ingest.kept``)."""
    with gc_paused():
        report = load_records(default_paths(paths), settings, progress, known, keep)
        return Read(report, index_records(report))


def build(paths: Sequence[Path], settings: Settings, progress: Progress | None = None,
          vocabulary: Vocabulary | None = None) -> GraphInMemory:
    """Load the record files under ``paths`` (default: the bundled catalog) and map them into
    a store in memory, with the build graph derived from them (``graph.build.derived``)."""
    return build_in_memory(read(paths, settings, progress), Iris(settings.base), vocabulary)


def build_in_memory(records: Read, iris: Iris,
                    vocabulary: Vocabulary | None = None) -> GraphInMemory:
    """The records mapped into a new store in memory, with their build graph."""
    text = io.BytesIO()
    with gc_paused():
        asked = records.write(NQuads(text.write, merge=True), iris, vocabulary)
        store = ox.Store()
        store.bulk_load(text.getvalue(), format=ox.RdfFormat.N_QUADS)
        add_derived(store, ox.NamedNode(iris.build()), records.catalogued(iris))
    return GraphInMemory(records.report, asked, store=store, index=records.index)


def index_records(report: LoadReport) -> BenchmarkIndex:
    """Which benchmark each loaded record describes (the bundled overrides applied); what the
    matching warns about is added to the report's warnings, naming each record's file."""
    index = index_benchmarks((loaded.identity for loaded in report.records), bundled_overrides())
    report.warnings += [Problem(report.records[p.position].source.path, p.field, p.reason, p.value)
                        for p in index.problems]
    return index


def map_one(loaded: LoadedRecord, ctx: MappingContext, out: NQuads) -> tuple[Question, ...]:
    """One record's named graph into ``out``; returns what its mapping asked the index."""
    asking = AskedIndex.of(ctx.index)
    map_record(loaded.record, loaded.key, str(loaded.source.relative),
               MappingContext(ctx.iris, ctx.vocabulary, asking), out)
    return tuple(asking.asked)
