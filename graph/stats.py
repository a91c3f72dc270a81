"""Counts over a built graph: per class, per suite, per access level, per harness."""

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from rdflib import URIRef

from graph.namespace import BENCH, ONTOLOGY_IRI, RDF
from graph.quads import Quad


@dataclass(frozen=True)
class GraphStats:
    """Distinct nodes per class, benchmarks per suite and access level, tasks per harness."""

    triples: int
    per_class: dict[URIRef, int]
    per_suite: dict[URIRef, int]
    per_access_level: dict[URIRef, int]
    per_harness: dict[URIRef, int]


def graph_stats(quads: Iterable[Quad]) -> GraphStats:
    """Counts over the data: the records' graphs and the build graph, not the ontology's."""
    triples: set[tuple[object, object, object]] = set()
    typed: set[tuple[object, object]] = set()
    suites: set[tuple[object, object]] = set()
    levels: set[tuple[object, object]] = set()
    harness_of_task: dict[object, object] = {}
    for s, p, o, g in quads:
        if g == ONTOLOGY_IRI:
            continue
        triples.add((s, p, o))
        if p == RDF.type:
            typed.add((s, o))
        elif p == BENCH.inSuite:
            suites.add((s, o))
        elif p == BENCH.accessLevel:
            levels.add((s, o))
        elif p == BENCH.harness and isinstance(o, URIRef):
            harness_of_task[s] = o
    tasks = {s for s, o in typed if o == BENCH.HarnessTask}
    return GraphStats(
        triples=len(triples),
        per_class=_count(o for _, o in typed),
        per_suite=_count(o for _, o in suites),
        per_access_level=_count(o for _, o in levels),
        per_harness=_count(h for task, h in harness_of_task.items() if task in tasks),
    )


def _count(values: Iterable[object]) -> dict[URIRef, int]:
    counts = Counter(v for v in values if isinstance(v, URIRef))
    return dict(sorted(counts.items(), key=lambda item: (-item[1], str(item[0]))))
