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

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Literal

import numpy as np
from rdflib import URIRef

from graph.dataset.quads import Quad
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT, QuadTable
from graph.ingest.importers.base import Problem
from graph.ingest.kept import KeptRecord, Spool
from graph.ingest.loader import LoadedRecord, LoadReport, Progress, load_records
from graph.mapping.context import MappingContext
from graph.mapping.emitter import Statements
from graph.mapping.identity import BenchmarkIndex, Identified, TaskMove, identity, index_benchmarks
from graph.mapping.iris import Iris
from graph.mapping.overrides import bundled_overrides
from graph.mapping.record import map_record
from graph.namespace import BENCH, ONTOLOGY_IRI, RDF, RDFS
from graph.ontology import ontology_quads
from graph.resources import data_dir
from graph.settings import Settings
from graph.system.gc_pause import gc_paused
from graph.vocabulary import Vocabulary, bundled_vocabulary

Answer = str | bool | None | tuple[TaskMove, ...]


@dataclass(frozen=True)
class Question:
    """One thing a record's mapping asked the build's benchmark index, and the answer."""

    kind: Literal["described_by", "resolve", "has_stated_name", "label_from", "tasks_moved"]
    """The ``BenchmarkIndex`` method asked."""
    argument: str | None
    """The title or id asked about; None when the record asked about itself."""
    answer: Answer

    def asked_again(self, index: BenchmarkIndex, record: Identified) -> bool:
        """Whether ``index`` answers it as it was answered (``record`` the one that asked)."""
        answer: Answer
        if self.kind == "resolve" and self.argument is not None:
            answer = index.resolve(self.argument)
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
    def of(cls, index: BenchmarkIndex) -> "AskedIndex":
        return cls(**{f.name: getattr(index, f.name) for f in fields(BenchmarkIndex)})

    def described_by(self, record: Identified) -> str:
        answer = super().described_by(record)
        self.asked.append(Question("described_by", None, answer))
        return answer

    def resolve(self, title: str) -> str:
        answer = super().resolve(title)
        self.asked.append(Question("resolve", title, answer))
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
    """The built dataset and the load report of the files it came from.

    Its repr names sizes: pytest writes the arguments of a failing test's frames, and the
    repr of every record and quad of the bundled catalog took gigabytes."""

    report: LoadReport
    table: QuadTable
    asked: dict[str, tuple[Question, ...]] = field(default_factory=dict)
    """What each record's mapping asked the benchmark index, by record key."""

    def __repr__(self) -> str:
        return f"BuildResult({len(self.table)} quads, {self.report!r})"

    @cached_property
    def quads(self) -> list[Quad]:
        """The built quads as rdflib terms, made on first use."""
        return self.table.quads()


def default_paths(paths: Sequence[Path]) -> list[Path]:
    """The PATHs given, or the bundled catalog when none are."""
    return list(paths) or [data_dir("catalog")]


def build(
    paths: Sequence[Path],
    settings: Settings,
    progress: Progress | None = None,
    vocabulary: Vocabulary | None = None,
    *,
    keep: Spool | None = None,
) -> BuildResult:
    """Load the record files under ``paths`` (default: the bundled catalog) and map them.

    With ``keep`` (a build whose state a store keeps: ``graph.store.state``), the records are
    pickled into that spool as they are imported and read back one at a time to be mapped,
    so the build never holds every record's model at once (a pickle is a fraction of the
    model); the state's pickle reuses each record's (``KeptRecord.pack``;
    perf/decisions/records-pickled-and-spooled.md)."""
    with gc_paused():
        report = load_records(default_paths(paths), settings, progress, pack=keep)
        index = index_records(report)
        asked: dict[str, tuple[Question, ...]] = {}
        table = map_records(report.records, Iris(settings.base), vocabulary or bundled_vocabulary(),
                            index, asked)
    return BuildResult(report, table, asked)


def index_records(report: LoadReport) -> BenchmarkIndex:
    """Which benchmark each loaded record describes (the bundled overrides applied); what the
    matching warns about is added to the report's warnings, naming each record's file."""
    index = index_benchmarks((loaded.identity for loaded in report.records), bundled_overrides())
    report.warnings += [Problem(report.records[p.position].source.path, p.field, p.reason, p.value)
                        for p in index.problems]
    return index


def map_records(records: Sequence[LoadedRecord], iris: Iris, vocabulary: Vocabulary,
                index: BenchmarkIndex | None = None,
                asked: dict[str, tuple[Question, ...]] | None = None) -> QuadTable:
    """Every record's named graph, the build graph derived from them all, and the ontology;
    ``index`` is the records' (``index_benchmarks`` of them, without overrides, by default).
    What each record's mapping asked the index goes into ``asked``, by record key."""
    if index is None:
        index = index_benchmarks(loaded.identity for loaded in records)
    ctx = MappingContext(iris, vocabulary, index)
    table = QuadTable()
    for loaded in records:
        questions = map_one(loaded, ctx, table)
        if asked is not None:
            asked[loaded.key] = questions
    add_build_graph(table, catalogued_benchmarks(records, index, iris), iris)
    table.extend(ontology_quads())
    return table


def catalogued_benchmarks(records: Sequence[LoadedRecord], index: BenchmarkIndex,
                          iris: Iris) -> set[URIRef]:
    """The benchmarks a record of their own describes; a harness entry that is a collection
    of other benchmarks' tasks, or left out, catalogues none."""
    return {iris.benchmark(index.described_by(loaded.identity)) for loaded in records
            if not loaded.identity.about_model
            and index.kind_of(loaded.identity) in ("benchmark", "corpus")}


def map_one(loaded: LoadedRecord, ctx: MappingContext, table: QuadTable
            ) -> tuple[Question, ...]:
    """One record's named graph into ``table``; returns what its mapping asked the index.
    A packed record (``KeptRecord.packed``: pickled at import by ``build(keep=...)``, or read
    from a kept state) is read from its ``KeptRecord``, not through ``LoadedRecord.record``,
    which would keep the model, and let go again once mapped."""
    made = loaded.made
    packed = made if isinstance(made, KeptRecord) and made.packed else None
    record = loaded.record if packed is None else packed.record
    asking = AskedIndex.of(ctx.index)
    map_record(record, loaded.key, str(loaded.source.relative),
               MappingContext(ctx.iris, ctx.vocabulary, asking), table)
    if packed is not None:
        packed.pack()
    return tuple(asking.asked)


def add_build_graph(table: QuadTable, catalogued: set[URIRef], iris: Iris) -> None:
    """States the build graph of the record graphs in ``table`` (which holds no build graph
    yet): ``bench:catalogued`` of every benchmark node, true for those in ``catalogued``,
    and a label for one no record labels. Statements of the ontology graph, if the table
    holds them, count for nothing (an incremental build keeps them)."""
    terms = table.terms
    benchmarks, labelled = _benchmarks(table)
    out = Statements(table, iris.build())
    for term_id in sorted(benchmarks, key=terms.ntriples.__getitem__):
        node = terms.terms[term_id]
        assert isinstance(node, URIRef)  # a subject
        out.add_boolean(node, BENCH.catalogued, node in catalogued)
        if term_id not in labelled:
            out.add_text(node, RDFS.label, node.rsplit("/", 1)[1])


def _benchmarks(table: QuadTable) -> tuple[list[int], set[int]]:
    """The ids of the benchmark nodes the record graphs type, and of the subjects they label.
    Read from the table's own 32-bit rows in place (``held_rows``, let go before the table
    grows again): 64-bit copies of four columns would be made at the end of the mapping,
    when the build holds most (perf/decisions/rows-read-in-place.md)."""
    terms = table.terms
    ontology = terms.find_iri(ONTOLOGY_IRI)
    rdf_type, benchmark, label = (terms.iri(iri) for iri in (RDF.type, BENCH.Benchmark,
                                                              RDFS.label))
    rows = table.held_rows()
    subjects, predicates = rows[:, SUBJECT], rows[:, PREDICATE]
    records = rows[:, GRAPH] != (-1 if ontology is None else ontology)
    typed = (predicates == rdf_type) & (rows[:, OBJECT] == benchmark) & records
    benchmarks = np.unique(subjects[typed]).tolist()
    labelled = set(np.unique(subjects[(predicates == label) & records]).tolist())
    return benchmarks, labelled
