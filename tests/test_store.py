"""The Store: every kind (both local ones, and sparql: over a real engine), the merge as default
graph, limits, refusals; the local kinds' atomic builds."""

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest

from graph.build.graphs import GraphInMemory
from graph.errors import ErrorKind
from graph.settings import Settings
from graph.sparql.errors import QuerySyntaxError, ReadOnlyError
from graph.store import disk
from graph.store.base import Limits, QueryDataset, Store
from graph.store.disk import read_manifest
from graph.store.errors import StoreError
from graph.store.kinds import StoreSpec, build_into, open_store
from graph.store.local import LocalStore
from graph.store.process.executor import OnDisk, QueryRequest
from graph.store.process.pool import QueryPool, QueryTimeout
from graph.store.process.stops import QueryStopped
from tests.seeds import SEEDS

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"

BASE = "https://w3id.org/benchgraph/"
MIMIC = f"{BASE}benchmark/mimic_rrs"
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


CATALOG = list(SEEDS)
"""The seeds: ``store`` (conftest) is them in a store of each kind in turn."""


@pytest.fixture(scope="module")
def oxigraph_store(
    seed_build: GraphInMemory, settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LocalStore]:
    folder = tmp_path_factory.mktemp("stores") / "seeds"
    build_into(folder, seed_build.records, settings)
    store = open_store(StoreSpec.parse(f"oxigraph:{folder}"), settings)
    yield store
    store.close()


def test_spec_parsing() -> None:
    assert StoreSpec.parse("memory") == StoreSpec("memory")
    assert StoreSpec.parse("oxigraph:/tmp/x") == StoreSpec("oxigraph", "/tmp/x")
    assert str(StoreSpec.parse("sparql:http://h/q")) == "sparql:http://h/q"
    for bad in ("", "oxigraph", "oxigraph:", "memory:x", "fuseki:x"):
        with pytest.raises(Exception, match="memory, oxigraph:DIR or sparql:URL"):
            StoreSpec.parse(bad)


def test_select_rows_and_terms(store: Store) -> None:
    result = store.query("SELECT ?id WHERE { ?b a bench:Benchmark ; dcterms:identifier ?id "
                         "FILTER(?id = 'mimic_rrs') }")
    assert result.variables == ("id",)
    assert result.rows == ((ox.Literal("mimic_rrs"),),)
    assert not result.truncated


def test_bindings_are_joined_as_values(store: Store) -> None:
    result = store.query("SELECT ?label WHERE { ?b rdfs:label ?label }",
                         bindings={"b": ox.NamedNode(MIMIC)})
    assert [row[0] for row in result.rows] == [ox.Literal("MIMIC-RRS (MedHELM)")]


def test_default_graph_is_the_merge(tmp_path: Path, settings: Settings) -> None:
    """A triple two records state is one triple in the default graph, and each record's own
    statement is still in its graph."""
    for name in ("one", "two"):
        (tmp_path / f"{name}.txt").write_text(
            f"Bench {name}\nA summary.\n- Made by\n- Shared Lab\n", encoding="utf-8")
    store = open_store(StoreSpec.parse("memory"), settings, [tmp_path])
    try:
        lab = ox.NamedNode(f"{BASE}org/shared_lab")
        merged = store.query("SELECT ?type WHERE { ?lab a ?type }", bindings={"lab": lab})
        assert merged.rows == ((ox.NamedNode("https://w3id.org/benchgraph/ontology#Organization"),),)
        graphs = store.query("SELECT ?g WHERE { GRAPH ?g { ?lab a ?type } } ORDER BY ?g",
                             bindings={"lab": lab})
        assert [row[0] for row in graphs.rows] == [
            ox.NamedNode(f"{BASE}record/one"), ox.NamedNode(f"{BASE}record/two")]
    finally:
        store.close()


def test_dataset_picks_record_graphs(store: Store) -> None:
    record = store.build_facts().records[0].graph
    only = store.query("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }",
                       dataset=QueryDataset(named_graphs=(record,)))
    assert only.rows == ((ox.NamedNode(record),),)
    unknown = store.query("ASK { ?s ?p ?o }",
                          dataset=QueryDataset(default_graphs=("http://example.org/none",)))
    assert unknown.boolean is False


def test_a_record_graph_is_found_by_its_name(store: Store) -> None:
    records = store.build_facts().records
    assert records and all(store.build_facts().record(record.graph) == record for record in records)
    assert store.build_facts().record(f"{BASE}record/no-such-record") is None
    assert store.build_facts().record(f"{BASE}build") is None


def test_construct_gives_triples(store: Store) -> None:
    result = store.query("CONSTRUCT WHERE { bench:MedHELM a ?class }")
    assert result.is_graph and result.count == 1
    assert result.triples[0].object == ox.NamedNode("https://w3id.org/benchgraph/ontology#Suite")


def test_row_limit_cuts_and_says_so(store: Store) -> None:
    result = store.query("SELECT ?s ?p ?o WHERE { ?s ?p ?o }", limits=Limits(timeout=30, rows=3))
    assert result.count == 3 and len(result.rows) == 3 and result.truncated
    graph = store.query("CONSTRUCT WHERE { ?s ?p ?o }", limits=Limits(timeout=30, rows=2))
    assert graph.count == 2 and len(graph.triples) == 2 and graph.truncated


def test_describe_gives_both_directions_with_graphs(store: Store) -> None:
    description = store.describe(MIMIC)
    assert description.exists
    predicates = {statement.predicate.value for statement in description.outgoing}
    assert "http://www.w3.org/2000/01/rdf-schema#label" in predicates
    assert any(s.subject.value.endswith("record/000_501ccd0cd0e2608f")  # type: ignore[union-attr]
               for s in description.incoming)
    graphs = {statement.graph.value for statement in description.outgoing}
    assert f"{BASE}build" in graphs and f"{BASE}record/000_501ccd0cd0e2608f" in graphs
    capped = store.describe(MIMIC, limit=2)
    typed = {s for s in capped.outgoing if s.predicate.value == RDF_TYPE}
    assert len(capped.outgoing) - len(typed) <= 2 and capped.truncated
    assert typed == {s for s in description.outgoing if s.predicate.value == RDF_TYPE} != set()
    assert not store.describe(f"{BASE}benchmark/no_such_thing").exists


def test_updates_and_service_are_refused(store: Store) -> None:
    for update in ("INSERT DATA { <http://a> <http://b> <http://c> }",
                   "PREFIX x: <http://x/> DELETE WHERE { ?s ?p ?o }",
                   "LOAD <http://example.org/data.ttl>", "CLEAR ALL"):
        with pytest.raises(ReadOnlyError, match="read-only") as refused:
            store.query(update)
        assert refused.value.kind is ErrorKind.QUERY
    assert store.query("ASK { ?s ?p ?o }").boolean is True  # unchanged


def test_no_connection_is_made(store: Store) -> None:
    """SERVICE (nested too) is refused before it runs; FROM names graphs and fetches nothing."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/sparql"
    accepted: list[object] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                accepted.append(listener.accept())
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept)
    thread.start()
    try:
        for query in (f"SELECT * WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }}",
                      f"SELECT * WHERE {{ OPTIONAL {{ SERVICE SILENT <{url}> {{ ?s ?p ?o }} }} }}",
                      f"SELECT * WHERE {{ {{ SELECT * WHERE {{ service <{url}> {{ ?s ?p ?o }} }} }}"
                      " }"):
            with pytest.raises(ReadOnlyError, match="SERVICE"):
                store.query(query)
        assert store.query(f"ASK FROM <{url}> {{ ?s ?p ?o }}").boolean is False
        assert store.query(f"SELECT * FROM NAMED <{url}> WHERE {{ GRAPH ?g {{ ?s ?p ?o }} }}"
                           ).count == 0
        time.sleep(0.3)
    finally:
        stop.set()
        thread.join()
        listener.close()
    assert accepted == []


def test_syntax_error_names_line_and_column(store: Store) -> None:
    with pytest.raises(QuerySyntaxError, match="line 2, column") as refused:
        store.query("SELECT *\nWHERE { ?s ?p }")
    assert refused.value.line == 2


def test_runaway_query_is_stopped_and_the_store_answers_after(
    seed_build: GraphInMemory, settings: Settings
) -> None:
    store = open_store(StoreSpec.parse("memory"), settings, built=seed_build.records, processes=2)
    try:
        started = time.monotonic()
        with pytest.raises(QueryTimeout, match="time limit of 1 s") as stopped:
            store.query(RUNAWAY, limits=Limits(timeout=1, rows=None))
        assert time.monotonic() - started < 1 + 2
        assert stopped.value.kind is ErrorKind.LIMIT
        assert store.query("ASK { ?s ?p ?o }").boolean is True
    finally:
        store.close()


def test_cheap_query_answers_beside_a_runaway(seed_build: GraphInMemory,
                                              settings: Settings) -> None:
    store = open_store(StoreSpec.parse("memory"), settings, built=seed_build.records, processes=2)
    try:
        store.query("ASK { ?s ?p ?o }")  # one process started; the second when needed
        errors: list[BaseException] = []

        def runaway() -> None:
            try:
                store.query(RUNAWAY, limits=Limits(timeout=3, rows=None))
            except QueryTimeout as error:
                errors.append(error)

        thread = threading.Thread(target=runaway)
        thread.start()
        time.sleep(0.3)
        started = time.monotonic()
        assert store.query("ASK { ?s a bench:Benchmark }").boolean is True
        assert time.monotonic() - started < 1
        thread.join()
        assert len(errors) == 1
    finally:
        store.close()


def test_the_query_processes_start_one_then_as_queries_need_them(
    oxigraph_store: LocalStore,
) -> None:
    """A pool starts one process (each opens the store), and another only when a query finds
    none free, up to its size: beside two runaways on a pool of two, a third query waits for
    a free process and is stopped by its limit; no third process is started."""
    pool = QueryPool(oxigraph_store.loaded()[1], size=2)
    try:
        assert len(pool._children) == 1
        for _ in range(3):  # one after another: the first process answers each
            pool.run(_request("ASK { ?s ?p ?o }"), 10)
        assert len(pool._children) == 1
        stopped: list[str] = []

        def runaway() -> None:
            try:
                pool.run(_request(RUNAWAY), 3)
            except QueryTimeout as error:
                stopped.append(str(error))

        threads = [threading.Thread(target=runaway) for _ in range(2)]
        for thread in threads:
            thread.start()
            time.sleep(0.3)
        assert len(pool._children) == 2
        with pytest.raises(QueryTimeout, match="no query process was free"):
            pool.run(_request("ASK { ?s ?p ?o }"), 0.5)
        assert len(pool._children) == 2
        for thread in threads:
            thread.join()
        assert len(stopped) == 2
    finally:
        pool.close()


def _request(text: str) -> QueryRequest:
    return QueryRequest(text=text, form="SELECT" if text.startswith("SELECT") else "ASK",
                        prefixes={}, base_iri=BASE, default_graphs=None, named_graphs=None,
                        row_limit=None)


def test_store_folder_keeps_its_build_facts(
    oxigraph_store: LocalStore, seed_build: GraphInMemory
) -> None:
    records = oxigraph_store.build_facts().records
    assert [r.source_file for r in records] == [
        str(loaded.source.relative) for loaded in seed_build.report.records]
    assert all(len(r.sha256) == 64 for r in records)
    assert oxigraph_store.base == BASE
    manifest = read_manifest(oxigraph_store.folder)
    assert oxigraph_store.counts() == manifest.counts
    assert manifest.facts.built_at
    assert oxigraph_store.source == OnDisk(oxigraph_store.folder / manifest.generation)


def test_store_built_with_another_base_is_an_error(
    oxigraph_store: LocalStore, settings: Settings
) -> None:
    other = Settings(base="https://example.org/data/")
    with pytest.raises(StoreError, match=r"built with the base IRI https://w3id\.org/benchgraph/"):
        open_store(StoreSpec.parse(f"oxigraph:{oxigraph_store.folder}"), other)
    # With no base given, the store's own is taken.
    opened = open_store(StoreSpec.parse(f"oxigraph:{oxigraph_store.folder}"), Settings())
    assert opened.base == BASE
    opened.close()


def test_missing_or_foreign_folder_is_a_clear_error(tmp_path: Path, settings: Settings,
                                                    seed_build: GraphInMemory) -> None:
    with pytest.raises(StoreError, match="holds no benchgraph store"):
        open_store(StoreSpec.parse(f"oxigraph:{tmp_path / 'none'}"), settings)
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("not a store")
    with pytest.raises(StoreError, match="not empty"):
        build_into(foreign, seed_build.records, settings)
    assert (foreign / "notes.txt").read_text() == "not a store"


def test_interrupted_build_leaves_the_old_store_whole(
    tmp_path: Path, settings: Settings, seed_build: GraphInMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "store"
    first = build_into(folder, seed_build.records, settings)[1]

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(disk, "_write_manifest", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_into(folder, seed_build.records, settings)
    monkeypatch.undo()
    assert read_manifest(folder) == first
    store = open_store(StoreSpec.parse(f"oxigraph:{folder}"), settings)
    try:
        assert store.query("ASK { ?s a bench:Benchmark }").boolean is True
    finally:
        store.close()
    second = build_into(folder, seed_build.records, settings)[1]
    generations = sorted(p.name for p in folder.iterdir() if p.is_dir())
    assert generations == [second.generation]  # the old and the stray ones are gone


def test_a_generation_is_written_out_before_the_switch(
    tmp_path: Path, settings: Settings, seed_build: GraphInMemory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store folder's new generation is on disk before its manifest names it (one
    ``syncfs`` of its file system), a memory store's temporary folder too."""
    steps: list[str] = []
    write_out, write_manifest = disk._write_out, disk._write_manifest

    def writing_out(folder: Path) -> None:
        steps.append("written out")
        write_out(folder)

    def switching(folder: Path, manifest: disk.Manifest) -> None:
        steps.append("switched")
        write_manifest(folder, manifest)

    monkeypatch.setattr(disk, "_write_out", writing_out)
    monkeypatch.setattr(disk, "_write_manifest", switching)
    build_into(tmp_path / "store", seed_build.records, settings)
    assert steps == ["written out", "switched"]
    steps.clear()
    open_store(StoreSpec.parse("memory"), settings, built=seed_build.records).close()
    assert steps == ["written out", "switched"]


def test_a_store_that_cannot_be_written_out_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed ``syncfs`` (an I/O error, a full disk) fails the build with the system's
    reason; where the C library has none, ``os.sync`` does the writing out."""
    import ctypes
    import errno

    def failing(descriptor: int) -> int:
        ctypes.set_errno(errno.EIO)
        return -1

    monkeypatch.setattr(disk, "libc_function", lambda name, arguments: failing)
    with pytest.raises(StoreError, match="could not be written out: Input/output error"):
        disk._write_out(tmp_path)
    synced: list[bool] = []
    monkeypatch.setattr(disk, "libc_function", lambda name, arguments: None)
    monkeypatch.setattr(disk.os, "sync", lambda: synced.append(True))
    disk._write_out(tmp_path)
    assert synced == [True]


def test_memory_store_removes_its_folder(seed_build: GraphInMemory, settings: Settings) -> None:
    store = open_store(StoreSpec.parse("memory"), settings, built=seed_build.records)
    folder = store.folder
    assert folder.is_dir()
    store.close()
    assert not folder.exists()


def test_manifest_records_written_by_hand_are_asdict() -> None:
    """``Manifest.to_json`` writes each record graph's fields by hand (``asdict`` took 0.3 s
    for 10,000): every field is there, and the manifest reads back as it was."""
    import dataclasses

    from graph.build.stats import GraphStats, StatementCounts
    from graph.store.base import BuildFacts, RecordGraph

    records = (RecordGraph("https://example.org/record/a", "a.json", "0" * 64),
               RecordGraph("https://example.org/record/b", "b/b.txt", "f" * 64))
    stats = GraphStats(StatementCounts("triples", 2, 1, 0, 2), {})
    manifest = disk.Manifest("generation-x", BuildFacts("https://example.org/", "2026-12-02",
                                                        records, ("bad.json",)),
                             stats, quads=3, triples=2)
    data = manifest.to_json()
    assert data["records"] == [dataclasses.asdict(record) for record in records]
    assert disk.Manifest.from_json(data) == manifest


def test_a_select_star_answers_in_the_querys_order(store: Store) -> None:
    """The engines order the columns of ``*`` as they like (Oxigraph sorts them); every
    store answers in the order the query names its variables."""
    result = store.query("SELECT * WHERE { ?s ?p ?o } LIMIT 3")
    assert result.variables == ("s", "p", "o")
    assert [len(row) for row in result.rows] == [3, 3, 3]


def test_a_query_under_way_when_the_pool_closes_is_stopped_not_a_crash(
    oxigraph_store: LocalStore,
) -> None:
    """A server stopping closes its pool with queries under way: each ends as stopped (a 503
    the client can retry), never as a query process that died for no reason (a 500 and a
    traceback in the log)."""
    pool = QueryPool(oxigraph_store.loaded()[1], size=1)
    ended: list[BaseException] = []

    def runaway() -> None:
        try:
            pool.run(_request(RUNAWAY), 30)
        except Exception as error:  # what it is, is the test
            ended.append(error)

    thread = threading.Thread(target=runaway)
    thread.start()
    time.sleep(0.5)
    pool.close()
    thread.join(10)
    assert len(ended) == 1
    assert isinstance(ended[0], QueryStopped), repr(ended[0])
    assert "the server is stopping" in str(ended[0])
