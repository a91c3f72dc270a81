"""A node's description, asked by two queries: what every kind of store answers
``Store.describe`` with, whatever engine runs the queries.

The statements are sorted by ``term_order`` here, not by ORDER BY, which the engine takes
far longer over than the fetch (perf/decisions/sort-answers-in-python.md). Under a
limit, which statements come is the engine's choice; one more than the limit is asked for, to
know whether the list was cut. A cut description still holds every ``rdf:type`` of the node
(asked for apart): what kind of node it is decides its page, and a benchmark with thousands
of results would otherwise lose its types among them.
"""

from __future__ import annotations

from collections.abc import Callable

import pyoxigraph as ox

from graph.sparql.result import QueryResult
from graph.store.base import Bindings, Description, Statement, Term, term_order

_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")

Ask = Callable[[str, Bindings], QueryResult]
"""Runs a SELECT with ``?node`` bound: the store's own ``query``."""


def describe_node(ask: Ask, node: str, limit: int | None = None, graph_filter: str = ""
                  ) -> Description:
    """The outgoing and incoming statements of ``node``, each with its graph; ``graph_filter``
    (a FILTER on ``?g``) leaves out graphs the store keeps for itself."""
    subject = ox.NamedNode(node)
    cap = "" if limit is None else f" LIMIT {int(limit) + 1}"
    bound = {"node": subject}
    outgoing = ask(f"SELECT ?p ?o ?g WHERE {{ GRAPH ?g {{ ?node ?p ?o }} {graph_filter} }}{cap}",
                   bound)
    incoming = ask(f"SELECT ?s ?p ?g WHERE {{ GRAPH ?g {{ ?s ?p ?node }} {graph_filter} }}{cap}",
                   bound)
    out = sorted((Statement(subject, _iri(p), _term(o), _iri(g)) for p, o, g in outgoing.rows),
                 key=lambda s: (s.predicate.value, term_order(s.object), s.graph.value))
    into = sorted((Statement(_term(s), _iri(p), subject, _iri(g)) for s, p, g in incoming.rows),
                  key=lambda s: (s.predicate.value, term_order(s.subject), s.graph.value))
    truncated = limit is not None and (len(out) > limit or len(into) > limit)
    if limit is not None:
        out, into = out[:limit], into[:limit]
    if truncated:
        typed = ask(f"SELECT ?o ?g WHERE {{ GRAPH ?g {{ ?node a ?o }} {graph_filter} }}", bound)
        kinds = {Statement(subject, _TYPE, _term(o), _iri(g)) for o, g in typed.rows}
        out = sorted(kinds.union(out), key=lambda s: (s.predicate.value, term_order(s.object),
                                                        s.graph.value))
    return Description(subject, tuple(out), tuple(into), truncated)


def _iri(term: object) -> ox.NamedNode:
    assert isinstance(term, ox.NamedNode), term  # a predicate or a graph name
    return term


def _term(term: object) -> Term:
    assert isinstance(term, (ox.NamedNode, ox.BlankNode, ox.Literal)), term
    return term


__all__ = ["Ask", "describe_node"]
