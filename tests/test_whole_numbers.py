"""Whole numbers come back from every store as the build states them, value and datatype.

Oxigraph keeps a literal of a type derived from ``xsd:integer`` (``xsd:nonNegativeInteger``,
``xsd:positiveInteger``) as an ``xsd:integer`` (its issue #526), so the build states every
whole number as an ``xsd:integer``: what a query, a page or a dump of the served graph says
is then what the build said. The catalog is the seeds, ``tests/data/harness_records/``,
``tests/data/results/`` and ``tests/data/records/``: between them they state every whole
number the mapping makes (counts, sizes, shots, epochs, parameters, versions, positions).
"""

from decimal import Decimal
from pathlib import Path

import pyoxigraph as ox
from rdflib import Literal

from graph.build.graphs import GraphInMemory
from graph.dataset.oxigraph import to_oxigraph
from graph.namespace import BENCH, XSD
from graph.store.base import Store
from tests.seeds import SEEDS

DATA = Path(__file__).parent / "data"
CATALOG = [*SEEDS, DATA / "harness_records", DATA / "results", DATA / "records"]
"""``built`` and ``store`` (conftest): this catalog built, and in a store of each kind."""

BOUNDED = {BENCH.sampleCount, BENCH.samplesScored, BENCH.shots, BENCH.size,
           BENCH.parameterCount, BENCH.epochs, BENCH.arxivVersion}
"""The properties whose ontology range is ``xsd:nonNegativeInteger`` or
``xsd:positiveInteger``: the ones Oxigraph would retype."""

Statement = tuple[object, ox.NamedNode, ox.Literal]


def whole_numbers(built: GraphInMemory) -> set[Statement]:
    """Every statement of the build whose object is a whole number, as Oxigraph terms."""
    found: set[Statement] = set()
    for s, p, o, _ in built.quads:
        if isinstance(o, Literal) and isinstance(o.value, int) and not isinstance(o.value, bool):
            subject, predicate, obj = to_oxigraph(s), to_oxigraph(p), to_oxigraph(o)
            assert isinstance(predicate, ox.NamedNode) and isinstance(obj, ox.Literal)
            found.add((subject, predicate, obj))
    return found


def test_the_build_states_every_whole_number_as_an_xsd_integer(built: GraphInMemory) -> None:
    stated = whole_numbers(built)
    assert {str(p.value) for _, p, _ in stated} >= {str(p) for p in BOUNDED}  # none is missing
    assert {o.datatype.value for _, _, o in stated} == {str(XSD.integer)}


NUMBERS = "SELECT ?s ?p ?o WHERE { GRAPH ?g { ?s ?p ?o FILTER(isNumeric(?o)) } }"
"""Every number the store holds, whatever its numeric datatype."""


def served(store: Store, predicates: set[ox.NamedNode]) -> set[Statement]:
    """Every statement of these predicates as ``store`` answers it."""
    return {(s, p, o) for s, p, o in store.query(NUMBERS).rows
            if isinstance(p, ox.NamedNode) and p in predicates and isinstance(o, ox.Literal)}


def in_32_bits(statement: Statement) -> bool:
    """Whether the statement's number is one a 32-bit integer holds: Virtuoso keeps any
    other as an ``xsd:decimal`` (``tests.store_kinds.ENGINE_DEVIATIONS``)."""
    return -2**31 <= Decimal(statement[2].value) < 2**31


def test_every_store_gives_back_each_whole_number_as_stated(built: GraphInMemory,
                                                            store: Store) -> None:
    stated = whole_numbers(built)
    answered = served(store, {p for _, p, _ in stated})
    small = {statement for statement in stated if in_32_bits(statement)}
    assert {p.value for _, p, _ in small} >= {str(p) for p in BOUNDED - {BENCH.parameterCount}}
    # a retyped literal would be one statement missing here and one more
    assert set(filter(in_32_bits, answered)) == small


def test_every_store_gives_back_a_whole_number_beyond_32_bits_as_stated(
        built: GraphInMemory, store: Store) -> None:
    stated = whole_numbers(built)
    answered = served(store, {p for _, p, _ in stated})
    large = {statement for statement in stated if not in_32_bits(statement)}
    assert {p.value for _, p, _ in large} == {str(BENCH.parameterCount)}  # 7B, 70B
    assert {statement for statement in answered if not in_32_bits(statement)} == large
