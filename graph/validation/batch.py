"""Record-by-record validation, a batch of records per pyshacl run.

Each record is checked on its own data: its named graph, the build's facts about its
nodes, and what the ontology says about the terms it uses (the class hierarchy, and the
description of each vocabulary individual it names, such as ``bench:Gated``). pyshacl
has a fixed cost per shape and run, so the records of a batch share one run; a node that
two records of the batch both use (an organisation, a tag, a stub benchmark) is renamed
in the second record's copy, so each record still sees only its own statements about it
and every result belongs to exactly one record. Results about the ontology's own nodes
are left to the ontology's check.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from pyshacl.graph_abstraction import DataGraph
from pyshacl.pytypes import SHACLExecutor
from rdflib import Literal, URIRef
from rdflib.namespace import RDF, RDFS, SH
from rdflib.term import Node

from graph.dataset.quads import Quad
from graph.namespace import curie
from graph.validation.report import Severity, ValidationResult
from graph.validation.shapes import ShapeSet
from graph.validation.sparql import format_message, oxigraph_store, predicates_needed, run_rule
from graph.validation.store import Triple, frozen_graph

BuildFacts = Callable[[Node], Sequence[tuple[Node, Node]]]
"""The build graph's (predicate, object) pairs about a node."""

_ALIAS = "urn:x-benchgraph:record-copy:{index}:{node}"


@dataclass(frozen=True)
class Unit:
    """One named graph validated on its own: a record, or any other graph of the data."""

    graph: URIRef | None
    """The graph's name (None for statements given outside any named graph)."""
    quads: Sequence[Quad]
    source_file: str | None


@dataclass(frozen=True)
class Context:
    """What every record's check may read besides its own graph."""

    axioms: Sequence[Triple]
    """Ontology statements every batch holds: the class hierarchy (``rdfs:subClassOf``)."""
    described: Mapping[Node, Sequence[Triple]]
    """The ontology's statements about each of its subjects: added for those a record names."""
    build_facts: BuildFacts

    @classmethod
    def of(cls, ontology: Iterable[Triple], build_facts: BuildFacts) -> "Context":
        described: dict[Node, list[Triple]] = {}
        axioms: list[Triple] = []
        for triple in ontology:
            described.setdefault(triple[0], []).append(triple)
            if triple[1] == RDFS.subClassOf:
                axioms.append(triple)
        return cls(axioms, described, build_facts)


class _Batch:
    """The data graph of a batch: each unit's triples, with shared nodes copied apart."""

    def __init__(self, units: Sequence[Unit], context: Context) -> None:
        self.units = units
        self.owner: dict[Node, int] = {}
        self.original: dict[Node, tuple[Node, int]] = {}
        self.triples: list[Triple] = list(context.axioms)
        self._described = context.described
        self._borrowed: set[Node] = set()
        rdf_type = str(RDF.type)
        append = self.triples.append
        for index, unit in enumerate(units):
            names: dict[Node, Node] = {}
            name = names.get
            for s, p, o, _ in unit.quads:
                subject = name(s)
                if subject is None:
                    subject = self._name(s, index, names)
                obj: Node = o
                if not (isinstance(o, Literal) or str.__eq__(p, rdf_type)):
                    renamed = name(o)
                    obj = self._name(o, index, names) if renamed is None else renamed
                append((subject, p, obj))
            for node in list(names):
                for fact, value in context.build_facts(node):
                    if not isinstance(value, Literal):
                        renamed = name(value)
                        value = self._name(value, index, names) if renamed is None else renamed
                    append((names[node], fact, value))

    def _name(self, node: Node, index: int, names: dict[Node, Node]) -> Node:
        """The name ``node`` has in unit ``index``'s copy: its own, unless an earlier unit of
        the batch uses it too. An ontology term keeps its name and brings its description."""
        found = node
        if node in self._described:
            self._borrow(node)
        elif not isinstance(node, Literal):
            first = self.owner.setdefault(node, index)
            if first != index:
                found = URIRef(_ALIAS.format(index=index, node=node))
                self.original[found] = (node, index)
        names[node] = found
        return found

    def _borrow(self, node: Node) -> None:
        """Add the ontology's statements about ``node``, and about the terms they name, once."""
        pending = [node]
        while pending:
            term = pending.pop()
            if term in self._borrowed:
                continue
            self._borrowed.add(term)
            for triple in self._described[term]:
                self.triples.append(triple)
                if triple[2] in self._described and triple[1] != RDF.type:
                    pending.append(triple[2])

    def locate(self, node: Node) -> tuple[Node, int | None]:
        """The node's own name, and the unit it belongs to (None: an ontology node)."""
        copied = self.original.get(node)
        if copied is not None:
            return copied
        return node, self.owner.get(node)

    def restore(self, node: Node) -> Node:
        copied = self.original.get(node)
        return node if copied is None else copied[0]


class BatchValidator:
    """Runs the compiled shapes on batches of units."""

    def __init__(self, shapes: ShapeSet, context: Context) -> None:
        self.shapes = shapes
        self.context = context
        self.executor = SHACLExecutor(validator=None)
        self._needed = predicates_needed(rule for rule, _ in shapes.sparql_rules)

    def validate(self, units: Sequence[Unit]) -> list[ValidationResult]:
        """The results of every unit, each attributed to its unit's graph and file."""
        batch = _Batch(units, self.context)
        graph = frozen_graph(batch.triples)
        data = DataGraph.from_rdflib(graph)
        results: list[ValidationResult] = []
        try:
            for shape in self.shapes.record_shapes:
                _, reports = shape.validate(self.executor, data)
                for _, node, triples in reports:
                    result = self._from_pyshacl(batch, node, triples)
                    if result is not None:
                        results.append(result)
            if self.shapes.sparql_rules:
                results.extend(self._sparql(batch, data))
        finally:
            graph.frozen.release()
        return results

    def validate_graph(self, graph: URIRef, triples: Iterable[Triple]) -> list[ValidationResult]:
        """The results of a graph checked whole and alone, such as the ontology."""
        quads = cast(list[Quad], [(s, p, o, graph) for s, p, o in triples])
        alone = Context((), {}, self.context.build_facts)
        return BatchValidator(self.shapes, alone).validate([Unit(graph, quads, None)])

    def _from_pyshacl(self, batch: _Batch, node: Node, triples: Iterable[tuple[Any, Any, Any]]
                      ) -> ValidationResult | None:
        fields: dict[Node, Node] = {}
        messages: list[str] = []
        for s, p, o in triples:
            if s != node:
                continue
            value = o[1] if isinstance(o, tuple) else o
            if p == SH.resultMessage:
                messages.append(str(value))
            else:
                fields[p] = value
        focus, index = batch.locate(fields[SH.focusNode])
        if index is None:
            return None
        shape = fields[SH.sourceShape]
        info = self.shapes.describe(shape)
        value = fields.get(SH.value)
        path = fields.get(SH.resultPath)
        unit = batch.units[index]
        return ValidationResult(
            severity=Severity.from_iri(fields[SH.resultSeverity]),
            focus_node=focus,
            shape=shape,
            shape_name=info.name,
            message=info.message or (messages[0] if messages else ""),
            constraint=URIRef(str(fields[SH.sourceConstraintComponent])),
            path=self.shapes.path_text(path),
            path_node=path,
            value=None if value is None else batch.restore(value),
            record=unit.graph,
            source_file=unit.source_file,
        )

    def _sparql(self, batch: _Batch, data: DataGraph) -> Iterable[ValidationResult]:
        needed = self._needed
        store = oxigraph_store(t for t in batch.triples if needed is None or t[1] in needed)
        for rule, shape in self.shapes.sparql_rules:
            focus = shape.focus_nodes(data)  # type: ignore[no-untyped-call]
            if not focus:
                continue
            info = self.shapes.describe(rule.shape)
            for solution in run_rule(store, rule, focus):
                this, index = batch.locate(solution.focus)
                if index is None:
                    continue
                bound = {name: batch.restore(term) for name, term in solution.bindings.items()}
                yield self._sparql_result(rule.shape, info.name, info.severity, rule.message,
                                          this, bound, rule.path, batch.units[index])

    def _sparql_result(self, shape: Node, name: str, severity: Severity, template: str,
                       focus: Node, bound: Mapping[str, Node], shape_path: Node | None,
                       unit: Unit) -> ValidationResult:
        path = bound.get("path", shape_path)
        value = bound.get("value", focus if shape_path is None else None)
        return ValidationResult(
            severity=severity,
            focus_node=focus,
            shape=shape,
            shape_name=name,
            message=format_message(template, bound, render_term),
            constraint=SH.SPARQLConstraintComponent,
            path=self.shapes.path_text(path),
            path_node=path,
            value=value,
            record=unit.graph,
            source_file=unit.source_file,
        )


def render_term(term: Node) -> str:
    """A term as a message shows it: ``bench:released``, ``<iri>``, or a literal's text."""
    if isinstance(term, URIRef):
        return curie(term)
    return str(term)
