"""The shapes checked across records (``bsh:checkedAcrossRecords true``), kept up to date.

Their verdict on a node depends on more than one graph, so they are not run record by
record. Each graph (and each build-graph subject) contributes a few facts to small
indexes (which nodes it types as benchmarks, names, links to, describes, flags); a
change to one graph touches only the nodes it contributes, and only those are checked
again. Each check below does what its shape in ``shapes/core.ttl`` says; the tests hold
the two to the same results on the fixtures (the shape run by pyshacl over the union).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

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


@dataclass
class _Facts:
    typed: set[Node] = field(default_factory=set)
    labelled: set[Node] = field(default_factory=set)
    links: set[tuple[Node, Node]] = field(default_factory=set)
    """(target, subject) pairs of the link predicates."""
    described: set[Node] = field(default_factory=set)
    flags: set[tuple[Node, Node]] = field(default_factory=set)
    """(benchmark, value) pairs of ``bench:catalogued``."""

    def nodes(self) -> set[Node]:
        return (self.typed | self.labelled | self.described | {t for t, _ in self.links}
                | {n for n, _ in self.flags})

    def kept(self) -> "_Kept":
        """The facts as they are kept until the source changes: a tuple per kind, which
        costs nothing when empty (an empty set costs 216 bytes, and most sources hold one
        or two facts: at 100,000 records there are a third of a million sources)."""
        return _Kept(tuple(self.typed), tuple(self.labelled), tuple(self.links),
                     tuple(self.described), tuple(self.flags))


@dataclass(frozen=True, slots=True)
class _Kept:
    """One source's facts, each kind's once (``_Facts.kept``)."""

    typed: tuple[Node, ...]
    labelled: tuple[Node, ...]
    links: tuple[tuple[Node, Node], ...]
    described: tuple[Node, ...]
    flags: tuple[tuple[Node, Node], ...]

    def nodes(self) -> set[Node]:
        return {*self.typed, *self.labelled, *self.described, *(t for t, _ in self.links),
                *(n for n, _ in self.flags)}


_UNKEPT: set[Source] = set()
"""The sources of a node's labels when no source is kept (``keep_sources=False``): never
filled."""
_TYPE, _LABEL, _DESCRIBES, _FLAG, _LINK = range(5)
_KINDS = {RDF.type: _TYPE, RDFS.label: _LABEL, BENCH.describes: _DESCRIBES,
          BENCH.catalogued: _FLAG, **{link: _LINK for link in LINKS}}
_BENCHMARK = str(BENCH.Benchmark)


def facts_of(quads: Iterable[Quad]) -> _Facts:
    facts = _Facts()
    kinds = _KINDS
    for s, p, o, _ in quads:
        kind = kinds.get(p)
        if kind is None:
            continue
        if kind == _TYPE:
            if str.__eq__(o, _BENCHMARK) and isinstance(o, URIRef):
                facts.typed.add(s)
        elif kind == _LABEL:
            facts.labelled.add(s)
        elif kind == _DESCRIBES:
            facts.described.add(o)
        elif kind == _FLAG:
            facts.flags.add((s, o))
        else:
            facts.links.add((o, s))
    return facts


class AcrossRecords:
    """The cross-record shapes' indexes and current results, one entry per focus node.

    With ``keep_sources=False`` (a validation checked once, streamed: nothing is replaced
    later) each source's facts are indexed but not kept apart, and a node's labels are
    kept as the fact that it has one (all the checks read): kept apart, the facts, their
    own copies of the nodes and a set a labelled node held a large share of what a streamed
    validation added to the build (perf/decisions/validation-streamed.md)."""

    def __init__(self, shapes: ShapeSet, file_of: FileOf, *, keep_sources: bool = True) -> None:
        unknown = shapes.across_records - IMPLEMENTED
        if unknown:
            raise ShapesError("no cross-record check exists for "
                              + ", ".join(sorted(map(str, unknown))))
        self.shapes = shapes
        self.file_of = file_of
        self.active = shapes.across_records
        self._flag_message = _sparql_message(shapes, FLAG)
        self._sources: dict[Source, _Kept] = {}
        self._typed: dict[Node, set[Source]] = {}
        self._labelled: dict[Node, set[Source]] = {}
        self._links: dict[Node, set[tuple[Source, Node]]] = {}
        self._described: dict[Node, set[Source]] = {}
        self._flags: dict[Node, set[tuple[Source, Node]]] = {}
        self._results: dict[Node, list[ValidationResult]] = {}
        self._keeps_sources = keep_sources

    def set_source(self, source: Source, quads: Iterable[Quad]) -> set[Node]:
        """Replace the facts of ``source``; returns the nodes whose results may change.
        Without ``keep_sources``, each source is set once and nothing is returned (check
        ``nodes()`` once all are set)."""
        if not self._keeps_sources:
            self._index(source, facts_of(quads).kept())
            return set()
        touched = self._drop(source)
        facts = facts_of(quads).kept()
        nodes = facts.nodes()
        if nodes:
            self._sources[source] = facts
            self._index(source, facts)
            touched |= nodes
        return touched

    def remove_source(self, source: Source) -> set[Node]:
        if not self._keeps_sources:
            raise ValueError("these indexes keep no source apart: nothing can be removed")
        return self._drop(source)

    def nodes(self) -> set[Node]:
        """Every node some source states a fact about: what a check of them all checks."""
        return {*self._typed, *self._labelled, *self._described, *self._links, *self._flags}

    def graphs_typing(self, node: Node) -> set[URIRef]:
        """The record graphs that type ``node`` as a benchmark."""
        return {graph for graph, subject in self._typed.get(node, ()) if subject is None}

    def recheck(self, nodes: Iterable[Node]) -> list[ValidationResult]:
        """Check ``nodes`` again; returns their current results."""
        out: list[ValidationResult] = []
        for node in nodes:
            results = self._check(node)
            if results:
                self._results[node] = results
                out.extend(results)
            else:
                self._results.pop(node, None)
        return out

    def results(self) -> list[ValidationResult]:
        return [result for results in self._results.values() for result in results]

    # -- indexes ------------------------------------------------------------------------------
    def _index(self, source: Source, facts: _Kept) -> None:
        for node in facts.typed:
            self._typed.setdefault(node, set()).add(source)
        for node in facts.labelled:
            if self._keeps_sources:
                self._labelled.setdefault(node, set()).add(source)
            else:  # that it has a label is all the checks read
                self._labelled[node] = _UNKEPT
        for node in facts.described:
            self._described.setdefault(node, set()).add(source)
        for target, subject in facts.links:
            self._links.setdefault(target, set()).add((source, subject))
        for node, value in facts.flags:
            self._flags.setdefault(node, set()).add((source, value))

    def _drop(self, source: Source) -> set[Node]:
        facts = self._sources.pop(source, None)
        if facts is None:
            return set()
        for node in facts.typed:
            _discard(self._typed, node, source)
        for node in facts.labelled:
            _discard(self._labelled, node, source)
        for node in facts.described:
            _discard(self._described, node, source)
        for target, subject in facts.links:
            _discard(self._links, target, (source, subject))
        for node, value in facts.flags:
            _discard(self._flags, node, (source, value))
        return facts.nodes()

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


def _discard(index: dict[Node, set[object]] | dict[Node, set[Source]] |
             dict[Node, set[tuple[Source, Node]]], key: Node, item: object) -> None:
    members = index.get(key)
    if members is not None:
        members.discard(item)
        if not members:
            del index[key]

