"""Importers: each turns one kind of record file into records. The registry is ``IMPORTERS``.

An importer is chosen by what a file holds, never by its name: the first in ``IMPORTERS``
whose ``can_read`` says yes reads it. Order matters: the harness snapshot importer claims
JSON objects with a snapshot's keys, before the catalog page importer claims any text that
starts with ``{`` or ``[``; the directory page importer reads plain text. Most files are one
record; a harness snapshot is one record per entry.
"""

from graph.ingest.importers.base import (
    Imported,
    Importer,
    Part,
    Problem,
    RecordRejected,
    SourceFile,
)
from graph.ingest.importers.catalog_page import CatalogPageImporter
from graph.ingest.importers.directory_page import DirectoryPageImporter
from graph.ingest.importers.harness_snapshot import HarnessSnapshotImporter

IMPORTERS: tuple[Importer, ...] = (
    HarnessSnapshotImporter(), CatalogPageImporter(), DirectoryPageImporter(),
)


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
    "Part",
    "Problem",
    "RecordRejected",
    "SourceFile",
    "choose_importer",
]
