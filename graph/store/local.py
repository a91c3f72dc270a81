"""``LocalStore``: a built Oxigraph store on this machine, queried through query processes.

Both local kinds are one: ``oxigraph:DIR`` opens a store folder that ``benchgraph build
--store oxigraph:DIR`` made, and ``memory`` builds one at start into a temporary folder (in
RAM where the system has ``/dev/shm``) and removes it at ``close``. Either way every query
runs in a child process that opened the store read-only (``graph.store.pool``), so the time
limit can really stop it; the facts of the build (base IRI, record graphs, counts) come from
the folder's manifest, without reading a record.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from graph.export.formats import Format
from graph.namespace import PREFIXES
from graph.search import INDEX_FILE, BrowsePage, BrowseRequest, SearchResults, browse, search
from graph.search import open_index as _open_index
from graph.sparql.errors import QueryError
from graph.sparql.query_text import refuse_what_is_not_read, syntax_error, with_values
from graph.stats import GraphStats
from graph.store.base import (
    Bindings,
    BuildFacts,
    Description,
    Limits,
    QueryDataset,
    RecordGraph,
    StoredFile,
    ValidationSuffix,
)
from graph.store.describe import describe_node
from graph.store.errors import StoreError
from graph.store.executor import Failure, QueryRequest, StoreSource
from graph.store.files import VALIDATION_JSON, VALIDATION_TURTLE, stored_dump
from graph.store.pages import PagesError
from graph.store.pool import QueryPool, QueryProcessError
from graph.store.result import QueryResult
from graph.validation.report import ValidationReport

_SOURCE = "the query"
"""How an error names the query it is about (a store is not told where a query came from)."""


@dataclass
class LocalStore:
    """The store in ``folder``, queried in ``processes`` children. Its build's facts and counts
    are known without reading the store; the store itself may be written only when first
    queried (``load``, for a memory store that a command may never query)."""

    folder: Path
    facts: BuildFacts
    stats: GraphStats
    limits: Limits
    processes: int = 1
    generation: Path | None = None
    """The generation folder of the build: what the build wrote besides the graph (the search
    index), and for a store folder the pyoxigraph store itself; once it is there."""
    source: StoreSource | None = None
    """Where query processes find the graph (a store folder's generation, or a pyoxigraph
    store in this process's memory), once it is there."""
    load: Callable[[], tuple[Path, StoreSource]] | None = None
    """Puts the build where the store finds it, and says where (its generation folder, and
    the graph): called on first use."""
    remove_on_close: bool = False
    """True for a store this object made for itself (the ``memory`` kind)."""
    _pool: QueryPool | None = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _dumps: dict[str, StoredFile] = field(default_factory=dict, init=False, repr=False)
    """Each dump by format name, once asked for (a dump kept as its pages is read from its
    index and the sizes of its files: ``graph.store.files.stored_dump``)."""

    @property
    def base(self) -> str:
        return self.facts.base

    @property
    def dumps_from_engine(self) -> bool:
        return False

    def loaded(self) -> tuple[Path, StoreSource]:
        """The generation folder, and where query processes find the graph: put there now if
        they were not yet."""
        with self._lock:
            if self.generation is None or self.source is None:
                assert self.load is not None, "a store with neither a source nor a loader"
                self.generation, self.source = self.load()
                self.load = None
            return self.generation, self.source

    def _pool_here(self) -> QueryPool:
        """The query processes of this process (made on first use: a gunicorn worker forked
        after the store was opened makes its own)."""
        _generation, source = self.loaded()
        with self._lock:
            pool = self._pool
            if pool is None or pool.owner != os.getpid():
                pool = self._pool = QueryPool(source, self.processes)
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
        shape = refuse_what_is_not_read(text, _SOURCE)
        form = shape.form or "SELECT"  # not a query: the parser will say why
        bound = with_values(text, form, bindings or {})
        if bound is None:
            raise QueryError(f"{_SOURCE}: parameters need a WHERE clause to bind in")
        limits = limits or self.limits
        request = QueryRequest(
            text=bound,
            form=form,
            prefixes=dict(PREFIXES),
            base_iri=self.base,
            default_graphs=None if dataset is None else dataset.default_graphs,
            named_graphs=None if dataset is None else dataset.named_graphs,
            row_limit=limits.rows,
            default_graph_only=dataset is None and not shape.names_graphs,
        )
        answer = self._pool_here().run(request, limits.timeout)
        if isinstance(answer, Failure):
            raise _failure(answer)
        return answer

    def describe(self, node: str, limit: int | None = None) -> Description:
        return describe_node(self._ask, node, limit)

    def _ask(self, text: str, bindings: Bindings) -> QueryResult:
        return self.query(text, bindings=bindings)

    def search(self, text: str, limit: int = 20, offset: int = 0) -> SearchResults:
        with self._index() as db:
            return search(db, text, limit, offset)

    def browse(self, request: BrowseRequest) -> BrowsePage:
        with self._index() as db:
            return browse(db, request)

    def _index(self) -> closing[sqlite3.Connection]:
        """The search index of the current generation, opened for one call (a connection
        costs ~0.1 ms, and then no connection ever crosses a thread or a fork)."""
        return closing(_open_index(self.loaded()[0] / INDEX_FILE,
                                   self.base))

    def record_graphs(self) -> Sequence[RecordGraph]:
        return self.facts.records

    def record_graph(self, graph: str) -> RecordGraph | None:
        return self.facts.record(graph)

    def counts(self) -> GraphStats:
        return self.stats

    def dump(self, fmt: Format) -> StoredFile:
        found = self._dumps.get(fmt.name)
        if found is None:
            try:
                found = stored_dump(self.loaded()[0], fmt)
            except PagesError:
                raise StoreError(f"the store in {self.folder} holds no {fmt.name} dump: build "
                                 "it again") from None
            self._dumps[fmt.name] = found  # a generation's files never change
        return found

    def validation(self) -> ValidationReport | None:
        return self._validation

    @cached_property
    def _validation(self) -> ValidationReport | None:
        """The kept report, read once (a store's generation never changes)."""
        kept = self.validation_file(".json")
        if kept is None:
            return None
        with kept.path.open(encoding="utf-8") as handle:
            return ValidationReport.from_json(json.load(handle))

    def validation_file(self, suffix: ValidationSuffix) -> StoredFile | None:
        return self._kept(VALIDATION_JSON if suffix == ".json" else VALIDATION_TURTLE)

    def _kept(self, name: str) -> StoredFile | None:
        """The file ``name`` of the generation folder (``graph.store.files``), if it has one."""
        generation = self.loaded()[0]
        path = generation / name
        return StoredFile(path, generation.name) if path.is_file() else None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self.remove_on_close:
            import shutil

            shutil.rmtree(self.folder, ignore_errors=True)




def _failure(failure: Failure) -> Exception:
    if failure.kind == "syntax":
        return syntax_error(_SOURCE, failure.message)
    if failure.kind == "store":
        return StoreError(f"the store could not be read: {failure.message}")
    return QueryProcessError(f"the query process failed:\n{failure.message}")


__all__ = ["LocalStore"]
