"""The build graph, derived from the record graphs in the store: the facts no record states.

For every benchmark node a record graph types ``bench:Benchmark``, the build graph
``{base}build`` states ``bench:catalogued`` (true when a record of its own describes the
benchmark: the build's benchmark index says which, ``catalogued``) and, when no record graph
labels it, a label from its id. Each node's facts read only the node's own statements, so a
change to some record graphs is followed by deriving the facts of the nodes they mention
again (``mend``), not of the whole graph.

Read from the store, which holds every record graph: the build never holds the catalog in
Python. Each quad added or removed keeps the default graph the merge of the named graphs.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

import pyoxigraph as ox

from graph.namespace import BENCH, ONTOLOGY_IRI, RDF, RDFS, XSD

_TYPE, _BENCHMARK = ox.NamedNode(str(RDF.type)), ox.NamedNode(str(BENCH.Benchmark))
_CATALOGUED, _LABEL = ox.NamedNode(str(BENCH.catalogued)), ox.NamedNode(str(RDFS.label))
_ONTOLOGY = ox.NamedNode(str(ONTOLOGY_IRI))
_DEFAULT = ox.DefaultGraph()
_BOOLEAN = ox.NamedNode(str(XSD.boolean))
Node = ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple


def _flag(value: bool) -> ox.Literal:
    return ox.Literal("true" if value else "false", datatype=_BOOLEAN)


@dataclass
class Changed:
    """What a change to the store's statements did, as ``change`` counts it."""

    quads: int = 0
    """How many statements the named graphs hold more than before (fewer: negative)."""
    triples: int = 0
    """How many the merge in the default graph holds more than before."""
    mentioned: set[Node] = field(default_factory=set)
    """The subjects and objects of every statement removed or added."""


def change(store: ox.Store, removed: Iterable[ox.Quad], added: Iterable[ox.Quad],
           into: Changed) -> None:
    """Remove and add statements of named graphs, keeping the default graph their merge: a
    triple that no named graph holds any more leaves it, a new one joins it."""
    gone: list[ox.Triple] = []
    for quad in removed:
        store.remove(quad)
        gone.append(quad.triple)
        into.mentioned.update((quad.subject, quad.object))
        into.quads -= 1
    for quad in added:
        store.add(quad)
        into.mentioned.update((quad.subject, quad.object))
        into.quads += 1
        merged = ox.Quad(quad.subject, quad.predicate, quad.object, _DEFAULT)
        if merged not in store:
            store.add(merged)
            into.triples += 1
    for triple in set(gone):
        held = store.quads_for_pattern(triple.subject, triple.predicate, triple.object)
        if not any(quad.graph_name != _DEFAULT for quad in held):
            store.remove(ox.Quad(triple.subject, triple.predicate, triple.object, _DEFAULT))
            into.triples -= 1


def _in_records(quad: ox.Quad, build: ox.NamedNode) -> bool:
    graph = quad.graph_name
    return isinstance(graph, ox.NamedNode) and graph != _ONTOLOGY and graph != build


def derive(store: ox.Store, build: ox.NamedNode, catalogued: Collection[str],
           subjects: Iterable[Node] | None = None) -> set[ox.Quad]:
    """The build graph's statements about the benchmark nodes among ``subjects`` (every one
    when None), from the record graphs in ``store``."""
    if subjects is None:
        typed = store.quads_for_pattern(None, _TYPE, _BENCHMARK)
    else:
        typed = (quad for subject in subjects if isinstance(subject, ox.NamedNode)
                 for quad in store.quads_for_pattern(subject, _TYPE, _BENCHMARK))
    nodes = {quad.subject for quad in typed if _in_records(quad, build)}
    quads: set[ox.Quad] = set()
    for node in nodes:
        assert isinstance(node, ox.NamedNode)  # the graph holds no blank node
        quads.add(ox.Quad(node, _CATALOGUED, _flag(node.value in catalogued), build))
        labels = store.quads_for_pattern(node, _LABEL, None)
        if not any(_in_records(quad, build) for quad in labels):
            quads.add(ox.Quad(node, _LABEL, ox.Literal(node.value.rsplit("/", 1)[1]), build))
    return quads


def add_derived(store: ox.Store, build: ox.NamedNode, catalogued: Collection[str]) -> None:
    """State the whole build graph of the record graphs in ``store`` (which holds none yet),
    with its merge."""
    quads = derive(store, build, catalogued)
    store.extend([*quads, *(ox.Quad(q.subject, q.predicate, q.object, _DEFAULT) for q in quads)])


def flipped(store: ox.Store, build: ox.NamedNode,
            catalogued: Collection[str]) -> set[ox.NamedNode]:
    """The benchmark nodes whose ``bench:catalogued`` in the build graph ``catalogued`` turns."""
    return {quad.subject for quad in store.quads_for_pattern(None, _CATALOGUED, None, build)
            if isinstance(quad.subject, ox.NamedNode) and isinstance(quad.object, ox.Literal)
            and (quad.object.value == "true") != (quad.subject.value in catalogued)}


def mend(store: ox.Store, build: ox.NamedNode, catalogued: Collection[str],
         subjects: Collection[Node], into: Changed) -> None:
    """Derive the build graph's statements about ``subjects`` again (every other node keeps
    its own), after their record graphs changed."""
    before = {quad for subject in subjects if isinstance(subject, ox.NamedNode)
              for quad in store.quads_for_pattern(subject, None, None, build)}
    now = derive(store, build, catalogued, subjects)
    change(store, before - now, now - before, into)


__all__ = ["Changed", "add_derived", "change", "derive", "flipped", "mend"]
