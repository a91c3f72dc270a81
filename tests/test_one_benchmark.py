"""One benchmark node however many records describe it (DESIGN.md, "Records and sources"),
on the fixture catalog ``tests/data/one_benchmark/``: a catalog page and three directory pages
that name one benchmark by its id, by an alias and as ``Name (ABBR)``."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import Dataset, Literal, URIRef

from graph.build.graphs import GraphInMemory, build
from graph.export import to_dataset
from graph.mapping.identity import index_benchmarks
from graph.namespace import BENCH, BENCH_IRI, RDFS, SKOS
from graph.settings import Settings
from graph.validation.validate import Severity, validate
from tests.store_kinds import OTHER_KINDS
from tests.test_queries import RECORD, Stores, both_stores, rows, run_both

FIXTURES = Path(__file__).parent / "data" / "one_benchmark"
D = Settings().base
BBH = URIRef(f"{D}benchmark/bbh")
GATED = URIRef(f"{BENCH_IRI}Gated")  # an individual of the ontology, not a term of the class
PAGES = ["pages_titled_by_alias", "pages_titled_by_id", "pages_titled_name_abbr"]


@pytest.fixture(scope="module")
def built() -> GraphInMemory:
    return build([FIXTURES], Settings())


@pytest.fixture(scope="module")
def dataset(built: GraphInMemory) -> Dataset:
    return to_dataset(built.quads)


@pytest.fixture(scope="module", params=OTHER_KINDS)
def stores(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
           ) -> Iterator[Stores]:
    with both_stores([FIXTURES], tmp_path_factory.mktemp("one"), request.param) as pair:
        yield pair


def graph_of(key: str) -> URIRef:
    return URIRef(f"{RECORD}{key}")


def test_every_record_loads(built: GraphInMemory) -> None:
    assert built.report.rejected == [] and built.report.warnings == []
    keys = [loaded.key for loaded in built.report.records]
    assert keys == ["bbh", "pages_dyck_languages", *PAGES]


def test_four_records_describe_one_node_each_in_its_own_graph(built: GraphInMemory) -> None:
    describes = {(g, o) for s, p, o, g in built.quads if p == BENCH.describes and s == g}
    assert describes == {
        (graph_of("bbh"), BBH), *((graph_of(key), BBH) for key in PAGES),
        (graph_of("pages_dyck_languages"), URIRef(f"{D}benchmark/dyck_languages")),
    }


def test_no_second_node_for_any_name_of_it(built: GraphInMemory) -> None:
    benchmarks = {str(s).removeprefix(f"{D}benchmark/") for s, p, o, _ in built.quads
                  if p == BENCH.catalogued}
    assert benchmarks == {"bbh", "dyck_languages", "logical_deduction"}


def test_the_catalog_names_it_and_the_pages_add_other_names(built: GraphInMemory) -> None:
    names = {(p, str(o), str(g).removeprefix(RECORD)) for s, p, o, g in built.quads
             if s == BBH and p in (RDFS.label, SKOS.altLabel)}
    assert names == {
        (RDFS.label, "BIG-Bench Hard", "bbh"),
        (SKOS.altLabel, "Challenging BIG-Bench Tasks", "bbh"),
        (SKOS.altLabel, "Challenging BIG-Bench Tasks", "pages_titled_by_alias"),
        (SKOS.altLabel, "BBH", "pages_titled_by_id"),
        (SKOS.altLabel, "BIG-Bench Hard (BBH)", "pages_titled_name_abbr"),
        (SKOS.altLabel, "BIG-Bench Hard", "pages_dyck_languages"),
    }


def test_the_pages_scores_access_and_related_entries_land_on_the_node(dataset: Dataset) -> None:
    rows = dataset.query(
        """SELECT ?g ?model ?score WHERE { GRAPH ?g { ?b bench:result ?r .
        ?r bench:model/rdfs:label ?model ; bench:score ?score } }""",
        initNs={"bench": BENCH, "rdfs": RDFS}, initBindings={"b": BBH},
    )
    found = {(str(g).removeprefix(RECORD), str(m), str(v)) for g, m, v in rows}  # type: ignore[misc]
    assert found == {
        ("bbh", "Model A", "86.1"),
        ("pages_titled_by_id", "Model A", "86.1"),
        ("pages_titled_by_id", "Model B", "80.5"),
        ("pages_titled_by_alias", "Model A", "86.1"),
        ("pages_titled_by_alias", "Model C", "71.5"),
        ("pages_titled_name_abbr", "Model A", "80"),  # 80.0, as the store keeps a decimal
        ("pages_titled_name_abbr", "Model A", "86.1"),
        ("pages_dyck_languages", "Model A", "86.1"),
    }
    gated = {g for g in dataset.graphs() if (BBH, BENCH.accessLevel, GATED) in g}
    assert {str(g.identifier) for g in gated} == {str(graph_of("pages_titled_by_id"))}
    statement = Literal("Access needs a Hugging Face login.")
    page = dataset.graph(graph_of("pages_titled_by_id"))
    assert (BBH, BENCH.accessStatement, statement) in page
    assert (BBH, BENCH.relatedBenchmark, URIRef(f"{D}benchmark/logical_deduction")) in page


def test_catalogued_once(built: GraphInMemory) -> None:
    flags = [(o, g) for s, p, o, g in built.quads if s == BBH and p == BENCH.catalogued]
    assert flags == [(Literal(True), URIRef(f"{D}build"))]


def test_pages_that_state_no_settings_give_no_top_result(stores: Stores) -> None:
    """Curated pages state a top score without its settings: not comparable, so not ranked,
    and no result of theirs is a top result (the leaderboard lists them apart)."""
    assert rows(run_both(stores, "top-results")) == []
    board = rows(run_both(stores, "leaderboard", benchmark="bbh"))
    assert board and all(row[2] == "not stated" for row in board)


def test_the_same_benchmarks_in_any_order_of_records(built: GraphInMemory) -> None:
    records = [loaded.record for loaded in built.report.records]
    forwards, backwards = index_benchmarks(records), index_benchmarks(records[::-1])
    assert forwards == backwards
    assert [forwards.described_by(r) for r in records] == \
        ["bbh", "dyck_languages", "bbh", "bbh", "bbh"]


def test_one_node_from_many_records_has_no_violation(built: GraphInMemory) -> None:
    """Names from four graphs and results from five: each record's graph still fits the
    shapes, and so do the rules checked across records."""
    report = validate(built.quads)
    assert report.records_checked == 5
    assert report.count(Severity.VIOLATION) == 0, [str(r) for r in report.results]


def test_values_the_records_disagree_on_both_stay_in_their_graphs(built: GraphInMemory) -> None:
    released = {(str(o), str(g).removeprefix(RECORD)) for s, p, o, g in built.quads
                if s == BBH and p == BENCH.released}
    assert released == {("2022", "bbh"), ("2022-10", "pages_titled_by_id")}
