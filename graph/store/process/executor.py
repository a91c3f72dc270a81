"""The query process: reaches the store once, then answers requests until its socket closes.

pyoxigraph 0.5 cannot stop a query from Python: a running query holds its thread, and a
signal handler only runs once the query returns. So every query runs in one of these
processes, which its parent kills when the time limit is up (``graph.store.process.pool``). The
process keeps nothing between requests but the open store, so killing it loses nothing.

A request is a ``QueryRequest``; the answer a ``QueryResult``, or a ``Failure`` saying why
not. Only the engine's own errors become failures: pyoxigraph's ``SyntaxError`` (the query
text) and ``OSError`` (reading the store), ``PermissionError`` (what the process may not do,
such as open a socket: ``graph.store.process.confinement``) and ``MemoryError`` (the process's
memory
cap, where Python meets it). Anything else is a bug, sent back as one.

A process with a memory limit caps its writable memory at its start (``cap_data``), and
gives the heap's free pages back to the system after a query that left it holding more
than a little beyond its start: what it holds between queries is what the next one's limit
is measured from (``graph.store.process.pool``).
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Literal

import pyoxigraph as ox

from graph.sparql.query_text import QueryForm
from graph.sparql.result import QueryResult
from graph.store.process.confinement import BACKSTOP, cap_data, private_memory
from graph.system.heap import release_free_memory

FailureKind = Literal["syntax", "store", "refused", "memory", "bug"]
_KEEP_AFTER_QUERY = 32 * 1024 * 1024
"""Bytes a process may hold beyond its start after a query before it trims its heap."""


@dataclass(frozen=True)
class QueryRequest:
    """One query to run, with everything it needs: the engine sees nothing else."""

    text: str
    form: QueryForm
    prefixes: dict[str, str]
    base_iri: str | None = None
    default_graphs: tuple[str, ...] | None = None
    """The graphs to query as the default graph; None: the store's own (the merge)."""
    named_graphs: tuple[str, ...] | None = None
    """The graphs ``GRAPH`` may see; None: every named graph of the store."""
    row_limit: int | None = None


@dataclass(frozen=True)
class Failure:
    """Why a request has no answer."""

    kind: FailureKind
    message: str


def run_request(store: ox.Store, request: QueryRequest) -> QueryResult:
    """Run one request on ``store`` and put its answer in a ``QueryResult``."""
    answer = store.query(
        request.text,
        prefixes=request.prefixes,
        base_iri=request.base_iri,
        default_graph=_graphs(request.default_graphs),  # type: ignore[arg-type]
        named_graphs=_graphs(request.named_graphs),
    )
    if isinstance(answer, ox.QueryBoolean):
        return QueryResult.ask(bool(answer))
    limit = request.row_limit
    if isinstance(answer, ox.QuerySolutions):
        return QueryResult.of_solutions(answer, limit)
    return QueryResult.of_triples(request.form, answer, limit)


def _graphs(iris: tuple[str, ...] | None) -> list[ox.NamedNode | ox.BlankNode] | None:
    return None if iris is None else [ox.NamedNode(iri) for iri in iris]


@dataclass(frozen=True)
class OnDisk:
    """A store folder's generation, opened read-only by each query process."""

    path: Path

    def open(self) -> ox.Store:
        return ox.Store.read_only(str(self.path))


def serve(connection: Connection, argument: bytes, source: OnDisk,
          memory_limit: int | None = None) -> None:
    """A query process's whole life: reach the store (the generation folder ``argument``
    names, else ``source``), cap its memory (``memory_limit`` bytes a query may add, None
    for no cap), say so, answer requests until the socket closes."""
    if argument:
        source = OnDisk(Path(os.fsdecode(argument)))
    try:
        store = source.open()
    except OSError as error:
        connection.send(Failure("store", str(error)))
        return
    start = None
    if memory_limit is not None:
        cap_data(BACKSTOP * memory_limit)
        start = private_memory(os.getpid())
    connection.send(READY)
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        response: QueryResult | Failure
        try:
            response = run_request(store, request)
        except SyntaxError as error:
            response = Failure("syntax", str(error))
        except PermissionError as error:
            response = Failure("refused", str(error))
        except OSError as error:
            response = Failure("store", str(error))
        except MemoryError:
            response = Failure("memory", "the query process ran out of memory")
        except Exception:  # a bug: sent back whole, and raised again by the parent
            response = Failure("bug", traceback.format_exc())
        connection.send(response)
        del response
        if start is not None and (private_memory(os.getpid()) or 0) - start > _KEEP_AFTER_QUERY:
            release_free_memory()


READY = "ready"
"""What a query process sends once it can reach its store."""


__all__ = ["READY", "Failure", "OnDisk", "QueryRequest", "run_request", "serve"]
