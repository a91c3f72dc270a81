"""The ``Store`` protocol: all that the CLI, the validator and the web app see of the graph.

A store runs a query (typed bindings, an optional dataset, limits) and answers with a
``QueryResult``; describes a node (its outgoing and incoming statements, each with the graph
that states it); says what build it holds (its record graphs) and gives the counts
``benchgraph stats`` prints. What the build made besides the graph (the search index, the
validation report, the dumps) is one object, ``artefacts()``, that every kind makes the same
way (``graph.store.artefacts``). Nothing above this module knows which kind of store it has
(``graph.store.kinds``).

Terms are pyoxigraph's (``NamedNode``, ``BlankNode``, ``Literal``): the engine's own, so a
result reaches a page or a file without a conversion per term.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

import pyoxigraph as ox

from graph.build.stats import GraphStats
from graph.sparql.query_text import BindingTerm, BindingValue
from graph.sparql.result import QueryResult
from graph.store.changes import NOT_KEPT, BuildChanges

if TYPE_CHECKING:  # it names these types; it reads nothing of them
    from graph.store.artefacts import Artefacts

Term = ox.NamedNode | ox.BlankNode | ox.Literal
Bindings = Mapping[str, BindingValue]
"""Values for a query's variables, by name without ``?``: bound before the query runs (a
tuple of terms: each in turn)."""
ValidationSuffix = Literal[".json", ".ttl"]
"""The forms a store keeps its validation report in."""


def term_order(term: Term) -> tuple[int, str, str]:
    """SPARQL's order of terms (blank nodes, IRIs, then literals by text) as a sort key: for
    sorting answers in Python, which on the on-disk store is much cheaper than ORDER BY
    (there a sort decodes each term's text from the store at every comparison)."""
    if isinstance(term, ox.Literal):
        return 2, term.value, term.language or term.datatype.value
    return (0 if isinstance(term, ox.BlankNode) else 1), term.value, ""


@dataclass(frozen=True)
class QueryDataset:
    """The RDF dataset a request picks (SPARQL Protocol ``default-graph-uri`` and
    ``named-graph-uri``): graphs of the store by IRI. An IRI the store does not hold is an
    empty graph; nothing is ever fetched."""

    default_graphs: tuple[str, ...] = ()
    named_graphs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Limits:
    """How long a query may run, how many rows (or triples) it may return, and how long its
    text may be."""

    timeout: float
    """Seconds; the query is stopped, whatever it is doing, when they are up."""
    rows: int | None
    """At most this many rows or triples are returned (the result says it was cut); None
    for no limit."""
    query_bytes: int = 65_536
    """The longest query text a store admits, in bytes of UTF-8 (``graph.sparql.admission``)."""


@dataclass(frozen=True)
class Statement:
    """One statement about a described node, and the named graph that states it."""

    subject: Term
    predicate: ox.NamedNode
    object: Term
    graph: ox.NamedNode


@dataclass(frozen=True)
class Description:
    """What the store says about one node: statements from it and statements to it."""

    node: ox.NamedNode
    outgoing: tuple[Statement, ...]
    incoming: tuple[Statement, ...]
    truncated: bool = False
    """True when the store holds more statements than the description's limit let in."""

    @property
    def exists(self) -> bool:
        """Whether the store says anything about the node at all."""
        return bool(self.outgoing or self.incoming)


@dataclass(frozen=True)
class RecordGraph:
    """One record's named graph, and the file it was built from."""

    graph: str
    source_file: str
    sha256: str
    """The SHA-256 of the record file's text, as the build read it."""


@dataclass(frozen=True)
class StoredFile:
    """A file a store keeps whole (a dump, the validation report), to stream as it is."""

    path: Path
    version: str
    """Changes whenever the file's contents may: the build that wrote it (an HTTP ETag)."""

    @property
    def size(self) -> int:
        """Its length in bytes."""
        return self.path.stat().st_size


def _record_json(record: RecordGraph) -> dict[str, str]:
    """``dataclasses.asdict`` of a record graph, by hand: that deep-copies every field, most
    of the time of writing the manifest of a large catalog."""
    return {"graph": record.graph, "source_file": record.source_file, "sha256": record.sha256}


@dataclass(frozen=True)
class BuildFacts:
    """What a store knows of the build it holds."""

    base: str
    built_at: str
    """ISO 8601, UTC."""
    records: tuple[RecordGraph, ...] = ()
    rejected: tuple[str, ...] = field(default=())
    """Files the build could not read, as ``path: field: reason`` lines."""
    changes: BuildChanges = field(default_factory=BuildChanges)
    """What it changed against the build before it; by default, built when its store was
    opened (the writer of a store that holds builds one after another says otherwise)."""

    def to_json(self) -> dict[str, Any]:
        """The facts as a store's manifest keeps them."""
        return {
            "base": self.base,
            "built_at": self.built_at,
            "records": [_record_json(record) for record in self.records],
            "rejected": list(self.rejected),
            "changes": self.changes.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BuildFacts:
        """The facts ``to_json`` wrote (``NOT_KEPT`` changes when it kept none)."""
        changes = data.get("changes")
        return cls(data["base"], data["built_at"],
                   tuple(RecordGraph(**record) for record in data["records"]),
                   tuple(data["rejected"]),
                   NOT_KEPT if changes is None else BuildChanges.from_json(changes))

    def record(self, graph: str) -> RecordGraph | None:
        """The record graph named ``graph`` (None: no record's). A benchmark page asks for the
        few its statements come from; making a dictionary of every record for each, as it
        did, was a third of a large catalog's page (perf/decisions/record-graph-lookup.md)."""
        return self._by_graph.get(graph)

    @cached_property
    def _by_graph(self) -> dict[str, RecordGraph]:
        return {record.graph: record for record in self.records}


class Store(Protocol):
    """A built graph that queries can run on (read-only)."""

    @property
    def base(self) -> str:
        """The base IRI of the data."""
        ...

    def query(
        self,
        text: str,
        bindings: Bindings | None = None,
        dataset: QueryDataset | None = None,
        limits: Limits | None = None,
    ) -> QueryResult:
        """Run a SPARQL query (SELECT, ASK, CONSTRUCT or DESCRIBE).

        Raises ``ReadOnlyError`` for an update or SERVICE, ``QuerySyntaxError`` for text the
        parser refuses, ``QueryTimeout`` when the time limit stops it."""
        ...

    def describe(self, node: str, limit: int | None = None) -> Description:
        """Every statement from and to ``node`` (at most ``limit`` of each), with its graph."""
        ...

    def counts(self) -> GraphStats:
        """The counts ``benchgraph stats`` prints."""
        ...

    def build_facts(self) -> BuildFacts:
        """The facts of the build the store holds: when it was made, from which records, and
        what it changed against the one before it (``BuildFacts.changes``)."""
        ...

    def artefacts(self) -> Artefacts:
        """The search index, the validation report and the dumps of the build it answers from
        now (``graph.store.artefacts``). Where a store folder may be built again meanwhile,
        ask within a ``reading`` block and use them within it."""
        ...

    def prepare(self) -> None:
        """Start what this process needs to query (its query processes), so that the first
        query does not wait for them; a server calls it in each worker."""
        ...

    def reading(self) -> AbstractContextManager[Store]:
        """A view of the store that answers everything from one build of it, and whose files
        (a dump being streamed) stay readable until the block ends: a server asks a request's
        questions of one view, from the request's first use of the store until its response
        is sent, so that a store folder rebuilt meanwhile is moved to at a request boundary
        (``graph.store.following``). A store that never changes is its own view."""
        ...

    def close(self) -> None:
        """Stop what the store runs (query processes) and remove what it made for itself."""
        ...


__all__ = [
    "BindingTerm",
    "BindingValue",
    "Bindings",
    "BuildFacts",
    "Description",
    "Limits",
    "QueryDataset",
    "RecordGraph",
    "Statement",
    "Store",
    "StoredFile",
    "Term",
    "ValidationSuffix",
    "term_order",
]
