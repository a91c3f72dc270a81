"""Records: what importers produce and mapping consumes. No RDF and no file formats here."""

from graph.ingest.records.catalog_page import CatalogPage
from graph.ingest.records.directory_page import DirectoryPage
from graph.ingest.records.harness_entry import HarnessEntry, HarnessModel, HarnessPackage

Record = CatalogPage | DirectoryPage | HarnessEntry | HarnessModel

__all__ = ["CatalogPage", "DirectoryPage", "HarnessEntry", "HarnessModel", "HarnessPackage",
           "Record"]
