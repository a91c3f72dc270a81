"""Records made by hand, mapped into a store in memory as a build maps them: the graph of a
few records, without their files or the bundled overrides."""

from collections.abc import Sequence

from graph.build.graphs import GraphInMemory, Read, build_in_memory
from graph.dataset.quads import Quad
from graph.ingest.loader import LoadedRecord, LoadReport
from graph.mapping.identity import index_benchmarks
from graph.mapping.iris import Iris
from graph.settings import DEFAULT_BASE


def mapped(records: Sequence[LoadedRecord], base: str = DEFAULT_BASE) -> GraphInMemory:
    """``records`` built into a store in memory, indexed among themselves alone."""
    index = index_benchmarks(loaded.identity for loaded in records)
    return build_in_memory(Read(LoadReport(records=list(records)), index), Iris(base))


def mapped_quads(records: Sequence[LoadedRecord], base: str = DEFAULT_BASE) -> list[Quad]:
    """The named graphs' statements of ``mapped(records)``."""
    return mapped(records, base).quads
