"""What a search and a look at the benchmark list answer with: typed, and JSON for clients."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from graph.errors import BenchgraphError, ErrorKind

MATCHES = ("exact", "joined", "prefix", "joined prefix", "text", "typo name", "typo text")
"""How a hit matched, best first: the tiers of the ranking (``graph.search.ranking``)."""


class SearchError(BenchgraphError):
    """A search or a list request that cannot be answered as asked (too long, a bad sort)."""

    kind = ErrorKind.USAGE


@dataclass(frozen=True)
class Fragment:
    """A piece of a snippet: ``match`` when it is a word the query found."""

    text: str
    match: bool = False


@dataclass(frozen=True)
class SearchHit:
    """One node a search found."""

    iri: str
    label: str
    kind: str
    """``benchmark``, ``organisation``, ``person``, ``paper``, ``model``, ``harness``,
    ``suite``, ``tag`` or ``category``."""
    summary: str
    snippet: tuple[Fragment, ...]
    """The summary around the words found (the start of it for a match by name)."""
    match: str
    """One of ``MATCHES``."""
    score: float
    """Relevance within its match tier, higher is better: 1 for an exact name (joined or
    not), the share of the name the query covers for a prefix, SQLite FTS5's BM25 (negated)
    for text. The
    order of ``SearchResults.hits`` is the ranking; the score explains it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "iri": self.iri, "label": self.label, "kind": self.kind, "match": self.match,
            "score": round(self.score, 6), "summary": self.summary,
            "snippet": [{"text": f.text, "match": f.match} for f in self.snippet],
        }


@dataclass(frozen=True)
class SearchResults:
    """One page of hits, best first, and how many there are in all."""

    query: str
    hits: tuple[SearchHit, ...]
    total: int
    limit: int
    offset: int

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "total": self.total, "limit": self.limit,
                "offset": self.offset, "hits": [hit.to_json() for hit in self.hits]}


@dataclass(frozen=True)
class BrowseRequest:
    """A view of the benchmark list: the facet values chosen, the order, the page."""

    selection: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Value keys chosen, by facet name: any of one facet's (OR), all facets' (AND)."""
    sort: str = "name"
    limit: int | None = 50
    """Rows of the page; None for every row."""
    offset: int = 0
    facet_size: int = 10
    """Values shown per facet (the most frequent; the chosen ones always)."""
    expanded: frozenset[str] = frozenset()
    """Facets to show with every value."""


@dataclass(frozen=True)
class ValueRef:
    """A facet value as a row shows it."""

    facet: str
    key: str
    label: str
    term: str
    """The N-Triples form of the RDF term."""


@dataclass(frozen=True)
class FacetCount:
    """A facet value and the benchmarks it would give."""

    value: ValueRef
    count: int
    """Benchmarks that have this value and match the other facets' choices."""
    selected: bool


@dataclass(frozen=True)
class FacetCounts:
    """One facet's values under the current choices, most frequent first."""

    name: str
    title: str
    values: tuple[FacetCount, ...]
    hidden: int
    """Values with benchmarks left out of ``values`` (see ``BrowseRequest.facet_size``)."""
    not_stated: FacetCount
    """The benchmarks that state none of its values (``graph.search.facets.NOT_STATED``),
    counted as a value is; never among ``values``."""

    @property
    def shows_not_stated(self) -> bool:
        """Whether a page shows ``not_stated``: as a value, when it has benchmarks or is
        chosen."""
        return bool(self.not_stated.count or self.not_stated.selected)


@dataclass(frozen=True)
class BrowseRow:
    """One benchmark of the list."""

    iri: str
    identifier: str
    label: str
    summary: str
    released: str
    updated: str
    updated_record: str
    catalogued: bool
    results: int
    values: tuple[ValueRef, ...]

    def of(self, facet: str) -> tuple[ValueRef, ...]:
        """Its values of one facet."""
        return tuple(value for value in self.values if value.facet == facet)

    def to_json(self, facets: tuple[str, ...]) -> dict[str, Any]:
        return {
            "iri": self.iri, "identifier": self.identifier, "label": self.label,
            "summary": self.summary, "released": self.released or None,
            "updated": self.updated or None, "updated_record": self.updated_record or None,
            "catalogued": self.catalogued, "results": self.results,
        } | {name: [{"key": v.key, "label": v.label} for v in self.of(name)]
             for name in facets if name != "catalogued"}


@dataclass(frozen=True)
class BrowsePage:
    """The rows of one view, how many match in all, and every facet's counts."""

    request: BrowseRequest
    rows: tuple[BrowseRow, ...]
    total: int
    facets: tuple[FacetCounts, ...]


__all__ = ["MATCHES", "BrowsePage", "BrowseRequest", "BrowseRow", "FacetCount", "FacetCounts",
           "Fragment", "SearchError", "SearchHit", "SearchResults", "ValueRef"]
