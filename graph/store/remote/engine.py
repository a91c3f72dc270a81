"""One remote SPARQL engine: queries in, ``QueryResult`` out; graphs PUT and DELETEd.

A query is sent as the SPARQL 1.1 Protocol says (a form POST of ``query`` with any
``default-graph-uri`` / ``named-graph-uri``), with our prefixes and base IRI as a prologue
(the local kinds give them to pyoxigraph; an engine knows none of them). The answer is
parsed as it arrives by pyoxigraph's own parsers (SPARQL results XML, which every engine
writes; N-Triples or Turtle for a graph), so the row limit stops reading after one row more
than the limit, and the time limit is one deadline for the whole request, from connecting
to the last byte of the answer, status line and headers included, retries too
(``graph.store.remote.connection``): however the engine trickles or stalls, past it the
request is abandoned and its connection closed. What the engine then does is its own
affair: Oxigraph stops a query whose answer it is streaming once the socket is gone, but
finishes one that had not produced its first row (give ``oxigraph serve --timeout-s``);
Virtuoso stops at its own ``MaxQueryExecutionTime``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import IO, TypeVar
from urllib.parse import urlencode

import pyoxigraph as ox

from graph.namespace import PREFIXES
from graph.sparql.query_text import QueryForm
from graph.sparql.result import QueryResult, Row
from graph.store.remote.client import (
    Answer,
    Body,
    Client,
    Endpoint,
    EngineLimit,
    RemoteError,
    RemoteTimeout,
)
from graph.store.remote.layout import Document

RESULTS_XML = "application/sparql-results+xml"
PUT_SECONDS_PER_MB = 1.0
"""What a PUT is given besides ``remote_timeout``, for each MB it sends: an engine takes the
whole graph in one transaction before it answers, and the merge of a large catalog is
gigabytes (perf/decisions/push-put-time-per-mb.md)."""
GRAPH_TYPES = "application/n-triples, text/turtle;q=0.9"
NTRIPLES = "application/n-triples"
PARTIAL = "X-SQL-State"
"""The header by which Virtuoso marks an answer cut at its own limits."""
T = TypeVar("T")


def prologue(base: str) -> str:
    """``BASE`` and our ``PREFIX`` lines: a query's own declarations, after them, win."""
    lines = [f"BASE <{base}>"] + [f"PREFIX {name}: <{iri}>" for name, iri in PREFIXES.items()]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Dataset:
    """The RDF dataset a request asks for (empty tuples: none given; the engine's own)."""

    default_graphs: tuple[str, ...] = ()
    named_graphs: tuple[str, ...] = ()

    def params(self) -> list[tuple[str, str]]:
        return ([("default-graph-uri", iri) for iri in self.default_graphs]
                + [("named-graph-uri", iri) for iri in self.named_graphs])


class _Reader:
    """The answer's body as a file for pyoxigraph's parsers, each read bounded by the
    deadline (``graph.store.remote.connection``): a read past it raises ``RemoteTimeout``."""

    def __init__(self, answer: Answer, deadline: float) -> None:
        self._answer = answer
        self._deadline = deadline

    def read(self, size: int = -1) -> bytes:
        self._answer.set_deadline(self._deadline)
        return self._answer.read1(size if size and size > 0 else 1 << 16)


@dataclass
class Engine:
    """A SPARQL engine: its query URL, its Graph Store URL, and the client that reaches it."""

    query_url: Endpoint
    graph_store: Endpoint
    client: Client
    base: str

    def query(self, text: str, form: QueryForm, dataset: Dataset, *, rows: int | None,
              timeout: float) -> QueryResult:
        """The engine's answer to ``text`` (already checked: a query, read-only, parsed), at
        most ``rows`` rows or triples of it (the result says when there were more). Raises
        RemoteTimeout once ``timeout`` seconds have passed, RemoteError when the engine
        refused the query or could not be reached."""
        deadline = time.monotonic() + timeout
        graph = form in ("CONSTRUCT", "DESCRIBE")
        answer = self._send(text, GRAPH_TYPES if graph else RESULTS_XML, dataset, deadline)
        with self._reading(answer, deadline):
            return _result(answer, form, rows, deadline)

    def rows(self, text: str, dataset: Dataset, *, timeout: float) -> list[Row]:
        """Every solution of a SELECT query of our own, as tuples of terms."""
        return list(self.each_row(text, dataset, timeout=timeout))

    def each_row(self, text: str, dataset: Dataset, *, timeout: float) -> Iterator[Row]:
        """``rows``, one at a time as the answer is read: what reads back millions of them
        holds only those it has not yet let go of."""
        deadline = time.monotonic() + timeout
        answer = self._send(text, RESULTS_XML, dataset, deadline)
        with self._reading(answer, deadline):
            parsed = ox.parse_query_results(_Reader(answer, deadline),  # type: ignore[arg-type]
                                            ox.QueryResultsFormat.XML)
            assert isinstance(parsed, ox.QuerySolutions), text
            for solution in parsed:
                yield tuple(solution)

    def _send(self, text: str, accept: str, dataset: Dataset, deadline: float) -> Answer:
        body = [("query", prologue(self.base) + text), *dataset.params()]
        answer = self.client.request(
            self.query_url, "POST", "the query", deadline=deadline,
            headers={"Accept": accept, "Content-Type": "application/x-www-form-urlencoded"},
            body=Body.of(urlencode(body).encode()))
        state = answer.header(PARTIAL)
        if state is not None:
            answer.close()
            said = " ".join((answer.header("X-SQL-Message") or "").split())[:200]
            told = f"({PARTIAL} {state}" + (f": {said}" if said else "") + ")"
            raise EngineLimit(f"the query: {self.query_url.url} stopped it at a limit of its "
                              f"own and sent only part of the answer {told}", said=told)
        return answer

    @contextmanager
    def _reading(self, answer: Answer, deadline: float) -> Iterator[None]:
        """Reading ``answer``: a parser's complaint becomes RemoteError, a read past the
        deadline RemoteTimeout (pyoxigraph may hand on the reader's error as an OSError);
        the answer is closed after, read whole or not."""
        try:
            yield
        except RemoteTimeout:
            raise
        except (SyntaxError, ValueError) as error:
            raise RemoteError(f"the query: {self.query_url.url} answered with what is not "
                              f"{answer.content_type or 'a known format'} ({error})") from None
        except OSError as error:
            if time.monotonic() >= deadline:
                raise RemoteTimeout("the time limit is up") from None
            raise RemoteError(f"the query: reading the answer of {self.query_url.url} "
                              f"failed ({error})") from None
        finally:
            answer.close()

    def put(self, document: Document, *, timeout: float | None = None) -> None:
        """Replace one graph (the default graph when ``document.graph`` is None) with the
        document's statements, waiting ``timeout`` seconds, or by default the client's time
        limit and ``PUT_SECONDS_PER_MB`` for each MB sent."""
        what = f"PUT of {document.graph or 'the default graph'}"
        if timeout is None:
            timeout = self.client.timeout + PUT_SECONDS_PER_MB * document.size / 2**20
        answer = self.client.request(
            self.graph_store, "PUT", what, params=_graph_params(document.graph),
            headers={"Content-Type": NTRIPLES}, body=Body(document.chunks, document.size),
            deadline=time.monotonic() + timeout)
        _drain(answer)

    def delete(self, graph: str) -> None:
        """Remove one named graph; a graph the engine does not have is already gone."""
        try:
            answer = self.client.request(self.graph_store, "DELETE", f"DELETE of {graph}",
                                         params=_graph_params(graph))
        except RemoteError as error:
            if error.status == 404:
                return
            raise
        _drain(answer)

    def close(self) -> None:
        self.client.close()


def _graph_params(graph: str | None) -> list[tuple[str, str]]:
    return [("default", "")] if graph is None else [("graph", graph)]


def _drain(answer: Answer) -> None:
    try:
        answer.set_deadline(time.monotonic() + 30)
        answer.read()
    finally:
        answer.close()


def _result(answer: Answer, form: QueryForm, rows: int | None,
            deadline: float) -> QueryResult:
    reader: IO[bytes] = _Reader(answer, deadline)  # type: ignore[assignment]
    if form in ("CONSTRUCT", "DESCRIBE"):
        media = answer.content_type.split(";")[0].strip().lower()
        fmt = ox.RdfFormat.from_media_type(media) or ox.RdfFormat.N_TRIPLES
        triples = list(_first((quad.triple for quad in ox.parse(reader, fmt)), rows))
        truncated = rows is not None and len(triples) > rows
        return QueryResult.graph(form, triples[:rows], truncated)
    parsed = ox.parse_query_results(reader, ox.QueryResultsFormat.XML)
    if isinstance(parsed, ox.QueryBoolean):
        return QueryResult.ask(bool(parsed))
    variables = tuple(variable.value for variable in parsed.variables)
    found = [tuple(solution) for solution in _first(parsed, rows)]
    truncated = rows is not None and len(found) > rows
    return QueryResult.select(variables, found[:rows], truncated)


def _first(items: Iterable[T], limit: int | None) -> Iterator[T]:
    """The first ``limit`` items and one more (to tell whether there were more)."""
    return iter(items) if limit is None else islice(items, limit + 1)


__all__ = ["Dataset", "Engine", "prologue"]
