"""The validation report: typed results, grouped by record and by shape.

A result says what is wrong (the shape's name and message, in the curator's words),
where (the record file, the focus node, the path) and with what value. The report is
the W3C SHACL report as data: ``to_graph`` gives the ``sh:ValidationReport`` graph,
``to_json`` a plain structure for tools (terms as the SPARQL JSON results write them).
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import pyoxigraph as ox
from rdflib import BNode, Graph, URIRef
from rdflib.term import Node

from graph.dataset.oxigraph import to_oxigraph, to_rdflib
from graph.namespace import PREFIXES, RDF, SH
from graph.sparql.results import json_term, term_from_json


class Severity(Enum):
    """A result's severity, most severe first; the value is the SHACL term's local name."""

    VIOLATION = "Violation"
    WARNING = "Warning"
    INFO = "Info"

    @property
    def iri(self) -> URIRef:
        return URIRef(f"{SH}{self.value}")

    @property
    def rank(self) -> int:
        """0 for a violation, 1 for a warning, 2 for an info."""
        return list(Severity).index(self)

    @classmethod
    def from_iri(cls, iri: Node) -> "Severity":
        for severity in cls:
            if severity.iri == iri:
                return severity
        raise ValueError(f"{iri} is not a SHACL severity")

    @classmethod
    def from_name(cls, name: str) -> "Severity":
        """``violation``, ``warning`` or ``info``, in any case."""
        for severity in cls:
            if severity.value.lower() == name.lower():
                return severity
        raise ValueError(f"{name!r} is not a severity (violation, warning, info)")


@dataclass(frozen=True)
class ValidationResult:
    """One thing wrong with one node, as one shape sees it."""

    severity: Severity
    focus_node: Node
    """The node the shape was checked on."""
    shape: Node
    """The shape that produced the result (``sh:sourceShape``)."""
    shape_name: str
    """The shape's ``sh:name`` (or label): what the result is about, in plain words."""
    message: str
    """The shape's ``sh:message``: what is wrong and how to fix it."""
    constraint: URIRef
    """The SHACL constraint component, such as ``sh:MinCountConstraintComponent``."""
    path: str | None = None
    """The property path the result is about, in SPARQL syntax with the usual prefixes."""
    path_node: Node | None = field(default=None, compare=False, repr=False)
    """The path as the shapes graph writes it (a blank node for a complex path)."""
    value: Node | None = None
    """The offending value, when there is one."""
    record: URIRef | None = None
    """The named graph of the record the result comes from (None: the whole catalog)."""
    source_file: str | None = None
    """The record's file, as a path below the folder it was loaded from."""

    def sort_key(self) -> tuple[str, str, int, str, str, str]:
        return (self.source_file or "", str(self.record or ""), self.severity.rank,
                str(self.shape), str(self.focus_node), str(self.value or ""))

    @classmethod
    def from_json(cls, data: dict[str, Any], shapes_graph: Graph | None = None
                  ) -> "ValidationResult":
        """The result ``to_json`` gave; ``shapes_graph`` (the shapes it came from) gives
        back the path as the shapes write it (``path_node``), which only ``to_graph`` uses."""
        shape = URIRef(data["shape"])
        record = data["record"]
        return cls(
            severity=Severity(data["severity"]),
            focus_node=to_rdflib(term_from_json(data["focus_node"])),
            shape=shape,
            shape_name=data["shape_name"],
            message=data["message"],
            constraint=URIRef(data["constraint"]),
            path=data["path"],
            path_node=None if shapes_graph is None else shapes_graph.value(shape, SH.path),
            value=None if data["value"] is None else to_rdflib(term_from_json(data["value"])),
            record=None if record is None else URIRef(record),
            source_file=data["source_file"],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "severity": self.severity.value,
            "record": None if self.record is None else str(self.record),
            "source_file": self.source_file,
            "focus_node": json_term(to_oxigraph(self.focus_node)),
            "path": self.path,
            "value": None if self.value is None else json_term(to_oxigraph(self.value)),
            "shape": str(self.shape),
            "shape_name": self.shape_name,
            "message": self.message,
            "constraint": str(self.constraint),
        }


@dataclass(frozen=True)
class ValidationReport:
    """Every result of one validation, sorted by file, record, severity and shape."""

    results: tuple[ValidationResult, ...] = ()
    records_checked: int = 0
    """Named graphs validated record by record (records, and any other graph of the data)."""
    shapes_graph: Graph | None = field(default=None, compare=False, repr=False)
    """The shapes the results came from: ``to_graph`` copies complex paths from it."""

    @classmethod
    def of(cls, results: Iterable[ValidationResult], records_checked: int,
           shapes_graph: Graph | None = None) -> "ValidationReport":
        ordered = tuple(sorted(set(results), key=ValidationResult.sort_key))
        return cls(ordered, records_checked, shapes_graph)

    @property
    def conforms(self) -> bool:
        """True when no result is a violation (warnings and infos do not fail the data)."""
        return not any(r.severity is Severity.VIOLATION for r in self.results)

    def count(self, severity: Severity) -> int:
        return sum(1 for r in self.results if r.severity is severity)

    def at_least(self, severity: Severity) -> "ValidationReport":
        """The results as severe as ``severity`` or more (``WARNING``: warnings and violations)."""
        kept = tuple(r for r in self.results if r.severity.rank <= severity.rank)
        return ValidationReport(kept, self.records_checked, self.shapes_graph)

    def by_record(self) -> dict[URIRef | None, list[ValidationResult]]:
        """Results grouped by record graph, in report order (None: the whole catalog)."""
        groups: dict[URIRef | None, list[ValidationResult]] = {}
        for result in self.results:
            groups.setdefault(result.record, []).append(result)
        return groups

    def by_shape(self) -> dict[Node, list[ValidationResult]]:
        """Results grouped by the shape that produced them, shapes in IRI order."""
        groups: dict[Node, list[ValidationResult]] = {}
        for result in sorted(self.results, key=lambda r: (str(r.shape), r.sort_key())):
            groups.setdefault(result.shape, []).append(result)
        return groups

    @classmethod
    def from_json(cls, data: dict[str, Any], shapes_graph: Graph | None = None
                  ) -> "ValidationReport":
        """The report ``to_json`` gave (a store keeps it so). Without ``shapes_graph``,
        ``to_graph`` leaves out each result's ``sh:resultPath`` (the text ``path`` stays)."""
        results = tuple(ValidationResult.from_json(item, shapes_graph)
                        for item in data["results"])
        return cls(results, int(data["records_checked"]), shapes_graph)

    def to_json(self) -> dict[str, Any]:
        return {
            "conforms": self.conforms,
            "records_checked": self.records_checked,
            "violations": self.count(Severity.VIOLATION),
            "warnings": self.count(Severity.WARNING),
            "infos": self.count(Severity.INFO),
            "results": [r.to_json() for r in self.results],
        }

    def to_graph(self) -> Graph:
        """The W3C SHACL validation report graph (``sh:ValidationReport``)."""
        graph = Graph(bind_namespaces="none")
        for prefix, namespace in _REPORT_PREFIXES.items():
            graph.bind(prefix, namespace)
        for triple in self._triples():
            graph.add((to_rdflib(triple.subject), to_rdflib(triple.predicate),
                       to_rdflib(triple.object)))
        return graph

    def to_turtle(self) -> bytes:
        """The report graph in Turtle, written by pyoxigraph: a tenth of the time rdflib's
        writer of ``to_graph`` took (it searches for a prefix per term), which ``benchgraph
        serve`` paid at every start (perf/decisions/pyoxigraph-parses-and-writes.md)."""
        written = ox.serialize(self._triples(), format=ox.RdfFormat.TURTLE,
                               prefixes=_REPORT_PREFIXES)
        assert written is not None  # with no output given, pyoxigraph returns the bytes
        return written

    def _triples(self) -> list[ox.Triple]:
        """The report graph: the report node's triples, then each result's."""
        terms: dict[Node, ox.NamedNode | ox.BlankNode | ox.Literal] = {}

        def term(node: Node) -> ox.NamedNode | ox.BlankNode | ox.Literal:
            found = terms.get(node)
            if found is None:
                found = terms[node] = to_oxigraph(node)
            return found

        report = ox.BlankNode()
        nodes = [ox.BlankNode() for _ in self.results]
        triples = [ox.Triple(report, _TYPE, _SH["ValidationReport"]),
                   ox.Triple(report, _SH["conforms"], ox.Literal(self.conforms))]
        triples += [ox.Triple(report, _SH["result"], node) for node in nodes]
        paths: set[ox.Triple] = set()
        for node, result in zip(nodes, self.results, strict=True):
            triples += [ox.Triple(node, _TYPE, _SH["ValidationResult"]),
                        ox.Triple(node, _SH["resultSeverity"], term(result.severity.iri)),
                        ox.Triple(node, _SH["focusNode"], term(result.focus_node)),
                        ox.Triple(node, _SH["sourceShape"], term(result.shape)),
                        ox.Triple(node, _SH["sourceConstraintComponent"],
                                  term(result.constraint)),
                        ox.Triple(node, _SH["resultMessage"], ox.Literal(result.message))]
            if result.value is not None:
                triples.append(ox.Triple(node, _SH["value"], term(result.value)))
            if result.path_node is not None:
                triples.append(ox.Triple(node, _SH["resultPath"], term(result.path_node)))
                if isinstance(result.path_node, BNode) and self.shapes_graph is not None:
                    for triple in _path_statements(self.shapes_graph, result.path_node):
                        found = ox.Triple(*map(term, triple))  # type: ignore[arg-type]
                        if found not in paths:  # a path node met again
                            paths.add(found)
                            triples.append(found)
        return triples


_REPORT_PREFIXES = {**PREFIXES, "sh": str(SH)}
_TYPE = ox.NamedNode(str(RDF.type))
_SH = {name: ox.NamedNode(f"{SH}{name}") for name in (
    "ValidationReport", "ValidationResult", "conforms", "result", "resultSeverity", "focusNode",
    "sourceShape", "sourceConstraintComponent", "resultMessage", "value", "resultPath")}
"""The SHACL terms the report states, as pyoxigraph terms."""


def _path_statements(shapes: Graph, node: BNode) -> Iterator[tuple[Node, Node, Node]]:
    """What the shapes graph says of a blank path node (``sh:alternativePath`` lists...)."""
    for p, o in shapes.predicate_objects(node):
        yield node, p, o
        if isinstance(o, BNode):
            yield from _path_statements(shapes, o)
