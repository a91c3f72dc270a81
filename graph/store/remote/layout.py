"""What ``benchgraph push`` writes into a remote engine, and how a remote store reads it back.

Graphs on the engine (``base`` is the data's base IRI):

- every record's graph, the build graph and the ontology graph, under the IRIs they have in
  every store: the *data graphs*, each the N-Triples of its statements in the local store's
  order;
- **the merge** (DESIGN.md: the default graph is the RDF merge of the data graphs). Neither
  engine measured gives it: Oxigraph and Virtuoso both answer a query over ``FROM g1 FROM
  g2`` (or ``default-graph-uri`` g1 and g2, or their union default graph) with a triple
  once per graph that states it. So the push writes it, deduplicated: into the engine's own
  default graph when that is a graph of its own (Oxigraph, Fuseki), where ``GRAPH ?g`` never
  sees it; else (Virtuoso, whose default graph is every graph) into ``{base}push/merge``,
  which queries then name with ``default-graph-uri``. ``PushManifest.merge`` says which;
- ``{base}push``: the manifest, as JSON: the build's facts (base, when, which files with
  their SHA-256, the counts, the rejected files, the records the push added, changed and
  removed: ``BuildFacts.to_json``), each graph's content hash as the engine
  holds it, and whether the last push finished. One graph, so that one PUT replaces it whole
  (old or new, never half), and one query reads it;
- ``{base}push/validation``: the validation report's JSON form, when the push validated.

Each of those JSON texts is written in parts (``json_document``), one statement a part:
``<{graph}#000000> predicate "…"``, ``<{graph}#000001> …``, read back joined in the order of
their subjects. An engine's parser may refuse one long literal: Oxigraph's server refuses a
token over 16 MiB ("Reached the buffer maximal size"), which the manifest of a large
catalog passes (perf/decisions/push-manifest-in-parts.md). No data IRI appears in those
graphs, so ``GRAPH ?g { <node> ?p ?o }`` never meets them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import islice
from typing import Any, cast

import pyoxigraph as ox

from graph.build.stats import GraphStats
from graph.store.base import BuildFacts

FORMAT = 2
"""The layout's version: 2 writes the JSON texts in parts (1: one literal each)."""
PUSH_NS = "https://w3id.org/benchgraph/push#"
MANIFEST_PREDICATE = ox.NamedNode(PUSH_NS + "manifest")
REPORT_PREDICATE = ox.NamedNode(PUSH_NS + "validationReport")
DEFAULT = "default"
"""``PushManifest.merge`` when the merge is the engine's default graph."""
UNKNOWN = "unknown"
"""The hash an unfinished manifest gives a graph the engine may hold but whose content it
cannot vouch for: one a push was sending or removing when it stopped (it may be the old
graph, the new one, or gone). No content has this hash, so the next push sends the graph
again when it wants it, and deletes it when it does not."""


@dataclass(frozen=True)
class Names:
    """The IRIs of benchgraph's own graphs on an engine, for the data's ``base``."""

    base: str

    @property
    def manifest(self) -> str:
        return f"{self.base}push"

    @property
    def validation(self) -> str:
        return f"{self.base}push/validation"

    @property
    def merge(self) -> str:
        return f"{self.base}push/merge"

    @property
    def nothing(self) -> str:
        """A graph no push writes: an empty graph, to ask for a dataset with none."""
        return f"{self.base}push/none"

    @property
    def own(self) -> str:
        """The prefix of every graph benchgraph keeps for itself."""
        return f"{self.base}push"


@dataclass(frozen=True)
class PushManifest:
    """The facts of the build an engine holds, as the last push left them."""

    facts: BuildFacts
    counts: GraphStats
    merge: str
    """``DEFAULT``, or the IRI of the named graph holding the merge."""
    graphs: dict[str, str]
    """Every graph a push wrote that the engine may hold (the data graphs, the merge under
    ``merge``'s name or ``DEFAULT``, the validation graph), each with the SHA-256 of its
    canonical N-Triples as the engine holds it; in an unfinished manifest, ``UNKNOWN`` for
    a graph a push was sending or removing. A graph the engine may hold is never left out:
    a graph the manifest does not list is one no push will ever delete."""
    complete: bool
    """False while a push is under way, or when one stopped before it finished."""
    quads: int = 0
    triples: int = 0
    validated: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            **self.facts.to_json(),
            "counts": self.counts.to_json(),
            "merge": self.merge,
            "graphs": dict(sorted(self.graphs.items())),
            "complete": self.complete,
            "quads": self.quads,
            "triples": self.triples,
            "validated": self.validated,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PushManifest:
        return cls(BuildFacts.from_json(data), GraphStats.from_json(data["counts"]), data["merge"],
                   dict(data["graphs"]), bool(data["complete"]), int(data["quads"]),
                   int(data["triples"]), bool(data["validated"]))

    def data_graphs(self) -> list[str]:
        """The data graphs the engine holds (every record's, the build's, the ontology's),
        in order: the graphs but the merge and benchgraph's own."""
        own = Names(self.facts.base).own
        return sorted(name for name in self.graphs
                      if name != DEFAULT and not name.startswith(own))

    def holding(self, graphs: dict[str, str], complete: bool) -> PushManifest:
        return replace(self, graphs=dict(graphs), complete=complete)


PART_CHARACTERS = 2**20
"""The most characters of JSON text in one literal: at most 4 MiB of UTF-8 (8 MiB with
every character escaped), under the 16 MiB Oxigraph's server parses as one token."""


def json_document(graph: str, predicate: ox.NamedNode, data: dict[str, Any]) -> bytes:
    """The statements of the graph ``graph`` that hold ``data`` as JSON: one a part of the
    text, ``<graph#NNNNNN> predicate "part"`` (see the module's docstring)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    parts = range(0, max(len(text), 1), PART_CHARACTERS)
    return "".join(f"{ox.NamedNode(f'{graph}#{number:06d}')} {predicate} "
                   f"{ox.Literal(_escaped_ends(text[start:start + PART_CHARACTERS]))} .\n"
                   for number, start in enumerate(parts)).encode()


def _escaped_ends(part: str) -> str:
    """``part`` with the white space at its ends written as JSON escapes: Virtuoso trims a
    literal's (a part that ended in "a " came back as "a"). Compact JSON holds white space
    only inside its strings, where ``\\u0020`` reads as the space it stands for."""
    def escape(spaces: str) -> str:
        return "".join(f"\\u{ord(character):04x}" for character in spaces)

    if not part.strip():
        return escape(part)
    start, end = len(part) - len(part.lstrip()), len(part.rstrip())
    return escape(part[:start]) + part[start:end] + escape(part[end:])


def read_json(parts: Iterable[tuple[str, ox.Literal]]) -> dict[str, Any]:
    """The JSON object ``json_document`` wrote, from its statements' subjects and objects,
    in any order; ValueError when it is not one."""
    text = "".join(value.value for _, value in sorted(parts, key=lambda part: part[0]))
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


def part_of(subject: str, graph: str) -> bool:
    """Whether ``subject`` names a part of the JSON ``json_document`` writes into ``graph``."""
    number = subject.removeprefix(f"{graph}#")
    return number != subject and len(number) == 6 and number.isdigit()


@dataclass(frozen=True)
class Document:
    """A graph to PUT: its IRI (None: the default graph) and its statements, made afresh
    chunk by chunk each time they are read (``chunks``), with their size, count and content
    hash, taken in one reading when the document is made. So a document need not be held
    whole: the merge (the catalog's whole N-Triples) is made twice, to be hashed and to be
    sent, and never kept (perf/decisions/push-merge-streamed.md)."""

    graph: str | None
    chunks: Callable[[], Iterable[bytes]]
    sha256: str = field(init=False)
    size: int = field(init=False)
    """Bytes in the document."""
    lines: int = field(init=False)
    """Statements in the document."""

    def __post_init__(self) -> None:
        digest, size, lines = hashlib.sha256(), 0, 0
        for chunk in self.chunks():
            digest.update(chunk)
            size += len(chunk)
            lines += chunk.count(b"\n")
        object.__setattr__(self, "sha256", digest.hexdigest())
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "lines", lines)

    @classmethod
    def of(cls, graph: str | None, text: bytes) -> Document:
        """The document of a text already made (a record's graph, a JSON document)."""
        return cls(graph, lambda: (text,))


class DataGraphs:
    """Each data graph of a store as N-Triples, read from the store one graph at a time, in
    the store's order (on disk the same statements are always in the same order, so a graph's
    text, and its hash, is the same from build to build)."""

    def __init__(self, store: ox.Store) -> None:
        self._store = store
        self.iris = sorted(graph.value for graph in store.named_graphs()
                           if isinstance(graph, ox.NamedNode))
        """The graphs' IRIs, in order."""

    def __len__(self) -> int:
        return len(self.iris)

    def document(self, index: int) -> Document:
        graph = ox.NamedNode(self.iris[index])
        return Document.of(self.iris[index], b"".join(_ntriples(self._store, graph)))

    def merge(self, graph: str | None) -> Document:
        """The merge of every graph (the store's default graph: the distinct triples), for
        the graph ``graph``; read from the store each time it is read, never held whole."""
        return Document(graph, partial(_ntriples, self._store, ox.DefaultGraph()))

    def __iter__(self) -> Iterator[Document]:
        return (self.document(index) for index in range(len(self)))


_BLOCK = 10_000
"""Statements serialised at a time."""


def _ntriples(store: ox.Store, graph: ox.NamedNode | ox.DefaultGraph) -> Iterator[bytes]:
    """The statements of ``graph`` in ``store`` as N-Triples, a block at a time."""
    quads = store.quads_for_pattern(None, None, None, graph)
    while block := [quad.triple for quad in islice(quads, _BLOCK)]:
        yield cast(bytes, ox.serialize(block, format=ox.RdfFormat.N_TRIPLES))


__all__ = [
    "DEFAULT",
    "UNKNOWN",
    "DataGraphs",
    "Document",
    "Names",
    "PushManifest",
    "json_document",
    "part_of",
    "read_json",
]
