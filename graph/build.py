"""The build: record files -> the dataset, one named graph per record plus the build graph.

Derived facts live in the build graph ``{base}build``, never in a record's graph:
``bench:catalogued`` for every benchmark node (true when a record of its own describes
it), and a label for a benchmark known only by id. The ontology and its vocabularies
come along in their own named graph (``graph.ontology``).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
from rdflib import URIRef

from graph.dataset.quads import Quad
from graph.dataset.table import OBJECT, PREDICATE, SUBJECT, QuadTable
from graph.gc_pause import gc_paused
from graph.importers.base import Problem
from graph.loader import LoadedRecord, LoadReport, Progress, load_records
from graph.mapping.context import MappingContext
from graph.mapping.emitter import Statements
from graph.mapping.identity import BenchmarkIndex, index_benchmarks
from graph.mapping.iris import Iris
from graph.mapping.overrides import bundled_overrides
from graph.mapping.record import map_record
from graph.namespace import BENCH, RDF, RDFS
from graph.ontology import ontology_quads
from graph.resources import data_dir
from graph.settings import Settings
from graph.vocabulary import Vocabulary, bundled_vocabulary


@dataclass(frozen=True)
class BuildResult:
    """The built dataset and the load report of the files it came from."""

    report: LoadReport
    table: QuadTable

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
) -> BuildResult:
    """Load the record files under ``paths`` (default: the bundled catalog) and map them."""
    with gc_paused():
        report = load_records(default_paths(paths), settings, progress)
        index = index_records(report)
        table = map_records(report.records, Iris(settings.base), vocabulary or bundled_vocabulary(),
                            index)
    return BuildResult(report, table)


def index_records(report: LoadReport) -> BenchmarkIndex:
    """Which benchmark each loaded record describes (the bundled overrides applied); what the
    matching warns about is added to the report's warnings, naming each record's file."""
    index = index_benchmarks((loaded.record for loaded in report.records), bundled_overrides())
    report.warnings += [Problem(report.records[p.position].source.path, p.field, p.reason, p.value)
                        for p in index.problems]
    return index


def map_records(records: Sequence[LoadedRecord], iris: Iris, vocabulary: Vocabulary,
                index: BenchmarkIndex | None = None) -> QuadTable:
    """Every record's named graph, the build graph derived from them all, and the ontology;
    ``index`` is the records' (``index_benchmarks`` of them, without overrides, by default)."""
    if index is None:
        index = index_benchmarks(loaded.record for loaded in records)
    ctx = MappingContext(iris, vocabulary, index)
    table = QuadTable()
    catalogued: set[URIRef] = set()
    for loaded in records:
        record = loaded.record
        catalogued.add(iris.benchmark(index.described_by(record)))
        map_record(record, loaded.key, str(loaded.source.relative), ctx, table)
    _build_graph(table, catalogued, iris)
    table.extend(ontology_quads())
    return table


def _build_graph(table: QuadTable, catalogued: set[URIRef], iris: Iris) -> None:
    """States ``bench:catalogued`` of every benchmark node, and a label for one without."""
    terms = table.terms
    subjects, predicates, objects = (table.column(p) for p in (SUBJECT, PREDICATE, OBJECT))
    typed_benchmark = (predicates == terms.iri(RDF.type)) & (objects == terms.iri(BENCH.Benchmark))
    benchmarks = np.unique(subjects[typed_benchmark]).tolist()
    labelled = set(subjects[predicates == terms.iri(RDFS.label)].tolist())
    out = Statements(table, iris.build())
    for term_id in sorted(benchmarks, key=terms.ntriples.__getitem__):
        node = terms.terms[term_id]
        assert isinstance(node, URIRef)  # a subject
        out.add_boolean(node, BENCH.catalogued, node in catalogued)
        if term_id not in labelled:
            out.add_text(node, RDFS.label, node.rsplit("/", 1)[1])
