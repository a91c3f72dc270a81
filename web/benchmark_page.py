"""The benchmark page (the benchmark helper's module: this is the interface the entities
blueprint calls, with a minimal page behind it until the full one replaces it).

``render_benchmark(page)`` gets the ``NodePage`` of a ``bench:Benchmark`` node (its
description, read for a page, and its statements grouped) and returns the page's HTML. It
renders through ``web.entity_page.render_node``, so the page has the alternates, the labels
and every statement that the other entity pages have.
"""

from __future__ import annotations

import pyoxigraph as ox

from graph.namespace import BENCH, DCTERMS, SKOS
from web.entity_page import NodePage, render_node

_SUMMARY = str(DCTERMS.abstract)
_ALIAS = str(SKOS.altLabel)
_CATALOGUED = str(BENCH.catalogued)


def render_benchmark(page: NodePage) -> str:
    """The page of the benchmark ``page`` is about."""
    outgoing = page.description.outgoing
    summaries = sorted({s.object.value for s in outgoing if s.predicate.value == _SUMMARY})
    aliases = sorted({s.object.value for s in outgoing if s.predicate.value == _ALIAS})
    catalogued = [s.object for s in outgoing if s.predicate.value == _CATALOGUED]
    stub = any(isinstance(term, ox.Literal) and term.value == "false" for term in catalogued)
    return render_node("benchmark/page.html", page, summaries=summaries, aliases=aliases,
                       stub=stub)


__all__ = ["render_benchmark"]
