"""Validation read from the build's table graph by graph (``graph.validation.stream``) gives
the report that validating the whole catalog's rdflib quads gives, and keeps no graph."""

from pathlib import Path

import pytest
from rdflib import Literal, URIRef

from graph.build.graphs import BuildResult, build
from graph.dataset.quads import Quad
from graph.dataset.table import QuadTable
from graph.mapping.identity import index_benchmarks
from graph.mapping.overrides import bundled_overrides
from graph.resources import data_dir
from graph.settings import Settings
from graph.validation.stream import TableGraphs
from graph.validation.validate import ValidationSession, validate
from tests.memory import traced

CATALOG = [data_dir("catalog")]


def test_the_bundled_catalog_streamed_gives_the_whole_report(built: BuildResult) -> None:
    streamed = validate(built.table, Settings())
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


def test_the_table_gives_each_graph_its_quads_in_the_order_stated(built: BuildResult) -> None:
    grouped: dict[object, list[Quad]] = {}
    for quad in built.quads:
        grouped.setdefault(quad[3], []).append(quad)
    graphs = TableGraphs(built.table)
    assert graphs.names() == list(grouped)
    assert all(graphs.quads(name) == quads for name, quads in grouped.items())
    assert dict(graphs.each(skip=frozenset(graphs.names()[:1]))) == dict(list(grouped.items())[1:])


def test_batches_of_any_size_give_the_same_streamed_report(tmp_path: Path) -> None:
    from perf.generate_catalog import write_catalog

    write_catalog(40, tmp_path / "catalog", seed=3, defect_share=0.2)
    result = build([tmp_path / "catalog"], Settings())
    whole = ValidationSession(batch_size=100).validate(result.quads)
    for size in (1, 7, 100):
        assert ValidationSession(batch_size=size).validate_table(result.table) == whole


def test_a_streamed_session_refuses_updates(built: BuildResult) -> None:
    session = ValidationSession()
    session.validate_table(built.table)
    with pytest.raises(ValueError, match="kept none of its graphs"):
        session.update(built.quads[:1])


def test_graphs_stated_apart_still_come_whole_in_the_order_first_stated() -> None:
    """A graph whose rows are not together (stated in two turns) is gathered by an index of
    its rows; its quads still come in the order stated."""
    a, b, c = (URIRef(f"https://example.org/{name}") for name in "abc")
    label = URIRef("http://www.w3.org/2000/01/rdf-schema#label")
    quads = [(a, label, Literal("1"), b), (a, label, Literal("2"), c),
             (a, label, Literal("3"), b), (a, label, Literal("4"), a)]
    graphs = TableGraphs(QuadTable.of(quads))
    assert graphs.names() == [b, c, a]
    assert graphs.quads(b) == [quads[0], quads[2]]
    assert graphs.quads(c) == [quads[1]] and graphs.quads(a) == [quads[3]]


def test_a_build_is_read_graph_by_graph_in_place(tmp_path: Path) -> None:
    """A build states each graph together: the graphs are read from the table's rows as
    they are, making under 4 bytes a quad, mostly each graph's span and name (three columns
    copied and the rows sorted by graph made 36)."""
    from perf.generate_catalog import write_catalog

    write_catalog(200, tmp_path / "catalog", defect_share=0)
    table = build([tmp_path / "catalog"], Settings()).table
    graphs, _, peak = traced(lambda: TableGraphs(table))
    assert len(graphs.names()) == 202  # the records, the build graph, the ontology
    assert peak < 4 * len(table), (peak, len(table))


def test_a_streamed_validation_keeps_no_source_of_the_cross_record_facts(
        built: BuildResult) -> None:
    """Checked once, the cross-record indexes keep no source's facts apart, nor the sources
    of a node's labels: they hold under 60 % of what the indexes an update needs hold (70 MB
    against 35 at 10,000 records), and a removal is refused."""
    from graph.validation.across import AcrossRecords
    from graph.validation.shapes import bundled_shapes

    graphs = TableGraphs(built.table)

    def indexed(keep: bool) -> tuple[AcrossRecords, int]:
        def fill() -> AcrossRecords:
            across = AcrossRecords(bundled_shapes(), {}.get, keep_sources=keep)
            for graph, quads in graphs.each():
                across.set_source((graph, None), quads)
            return across

        across, held, _ = traced(fill)
        return across, held

    (kept, kept_bytes), (once, once_bytes) = indexed(True), indexed(False)
    assert once.nodes() == kept.nodes()
    assert once.recheck(once.nodes()) == kept.recheck(kept.nodes())
    assert once_bytes < 0.6 * kept_bytes, (once_bytes, kept_bytes)
    with pytest.raises(ValueError, match="keep no source"):
        once.remove_source((graphs.names()[0], None))
