"""A ``sparql:`` store reads the data graphs back from the engine (to make its search index
and dumps) a bounded number of graphs a query, each named in the query, on every real
engine: one query for them all outlasted the time limit at 100,000 records."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import pyoxigraph as ox
import pytest

from graph.build.graphs import build
from graph.export.formats import NQUADS
from graph.store.kinds import StoreSpec, open_store
from graph.store.remote import store as remote
from graph.store.remote.engine import Dataset
from graph.store.remote.manifest import engine_for
from tests.engines import ENGINES, RunningEngine
from tests.proxy import proxy_to
from tests.test_push import BASE, REMOTE_KINDS, push_build, quads, settings_for, write_catalog


@pytest.fixture(params=REMOTE_KINDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningEngine]:
    with ENGINES[request.param](tmp_path / "engine") as running:
        yield running


def test_the_data_graphs_are_read_back_a_few_graphs_a_query(
        tmp_path: Path, engine: RunningEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """With two graphs a query, the eight records, the build and the ontology are read in
    five queries, each naming its two graphs, and the dump made of them holds every
    statement of the data graphs as the engine holds them. Then the real size: a query
    naming ``GRAPHS_PER_QUERY`` graphs, most of them absent, gives the same statements
    (Virtuoso answered a thousand graphs named in the request's dataset with a thousand
    headers, which Python's HTTP client refuses)."""
    per_query = remote.GRAPHS_PER_QUERY
    settings = settings_for(engine)
    push_build(engine, build([write_catalog(tmp_path / "catalog")], settings), settings)
    held = {quad for quad in quads(engine) if isinstance(quad.graph_name, ox.NamedNode)
            and not quad.graph_name.value.startswith(f"{BASE}push")}
    data_graphs = sorted({quad.graph_name.value for quad in held})  # type: ignore[union-attr]
    assert len(data_graphs) == 10

    monkeypatch.setattr(remote, "GRAPHS_PER_QUERY", 2)
    with proxy_to(engine.origin) as proxy:
        store = open_store(StoreSpec.parse(engine.through(proxy.url).spec), settings,
                           lazy=True)
        try:
            proxy.forget()
            dumped = ox.Store()
            dumped.load(store.artefacts().dump(NQUADS).path.read_bytes(),
                        format=ox.RdfFormat.N_QUADS)
        finally:
            store.close()
    texts = [parse_qs(seen.body.decode())["query"][0] for seen in proxy.seen
             if seen.method == "POST"]
    asked = [re.findall(r"<([^>]+)>", text.split("VALUES ?g", 1)[1].split("}", 1)[0])
             for text in texts if "VALUES ?g" in text]
    assert [len(graphs) for graphs in asked] == [2] * 5
    assert sorted(graph for graphs in asked for graph in graphs) == data_graphs
    assert set(dumped) == held

    absent = [f"{BASE}record/absent-{n}" for n in range(per_query - len(data_graphs))]
    client = engine_for(engine.query, settings)
    try:
        rows = client.rows(remote.read_back([*data_graphs, *absent]), Dataset(), timeout=60)
    finally:
        client.close()
    assert {ox.Quad(*row) for row in rows} == held  # type: ignore[misc]
