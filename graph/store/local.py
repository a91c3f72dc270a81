"""``LocalStore``: a built Oxigraph store on this machine, queried through query processes.

Both local kinds are one: ``oxigraph:DIR`` opens a store folder that ``benchgraph build
--store oxigraph:DIR`` made, and ``memory`` builds one at start into a temporary folder (in
RAM where the system has ``/dev/shm``) and removes it at ``close``. Either way every query
runs in a child process that opened the store read-only (``graph.store.pool``), so the time
limit can really stop it; the facts of the build (base IRI, record graphs, counts) come from
the folder's manifest, without reading a record.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pyoxigraph as ox

from graph.errors import BenchgraphError, ErrorKind
from graph.namespace import PREFIXES
from graph.sparql.query_text import shape_of, with_values
from graph.stats import GraphStats
from graph.store.base import (
    Bindings,
    Description,
    Limits,
    QueryDataset,
    RecordGraph,
    Statement,
    Term,
)
from graph.store.disk import Manifest, StoreError
from graph.store.executor import Failure, QueryRequest
from graph.store.pool import QueryPool, QueryProcessError
from graph.store.result import QueryResult

_OX_ERROR = re.compile(r"error at (\d+):(\d+): (.*)", re.DOTALL)


class ReadOnlyRefusal(BenchgraphError):
    """A request a read-only, closed store never runs: an update, or SERVICE."""

    kind = ErrorKind.QUERY


class SyntaxRefusal(BenchgraphError):
    """Query text the parser refuses; the message is the parser's."""

    kind = ErrorKind.QUERY

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


@dataclass
class LocalStore:
    """The store in ``folder`` (its manifest already read), queried in ``processes`` children."""

    folder: Path
    manifest: Manifest
    limits: Limits
    processes: int = 1
    remove_on_close: bool = False
    """True for a store this object built for itself (the ``memory`` kind)."""
    _pool: QueryPool | None = field(default=None, init=False, repr=False)

    @property
    def base(self) -> str:
        return self.manifest.facts.base

    def _pool_here(self) -> QueryPool:
        """The query processes of this process (made on first use: a gunicorn worker forked
        after the store was opened makes its own)."""
        pool = self._pool
        if pool is None or pool.owner != os.getpid():
            pool = self._pool = QueryPool(self.folder / self.manifest.generation, self.processes)
        return pool

    def prepare(self) -> None:
        self._pool_here()

    def query(
        self,
        text: str,
        bindings: Bindings | None = None,
        dataset: QueryDataset | None = None,
        limits: Limits | None = None,
    ) -> QueryResult:
        shape = shape_of(text)
        if shape.update:
            raise ReadOnlyRefusal("SPARQL Update is not allowed: this graph is read-only (use "
                                  "SELECT, ASK, CONSTRUCT or DESCRIBE)")
        if shape.service:
            raise ReadOnlyRefusal("SERVICE is not allowed: queries run on this graph alone, and "
                                  "nothing is fetched from elsewhere")
        form = shape.form or "SELECT"  # not a query: the parser will say why
        bound = with_values(text, form, bindings or {})
        if bound is None:
            raise SyntaxRefusal("parameters need a WHERE clause to bind in")
        limits = limits or self.limits
        request = QueryRequest(
            text=bound,
            form=form,
            prefixes=dict(PREFIXES),
            base_iri=self.base,
            default_graphs=None if dataset is None else dataset.default_graphs,
            named_graphs=None if dataset is None else dataset.named_graphs,
            row_limit=limits.rows,
        )
        answer = self._pool_here().run(request, limits.timeout)
        if isinstance(answer, Failure):
            raise _failure(answer)
        return answer

    def describe(self, node: str, limit: int | None = None) -> Description:
        subject = ox.NamedNode(node)
        cap = "" if limit is None else f" LIMIT {int(limit) + 1}"
        outgoing = self.query(f"SELECT ?p ?o ?g WHERE {{ GRAPH ?g {{ {subject} ?p ?o }} }}"
                              f" ORDER BY ?p ?o ?g{cap}")
        incoming = self.query(f"SELECT ?s ?p ?g WHERE {{ GRAPH ?g {{ ?s ?p {subject} }} }}"
                              f" ORDER BY ?p ?s ?g{cap}")
        out = [Statement(subject, _iri(p), _term(o), _iri(g)) for p, o, g in outgoing.rows]
        into = [Statement(_term(s), _iri(p), subject, _iri(g)) for s, p, g in incoming.rows]
        truncated = limit is not None and (len(out) > limit or len(into) > limit)
        if limit is not None:
            out, into = out[:limit], into[:limit]
        return Description(subject, tuple(out), tuple(into), truncated)

    def record_graphs(self) -> Sequence[RecordGraph]:
        return self.manifest.facts.records

    def counts(self) -> GraphStats:
        return self.manifest.counts

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self.remove_on_close:
            import shutil

            shutil.rmtree(self.folder, ignore_errors=True)


def _iri(term: object) -> ox.NamedNode:
    assert isinstance(term, ox.NamedNode), term  # a predicate or a graph name
    return term


def _term(term: object) -> Term:
    assert isinstance(term, (ox.NamedNode, ox.BlankNode, ox.Literal)), term
    return term


def _failure(failure: Failure) -> Exception:
    if failure.kind == "syntax":
        return syntax_refusal(failure.message)
    if failure.kind == "store":
        return StoreError(f"the store could not be read: {failure.message}")
    return QueryProcessError(f"the query process failed:\n{failure.message}")


def syntax_refusal(message: str) -> SyntaxRefusal:
    """pyoxigraph's ``error at LINE:COLUMN: ...`` as a refusal naming line and column."""
    match = _OX_ERROR.match(message)
    if match is None:
        return SyntaxRefusal(f"not a valid SPARQL query: {message}")
    line, column, detail = int(match.group(1)), int(match.group(2)), match.group(3).strip()
    return SyntaxRefusal(f"syntax error at line {line}, column {column}: {detail}", line, column)


__all__ = ["LocalStore", "ReadOnlyRefusal", "SyntaxRefusal", "syntax_refusal"]
