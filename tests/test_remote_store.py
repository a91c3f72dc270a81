"""The sparql: store's guarantees, watched on the wire (``tests.proxy``) in front of a real
``oxigraph serve``: what we refuse never reaches the engine, our time limit holds however
long the engine would take, and the engine's own default graph is not taken for the merge."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest
from flask.testing import FlaskClient

from graph.build.graphs import GraphInMemory
from graph.settings import Settings
from graph.sparql.errors import ReadOnlyError
from graph.store.base import Limits, Store
from graph.store.kinds import StoreSpec, open_store
from graph.store.process.pool import QueryTimeout
from tests.engines import RunningEngine, oxigraph_server
from tests.proxy import Proxy, proxy_to
from tests.store_kinds import prepared, push_into
from tests.system_tools import OXIGRAPH, needs
from tests.test_store import RUNAWAY
from web import create_app

pytestmark = [pytest.mark.engine, needs(OXIGRAPH)]

REFUSED = [
    "INSERT DATA { <http://a> <http://b> <http://c> }",
    "DELETE WHERE { ?s ?p ?o }",
    "CLEAR ALL",
    "DROP DEFAULT",
    "LOAD <http://example.org/data.ttl>",
    "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }",
    "SELECT * WHERE { { SELECT ?s WHERE { SERVICE SILENT <http://x/> { ?s ?p ?o } } } }",
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory, seed_build: GraphInMemory,
           settings: Settings) -> Iterator[RunningEngine]:
    with oxigraph_server(tmp_path_factory.mktemp("engine")) as running:
        push_into(running, seed_build, settings)
        yield running


@pytest.fixture(scope="module")
def proxy(engine: RunningEngine) -> Iterator[Proxy]:
    with proxy_to(engine.query.rsplit("/", 1)[0]) as watching:
        yield watching


@pytest.fixture(scope="module")
def store(proxy: Proxy, settings: Settings) -> Iterator[Store]:
    opened = open_store(StoreSpec.parse(f"sparql:{proxy.url}/query"), settings)
    prepared(opened)  # its search index read back before the tests watch the wire
    yield opened
    opened.close()


@pytest.fixture()
def client(store: Store, settings: Settings) -> FlaskClient:
    return create_app(settings, store, {"TESTING": True}).test_client()


@pytest.mark.parametrize("text", REFUSED)
def test_what_is_refused_never_reaches_the_engine(store: Store, client: FlaskClient,
                                                   proxy: Proxy, text: str) -> None:
    proxy.forget()
    with pytest.raises(ReadOnlyError):
        store.query(text)
    for response in (client.post("/sparql", data={"update": text}),
                     client.post("/sparql", data={"query": text}),
                     client.get("/sparql", query_string={"query": text})):
        assert response.status_code in (400, 403), response.get_data(as_text=True)
    assert proxy.seen == []
    assert store.query("ASK { ?b a bench:Benchmark }").boolean is True


def test_the_time_limit_is_ours(store: Store) -> None:
    started = time.monotonic()
    with pytest.raises(QueryTimeout, match="time limit of 1 s"):
        store.query(RUNAWAY, limits=Limits(timeout=1, rows=None))
    assert time.monotonic() - started < 1 + 1
    started = time.monotonic()
    assert store.query("ASK { ?b a bench:Benchmark }").boolean is True
    assert time.monotonic() - started < 1  # the engine, still busy with it, answers others


def test_the_row_limit_is_ours_and_the_engine_is_asked_as_it_was_sent(
        store: Store, proxy: Proxy) -> None:
    proxy.forget()
    result = store.query("SELECT ?s ?p ?o WHERE { ?s ?p ?o }", limits=Limits(timeout=30, rows=5))
    assert (len(result.rows), result.truncated) == (5, True)
    assert b"LIMIT" not in proxy.seen[0].body  # not rewritten: cut while reading


def test_an_engines_own_default_graph_is_not_taken_for_the_merge(
        tmp_path: Path, seed_build: GraphInMemory, settings: Settings) -> None:
    """An engine whose default graph already holds statements of its own: the push leaves
    them and puts the merge in a named graph, and queries that name no graph read that, not
    the engine's default graph."""
    with oxigraph_server(tmp_path / "engine") as engine:
        foreign = b"<https://w3id.org/benchgraph/benchmark/intruder> " \
                  b"<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> " \
                  b"<https://w3id.org/benchgraph/ontology#Benchmark> .\n"
        request = urllib.request.Request(f"{engine.store}?default", data=foreign, method="PUT",
                                         headers={"Content-Type": "application/n-triples"})
        urllib.request.urlopen(request, timeout=10).close()
        push_into(engine, seed_build, settings)
        with urllib.request.urlopen(f"{engine.store}?default", timeout=10) as kept:
            assert kept.read() == foreign  # the engine's own statements are left alone
        store = open_store(StoreSpec.parse(engine.spec), settings)
        try:
            found = {row[0] for row in store.query("SELECT ?b WHERE { ?b a bench:Benchmark }").rows}
            assert ox.NamedNode("https://w3id.org/benchgraph/benchmark/intruder") not in found
            assert ox.NamedNode("https://w3id.org/benchgraph/benchmark/mimic_rrs") in found
            assert not store.describe("https://w3id.org/benchgraph/benchmark/intruder").exists
        finally:
            store.close()


def test_part_of_an_answer_cut_at_the_engines_own_limit_is_refused(
        engine: RunningEngine, settings: Settings) -> None:
    """Virtuoso's "anytime query": past its own time limit it sends what it found so far,
    marked only by a header; the store says so rather than serve it as the answer."""
    with proxy_to(engine.origin) as proxy:
        store = open_store(StoreSpec.parse(f"sparql:{proxy.url}/query"), settings, lazy=True)
        try:
            proxy.headers = {"X-SQL-State": "S1TAT",
                             "X-SQL-Message": "RC...: Returning incomplete results"}
            with pytest.raises(QueryTimeout, match="sent only part of the answer"):
                store.query("SELECT * WHERE { ?s ?p ?o }")
        finally:
            store.close()


def test_the_dumps_are_the_graph_as_the_engine_holds_it(store: Store, seed_build: GraphInMemory
                                                        ) -> None:
    """A sparql: store makes its dumps from the data graphs read back from the engine: every
    statement of the build, in its graph, as the engine holds it. Oxigraph keeps some
    literals in a canonical form of their value (its issue #526: ``"100.0"^^xsd:decimal``
    is kept as ``"100"``), as it does in every store, so the dump equals the build's own one
    as Oxigraph reads it; a quad lost or added on the way would show here."""
    from graph.export.formats import NQUADS

    def read(data: bytes) -> set[ox.Quad]:
        holder = ox.Store()
        holder.load(data, format=ox.RdfFormat.N_QUADS)
        return set(holder)

    dumped = store.artefacts().dump(NQUADS)
    assert read(dumped.path.read_bytes()) == {
        quad for quad in seed_build.store if quad.graph_name != ox.DefaultGraph()}
