"""Counts over a built graph: per class, per suite, per access level, per harness."""

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from rdflib import URIRef

from graph.dataset.canonical import sorted_unique_rows
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT, QuadTable
from graph.namespace import BENCH, ONTOLOGY_IRI, RDF

Ids = npt.NDArray[np.int64]


@dataclass(frozen=True)
class GraphStats:
    """Distinct nodes per class, benchmarks per suite and access level, tasks per harness."""

    triples: int
    per_class: dict[URIRef, int]
    per_suite: dict[URIRef, int]
    per_access_level: dict[URIRef, int]
    per_harness: dict[URIRef, int]


def graph_stats(table: QuadTable) -> GraphStats:
    """Counts over the data: the records' graphs and the build graph, not the ontology's.
    Worked out on the table's term ids, so a build of a million quads takes a moment."""
    terms = table.terms

    def term_id(iri: URIRef) -> int:
        found = terms.find_iri(iri)
        return -1 if found is None else found  # -1 matches no id

    columns = [table.column(position) for position in (SUBJECT, PREDICATE, OBJECT)]
    data = table.column(GRAPH) != term_id(ONTOLOGY_IRI)
    subjects, predicates, objects = (column[data] for column in columns)
    n = len(terms)

    def pairs(predicate: URIRef) -> tuple[Ids, Ids]:
        """Distinct (subject, object) of the statements with this predicate."""
        chosen = predicates == term_id(predicate)
        found = sorted_unique_rows([subjects[chosen], objects[chosen]], n)
        return found[0], found[1]

    typed, classes = pairs(RDF.type)
    tasks = typed[classes == term_id(BENCH.HarnessTask)]
    with_harness, harnesses = pairs(BENCH.harness)
    counts = {
        name: _count(values, table)
        for name, values in (
            ("per_class", classes),
            ("per_suite", pairs(BENCH.inSuite)[1]),
            ("per_access_level", pairs(BENCH.accessLevel)[1]),
            ("per_harness", harnesses[np.isin(with_harness, tasks)]),
        )
    }
    triples = len(sorted_unique_rows([subjects, predicates, objects], n)[0])
    return GraphStats(triples=triples, **counts)


def _count(ids: Ids, table: QuadTable) -> dict[URIRef, int]:
    """How often each IRI is among ``ids``, the most frequent first (literals are left out)."""
    values, counts = np.unique(ids, return_counts=True)
    found = [
        (term, count)
        for term, count in zip(map(table.terms.terms.__getitem__, values.tolist()),
                               counts.tolist(), strict=True)
        if isinstance(term, URIRef)
    ]
    return dict(sorted(found, key=lambda item: (-item[1], str(item[0]))))
