"""Records: what importers produce and mapping consumes. No RDF and no file formats here."""

from graph.records.catalog_page import CatalogPage
from graph.records.directory_page import DirectoryPage

Record = CatalogPage | DirectoryPage

__all__ = ["CatalogPage", "DirectoryPage", "Record"]
