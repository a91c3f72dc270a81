"""A node's statements as a page shows them: grouped by property, each value once with the
graphs (records) that state it, ten values a property, and the rest one link away.

Everything here comes from the node's ``Description`` (``Store.describe``), the one source of
every format of an entity. A description is fetched with a cap (``DESCRIBE_CAP`` statements
each way); when the node has more, one query counts each property's values and one more per
property fills a group the cap left short, so a node with thousands of statements (an access
level, a big organisation) still shows ten of each and the true totals.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import pyoxigraph as ox

from graph.store.base import Description, Statement, Store, Term, term_order

Direction = Literal["out", "in"]
GROUP_SIZE = 10
"""Values shown for each property on a node's page (as LodView does)."""
PROPERTY_PAGE = 100
"""Values a page of one property's list shows."""
DESCRIBE_CAP = 200
"""Statements each way a page reads of a node's description (each costs the decoding of its
graph's name: perf/decisions/sort-answers-in-python.md)."""
GRAPHS_SHOWN = 3
"""Graphs (records) a node's page names beside one value; its property's list names all."""


@dataclass(frozen=True)
class Value:
    """One value of a property, and the graphs that state it (a record's, the build's)."""

    term: Term
    graphs: tuple[ox.NamedNode, ...]


@dataclass(frozen=True)
class Group:
    """The values of one property, from the node (``out``) or to it (``in``)."""

    predicate: ox.NamedNode
    direction: Direction
    values: tuple[Value, ...]
    """At most ``GROUP_SIZE`` on a node's page; one page of them in a property's list."""
    total: int
    """How many values the property has in all."""

    @property
    def more(self) -> bool:
        return self.total > len(self.values)


def group_statements(statements: Iterable[Statement], direction: Direction,
                     keep: int | None = GROUP_SIZE) -> list[Group]:
    """``statements`` (all of one direction) grouped by property, in the order given (the
    store's sorted order), each value once; ``keep`` values a group at most."""
    by_property: dict[str, dict[Term, list[ox.NamedNode]]] = defaultdict(dict)
    predicates: dict[str, ox.NamedNode] = {}
    for statement in statements:
        value = statement.object if direction == "out" else statement.subject
        predicates.setdefault(statement.predicate.value, statement.predicate)
        graphs = by_property[statement.predicate.value].setdefault(value, [])
        if statement.graph not in graphs:
            graphs.append(statement.graph)
    groups = []
    for iri, values in by_property.items():
        shown = tuple(Value(term, tuple(sorted(graphs, key=_iri)))
                      for term, graphs in values.items())
        groups.append(Group(predicates[iri], direction, shown[:keep], len(shown)))
    return groups


def _iri(graph: ox.NamedNode) -> str:
    return graph.value


def node_groups(store: Store, description: Description) -> tuple[list[Group], list[Group]]:
    """The groups of a node's page (outgoing, incoming), with true totals even when the
    description was cut at its cap."""
    outgoing = group_statements(description.outgoing, "out")
    incoming = group_statements(description.incoming, "in")
    if not description.truncated:
        return outgoing, incoming
    totals = _totals(store, description.node)
    return (_complete(store, description.node, outgoing, totals, "out"),
            _complete(store, description.node, incoming, totals, "in"))


def _totals(store: Store, node: ox.NamedNode) -> dict[tuple[Direction, str], int]:
    result = store.query(
        "SELECT ?dir ?p (COUNT(DISTINCT ?v) AS ?n) WHERE { "
        "{ GRAPH ?g { ?node ?p ?v } BIND(\"out\" AS ?dir) } UNION "
        "{ GRAPH ?g { ?v ?p ?node } BIND(\"in\" AS ?dir) } } GROUP BY ?dir ?p",
        bindings={"node": node})
    totals: dict[tuple[Direction, str], int] = {}
    for direction, predicate, count in result.rows:
        assert direction is not None and predicate is not None and count is not None
        totals["out" if direction.value == "out" else "in", predicate.value] = int(count.value)
    return totals


def _complete(store: Store, node: ox.NamedNode, groups: list[Group],
              totals: dict[tuple[Direction, str], int], direction: Direction) -> list[Group]:
    """``groups`` with their true totals, each filled up to ``GROUP_SIZE`` values, and a group
    for each property the cap left out altogether."""
    have = {group.predicate.value: group for group in groups}
    complete = []
    for (side, iri), total in sorted(totals.items()):
        if side != direction:
            continue
        group = have.get(iri)
        if group is None or len(group.values) < min(total, GROUP_SIZE):
            statements = property_statements(store, node, ox.NamedNode(iri), direction,
                                             limit=GROUP_SIZE * 4)
            found = group_statements(statements, direction)
            group = found[0] if found else Group(ox.NamedNode(iri), direction, (), total)
        complete.append(Group(group.predicate, direction, group.values, total))
    return complete


def property_statements(store: Store, node: ox.NamedNode, predicate: ox.NamedNode,
                        direction: Direction, limit: int | None = None) -> list[Statement]:
    """The statements of one property of ``node``, sorted as a description's are."""
    pattern = "?node ?p ?v" if direction == "out" else "?v ?p ?node"
    cap = "" if limit is None else f" LIMIT {int(limit)}"
    result = store.query(f"SELECT ?v ?g WHERE {{ GRAPH ?g {{ {pattern} }} }}{cap}",
                         bindings={"node": node, "p": predicate})
    statements = []
    for value, graph in result.rows:
        assert isinstance(graph, ox.NamedNode) and value is not None
        if direction == "out":
            statements.append(Statement(node, predicate, value, graph))
        else:
            statements.append(Statement(value, predicate, node, graph))
    return sorted(statements, key=lambda s: (term_order(s.object if direction == "out"
                                                        else s.subject), s.graph.value))


def terms_of(groups: Sequence[Group]) -> Iterable[str]:
    """Every IRI the groups show (properties, values, graphs): what a page asks labels for."""
    for group in groups:
        yield group.predicate.value
        for value in group.values:
            if isinstance(value.term, ox.NamedNode):
                yield value.term.value


__all__ = ["DESCRIBE_CAP", "GRAPHS_SHOWN", "GROUP_SIZE", "PROPERTY_PAGE", "Direction", "Group",
           "Value", "group_statements", "node_groups", "property_statements", "terms_of"]
