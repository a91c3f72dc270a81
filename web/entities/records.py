"""A graph's page: everything one record (or the build) stated, grouped by subject, and a
record's freshness and build facts.

A record is a named graph (DESIGN.md, "Identifiers"): ``{base}record/{key}`` names both the
graph and the ``bench:Record`` node that describes it. Its statements are read in one query
and sorted here (the benchmark it describes first), then shown a page at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyoxigraph as ox

from graph.namespace import BENCH, PROV
from graph.store.base import Description, Statement, Store, Term, term_order
from web.entities.view import Group, group_statements

GRAPH_PAGE = 400
"""Statements a page of a graph's contents shows."""

FRESHNESS: tuple[str, ...] = tuple(str(term) for term in (
    BENCH.researched, BENCH.researchedBy, BENCH.reviewed, BENCH.reviewedBy,
    PROV.generatedAtTime, BENCH.commit, BENCH.eligibilityAsOf, BENCH.importer,
    BENCH.pageKind, BENCH.sourceFile,
))
"""A record's facts about itself, in the order its page shows them."""
_DESCRIBES = str(BENCH.describes)


@dataclass(frozen=True)
class SubjectBlock:
    """What a graph says about one subject."""

    subject: Term
    groups: tuple[Group, ...]


@dataclass(frozen=True)
class GraphContents:
    """One page of a graph's statements."""

    blocks: tuple[SubjectBlock, ...]
    total: int
    """Statements in the graph (up to the row limit)."""
    truncated: bool
    page: int
    pages: int


def graph_contents(store: Store, graph: ox.NamedNode, description: Description,
                   page: int) -> GraphContents:
    """Page ``page`` (from 1) of what ``graph`` states; the benchmarks the record describes
    (``bench:describes``) come first, then the record itself, then the rest in IRI order."""
    result = store.query("SELECT ?s ?p ?o WHERE { GRAPH ?graph { ?s ?p ?o } }",
                         bindings={"graph": graph})
    first = [s.object.value for s in description.outgoing if s.predicate.value == _DESCRIBES]
    rank = {iri: at for at, iri in enumerate([*first, graph.value])}
    statements = sorted(
        (Statement(s, p, o, graph) for s, p, o in result.rows
         if s is not None and isinstance(p, ox.NamedNode) and o is not None),
        key=lambda s: (rank.get(s.subject.value, len(rank)), term_order(s.subject),
                       s.predicate.value, term_order(s.object)))
    pages = max(1, -(-len(statements) // GRAPH_PAGE))
    page = min(page, pages)
    shown = statements[(page - 1) * GRAPH_PAGE: page * GRAPH_PAGE]
    by_subject: dict[Term, list[Statement]] = {}
    for statement in shown:
        by_subject.setdefault(statement.subject, []).append(statement)
    blocks = [SubjectBlock(subject, tuple(group_statements(found, "out", keep=None)))
              for subject, found in by_subject.items()]
    return GraphContents(tuple(blocks), len(statements), result.truncated, page, pages)


def freshness(description: Description) -> list[Group]:
    """The record's facts about itself (researched, reviewed, exported, by whom, from which
    file), in ``FRESHNESS`` order."""
    facts = [s for s in description.outgoing if s.predicate.value in FRESHNESS]
    groups = group_statements(facts, "out", keep=None)
    return sorted(groups, key=lambda group: FRESHNESS.index(group.predicate.value))


def contents_iris(contents: GraphContents) -> list[str]:
    """Every IRI a page of contents shows: what it asks labels for."""
    iris = []
    for block in contents.blocks:
        if isinstance(block.subject, ox.NamedNode):
            iris.append(block.subject.value)
        for group in block.groups:
            iris.append(group.predicate.value)
            iris.extend(v.term.value for v in group.values if isinstance(v.term, ox.NamedNode))
    return iris


__all__ = ["GRAPH_PAGE", "GraphContents", "SubjectBlock", "contents_iris", "freshness",
           "graph_contents"]
