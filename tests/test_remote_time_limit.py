"""A query's time limit on the ``sparql:`` kind holds within the limit and 2 s, whatever the
engine does: answers its status line or headers a byte at a time, sends part of the body
and stalls, trickles the body (or a chunk's size line) forever, refuses the query slowly
with a 5xx that is retried, or cannot be reached at all while retries remain.

The misbehaving engine is a small HTTP server here (``SlowEngine``), chosen per query by a
word in the query's text; any other request goes to a real ``oxigraph serve`` behind it, so
a store opens over it as ``serve --store sparql:URL`` does. A real runaway on
``oxigraph serve`` is stopped in time too."""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

import pytest

from graph.build.graphs import build
from graph.settings import Settings
from graph.sparql.query_text import QueryForm
from graph.store.base import Limits, Store
from graph.store.kinds import StoreSpec, open_store
from graph.store.process.pool import QueryTimeout
from graph.store.remote.client import RemoteError, RemoteTimeout
from graph.store.remote.engine import Dataset
from graph.store.remote.manifest import engine_for
from tests.engines import RunningEngine, free_port, oxigraph_server
from tests.store_kinds import push_into
from tests.system_tools import OXIGRAPH, needs
from tests.test_admission import long_to_read
from tests.test_push import write_catalog

pytestmark = [pytest.mark.engine, needs(OXIGRAPH)]

LIMIT = 2.0
MARGIN = 2.0
DRIP = 0.2
"""Seconds between two bytes a trickling engine sends: far less than any time limit, so a
wait that restarts with every byte read never ends."""
GIVE_UP = 15.0
"""Seconds after which the slow engine hangs up itself."""
RESULTS = (b'<?xml version="1.0"?><sparql xmlns="http://www.w3.org/2005/sparql-results#">'
           b'<head><variable name="s"/></head><results>')


@dataclass
class Conversation:
    """One connection to the slow engine: its socket, whether the test is over, and how
    many connections before it chose the same behaviour."""

    sock: socket.socket
    over: threading.Event
    earlier: int = 0

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def drip(self, byte: bytes) -> None:
        """``byte`` again and again, ``DRIP`` seconds apart, until the client hangs up (or,
        so that a client that never does fails in bounded time, ``GIVE_UP`` has passed)."""
        end = time.monotonic() + GIVE_UP
        while not self.over.wait(DRIP) and time.monotonic() < end:
            self.sock.sendall(byte)

    def stall(self) -> None:
        self.over.wait(GIVE_UP)


def slow_status(talk: Conversation) -> None:
    talk.send(b"HTTP/1.1 2")
    talk.drip(b"0")  # "HTTP/1.1 2000000..." never ends its line


def slow_headers(talk: Conversation) -> None:
    talk.send(b"HTTP/1.1 200 OK\r\nContent-Type: application/sparql-results+xml\r\nX-Pad: ")
    talk.drip(b"a")


def stalled_body(talk: Conversation) -> None:
    talk.send(b"HTTP/1.1 200 OK\r\nContent-Type: application/sparql-results+xml\r\n"
              b"Content-Length: 100000\r\n\r\n" + RESULTS)
    talk.stall()


def trickled_body(talk: Conversation) -> None:
    talk.send(b"HTTP/1.1 200 OK\r\nContent-Type: application/sparql-results+xml\r\n"
              b"Content-Length: 100000\r\n\r\n" + RESULTS)
    talk.drip(b" ")


def trickled_chunk_size(talk: Conversation) -> None:
    talk.send(b"HTTP/1.1 200 OK\r\nContent-Type: application/sparql-results+xml\r\n"
              b"Transfer-Encoding: chunked\r\n\r\n" + b"%x\r\n" % len(RESULTS) + RESULTS
              + b"\r\n")
    talk.drip(b"0")  # a chunk's size, "0000...", never ends its line


def slow_refusal(talk: Conversation) -> None:
    talk.send(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
              b"Content-Length: 100000\r\n\r\nbusy")
    talk.drip(b".")


def refused_then_silent(talk: Conversation) -> None:
    """A whole 503 at once, then nothing at all to the retries: the deadline passes on one."""
    if talk.earlier:
        talk.stall()
    else:
        talk.send(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
                  b"Content-Length: 4\r\n\r\nbusy")


BEHAVIOURS: dict[str, Callable[[Conversation], None]] = {
    "slow-status": slow_status,
    "slow-headers": slow_headers,
    "stalled-body": stalled_body,
    "trickled-body": trickled_body,
    "trickled-chunk-size": trickled_chunk_size,
    "slow-refusal": slow_refusal,
    "refused-then-silent": refused_then_silent,
}
REFUSALS = ("slow-refusal", "refused-then-silent")
"""The behaviours whose query ends as the engine's refusal (503), not at the time limit."""


@dataclass
class SlowEngine:
    """An engine that misbehaves at a query holding the name of one of ``BEHAVIOURS`` and
    passes any other request to ``upstream`` (``host``, ``port``), when there is one."""

    upstream: tuple[str, int] | None = None
    url: str = ""
    over: threading.Event = field(default_factory=threading.Event)
    conversations: Counter[str] = field(default_factory=Counter)
    """The connections so far, by the behaviour each chose ("" for none, with no upstream)."""

    def serve(self, listener: socket.socket) -> None:
        while not self.over.is_set():
            try:
                sock, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=self._talk, args=(sock,), daemon=True).start()

    def _talk(self, sock: socket.socket) -> None:
        with sock, suppress(OSError), sock.makefile("rb") as incoming:
            while request := _read_request(incoming):
                head, body = request
                chosen = next((name for name in BEHAVIOURS if name.encode() in body), "")
                if chosen or self.upstream is None:
                    earlier = self.conversations[chosen]
                    self.conversations[chosen] += 1
                    BEHAVIOURS.get(chosen, stalled_body)(Conversation(sock, self.over, earlier))
                    return
                sock.sendall(_forwarded(self.upstream, head, body))


def _read_request(incoming: object) -> tuple[list[bytes], bytes] | None:
    read = incoming.readline  # type: ignore[attr-defined]
    head = []
    while (line := read()) not in (b"\r\n", b"\n", b""):
        head.append(line)
    if not head:
        return None
    length = next((int(line.split(b":", 1)[1]) for line in head
                   if line.lower().startswith(b"content-length:")), 0)
    return head, incoming.read(length) if length else b""  # type: ignore[attr-defined]


def _forwarded(upstream: tuple[str, int], head: list[bytes], body: bytes) -> bytes:
    method, target, _ = head[0].decode().split(" ", 2)
    headers = dict(line.decode().rstrip("\r\n").split(": ", 1) for line in head[1:])
    headers.pop("Host", None)
    connection = http.client.HTTPConnection(*upstream, timeout=60)
    try:
        connection.request(method, target, body, headers)
        answer = connection.getresponse()
        data = answer.read()
        kind = answer.getheader("Content-Type") or "text/plain"
        return (f"HTTP/1.1 {answer.status} {answer.reason}\r\nContent-Type: {kind}\r\n"
                f"Content-Length: {len(data)}\r\n\r\n").encode() + data
    finally:
        connection.close()


@contextmanager
def slow_engine(upstream: RunningEngine | None = None) -> Iterator[SlowEngine]:
    engine = SlowEngine(None if upstream is None else ("127.0.0.1", upstream.port))
    listener = socket.create_server(("127.0.0.1", 0))
    engine.url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    thread = threading.Thread(target=engine.serve, args=(listener,), daemon=True)
    thread.start()
    try:
        yield engine
    finally:
        engine.over.set()
        with suppress(OSError):  # wakes the accept() under way, which close() alone does not
            listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        thread.join(10)


@contextmanager
def within(seconds: float) -> Iterator[None]:
    started = time.monotonic()
    yield
    took = time.monotonic() - started
    assert took < seconds, f"stopped after {took:.1f} s, past the limit of {seconds:g} s"


def expected(behaviour: str) -> tuple[type[RemoteError], str | None]:
    """A refusal is the engine's answer (503 here), and says so (a RemoteTimeout is a
    RemoteError too, and says it did not answer in time); anything else is the time limit."""
    return (RemoteError, "answered 503") if behaviour in REFUSALS else (RemoteTimeout, None)


@pytest.mark.parametrize("behaviour", list(BEHAVIOURS))
@pytest.mark.parametrize("form", ["ASK", "SELECT"])
def test_the_engine_cannot_stretch_the_time_limit(behaviour: str, form: QueryForm) -> None:
    """Retries allowed (3), whatever the engine does, the query ends in time: stopped by
    the limit, or refused, within the limit and ``MARGIN``."""
    text = (f'ASK {{ ?s ?p "{behaviour}" }}' if form == "ASK"
            else f'SELECT ?s WHERE {{ ?s ?p "{behaviour}" }}')
    with slow_engine() as slow:
        client = engine_for(f"{slow.url}/query", Settings(remote_retries=3))
        try:
            kind, said = expected(behaviour)
            with within(LIMIT + MARGIN), pytest.raises(kind, match=said):
                client.query(text, form, Dataset(), rows=10, timeout=LIMIT)
        finally:
            client.close()


def test_retries_of_an_engine_that_cannot_be_reached_end_in_time() -> None:
    """Nothing listens: with retries to spare, the waits between them stop at the limit."""
    client = engine_for(f"http://127.0.0.1:{free_port()}/query", Settings(remote_retries=10))
    try:
        with within(LIMIT + MARGIN), pytest.raises(RemoteError, match="could not be reached"):
            client.query("ASK { ?s ?p ?o }", "ASK", Dataset(), rows=None, timeout=LIMIT)
    finally:
        client.close()


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningEngine]:
    settings = Settings()
    catalog = write_catalog(tmp_path_factory.mktemp("catalog"))
    with oxigraph_server(tmp_path_factory.mktemp("engine"), "--timeout-s", "20") as running:
        push_into(running, build([catalog], settings), settings)
        yield running


@pytest.fixture(scope="module")
def store(engine: RunningEngine) -> Iterator[Store]:
    with slow_engine(engine) as slow:
        # lazy: no process reads the graphs back beside the timed queries (what is timed is
        # the query's own path; that process would only take the machine's time from it)
        opened = open_store(StoreSpec.parse(f"sparql:{slow.url}/query"), Settings(), lazy=True)
        yield opened
        opened.close()


@pytest.mark.parametrize("behaviour", ["slow-status", "trickled-chunk-size", *REFUSALS])
def test_a_stores_query_ends_in_time_whatever_the_engine_does(store: Store,
                                                              behaviour: str) -> None:
    """As the CLI and the web app ask it: the store over the slow engine opens (its other
    requests reach a real engine), and its query ends within the limit and ``MARGIN``."""
    stopped = RemoteError if behaviour in REFUSALS else QueryTimeout
    with within(LIMIT + MARGIN), pytest.raises(stopped):
        store.query(f'ASK {{ ?s ?p "{behaviour}" }}', limits=Limits(timeout=LIMIT, rows=10))


def test_a_real_runaway_is_stopped_in_time(engine: RunningEngine) -> None:
    """An ``ASK`` on the count of a four-way cartesian product, which ``oxigraph serve``
    answers only once it has run to its end (its own ``--timeout-s`` stops it later)."""
    store = open_store(StoreSpec.parse(engine.spec), Settings())
    runaway = ("ASK { { SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . "
               "?j ?k ?l } } FILTER(?n < 0) }")
    try:
        with within(LIMIT + MARGIN), pytest.raises(QueryTimeout, match="time limit"):
            store.query(runaway, limits=Limits(timeout=LIMIT, rows=10))
    finally:
        store.close()


def test_the_time_limit_counts_from_when_the_store_is_asked(store: Store) -> None:
    """The limit runs from the call: nothing done here before the engine is asked may add to
    it (checking the query's syntax by running it on an empty pyoxigraph store did: that
    evaluates an ASK, here 250**3 rows of VALUES, before the engine is asked)."""
    numbers = " ".join(map(str, range(250)))
    text = (f"ASK {{ VALUES ?a {{ {numbers} }} VALUES ?b {{ {numbers} }} "
            f"VALUES ?c {{ {numbers} }} FILTER(?a + ?b + ?c < 0 && STR(?a) != \"slow-status\") }}")
    with within(LIMIT + MARGIN), pytest.raises(QueryTimeout):
        store.query(text, limits=Limits(timeout=LIMIT, rows=10))


def test_the_time_limit_counts_the_reading_of_a_long_query(store: Store) -> None:
    """A text whose parse takes longer than the limit is stopped at the limit, before the
    engine is asked."""
    text = long_to_read()
    with within(0.3 + 1), pytest.raises(QueryTimeout, match="reading its text took that long"):
        store.query(text, limits=Limits(timeout=0.3, rows=10))
    assert store.query(text, limits=Limits(timeout=60, rows=10)).boolean is True


def test_the_store_answers_in_time_when_the_engine_does(store: Store) -> None:
    assert store.query('ASK { ?s ?p "nothing slow" }',
                       limits=Limits(timeout=LIMIT, rows=10)).boolean is False


__all__ = ["SlowEngine", "slow_engine"]
