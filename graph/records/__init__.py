"""Records: what importers produce and mapping consumes. No RDF and no file formats here."""

from graph.records.catalog_page import CatalogPage
from graph.records.directory_page import DirectoryPage
from graph.records.harness_entry import HarnessEntry, HarnessModel, HarnessPackage

Record = CatalogPage | DirectoryPage | HarnessEntry | HarnessModel

__all__ = ["CatalogPage", "DirectoryPage", "HarnessEntry", "HarnessModel", "HarnessPackage",
           "Record"]
