"""SPARQL-based constraints (``sh:sparql``), run on pyoxigraph once per batch of records.

SHACL runs such a query once per focus node with ``$this`` pre-bound; rdflib's engine
takes milliseconds for each run. Here each query runs once over a batch with ``$this``
left free, and only the solutions whose ``$this`` is a focus node of the shape are kept:
the same results for a query that binds ``$this`` in a triple pattern of its main group,
which ``compile_rule`` checks. Only the triples whose predicates the query reads are
copied into the store (all of them when a predicate is a variable).
"""

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

import pyoxigraph as ox
from rdflib import Graph, URIRef
from rdflib.namespace import SH
from rdflib.paths import NegatedPath, Path
from rdflib.plugins.sparql import prepareQuery
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.term import Node, Variable

from graph.dataset.oxigraph import OxTerm, to_oxigraph, to_rdflib
from graph.validation.paths import bracketed, render_path

_VARIABLE = re.compile(r"[?$]([A-Za-z_][A-Za-z0-9_]*)")
_MESSAGE_VARIABLE = re.compile(r"\{[?$]([A-Za-z_][A-Za-z0-9_]*)\}")


class SparqlRuleError(ValueError):
    """A SPARQL-based constraint this runner cannot run faithfully."""


@dataclass(frozen=True)
class SparqlRule:
    """One ``sh:sparql`` constraint, ready to run."""

    shape: Node
    constraint: Node
    query: str
    """The SELECT query, prefixes declared, ``$PATH`` replaced."""
    predicates: frozenset[URIRef] | None
    """The predicates the query reads; None when it can read any triple."""
    message: str
    """The constraint's ``sh:message`` (else the shape's), with ``{?var}`` placeholders."""
    path: Node | None
    """The shape's path (property shapes), the result path when the query binds none."""


@dataclass(frozen=True)
class Solution:
    """One violating solution: the focus node, and the variables the query bound."""

    focus: Node
    bindings: Mapping[str, Node]


def compile_rule(graph: Graph, shape: Node, constraint: Node, path: Node | None) -> SparqlRule:
    """The ``sh:sparql`` constraint ``constraint`` of ``shape``, checked and prepared."""
    select = graph.value(constraint, SH.select)
    if select is None:
        raise SparqlRuleError(f"{constraint}: only sh:select constraints are supported")
    text = str(select)
    if path is not None:
        text = text.replace("$PATH", render_path(graph, path, bracketed))
    unsupported = {name for name in _VARIABLE.findall(text) if name in {"currentShape",
                                                                          "shapesGraph", "PATH"}}
    if unsupported:
        raise SparqlRuleError(f"{constraint}: ${', $'.join(sorted(unsupported))} not supported")
    query = _prefixes(graph, constraint) + text
    algebra = prepareQuery(query).algebra
    if Variable("this") not in (algebra.get("PV") or []) or not _binds_this(algebra):
        raise SparqlRuleError(
            f"{constraint}: the query must select $this and match it in a triple pattern")
    message = graph.value(constraint, SH.message) or graph.value(shape, SH.message) or ""
    return SparqlRule(shape, constraint, query, _predicates(algebra), str(message), path)


def predicates_needed(rules: Iterable[SparqlRule]) -> frozenset[URIRef] | None:
    """Every predicate some rule reads; None when a rule can read any triple."""
    needed: set[URIRef] = set()
    for rule in rules:
        if rule.predicates is None:
            return None
        needed |= rule.predicates
    return frozenset(needed)


def run_rule(store: ox.Store, rule: SparqlRule, focus: set[Node]) -> Iterator[Solution]:
    """The solutions of ``rule`` over ``store`` whose ``?this`` is one of ``focus``."""
    results = store.query(rule.query)
    assert isinstance(results, ox.QuerySolutions)
    names = [variable.value for variable in results.variables]
    for row in results:
        bound = {name: to_rdflib(row[name]) for name in names if row[name] is not None}
        this = bound.get("this")
        if this is not None and this in focus:
            yield Solution(this, bound)


def oxigraph_store(triples: Iterable[tuple[Node, Node, Node]]) -> ox.Store:
    """An in-memory pyoxigraph store holding ``triples`` (default graph), each distinct term
    converted once (``to_oxigraph``: TypeError for a term that is no IRI, blank node or
    literal; ValueError for an invalid one)."""
    made: dict[Node, OxTerm] = {}

    def term(node: Node) -> OxTerm:
        found = made.get(node)
        if found is None:
            found = made[node] = to_oxigraph(node)
        return found

    store = ox.Store()
    store.extend([ox.Quad(term(s), term(p), term(o))  # type: ignore[arg-type]  # s, p: IRIs
                  for s, p, o in triples])
    return store


def format_message(template: str, bindings: Mapping[str, Node],
                   render: Callable[[Node], str]) -> str:
    """The message with each ``{?var}`` or ``{$var}`` replaced by the variable's value."""
    def replace(match: re.Match[str]) -> str:
        value = bindings.get(match.group(1))
        return match.group(0) if value is None else render(value)

    return _MESSAGE_VARIABLE.sub(replace, template)


def _prefixes(graph: Graph, constraint: Node) -> str:
    lines = []
    for source in graph.objects(constraint, SH.prefixes):
        for declaration in graph.objects(source, SH.declare):
            prefix = graph.value(declaration, SH.prefix)
            namespace = graph.value(declaration, SH.namespace)
            if prefix is not None and namespace is not None:
                lines.append(f"PREFIX {prefix}: <{namespace}>\n")
    return "".join(sorted(set(lines)))


def _bgp_triples(node: object) -> Iterator[tuple[object, object, object]]:
    if isinstance(node, CompValue):
        if node.name == "BGP":
            yield from node.get("triples") or []
        for value in node.values():
            yield from _bgp_triples(value)
    elif isinstance(node, (list, tuple)):
        for item in node:
            yield from _bgp_triples(item)


def _binds_this(algebra: CompValue) -> bool:
    this = Variable("this")
    return any(this in (s, o) for s, _, o in _bgp_triples(algebra))


def _predicates(algebra: CompValue) -> frozenset[URIRef] | None:
    found: set[URIRef] = set()
    unbounded = False

    def add(predicate: object) -> None:
        nonlocal unbounded
        if isinstance(predicate, URIRef):
            found.add(predicate)
        elif isinstance(predicate, NegatedPath):
            unbounded = True
        elif isinstance(predicate, Path):
            for part in vars(predicate).values():
                for item in part if isinstance(part, list) else [part]:
                    if isinstance(item, (URIRef, Path)):
                        add(item)
        else:
            unbounded = True

    for _, predicate, _ in _bgp_triples(algebra):
        add(predicate)
    return None if unbounded else frozenset(found)
