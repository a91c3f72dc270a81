"""The shapes, read once and compiled for validating many records.

``ShapeSet.load`` parses the Turtle files and prepares what every record reuses:

- pyshacl's ``ShapesGraph``, harvested once, over a runtime copy of the shapes in which
  each node shape's targets are moved onto its property shapes. The results are the
  same (a property shape's results name the property shape and the focus node either
  way), but pyshacl then checks a property shape once for all its focus nodes instead of
  once per focus node, which is most of its cost on many small records.
- The SPARQL-based constraints, taken out of pyshacl's copy and run on pyoxigraph with
  ``$this`` left free (see ``graph.validation.sparql``): rdflib's SPARQL engine takes
  milliseconds per focus node.
- The shapes marked ``bsh:checkedAcrossRecords true``, which are not run record by
  record at all (see ``graph.validation.across``).
"""

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pyshacl.constraints import ALL_CONSTRAINT_PARAMETERS
from pyshacl.shape import Shape
from pyshacl.shapes_graph import ShapesGraph
from rdflib import Graph, Literal, Namespace
from rdflib.namespace import RDF, RDFS, SH
from rdflib.term import Node

from graph.errors import BenchgraphError, ErrorKind
from graph.namespace import PREFIXES
from graph.resources import data_dir
from graph.validation.paths import render_path
from graph.validation.report import Severity
from graph.validation.sparql import SparqlRule, SparqlRuleError, compile_rule

BSH = Namespace("https://w3id.org/benchgraph/shapes#")
CHECKED_ACROSS_RECORDS = BSH.checkedAcrossRecords
TARGETS = (SH.targetClass, SH.targetNode, SH.targetObjectsOf, SH.targetSubjectsOf, SH.target)
_CONSTRAINT_PARAMETERS = frozenset(ALL_CONSTRAINT_PARAMETERS) - {SH.property}
_LOG = logging.getLogger(__name__)


class ShapesError(BenchgraphError):
    """The shapes files cannot be used: unreadable, or using a feature the runner lacks."""

    kind = ErrorKind.INPUT


@dataclass(frozen=True)
class ShapeInfo:
    """What a report says about a shape: its words, its severity, where it is checked."""

    node: Node
    name: str
    message: str
    severity: Severity
    across_records: bool
    path: Node | None


class ShapeSet:
    """Shapes parsed and compiled once, then used for every record."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        """The shapes as written (every file, merged)."""
        self.info = {node: _info(graph, node) for node in _shape_nodes(graph)}
        runtime = _runtime_copy(graph, self.across_records)
        self.sparql_rules: list[tuple[SparqlRule, Shape]] = []
        try:
            pending = [compile_rule(graph, shape, constraint, _path(graph, shape))
                       for shape, constraint in sorted(graph.subject_objects(SH.sparql))
                       if shape not in self.across_records and not _deactivated(graph, constraint)]
        except SparqlRuleError as error:
            raise ShapesError(str(error)) from None
        for shape, constraint in list(runtime.subject_objects(SH.sparql)):
            runtime.remove((shape, SH.sparql, constraint))
        self.shapes_graph = ShapesGraph(runtime, False, _LOG)
        harvested = {shape.node: shape for shape in self.shapes_graph.shapes}
        self.record_shapes: list[Shape] = [
            shape for node, shape in sorted(harvested.items(), key=lambda item: str(item[0]))
            if node not in self.across_records and _has_targets(runtime, node)
            and any(p in _CONSTRAINT_PARAMETERS for p in runtime.predicates(node))
        ]
        """The shapes pyshacl runs on each batch of records, each with targets of its own."""
        for rule in pending:
            found = harvested.get(rule.shape)
            if found is None:
                found = self.shapes_graph.lookup_shape_from_node(rule.shape)
            self.sparql_rules.append((rule, found))

    @classmethod
    def load(cls, paths: Sequence[Path]) -> "ShapeSet":
        graph = Graph()
        for path in paths:
            try:
                graph.parse(path, format="turtle")
            except (OSError, SyntaxError, ValueError) as error:
                raise ShapesError(f"{path}: cannot read the shapes: {error}") from None
        for prefix, namespace in {**PREFIXES, "sh": str(SH), "bsh": str(BSH)}.items():
            graph.bind(prefix, namespace, replace=True)
        return cls(graph)

    @property
    def across_records(self) -> frozenset[Node]:
        return frozenset(node for node, info in self.info.items() if info.across_records)

    def describe(self, node: Node) -> ShapeInfo:
        """What the report says about ``node`` (a shape of this set, or any other node)."""
        return self.info.get(node) or _info(self.graph, node)

    def path_text(self, path: Node | None) -> str | None:
        """A property path in SPARQL syntax, with the usual prefixes (``bench:released``)."""
        return None if path is None else render_path(self.graph, path)


@cache
def bundled_shapes() -> ShapeSet:
    """The shapes shipped in ``shapes/`` (every ``*.ttl`` there), compiled once per process."""
    return ShapeSet.load(sorted(data_dir("shapes").glob("*.ttl")))


def _shape_nodes(graph: Graph) -> set[Node]:
    nodes: set[Node] = set(graph.subjects(SH.path, None))
    for rdf_class in (SH.NodeShape, SH.PropertyShape):
        nodes.update(graph.subjects(RDF.type, rdf_class))
    for predicate in TARGETS:
        nodes.update(graph.subjects(predicate, None))
    return nodes


def _info(graph: Graph, node: Node) -> ShapeInfo:
    name = graph.value(node, SH.name) or graph.value(node, RDFS.label)
    message = graph.value(node, SH.message)
    severity = graph.value(node, SH.severity)
    return ShapeInfo(
        node=node,
        name=str(name) if name is not None else _local_name(node),
        message=str(message) if message is not None else "",
        severity=Severity.from_iri(severity) if severity is not None else Severity.VIOLATION,
        across_records=graph.value(node, CHECKED_ACROSS_RECORDS) == Literal(True),
        path=graph.value(node, SH.path),
    )


def _local_name(node: Node) -> str:
    text = str(node)
    return text.rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def _path(graph: Graph, shape: Node) -> Node | None:
    return graph.value(shape, SH.path)


def _deactivated(graph: Graph, node: Node) -> bool:
    return graph.value(node, SH.deactivated) == Literal(True)


def _has_targets(graph: Graph, node: Node) -> bool:
    return any(graph.value(node, predicate) is not None for predicate in TARGETS)


def _runtime_copy(graph: Graph, across_records: Iterable[Node]) -> Graph:
    """The shapes with each node shape's targets copied onto its property shapes.

    Only a node shape that nothing else refers to (no ``sh:node`` or ``sh:or`` uses it) and
    that is checked record by record is rewritten; its ``sh:property`` links are dropped.
    """
    skip = set(across_records)
    runtime = Graph()
    for triple in graph:
        runtime.add(triple)
    for node in {s for s in graph.subjects(SH.property, None)}:
        targets = [(p, o) for p in TARGETS for o in graph.objects(node, p)]
        if not targets or node in skip or next(graph.subject_predicates(node), None) is not None:
            continue
        for prop in list(graph.objects(node, SH.property)):
            for predicate, target in targets:
                runtime.add((prop, predicate, target))
            runtime.remove((node, SH.property, prop))
    return runtime
