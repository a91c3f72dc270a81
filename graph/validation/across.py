"""The shapes checked across records (``bsh:checkedAcrossRecords true``).

Their verdict on a node depends on more than one graph, so they are not run record by
record. Each graph (and each build-graph subject) contributes a few facts to small
indexes (which nodes it types as benchmarks, names, links to, describes, flags), and each
node is checked on those. A node's verdict reads only the facts about it, so after a change
only the nodes it mentions are checked again, fed only the facts about them
(``ValidationSession.update_store``). Each check below does what its shape in
``shapes/core.ttl`` says; the tests hold the two to the same results on the fixtures (the
shape run by pyshacl over the union).
"""

from collections.abc import Callable, Iterable

from rdflib import Literal, URIRef
from rdflib.namespace import RDF, RDFS, SH
from rdflib.term import Node

from graph.dataset.quads import Quad
from graph.namespace import BENCH
from graph.validation.batch import render_term
from graph.validation.report import ValidationResult
from graph.validation.shapes import BSH, ShapesError, ShapeSet
from graph.validation.sparql import format_message

LINKS = (BENCH.variant, BENCH.predecessor, BENCH.successor, BENCH.mentions,
         BENCH.relatedBenchmark)
LINKED = BSH.LinkedBenchmarkShape
FLAG = BSH.CataloguedFlagShape
NAMED = BSH.NamedBenchmarkShape
NAMED_LABEL = BSH["NamedBenchmarkShape-label"]
IMPLEMENTED = frozenset({LINKED, FLAG, NAMED})
"""The cross-record shapes this module checks; the shapes files may mark no other."""
RESULT_SHAPES = frozenset({LINKED, FLAG, NAMED_LABEL})
"""The shapes its results name (``sh:sourceShape``): no record-by-record result names one."""

Source = tuple[URIRef, Node | None]
"""Where facts come from: (a record graph, None), or (the build graph, one subject)."""
FileOf = Callable[[URIRef], str | None]


_TYPE, _LABEL, _DESCRIBES, _FLAG, _LINK = range(5)
_KINDS = {RDF.type: _TYPE, RDFS.label: _LABEL, BENCH.describes: _DESCRIBES,
          BENCH.catalogued: _FLAG, **{link: _LINK for link in LINKS}}
_BENCHMARK = str(BENCH.Benchmark)


class AcrossRecords:
    """The cross-record shapes' indexes: for each node, the sources that type it as a
    benchmark, label it, link to it, describe it or flag it. Each source is added once
    (a validation reads each graph once); the checks then read the indexes."""

    def __init__(self, shapes: ShapeSet, file_of: FileOf) -> None:
        unknown = shapes.across_records - IMPLEMENTED
        if unknown:
            raise ShapesError("no cross-record check exists for "
                              + ", ".join(sorted(map(str, unknown))))
        self.shapes = shapes
        self.file_of = file_of
        self.active = shapes.across_records
        self._flag_message = _sparql_message(shapes, FLAG)
        self._typed: dict[Node, set[Source]] = {}
        self._labelled: set[Node] = set()
        """That a node has a label is all the checks read of its labels."""
        self._links: dict[Node, set[tuple[Source, Node]]] = {}
        self._described: dict[Node, set[Source]] = {}
        self._flags: dict[Node, set[tuple[Source, Node]]] = {}

    def add_source(self, source: Source, quads: Iterable[Quad]) -> None:
        """Index the facts the statements of ``source`` give."""
        kinds = _KINDS
        for s, p, o, _ in quads:
            kind = kinds.get(p)
            if kind is None:
                continue
            if kind == _TYPE:
                if str.__eq__(o, _BENCHMARK) and isinstance(o, URIRef):
                    self._typed.setdefault(s, set()).add(source)
            elif kind == _LABEL:
                self._labelled.add(s)
            elif kind == _DESCRIBES:
                self._described.setdefault(o, set()).add(source)
            elif kind == _FLAG:
                self._flags.setdefault(s, set()).add((source, o))
            else:
                self._links.setdefault(o, set()).add((source, s))

    def nodes(self) -> set[Node]:
        """Every node some source states a fact about: what a check of them all checks."""
        return {*self._typed, *self._labelled, *self._described, *self._links, *self._flags}

    def check(self, nodes: Iterable[Node]) -> list[ValidationResult]:
        """The results of ``nodes``."""
        return [result for node in nodes for result in self._check(node)]

    # -- the checks ---------------------------------------------------------------------------
    def _check(self, node: Node) -> list[ValidationResult]:
        out: list[ValidationResult] = []
        if LINKED in self.active and node in self._links and node not in self._typed:
            for (graph, _), _subject in sorted(self._links[node], key=str):
                out.append(self._result(LINKED, node, node, graph, path=None))
        if NAMED in self.active and node in self._typed and node not in self._labelled:
            for graph in sorted({graph for graph, _ in self._typed[node]}):
                out.append(self._result(NAMED_LABEL, node, None, graph, path=RDFS.label))
        if FLAG in self.active:
            out.extend(self._check_flag(node))
        return out

    def _check_flag(self, node: Node) -> list[ValidationResult]:
        out: list[ValidationResult] = []
        describers = sorted({graph for graph, _ in self._described.get(node, ())})
        for (graph, _), value in sorted(self._flags.get(node, ()), key=str):
            if value == Literal(bool(describers)):
                continue
            why = Literal("a record describes it" if describers else "no record describes it")
            message = format_message(self._flag_message, {"value": value, "why": why}, render_term)
            for record in describers or [graph]:
                out.append(self._result(FLAG, node, value, record, path=None, message=message,
                                        constraint=SH.SPARQLConstraintComponent))
        return out

    def _result(self, shape: URIRef, focus: Node, value: Node | None, graph: URIRef,
                path: URIRef | None, message: str | None = None,
                constraint: URIRef | None = None) -> ValidationResult:
        info = self.shapes.describe(shape)
        return ValidationResult(
            severity=info.severity,
            focus_node=focus,
            shape=shape,
            shape_name=info.name,
            message=message or info.message,
            constraint=constraint or _constraint_of(shape),
            path=self.shapes.path_text(path),
            path_node=path,
            value=value,
            record=graph,
            source_file=self.file_of(graph),
        )


def _constraint_of(shape: URIRef) -> URIRef:
    return SH.ClassConstraintComponent if shape == LINKED else SH.MinCountConstraintComponent


def _sparql_message(shapes: ShapeSet, shape: URIRef) -> str:
    for constraint in shapes.graph.objects(shape, SH.sparql):
        message = shapes.graph.value(constraint, SH.message)
        if message is not None:
            return str(message)
    return shapes.describe(shape).message
