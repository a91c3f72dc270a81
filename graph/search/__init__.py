"""Search and the faceted benchmark list, over an index built with the graph.

When a store is written, the process that writes it (``graph.store.writing``) writes
``INDEX_FILE`` beside it with ``write_index``, from the graph it has just written, so the index
is always of the graph beside it. A store answers ``search`` and ``browse`` from it
(``graph.store.artefacts``): the ranking rule is in ``graph.search.ranking``, the facets in
``graph.search.facets`` and ``graph.search.browse``.
"""

from graph.search.browse import browse
from graph.search.facets import SORTS
from graph.search.index import INDEX_FILE, IndexFigures, open_index, write_index
from graph.search.ranking import search
from graph.search.results import (
    BrowsePage,
    BrowseRequest,
    BrowseRow,
    FacetCount,
    FacetCounts,
    Fragment,
    SearchError,
    SearchHit,
    SearchResults,
    ValueRef,
)

__all__ = [
    "INDEX_FILE",
    "SORTS",
    "BrowsePage",
    "BrowseRequest",
    "BrowseRow",
    "FacetCount",
    "FacetCounts",
    "Fragment",
    "IndexFigures",
    "SearchError",
    "SearchHit",
    "SearchResults",
    "ValueRef",
    "browse",
    "open_index",
    "search",
    "write_index",
]
