"""Importers: each turns one kind of record file into a Record. The registry is ``IMPORTERS``.

An importer is chosen by what a file holds, never by its name: the first in ``IMPORTERS``
whose ``can_read`` says yes reads it. Order matters: the catalog page importer claims
text that starts with ``{`` or ``[``; the directory page importer reads plain text.
"""

from graph.importers.base import Imported, Importer, Problem, RecordRejected, SourceFile
from graph.importers.catalog_page import CatalogPageImporter
from graph.importers.directory_page import DirectoryPageImporter

IMPORTERS: tuple[Importer, ...] = (CatalogPageImporter(), DirectoryPageImporter())


def choose_importer(source: SourceFile) -> Importer | None:
    """The first importer that can read ``source``; ``None`` when none can."""
    for importer in IMPORTERS:
        if importer.can_read(source):
            return importer
    return None


__all__ = [
    "IMPORTERS",
    "Imported",
    "Importer",
    "Problem",
    "RecordRejected",
    "SourceFile",
    "choose_importer",
]
