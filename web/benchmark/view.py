"""How the benchmark page shows a statement: each value with the records that state it.

Every graph that states something on the page gets a number, as a footnote does: the
records that describe the benchmark first (in file order), then the other records that speak
of it, then the build graph and the ontology. A value carries the numbers of the graphs that
state it, and the page's "Records" section says what each number is, and when that record
was researched, reviewed and built. Two records that give one fact two values (two release
years, two summaries) show both, each with its numbers, marked as a disagreement.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

import pyoxigraph as ox

from graph.namespace import ONTOLOGY_IRI, XSD
from graph.store.base import RecordGraph, Statement, Term
from web.benchmark.data import (
    Neighbourhood,
    Node,
    bench,
    dcterms,
    foaf,
    prov,
    rdf,
    rdfs,
    schema,
    skos,
)
from web.entities.page import graph_cell
from web.links import iri_href

_ANY_URI = str(XSD.anyURI)
_BOOLEAN = str(XSD.boolean)
_HTTP = ("http://", "https://")


@dataclass(frozen=True)
class Said:
    """A graph that states something on the page: its footnote number and what it is."""

    number: int
    graph: str
    name: str
    """The graph's short name: a record by its key, the build graph as ``build``."""
    file: str
    """The record's file ("" for the build graph and the ontology)."""
    href: str | None
    when: str
    """When the record was researched, reviewed and built, as far as it says."""
    kind: str = "record"
    """``record``, ``build`` or ``ontology``."""


@dataclass(frozen=True)
class Shown:
    """One value as the page shows it."""

    text: str
    href: str | None
    external: bool
    """The link leaves the site (``rel="nofollow noopener"``)."""
    note: str
    """A literal's language."""
    said: tuple[Said, ...]
    term: Term

    @property
    def long(self) -> bool:
        """Text that reads as a paragraph rather than a value."""
        return len(self.text) > 200 or "\n" in self.text.strip()


@dataclass(frozen=True)
class Row:
    """A property and its values."""

    label: str
    values: tuple[Shown, ...]
    disputed: bool = False
    href: str | None = None
    """The property's entry in the ontology's documentation, where it has one."""
    """More than one value where one is expected: the records disagree."""


SINGLE_VALUED = frozenset((
    rdfs.label, dcterms.abstract, dcterms.modified, dcterms.title, dcterms.issued,
    schema.codeRepository,
    bench.body, bench.measures, bench.taskFormat, bench.released, bench.status,
    bench.accessLevel, bench.contaminationRisk, bench.saturationStatus, bench.saturationAsOf,
    bench.topScore, bench.leaderboard, bench.publisherUrl, bench.paper, bench.level,
    bench.scoring, bench.answerFormat, bench.taskAvailability, bench.family, bench.catalogued,
    bench.direction, bench.unit, bench.maxScore, bench.humanBaseline, bench.randomBaseline,
    bench.size, bench.publicTestSet, bench.licenseText, bench.arxiv, bench.taskName,
    bench.score, bench.model, bench.accessed, bench.agent,
))
"""Facts a benchmark (or one of its parts) has one value of: two values are two records
disagreeing, which the page marks. (Tags, aliases, languages and the like are lists.)"""


STANDARD_LABELS = {
    rdfs.label: "name", skos.altLabel: "also called", dcterms.identifier: "catalog id",
    dcterms.abstract: "summary", dcterms.title: "title", dcterms.issued: "year (as cited)",
    dcterms.modified: "last updated", dcterms.language: "language", dcterms.creator: "creator",
    schema.url: "web page", schema.codeRepository: "code repository",
    prov.generatedAtTime: "built at", foaf.homepage: "homepage",
}
"""Words for the standard terms the graph reuses, which the ontology does not label."""


def footnote_order(graphs: Iterable[str], files: Mapping[str, str],
                   describing: Collection[str], base: str) -> list[str]:
    """The graphs in the order the page numbers them: the records that describe the benchmark,
    then the other records, each by file and then by name (a harness snapshot is one file of
    many records: whatever order they come in, one page numbers them the same way every
    time), then the build graph, then the ontology."""
    build, ontology = f"{base}build", str(ONTOLOGY_IRI)
    return sorted(graphs, key=lambda g: (g == ontology, g == build, g not in describing,
                                         files.get(g, g), g))


class View:
    """The page's terms, values and footnotes, over one ``Neighbourhood``."""

    def __init__(self, hood: Neighbourhood, base: str,
                 record_graph: Callable[[str], RecordGraph | None]) -> None:
        self.hood = hood
        self.base = base
        self.saids = self._footnotes(record_graph)

    def _footnotes(self, record_graph: Callable[[str], RecordGraph | None]
                   ) -> dict[str, Said]:
        graphs = {statement.graph.value for statement in self.hood.statements()}
        graphs.update(self.hood.records)
        files = {graph: found.source_file for graph in graphs
                 if (found := record_graph(graph)) is not None}
        build, ontology = f"{self.base}build", str(ONTOLOGY_IRI)
        saids = {}
        for number, graph in enumerate(footnote_order(graphs, files, self.hood.describing,
                                                      self.base), start=1):
            shown = graph_cell(ox.NamedNode(graph), self.base)
            record = self.hood.records.get(graph)
            kind = {build: "build", ontology: "ontology"}.get(graph, "record")
            saids[graph] = Said(number, graph, shown.text, files.get(graph, ""), shown.href,
                                _when(record) if record else "", kind)
        return saids

    def label(self, iri: str) -> str:
        """The label of ``iri``, else its short name (``base:benchmark/x``, ``bench:x``)."""
        return self.hood.labels.text(iri)

    def predicate_label(self, predicate: str) -> str:
        text = STANDARD_LABELS.get(predicate) or self.label(predicate)
        return text[:1].upper() + text[1:]

    def shown(self, statements: Iterable[Statement], of_subject: bool = False,
              with_said: bool = True) -> tuple[Shown, ...]:
        """The distinct objects of ``statements`` (their subjects, ``of_subject``), each with
        the graphs that state it (unless not ``with_said``)."""
        graphs: dict[Term, dict[str, None]] = {}
        for statement in statements:
            term = statement.subject if of_subject else statement.object
            graphs.setdefault(term, {})[statement.graph.value] = None
        return tuple(self.value(term, tuple(self.saids[g] for g in found) if with_said else ())
                     for term, found in graphs.items())

    def merged(self, *groups: Sequence[Shown]) -> tuple[Shown, ...]:
        """The values of ``groups`` once each, with every graph that states each."""
        saids: dict[Term, dict[Said, None]] = {}
        for group in groups:
            for shown in group:
                saids.setdefault(shown.term, {}).update(dict.fromkeys(shown.said))
        return tuple(self.value(term, tuple(found)) for term, found in saids.items())

    def value(self, term: Term, said: tuple[Said, ...] = ()) -> Shown:
        if isinstance(term, ox.NamedNode):
            href = iri_href(term.value, self.base)
            external = href is not None and href.startswith(_HTTP)
            return Shown(self.label(term.value), href, external, "", said, term)
        if isinstance(term, ox.BlankNode):
            return Shown(f"_:{term.value}", None, False, "", said, term)
        datatype = term.datatype.value
        text = term.value
        if datatype == _BOOLEAN:
            text = {"true": "yes", "false": "no"}.get(text, text)
        href = text if datatype == _ANY_URI and text.startswith(_HTTP) else None
        return Shown(text, href, href is not None, term.language or "", said, term)

    def row(self, node: Node, predicate: str, label: str | None = None,
            with_said: bool = True) -> Row | None:
        """``predicate``'s values on ``node``; None when it has none."""
        values = self.shown(node.get(predicate), with_said=with_said)
        if not values:
            return None
        disputed = len(values) > 1 and predicate in SINGLE_VALUED
        href = iri_href(predicate, self.base)
        local = href if href and not href.startswith(_HTTP) else None
        return Row(label or self.predicate_label(predicate), values, disputed, local)

    def rows(self, node: Node, predicates: Sequence[str], with_said: bool = True) -> list[Row]:
        return [row for p in predicates
                if (row := self.row(node, p, with_said=with_said)) is not None]

    def table(self, node: Node, skip: Iterable[str] = (), with_said: bool = True) -> list[Row]:
        """Every property of ``node`` but ``rdf:type`` and ``skip``, by label."""
        left_out = {rdf.type, *skip}
        predicates = sorted((p for p in node.statements if p not in left_out),
                            key=lambda p: self.predicate_label(p).casefold())
        return self.rows(node, predicates, with_said)


def _when(record: Node) -> str:
    parts = [f"{word} {value}" for word, predicate in (
        ("researched", bench.researched), ("reviewed", bench.reviewed),
        ("built", prov.generatedAtTime),
    ) if (value := record.lexical(predicate))]
    return ", ".join(parts)


__all__ = ["SINGLE_VALUED", "Row", "Said", "Shown", "View"]
