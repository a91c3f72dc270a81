"""One record into its named graph: the mapping of each record kind, chosen by the record's
type."""

from graph.ingest.records import CatalogPage, DirectoryPage, HarnessEntry, HarnessModel, Record
from graph.mapping.catalog_page import map_catalog_page
from graph.mapping.context import MappingContext
from graph.mapping.directory_page import map_directory_page
from graph.mapping.emitter import Statements
from graph.mapping.harness_entry import map_harness_entry
from graph.mapping.harness_model import map_harness_model
from graph.mapping.nquads import NQuads
from graph.namespace import BENCH


def map_record(
    record: Record, record_key: str, source_file: str, ctx: MappingContext, lines: NQuads
) -> None:
    """States one record's named graph, ``{base}record/{record_key}``, into ``lines``; a
    harness entry the overrides leave out (``BenchmarkIndex.kind_of``) has none."""
    if isinstance(record, HarnessEntry) and ctx.index.kind_of(record) == "leave-out":
        return
    out = Statements(lines, ctx.iris.record(record_key), source_file)
    out.add_type(out.graph, BENCH.Record)
    out.add_text(out.graph, BENCH.sourceFile, source_file)
    match record:
        case CatalogPage():
            out.add_text(out.graph, BENCH.importer, "catalog-page")
            map_catalog_page(record, out, ctx)
        case DirectoryPage():
            out.add_text(out.graph, BENCH.importer, "directory-page")
            map_directory_page(record, out, ctx)
        case HarnessEntry():
            out.add_text(out.graph, BENCH.importer, "harness-registry")
            map_harness_entry(record, out, ctx)
        case HarnessModel():
            out.add_text(out.graph, BENCH.importer, "harness-registry")
            map_harness_model(record, out, ctx)


__all__ = ["map_record"]
