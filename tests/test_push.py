"""``benchgraph push`` into real engines (``oxigraph serve``, and Virtuoso where it is
installed), watched on the wire (``tests.proxy``):
pushing again changes nothing and sends nothing; one changed record sends its graph (and
the merge that holds its statements); a removed record's graph goes; a push cut short by
the engine's death is made whole by the next one; credentials reach only the
``Authorization`` header; failures are retried with backoff, and time limits hold."""

from __future__ import annotations

import hashlib
import itertools
import logging
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest
from pydantic import SecretStr

from graph.build.graphs import GraphInMemory, build
from graph.settings import Settings
from graph.store.kinds import StoreSpec, open_store
from graph.store.remote import push as remote_push
from graph.store.remote.client import RemoteError, RemoteTimeout
from graph.store.remote.engine import Dataset
from graph.store.remote.manifest import engine_for
from graph.store.remote.push import PushError, PushOutcome
from tests.engines import ENGINES, RunningEngine, free_port, oxigraph_server
from tests.proxy import Proxy, proxy_to
from tests.store_kinds import STORE_KINDS, pushed
from tests.system_tools import OXIGRAPH, needs

pytestmark = [pytest.mark.engine, needs(OXIGRAPH)]

BASE = Settings().base
RECORDS = {f"bench_{n}": f"Bench {n}\nA summary of bench {n}.\n- Made by\n- Lab {n % 3}\n"
           for n in range(8)}
"""Small text records: eight graphs, some of their statements shared (the labs)."""


def write_catalog(folder: Path, records: dict[str, str] = RECORDS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.txt"):
        old.unlink()
    for name, text in records.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return folder


def graph_of(name: str) -> str:
    return f"{BASE}record/{name}"


def quads(engine: RunningEngine) -> set[ox.Quad]:
    """Every statement of benchgraph's graphs on the engine (not an engine's own graphs),
    read by plain urllib: the named graphs by a query, and on Oxigraph, whose default graph
    is a graph of its own, that graph by the Graph Store Protocol."""
    text = ("SELECT ?s ?p ?o ?g WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "
            f"{ox.Literal(BASE)}) || ?g = <https://w3id.org/benchgraph/ontology>) }}")
    request = urllib.request.Request(
        engine.query, data=urllib.parse.urlencode({"query": text}).encode(),
        headers={"Accept": "application/sparql-results+xml"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        solutions = ox.parse_query_results(answer.read(), ox.QueryResultsFormat.XML)
    held = {ox.Quad(*solution) for solution in solutions}  # type: ignore[misc, union-attr]
    if engine.store.endswith("/store"):
        default = urllib.request.Request(f"{engine.store}?default",
                                         headers={"Accept": "application/n-triples"})
        with urllib.request.urlopen(default, timeout=60) as answer:
            held |= {ox.Quad(t.subject, t.predicate, t.object, ox.DefaultGraph())
                     for t in ox.parse(answer.read(), ox.RdfFormat.N_TRIPLES)}
    return held


def data(held: set[ox.Quad]) -> set[ox.Quad]:
    """The quads of every graph but the push's manifest (which records when it was made)."""
    manifest = ox.NamedNode(f"{BASE}push")
    return {quad for quad in held if quad.graph_name != manifest}


def settings_for(engine: RunningEngine, **more: object) -> Settings:
    return Settings(graph_store=engine.store, remote_retries=1, **more)  # type: ignore[arg-type]


def push_build(engine: RunningEngine, built: GraphInMemory, settings: Settings) -> PushOutcome:
    client = engine_for(engine.query, settings)
    try:
        return pushed(client, built, settings)
    finally:
        client.close()


REMOTE_KINDS = [kind for kind in STORE_KINDS if kind.values[0] in ENGINES]


@pytest.fixture(params=REMOTE_KINDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunningEngine]:
    """Each real engine in turn."""
    with ENGINES[request.param](tmp_path / "engine") as running:
        yield running


@pytest.fixture()
def oxigraph(tmp_path: Path) -> Iterator[RunningEngine]:
    """``oxigraph serve``: for the tests of our own client, whatever the engine."""
    with oxigraph_server(tmp_path / "engine") as running:
        yield running


@pytest.fixture()
def proxy(engine: RunningEngine) -> Iterator[Proxy]:
    with proxy_to(engine.origin) as watching:
        yield watching


def test_pushing_twice_holds_the_same_quads_and_sends_nothing(
        tmp_path: Path, engine: RunningEngine, proxy: Proxy) -> None:
    watched = engine.through(proxy.url)
    settings = settings_for(watched)
    built = build([write_catalog(tmp_path / "catalog")], settings)
    first = push_build(watched, built, settings)
    assert sorted(first.sent) == sorted([*map(graph_of, RECORDS), f"{BASE}build",
                                         "https://w3id.org/benchgraph/ontology", first.merge])
    held = quads(engine)
    proxy.forget()
    again = push_build(watched, build([tmp_path / "catalog"], settings), settings)
    assert (again.sent, again.deleted) == ([], [])
    assert proxy.puts() == [] and quads(engine) == held


def test_one_changed_record_sends_its_graph_and_the_merge(
        tmp_path: Path, engine: RunningEngine, proxy: Proxy) -> None:
    watched = engine.through(proxy.url)
    settings = settings_for(watched)
    catalog = write_catalog(tmp_path / "catalog")
    push_build(watched, build([catalog], settings), settings)
    changed = dict(RECORDS, bench_3=RECORDS["bench_3"].replace("A summary", "A new summary"))
    write_catalog(catalog, changed)
    proxy.forget()
    outcome = push_build(watched, build([catalog], settings), settings)
    ours = ("default", f"{BASE}push", outcome.merge)
    data_graphs = [graph for graph in proxy.puts() if graph not in ours]
    assert data_graphs == [graph_of("bench_3")]  # exactly one record's graph on the wire
    assert outcome.sent == [graph_of("bench_3"), outcome.merge]  # and the merge, which holds it
    assert data(quads(engine)) == data(fresh_push(engine, tmp_path / "fresh", changed))



def test_a_push_writes_the_manifest_a_bounded_number_of_times(
        tmp_path: Path, oxigraph: RunningEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every checkpoint writes the whole manifest (it lists every graph), so a push makes at
    most ``CHECKPOINTS`` of them, evenly spaced, whatever the number of graphs: the
    unfinished manifest first, the checkpoints, the finished one last."""
    assert remote_push.checkpoint_every(100_000) == 5_000
    assert remote_push.checkpoint_every(1_000) == remote_push.CHECKPOINT_GRAPHS == 200
    monkeypatch.setattr(remote_push, "CHECKPOINT_GRAPHS", 1)
    monkeypatch.setattr(remote_push, "CHECKPOINTS", 3)
    with proxy_to(oxigraph.origin) as proxy:
        watched = oxigraph.through(proxy.url)
        settings = settings_for(watched)
        outcome = push_build(watched, build([write_catalog(tmp_path / "catalog")], settings),
                             settings)
        puts = proxy.puts()
    sent = len(outcome.sent)  # every record, the build, the ontology and the merge
    assert sent == len(RECORDS) + 3
    manifests = [at for at, graph in enumerate(puts) if graph == f"{BASE}push"]
    between = [later - earlier - 1 for earlier, later in itertools.pairwise(manifests)]
    every = -(-sent // 3)
    assert between == [every, every, sent - 2 * every]

def fresh_push(like: RunningEngine, folder: Path, records: dict[str, str]) -> set[ox.Quad]:
    """What one push of ``records`` into an empty engine of the same kind leaves there."""
    start = oxigraph_server if like.store.endswith("/store") else ENGINES["virtuoso"]
    with start(folder / "engine") as engine:
        settings = settings_for(engine)
        push_build(engine, build([write_catalog(folder / "catalog", records)], settings),
                   settings)
        return quads(engine)


def test_a_removed_records_graph_is_deleted(tmp_path: Path, engine: RunningEngine,
                                           proxy: Proxy) -> None:
    watched = engine.through(proxy.url)
    settings = settings_for(watched)
    catalog = write_catalog(tmp_path / "catalog")
    push_build(watched, build([catalog], settings), settings)
    fewer = {name: text for name, text in RECORDS.items() if name != "bench_5"}
    write_catalog(catalog, fewer)
    outcome = push_build(watched, build([catalog], settings), settings)
    assert outcome.deleted == [graph_of("bench_5")]
    held = quads(engine)
    assert ox.NamedNode(graph_of("bench_5")) not in {quad.graph_name for quad in held}
    assert data(held) == data(fresh_push(engine, tmp_path / "fresh", fewer))


@pytest.mark.parametrize("checkpoint", [1, 200])
def test_a_push_cut_short_by_the_engines_death_is_made_whole_by_the_next(
        tmp_path: Path, engine: RunningEngine, monkeypatch: pytest.MonkeyPatch,
        checkpoint: int) -> None:
    """The engine is killed (SIGKILL) after three graphs of a push that changes every one:
    the push says which records did not go; a store refuses to serve the half-pushed
    engine; once it is back, the next push leaves what a clean push leaves, and sends
    again no graph the last checkpoint recorded as taken."""
    monkeypatch.setattr(remote_push, "CHECKPOINT_GRAPHS", checkpoint)
    settings = settings_for(engine)
    catalog = write_catalog(tmp_path / "catalog")
    push_build(engine, build([catalog], settings), settings)
    changed = {name: text.replace("A summary", "Another summary")
               for name, text in RECORDS.items()}
    write_catalog(catalog, changed)
    built = build([catalog], settings)
    client = engine_for(engine.query, settings)

    def kill_after_three(number: int, total: int) -> None:
        if number == 3:
            engine.kill()

    try:
        with pytest.raises(PushError, match=r"graphs did not go \(.*bench_\d.txt") as failed:
            pushed(client, built, settings, progress=kill_after_three)
    finally:
        client.close()
    assert "the next push sends them again" in failed.value.message
    engine.restart()
    with pytest.raises(Exception, match="did not finish"):
        open_store(StoreSpec.parse(engine.spec), settings)
    outcome = push_build(engine, built, settings)
    recorded = 2 if checkpoint == 1 else 0  # the third was taken, but its checkpoint failed
    assert len(outcome.sent) == len(RECORDS) - recorded + 1  # the rest, and the merge
    assert data(quads(engine)) == data(fresh_push(engine, tmp_path / "fresh", changed))
    store = open_store(StoreSpec.parse(engine.spec), settings)
    try:
        assert store.query("SELECT (COUNT(*) AS ?n) WHERE { ?b a bench:Benchmark }").rows[0][0] \
            == ox.Literal("8", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer"))
    finally:
        store.close()


SECRET = "s3cret-pa55word-xyzzy"
TOKEN = "tok-4f1d2c9e8b7a6d5e"


LOUD = ("import logging, sys; logging.basicConfig(level=logging.DEBUG); "
        "from graph.cli import main; sys.exit(main(sys.argv[1:]))")
"""``benchgraph`` with every logger at DEBUG: what any log line would show, shows."""


def run_cli(words: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {name: value for name, value in os.environ.items()
             if not name.startswith("BENCHGRAPH_")}
    return subprocess.run([sys.executable, "-c", LOUD, *words], env=clean | env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("env", "header"), [
    ({"BENCHGRAPH_REMOTE_USER": "loader", "BENCHGRAPH_REMOTE_PASSWORD": SECRET},
     "Basic bG9hZGVyOnMzY3JldC1wYTU1d29yZC14eXp6eQ=="),
    ({"BENCHGRAPH_REMOTE_TOKEN": TOKEN}, f"Bearer {TOKEN}"),
], ids=["basic", "bearer"])
def test_credentials_from_the_environment_reach_only_the_header(
        tmp_path: Path, oxigraph: RunningEngine, env: dict[str, str], header: str) -> None:
    """push and query through an engine that demands them: every request carries them, and
    neither the output (with logging at DEBUG) nor a refusal that echoes them shows them."""
    secrets = [value for name, value in env.items() if not name.endswith("USER")]
    secrets.append(header.split()[1])
    catalog = write_catalog(tmp_path / "catalog")
    with proxy_to(oxigraph.origin, require=header) as proxy:
        words = ["push", "--store", f"sparql:{proxy.url}/query",
                 "--graph-store", f"{proxy.url}/store", str(catalog)]
        done = run_cli(words, env)
        assert done.returncode == 0, done.stderr
        assert proxy.seen and {seen.authorization for seen in proxy.seen} == {header}
        asked = run_cli(["query", "--store", f"sparql:{proxy.url}/query", "-e",
                         "SELECT ?b WHERE { ?b a bench:Benchmark }"], env)
        assert asked.returncode == 0, asked.stderr
        wrong = {name: "wrong-" + value for name, value in env.items()}
        refused = run_cli(words, wrong)
        assert refused.returncode != 0 and "401" in refused.stderr
    for shown in (done.stdout, done.stderr, asked.stdout, asked.stderr, refused.stderr):
        for secret in [*secrets, *("wrong-" + value for value in secrets[:-1])]:
            assert secret not in shown


def test_credentials_are_refused_on_the_command_line(tmp_path: Path) -> None:
    done = run_cli(["push", "--store", f"sparql:http://loader:{SECRET}@127.0.0.1:9/query",
                    str(write_catalog(tmp_path / "catalog"))], {})
    assert done.returncode != 0
    assert "a URL with credentials in it is refused" in done.stderr
    assert SECRET not in done.stderr + done.stdout


def test_settings_never_show_a_secret(caplog: pytest.LogCaptureFixture) -> None:
    settings = Settings(remote_password=SecretStr(SECRET), remote_token=SecretStr(TOKEN))
    caplog.set_level(logging.DEBUG)
    logging.getLogger("benchgraph").debug("settings: %r %s", settings, settings)
    engine = engine_for("http://127.0.0.1:9/query", settings)
    shown = repr(settings) + str(settings) + repr(engine) + caplog.text
    assert SECRET not in shown and TOKEN not in shown


def test_failures_are_retried_with_growing_waits(oxigraph: RunningEngine) -> None:
    with proxy_to(oxigraph.origin, failures=[503, 502, 503]) as proxy:
        settings = Settings(graph_store=f"{proxy.url}/store", remote_retries=3)
        client = engine_for(f"{proxy.url}/query", settings)
        try:
            assert client.rows("SELECT * WHERE { ?s ?p ?o } LIMIT 1", Dataset(),
                               timeout=30) == []
        finally:
            client.close()
        times = [seen.at for seen in proxy.seen]
    waits = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert len(waits) == 3
    assert 0.2 < waits[0] < waits[1] < waits[2] and waits[2] > 0.9  # 0.25, 0.5, 1 s


def test_each_retry_is_logged_with_the_engine_and_why(
        oxigraph: RunningEngine, caplog: pytest.LogCaptureFixture) -> None:
    """A WARNING for each retry, in the store's log, naming the engine and what failed: a
    5xx answer, then an engine that cannot be reached."""
    caplog.set_level(logging.WARNING)
    with proxy_to(oxigraph.origin, failures=[503, 502]) as proxy:
        client = engine_for(f"{proxy.url}/query", Settings(remote_retries=3))
        try:
            client.rows("SELECT * WHERE { ?s ?p ?o } LIMIT 1", Dataset(), timeout=30)
        finally:
            client.close()
    gone = f"http://127.0.0.1:{free_port()}/query"
    client = engine_for(gone, Settings(remote_retries=1))
    try:
        with pytest.raises(RemoteError, match="could not be reached"):
            client.rows("SELECT * WHERE { ?s ?p ?o }", Dataset(), timeout=30)
    finally:
        client.close()
    ours = [record for record in caplog.records if record.name.startswith("graph.store.remote")]
    assert [record.levelno for record in ours] == [logging.WARNING] * 3
    said = [record.getMessage() for record in ours]
    assert f"{proxy.url}/query answered 503" in said[0] and "0.25 s" in said[0]
    assert f"{proxy.url}/query answered 502" in said[1] and "0.50 s" in said[1]
    assert f"{gone} could not be reached" in said[2] and "Connection refused" in said[2]


def test_a_refusal_is_not_retried_and_retries_end(oxigraph: RunningEngine) -> None:
    with proxy_to(oxigraph.origin, failures=[400, 503, 503]) as proxy:
        client = engine_for(f"{proxy.url}/query", Settings(remote_retries=1))
        try:
            with pytest.raises(RemoteError, match="answered 400") as refused:
                client.rows("SELECT * WHERE { ?s ?p ?o }", Dataset(), timeout=30)
            assert refused.value.status == 400 and len(proxy.seen) == 1
            with pytest.raises(RemoteError, match="answered 503"):
                client.rows("SELECT * WHERE { ?s ?p ?o }", Dataset(), timeout=30)
            assert len(proxy.seen) == 3  # one try and one retry
        finally:
            client.close()


def test_a_slow_engine_meets_the_time_limit(oxigraph: RunningEngine) -> None:
    with proxy_to(oxigraph.origin, delay=5) as proxy:
        client = engine_for(f"{proxy.url}/query", Settings(remote_retries=3))
        started = time.monotonic()
        try:
            with pytest.raises(RemoteTimeout):
                client.rows("SELECT * WHERE { ?s ?p ?o }", Dataset(), timeout=1)
        finally:
            client.close()
        assert time.monotonic() - started < 2.5


def test_a_connection_the_engine_gave_up_on_is_not_used_again(tmp_path: Path) -> None:
    """Past its socket timeout (60 s; 1 s here) ``oxigraph serve`` writes a 500 "os error 11"
    on an idle connection before any request: the next query opens a new connection rather
    than read that 500 as its answer. No retry is allowed to hide it."""
    with oxigraph_server(tmp_path / "engine", "--timeout-s", "1") as idle:
        client = engine_for(idle.query, Settings(remote_retries=0))
        try:
            for _ in range(2):
                assert client.rows("SELECT * WHERE { ?s ?p ?o } LIMIT 1", Dataset(),
                                   timeout=30) == []
                time.sleep(2)
        finally:
            client.close()


def test_the_merge_sent_is_the_stores_default_graph_as_n_triples(tmp_path: Path) -> None:
    from graph.store.remote.layout import DataGraphs

    built = build([write_catalog(tmp_path / "catalog")], Settings())
    merged = DataGraphs(built.store).merge(None)
    text = built.store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
    assert b"".join(merged.chunks()) == text
    assert b"".join(merged.chunks()) == text  # made again, the same, each time it is read
    assert (merged.size, merged.lines) == (len(text), text.count(b"\n"))
    assert merged.sha256 == hashlib.sha256(text).hexdigest()


def test_oxigraph_takes_in_parts_a_json_text_it_refuses_as_one_literal(
        oxigraph: RunningEngine) -> None:
    """Oxigraph's server refuses a literal over 16 MiB, and the manifest of 100,000 records
    is over 30 MiB of JSON: so a push writes each JSON text in parts (``json_document``)."""
    from graph.store.remote.layout import MANIFEST_PREDICATE, Document, json_document

    client = engine_for(oxigraph.query, settings_for(oxigraph))
    graph, text = f"{BASE}push/probe", "x" * (17 * 2**20)
    try:
        with pytest.raises(RemoteError, match="buffer maximal size"):
            client.put(Document.of(graph, f'<{graph}> <{graph}> "{text}" .\n'.encode()))
        client.put(Document.of(graph, json_document(graph, MANIFEST_PREDICATE, {"t": text})))
    finally:
        client.close()


@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_a_json_text_in_parts_has_no_white_space_at_their_ends_and_reads_back(
        monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """Virtuoso trims a literal's white space, so no part begins or ends with any (it is
    written as a JSON escape there); joined again, the parts are the same JSON, whatever
    characters a cut falls between (an escape, a character outside the BMP, a space)."""
    from graph.store.remote import layout

    monkeypatch.setattr(layout, "PART_CHARACTERS", size)
    data = {"text": ' lead, trail  \\ "quoted" \u00e9\U0001f600 \u2028\u00a0 \t\n  ',
            "spaces": "    "}
    holder = ox.Store()
    holder.load(layout.json_document(f"{BASE}push", layout.MANIFEST_PREDICATE, data),
                format=ox.RdfFormat.N_TRIPLES)
    parts = [(quad.subject.value, quad.object) for quad in holder]
    assert len(parts) >= 10
    assert all(isinstance(value, ox.Literal) and value.value == value.value.strip()
               for _, value in parts)
    assert all(layout.part_of(subject, f"{BASE}push") for subject, _ in parts)
    assert layout.read_json(reversed(parts)) == data  # joined in their subjects' order


def test_a_manifest_and_report_in_many_parts_read_back_whole(
        tmp_path: Path, engine: RunningEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """With parts of 200 characters the seeds' manifest and validation report are many
    statements each, on every engine; read back joined in order, they are whole: a store
    opens on them with every record and the report, and pushing again sends nothing."""
    from graph.store.remote import layout
    from graph.validation.validate import validate

    monkeypatch.setattr(layout, "PART_CHARACTERS", 200)
    settings = settings_for(engine)
    built = build([write_catalog(tmp_path / "catalog")], settings)

    def push_validated() -> PushOutcome:
        client = engine_for(engine.query, settings)
        try:
            return pushed(client, built, settings, validate=True)
        finally:
            client.close()

    push_validated()
    held = quads(engine)
    for graph in (f"{BASE}push", f"{BASE}push/validation"):
        assert sum(quad.graph_name == ox.NamedNode(graph) for quad in held) > 5, graph
    store = open_store(StoreSpec.parse(engine.spec), settings)
    try:
        assert len(store.build_facts().records) == len(RECORDS)
        kept = store.artefacts().validation()
        report = validate(built.store, settings)
        assert kept is not None and kept.to_json() == report.to_json()
    finally:
        store.close()
    again = push_validated()
    assert (again.sent, again.deleted) == ([], [])


def test_a_put_waits_longer_for_a_larger_graph(oxigraph: RunningEngine) -> None:
    """An engine takes a graph in one transaction before it answers, so a PUT is given the
    time limit and a second for each MB it sends: behind an engine that answers after 2 s,
    with a time limit of 1 s, a 2 MB graph goes and a small one does not."""
    from graph.store.remote.layout import Document

    with proxy_to(oxigraph.origin, delay=2.0) as proxy:
        slow = oxigraph.through(proxy.url)
        client = engine_for(slow.query, settings_for(slow, remote_timeout=1.0))
        try:
            graph = f"{BASE}record/large"
            line = f'<{graph}> <{graph}> "{"x" * 1000}" .\n'.encode()
            client.put(Document.of(graph, line * 2100))  # 2.1 MB: 3.1 s to answer
            with pytest.raises(RemoteTimeout, match="did not answer in time"):
                client.put(Document.of(f"{BASE}record/small", line))
        finally:
            client.close()


def test_build_into_a_sparql_store_is_a_push(tmp_path: Path, oxigraph: RunningEngine,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``benchgraph build --store sparql:URL`` writes into an engine what ``benchgraph push``
    writes, validated as a store folder's build is: a push of the same records after it
    sends nothing, and the store it makes keeps the report."""
    from graph.cli import main

    catalog = write_catalog(tmp_path / "catalog")
    common = [str(catalog), "--store", f"sparql:{oxigraph.query}", "--graph-store",
              oxigraph.store]
    assert main(["build", *common]) == 0
    assert "pushed to" in capsys.readouterr().err
    assert main(["push", *common, "--validate"]) == 0
    assert "holds this build already" in capsys.readouterr().err
    store = open_store(StoreSpec.parse(f"sparql:{oxigraph.query}"), settings_for(oxigraph),
                       lazy=True)
    try:
        assert store.artefacts().validation() is not None
    finally:
        store.close()
    assert main(["build", *common, "-o", str(tmp_path / "graph.ttl")]) == 2
    assert "-o and --full go with an oxigraph:DIR store" in capsys.readouterr().err
