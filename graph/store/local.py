"""``LocalStore``: a built Oxigraph store on this machine, queried through query processes.

Both local kinds are one (``graph.store.kinds`` opens them): ``oxigraph:DIR`` opens a store
folder that ``benchgraph build --store oxigraph:DIR`` made; ``memory`` builds one from the
record files into a temporary folder when it is opened and removes it at ``close``. Either
way each query runs in a query process (``graph.store.process.pool``) that opened the
generation read-only, so the time limit can really stop it; the facts of the build (base
IRI, record graphs, counts) come with the store without reading a record: from the folder's
manifest.

A store folder may be built again while it is served: the store then moves to the new
generation at the next call or request (``graph.store.following``), and what a request began
on one generation it finishes on it (``reading``).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from graph.build.stats import GraphStats
from graph.namespace import PREFIXES
from graph.sparql.query_text import syntax_error
from graph.sparql.result import QueryResult
from graph.store.admitting import admitted
from graph.store.artefacts import Artefacts
from graph.store.base import (
    Bindings,
    BuildFacts,
    Description,
    Limits,
    QueryDataset,
)
from graph.store.describe import describe_node
from graph.store.errors import StoreError
from graph.store.following import Generations, Served
from graph.store.generations import Leased, lease_current
from graph.store.process.executor import Failure, OnDisk, QueryRequest
from graph.store.process.pool import PoolLimits, QueryPool, QueryProcessError, Zygotes
from graph.store.query_log import logged

_SOURCE = "the query"
"""How an error names the query it is about (a store is not told where a query came from)."""


@dataclass
class LocalStore:
    """The store in ``folder``, queried in ``processes`` children. Its build's facts and counts
    are known without reading the store. ``facts``, ``stats``, ``generation`` and ``source``
    are those of the generation it was opened on;
    what a store folder holds now is asked of the store (``loaded``, ``counts``,
    ``record_graphs``), which follows it (``graph.store.following``). The base IRI is the
    same in every generation it follows."""

    folder: Path
    facts: BuildFacts
    stats: GraphStats
    limits: Limits
    generation: Path
    """The generation folder of the build it was opened on: its pyoxigraph store and what the
    build wrote beside it (the search index)."""
    processes: int = 1
    opened: Leased | None = None
    """A store folder's manifest and this process's lease on the generation it names
    (``graph.store.generations``): the store follows the folder to each generation a build
    switches it to. None for a store that never changes (the ``memory`` kind)."""
    remove_on_close: bool = False
    """True for a store this object made for itself (the ``memory`` kind)."""
    pool_limits: PoolLimits = field(default_factory=PoolLimits)
    """What the query processes hold each query to: memory, and how many may run long."""
    kind: Literal["memory", "oxigraph"] = "oxigraph"
    """The kind of store it is (``graph.store.kinds``), as its queries' log lines name it."""
    _generations: Generations = field(init=False, repr=False)
    _zygotes: Zygotes = field(default_factory=Zygotes, init=False, repr=False)
    """The zygote of every generation's query processes (views share it)."""
    _held: Served | None = field(default=None, init=False, repr=False)
    """A ``reading`` view's generation, which it answers every call from."""

    def __post_init__(self) -> None:
        opened = self.opened
        first = Served(self.generation, self.facts, self.stats,
                       None if opened is None else opened.version,
                       None if opened is None else opened.lease)
        self._generations = Generations(self.folder, first,
                                        reopen=None if opened is None else self._reopen)

    def _reopen(self) -> Served:
        """The folder's current generation, leased (StoreError if it cannot be served)."""
        leased = lease_current(self.folder, self.base)
        return Served(leased.generation, leased.manifest.facts, leased.manifest.counts,
                      leased.version, leased.lease)

    @property
    def base(self) -> str:
        return self.facts.base

    @property
    def source(self) -> OnDisk:
        """Where query processes find the graph of the generation the store was opened on."""
        return OnDisk(self.generation)

    def reading(self) -> AbstractContextManager[LocalStore]:
        """A view of the store that answers everything from the generation current when the
        block begins, which no build removes until the block ends (``graph.store.following``);
        a view's own block is the view."""
        return self._reading()

    @contextmanager
    def _reading(self) -> Iterator[LocalStore]:
        if self._held is not None:
            yield self
            return
        with self._generations.using() as here:
            view = copy.copy(self)  # shares the generations; closing it closes nothing
            view._held = here
            yield view

    def _here(self) -> AbstractContextManager[Served]:
        """The generation a call is answered from, held until it ends: a view's own, else
        the current one."""
        return nullcontext(self._held) if self._held is not None else self._generations.using()

    def _current(self) -> Served:
        """The generation to read facts from (held by nothing)."""
        return self._held if self._held is not None else self._generations.current()

    def loaded(self) -> tuple[Path, OnDisk]:
        """The generation folder, and where query processes find the graph: put there now if
        they were not yet."""
        here = self._current()
        return here.path, here.source

    def _pool_here(self, here: Served) -> QueryPool:
        """The query processes of this process over the generation ``here`` (made on first
        use: a process forked after the store was opened makes its own)."""
        with here.pool_lock:
            pool = here.pool
            if pool is None or pool.owner != os.getpid():
                zygote = self._zygotes.get(here.source, self.pool_limits)
                pool = here.pool = QueryPool(here.source, self.processes, self.pool_limits,
                                             zygote)
        return pool

    def prepare(self) -> None:
        with self._here() as here:
            self._pool_here(here)

    @logged
    def query(
        self,
        text: str,
        bindings: Bindings | None = None,
        dataset: QueryDataset | None = None,
        limits: Limits | None = None,
    ) -> QueryResult:
        limits = limits or self.limits
        query, asked = admitted(text, bindings or {}, _SOURCE, limits)
        request = QueryRequest(
            text=query.text,
            form=query.form,
            prefixes=dict(PREFIXES),
            base_iri=self.base,
            default_graphs=None if dataset is None else dataset.default_graphs,
            named_graphs=None if dataset is None else dataset.named_graphs,
            row_limit=limits.rows,
        )
        with self._here() as here:
            answer = self._pool_here(here).run(request, limits.timeout, asked)
        if isinstance(answer, Failure):
            raise _failure(answer)
        return answer.in_order(query.star)

    def describe(self, node: str, limit: int | None = None) -> Description:
        return describe_node(self._ask, node, limit)

    def _ask(self, text: str, bindings: Bindings) -> QueryResult:
        return self.query(text, bindings=bindings)

    def counts(self) -> GraphStats:
        return self._current().stats

    def build_facts(self) -> BuildFacts:
        return self._current().facts

    def artefacts(self) -> Artefacts:
        """The artefacts of the generation a call is answered from: a view's own, else the
        current one, which a build may remove once the store has moved on (a server asks
        within a ``reading`` block)."""
        with self._here() as here:
            return here.artefacts

    def close(self) -> None:
        if self._held is not None:
            return  # a view: its block lets go of its generation
        self._generations.close()
        self._zygotes.close()
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
