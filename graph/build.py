"""The build: record files -> the dataset, one named graph per record plus the build graph.

Derived facts live in the build graph ``{base}build``, never in a record's graph:
``bench:catalogued`` for every benchmark node (true when a record of its own describes
it), and a label for a benchmark known only by id. The ontology and its vocabularies
come along in their own named graph (``graph.ontology``).
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import itemgetter
from pathlib import Path

from rdflib import URIRef

from graph.gc_pause import gc_paused
from graph.loader import LoadedRecord, LoadReport, Progress, load_records
from graph.mapping import MappingContext, map_record
from graph.mapping.emitter import FALSE, TRUE
from graph.mapping.iris import Iris
from graph.mapping.references import index_benchmarks
from graph.mapping.terms import plain
from graph.namespace import BENCH, RDF, RDFS
from graph.ontology import ontology_quads
from graph.quads import Quad
from graph.resources import data_dir
from graph.settings import Settings
from graph.vocabulary import Vocabulary, bundled_vocabulary


@dataclass(frozen=True)
class BuildResult:
    """The built quads and the load report of the files they came from."""

    report: LoadReport
    quads: list[Quad]


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
        quads = map_records(report.records, Iris(settings.base), vocabulary or bundled_vocabulary())
    return BuildResult(report, quads)


def map_records(records: Sequence[LoadedRecord], iris: Iris, vocabulary: Vocabulary) -> list[Quad]:
    """Every record's named graph, the build graph derived from them all, and the ontology."""
    index = index_benchmarks(loaded.record for loaded in records)
    ctx = MappingContext(iris, vocabulary, index)
    quads: list[Quad] = []
    catalogued: set[URIRef] = set()
    for loaded in records:
        record = loaded.record
        catalogued.add(iris.benchmark(index.described_by(record)))
        quads.extend(map_record(record, loaded.key, str(loaded.source.relative), ctx))
    quads.extend(_build_graph(quads, catalogued, iris))
    quads.extend(ontology_quads())
    return quads


def _build_graph(quads: list[Quad], catalogued: set[URIRef], iris: Iris) -> list[Quad]:
    benchmark_class = BENCH.Benchmark
    benchmarks = {s for s, _, o, _ in _with_predicate(quads, RDF.type) if o == benchmark_class}
    labelled = {s for s, _, _, _ in _with_predicate(quads, RDFS.label)}
    graph = iris.build()
    derived: list[Quad] = []
    for node in sorted(benchmarks, key=str):  # str: Identifier.__lt__ is Python code
        derived.append((node, BENCH.catalogued, TRUE if node in catalogued else FALSE, graph))
        if node not in labelled:
            derived.append((node, RDFS.label, plain(node.rsplit("/", 1)[1]), graph))
    return derived


def _with_predicate(quads: list[Quad], predicate: URIRef) -> Iterator[Quad]:
    """The quads whose predicate is ``predicate``, found with C-level calls (this runs over
    every quad; ``URIRef.__eq__`` is Python code, ``str.__eq__`` is not)."""
    return compress(quads, map(str.__eq__, map(itemgetter(1), quads), repeat(predicate)))
