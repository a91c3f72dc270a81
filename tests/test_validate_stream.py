"""Validation read from a build's pyoxigraph store graph by graph (``graph.validation.stream``)
gives the report that validating the whole catalog's rdflib quads gives, and keeps no graph."""

from pathlib import Path

import pyoxigraph as ox
import pytest
from rdflib import Literal, URIRef

from graph.build.graphs import BuildResult, build
from graph.dataset.quads import Quad
from graph.mapping.identity import index_benchmarks
from graph.mapping.iris import Iris
from graph.mapping.overrides import bundled_overrides
from graph.namespace import ONTOLOGY_IRI
from graph.resources import data_dir
from graph.settings import Settings
from graph.store.base import Store
from graph.validation.stream import StoreGraphs
from graph.validation.validate import ValidationSession, validate
from tests.memory import traced
from tests.quad_store import store_of

CATALOG = [data_dir("catalog")]
EX = "https://example.org/"
LABEL = URIRef("http://www.w3.org/2000/01/rdf-schema#label")


@pytest.fixture(scope="module")
def store(built: BuildResult) -> ox.Store:
    """The bundled catalog's quads in a store as a build writes it: each record, the build
    graph and the ontology a named graph, their merge in the default graph."""
    return store_of(built.quads)


def grouped(quads: list[Quad]) -> dict[URIRef, set[Quad]]:
    """Each graph's statements (a store keeps each once, in an order of its own)."""
    graphs: dict[URIRef, set[Quad]] = {}
    for quad in quads:
        graphs.setdefault(quad[3], set()).add(quad)
    return graphs


def test_the_bundled_catalog_from_a_store_gives_the_whole_report(
        built: BuildResult, bundled_store: Store) -> None:
    """The store's graphs come in the order of their names, the quads' in the order stated:
    the report is the same. The store's report is the one the run's store folder of the
    bundled catalog keeps, which its build's writing process made from the store."""
    streamed = bundled_store.artefacts().validation()
    assert streamed is not None
    whole = validate(built.quads, Settings())
    assert streamed.results  # the bundled catalog has findings to compare
    assert streamed.results == whole.results
    index = index_benchmarks((loaded.identity for loaded in built.report.records),
                             bundled_overrides())
    graphed = [loaded for loaded in built.report.records  # an entry left out has no graph
               if index.kind_of(loaded.identity) != "leave-out"]
    assert len(graphed) < len(built.report.records)
    assert streamed.records_checked == whole.records_checked == len(graphed)
    assert streamed.to_json() == whole.to_json()


def test_the_store_gives_each_graph_its_quads(built: BuildResult, store: ox.Store) -> None:
    """Every named graph (not the default graph), in the order of their names, each with the
    statements the build made."""
    stated = grouped(built.quads)
    graphs = StoreGraphs(store)
    assert graphs.names() == sorted(stated)
    assert Iris(Settings().base).build() in graphs.names() and ONTOLOGY_IRI in graphs.names()
    read = {name: set(graphs.quads(name)) for name in graphs.names()}
    assert read == stated
    skipped = frozenset(graphs.names()[:2])
    each = {name: set(quads) for name, quads in graphs.each(skip=skipped)}
    assert each == {name: quads for name, quads in read.items() if name not in skipped}
    assert graphs.quads(URIRef(f"{EX}no-such-graph")) == []


def test_a_graphs_statements_come_once_whatever_graph_they_are_stated_in() -> None:
    """A store keeps a statement once in each graph stating it (and once in the default
    graph): each graph still has all of its own."""
    a, b, c = (URIRef(f"{EX}{name}") for name in "abc")
    quads: list[Quad] = [(a, LABEL, Literal("same"), graph) for graph in (c, a, b, c)]
    graphs = StoreGraphs(store_of(quads))
    assert graphs.names() == [a, b, c]
    assert list(graphs.each()) == [(graph, [(a, LABEL, Literal("same"), graph)])
                                   for graph in (a, b, c)]


def test_a_store_of_the_default_graph_alone_has_no_graph_to_check() -> None:
    store = ox.Store()
    store.add(ox.Quad(ox.NamedNode(f"{EX}a"), ox.NamedNode(str(LABEL)), ox.Literal("a")))
    assert StoreGraphs(store).names() == []
    assert list(StoreGraphs(store).each()) == []
    assert validate(store, Settings()).records_checked == 0


def test_batches_of_any_size_give_the_same_report_from_a_store(tmp_path: Path) -> None:
    from perf.generate_catalog import write_catalog

    write_catalog(40, tmp_path / "catalog", seed=3, defect_share=0.2)
    result = build([tmp_path / "catalog"], Settings())
    whole = ValidationSession(batch_size=100).validate(result.quads)
    assert whole.results
    on_disk = store_of(result.quads, tmp_path / "store")
    del on_disk  # closed: opened again as a store is read by the writing process
    store = ox.Store.read_only(str(tmp_path / "store"))
    for size in (1, 7, 100):
        assert ValidationSession(batch_size=size).validate_store(store) == whole


def test_a_store_validated_keeps_no_graph(tmp_path: Path) -> None:
    """Validating a store leaves allocated a small part of what its graphs' rdflib quads
    take: no graph is kept once checked."""
    from perf.generate_catalog import write_catalog

    write_catalog(200, tmp_path / "catalog", defect_share=0)
    store = store_of(build([tmp_path / "catalog"], Settings()).quads)
    graphs = StoreGraphs(store)
    records = frozenset(graphs.names()) - {Iris(Settings().base).build(), ONTOLOGY_IRI}
    assert len(records) == 200
    every, quads_bytes, _ = traced(lambda: list(graphs.each(skip=frozenset(graphs.names())
                                                            - records)))
    del every
    session = ValidationSession(batch_size=10)
    _, held, _ = traced(lambda: session.validate_store(store))
    assert held < 0.25 * quads_bytes, (held, quads_bytes)
