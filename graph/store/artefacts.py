"""What a build makes of its graph besides the store: the search index, the validation report
and the dumps, behind one object that every kind of store makes the same way.

A store answers queries (``graph.store.base.Store``); everything read from a file the build
made is asked of its ``artefacts()``: search and the benchmark list from the search index,
the report kept from validating the build, and the whole graph in a format. Every kind keeps
them in one folder (``graph.store.files`` names its files): a local store in its generation
folder, a remote store in the folder it makes from the engine on first need. What differs by
kind is given, not asked: where that folder is (found when first needed, since a remote
store makes it), how a dump is found or made, and where the report is read from.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from graph.export.formats import Format
from graph.search import INDEX_FILE, BrowsePage, BrowseRequest, SearchResults, browse, search
from graph.search import open_index as _open_index
from graph.store.base import StoredFile, ValidationSuffix
from graph.store.files import VALIDATION_JSON, VALIDATION_TURTLE
from graph.validation.report import ValidationReport


@dataclass(frozen=True)
class Artefacts:
    """The search index, the validation report and the dumps of one build."""

    base: str
    """The base IRI of the build's data."""
    folder: Callable[[], Path]
    """The folder that holds the index and the report's files, made now if it was not yet
    (StorePreparing while another process makes it)."""
    dump: Callable[[Format], StoredFile]
    """The whole graph in a format: a file to stream as it is (never to read whole), written
    now if it was not yet. The same statements as ``benchgraph build -o FILE`` writes for the
    same records, each literal in the form the engine keeps. StoreError when it cannot be
    made."""
    validation: Callable[[], ValidationReport | None]
    """The report of validating the graph against the shapes when it was built; None when it
    was built without validating."""

    def search(self, text: str, limit: int = 20, offset: int = 0) -> SearchResults:
        """The named nodes ``text`` finds (benchmarks first), ranked as
        ``graph.search.ranking`` says: ``limit`` hits from ``offset``, and how many there are.
        Raises ``SearchError`` for a query too long to mean anything; a query with no words
        finds nothing."""
        with self._index() as db:
            return search(db, text, limit, offset)

    def browse(self, request: BrowseRequest) -> BrowsePage:
        """One view of the benchmark list: the rows the facet values chosen give, in the order
        and page asked for, with every facet's counts (``graph.search.browse``)."""
        with self._index() as db:
            return browse(db, request)

    def _index(self) -> closing[sqlite3.Connection]:
        """The search index, opened for one call (a connection costs little, and then no
        connection ever crosses a thread or a fork:
        perf/decisions/index-connection-per-call.md)."""
        return closing(_open_index(self.folder() / INDEX_FILE, self.base))

    def validation_file(self, suffix: ValidationSuffix) -> StoredFile | None:
        """The kept report as a file to stream: ``.json``, its JSON form; ``.ttl``, the W3C
        SHACL report in Turtle. None when the build was not validated."""
        if self.validation() is None:
            return None
        folder = self.folder()
        path = folder / (VALIDATION_JSON if suffix == ".json" else VALIDATION_TURTLE)
        return StoredFile(path, folder.name)


__all__ = ["Artefacts"]
