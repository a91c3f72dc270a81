"""``RemoteStore``: the ``sparql:URL`` kind, a store over a remote SPARQL 1.1 engine that
``benchgraph push`` loaded (``graph.store.remote.layout`` says what it wrote there).

It needs nothing on this machine but the URL: the build's facts come from the manifest the
push wrote into the engine. Our guarantees hold in front of the engine: a query is admitted on
its parse tree before anything is sent (``graph.sparql.admission``: no update, no SERVICE,
within the size and nesting limits), and the limits are ours (the time limit abandons the
request, the row limit stops reading the answer). Nothing here evaluates a query, so an
engine that would fetch a SERVICE endpoint never receives one; what the parse tree admits and
the engine still refuses (an unknown prefix, say) is the engine's 400, passed on.

The engine's default graph is not taken on trust: a query that names no graph is sent with
the dataset it needs (``default-graph-uri`` of the merge the push wrote, where the merge is
a named graph); a request that picks graphs gets exactly those, and "no graph" is asked for
as an empty graph, not left to the engine. A query that names graphs itself (``GRAPH``,
``FROM``) reads the engine's own dataset: every named graph the engine holds, which on an
engine whose default graph is the union of all (Virtuoso) includes the merge graph too.

Search, browsing, dumps and the validation report's files are made here from the data
graphs read back, a thousand graphs a query, into a local store of their own in a temporary
folder removed at ``close``: a generation like a store folder's, written by the same process
(``graph.store.writing``: the Oxigraph data and the search index), with the report's files
beside it and each dump written from it when first asked for (``graph.store.files``). It is
made on first use, or, after ``start_preparing`` (what ``serve`` does), in a process of its
own while the store already answers (``graph.store.remote.prepared``).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pyoxigraph as ox

from graph.build.stats import GraphStats
from graph.export.formats import NQUADS, NTRIPLES, Format
from graph.sparql.admission import Admitted
from graph.sparql.errors import QueryError
from graph.sparql.result import QueryResult
from graph.store.admitting import admitted
from graph.store.artefacts import Artefacts
from graph.store.base import (
    Bindings,
    BuildFacts,
    Description,
    Limits,
    QueryDataset,
    StoredFile,
)
from graph.store.describe import describe_node
from graph.store.disk import load_generation
from graph.store.errors import StoreError
from graph.store.files import dump_name, write_validation
from graph.store.following import Served
from graph.store.process.pool import QueryTimeout
from graph.store.query_log import logged
from graph.store.remote.client import EngineLimit, RemoteError, RemoteTimeout
from graph.store.remote.engine import Dataset, Engine
from graph.store.remote.layout import DEFAULT, Names, PushManifest
from graph.store.remote.manifest import read_report
from graph.store.remote.prepared import Preparation
from graph.store.space import reported_when_full
from graph.validation.report import ValidationReport

_SOURCE = "the query"
GRAPHS_PER_QUERY = 1_000
"""Data graphs read back a query. One query for them all, at 100,000 records, did not
finish within the time limit, and an engine may also stop a long query at a limit of its
own; a thousand record graphs are a query of a second or two
(perf/decisions/remote-read-back-in-batches.md)."""


def read_back(graphs: Sequence[str]) -> str:
    """The query giving every statement of ``graphs``, named in a VALUES block. As fast from
    Oxigraph as naming them in the request's dataset (``named-graph-uri``), far faster than
    ``FILTER(?g IN (...))`` (perf/decisions/remote-read-back-in-batches.md), and Virtuoso
    answers a dataset with a header per graph named, past the 100 headers Python's HTTP
    client reads."""
    named = " ".join(str(ox.NamedNode(graph)) for graph in graphs)
    return f"SELECT ?s ?p ?o ?g WHERE {{ VALUES ?g {{ {named} }} GRAPH ?g {{ ?s ?p ?o }} }}"


@dataclass
class RemoteStore:
    """The build ``manifest`` describes, as the engine holds it."""

    engine: Engine
    manifest: PushManifest
    limits: Limits
    _folder: Path | None = field(default=None, init=False, repr=False)
    _preparation: Preparation | None = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _served: Served | None = field(default=None, init=False, repr=False)
    kind = "sparql"
    """The kind of store it is (``graph.store.kinds``), as its queries' log lines name it."""

    @property
    def base(self) -> str:
        return self.manifest.facts.base

    @property
    def names(self) -> Names:
        return Names(self.base)

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
        try:
            answer = self.engine.query(query.text, query.form,
                                       self._dataset(query, dataset),
                                       rows=limits.rows,
                                       timeout=limits.timeout - (time.monotonic() - asked))
        except EngineLimit as error:
            raise QueryTimeout(f"{_SOURCE}: the engine stopped it at a limit of its own and "
                               f"sent only part of the answer {error.said}") from None
        except RemoteTimeout:
            raise QueryTimeout(f"the query ran longer than its time limit of "
                               f"{limits.timeout:g} s and was stopped") from None
        except RemoteError as error:
            if error.status == 400:
                raise QueryError(f"{_SOURCE}: the engine refused it: {error.said}") from None
            raise
        return answer.in_order(query.star)

    def _dataset(self, query: Admitted, dataset: QueryDataset | None) -> Dataset:
        """Exactly the dataset the request needs (see the module's docstring)."""
        nothing = (self.names.nothing,)
        if dataset is not None:
            return Dataset(dataset.default_graphs or nothing, dataset.named_graphs or nothing)
        if query.names_graphs or self.manifest.merge == DEFAULT:
            return Dataset()
        return Dataset((self.manifest.merge,), nothing)

    def describe(self, node: str, limit: int | None = None) -> Description:
        # Leaving out benchgraph's own graphs (the merge graph, where it is a named graph,
        # holds every statement again).
        own = f"FILTER(!STRSTARTS(STR(?g), {ox.Literal(self.names.own)}))"
        return describe_node(self._ask, node, limit, own)

    def _ask(self, text: str, bindings: Bindings) -> QueryResult:
        return self.query(text, bindings=bindings)

    def counts(self) -> GraphStats:
        return self.manifest.counts

    def build_facts(self) -> BuildFacts:
        return self.manifest.facts

    @cached_property
    def _artefacts(self) -> Artefacts:
        return Artefacts(self.base, self.loaded, self._dump, lambda: self._report)

    def artefacts(self) -> Artefacts:
        """The files made from the engine on first need (``loaded``); the report read from
        the engine itself, without them."""
        return self._artefacts

    def _dump(self, fmt: Format) -> StoredFile:
        return self._files().dump(fmt)

    def _files(self) -> Served:
        """The local store made from the engine, served as a generation's files are."""
        folder = self.loaded()
        with self._lock:
            if self._served is None:
                self._served = Served(folder, self.manifest.facts, self.manifest.counts)
            return self._served

    @cached_property
    def _report(self) -> ValidationReport | None:
        if not self.manifest.validated:
            return None
        return ValidationReport.from_json(read_report(self.engine, self.names))

    def loaded(self) -> Path:
        """The folder of what is made from the data (search index, dumps, the report's
        files): made now, from the engine, if it was not yet; when a process makes it
        (``start_preparing``), StorePreparing until it is there."""
        with self._lock:
            if self._preparation is not None:
                return self._preparation.folder()
            if self._folder is None:
                folder = Path(tempfile.mkdtemp(prefix="benchgraph-remote-"))
                try:
                    self._folder = self._make_into(folder)
                except BaseException:
                    shutil.rmtree(folder, ignore_errors=True)
                    raise
            return self._folder

    def start_preparing(self) -> None:
        """Make the folder ``loaded`` gives in a process of its own, from now on."""
        with self._lock:
            if self._preparation is None and self._folder is None:
                self._preparation = Preparation.start(self._make_into)

    def _make_into(self, folder: Path) -> Path:
        """Make the local store of the data graphs, its search index and the report's files
        in ``folder``; the generation folder that holds them."""
        generation = folder / "files"
        load = folder / "load"
        with reported_when_full(folder):
            load.mkdir()
            quads, union = (load / dump_name(fmt) for fmt in (NQUADS, NTRIPLES))
            self._read_data_graphs(quads, union)
            load_generation(generation, quads, union, self.base)
            shutil.rmtree(load)
            report = self._report
            if report is not None:
                write_validation(generation, report)
        return generation

    def _read_data_graphs(self, quads: Path, union: Path) -> None:
        """Every statement of the data graphs, ``GRAPHS_PER_QUERY`` graphs a query, written
        as N-Quads to ``quads`` and, without their graphs, as N-Triples to ``union``;
        StoreError when the engine gave fewer than the push wrote (an engine's own row cap,
        say)."""
        graphs = self.manifest.data_graphs()
        timeout = max(self.engine.client.timeout, self.limits.timeout)
        count = 0
        with quads.open("w", encoding="utf-8") as nquads, \
                union.open("w", encoding="utf-8") as ntriples:
            for start in range(0, len(graphs), GRAPHS_PER_QUERY):
                text = read_back(graphs[start:start + GRAPHS_PER_QUERY])
                for subject, predicate, obj, graph in self.engine.each_row(text, Dataset(),
                                                                          timeout=timeout):
                    triple = f"{subject} {predicate} {obj}"
                    nquads.write(f"{triple} {graph} .\n")
                    ntriples.write(f"{triple} .\n")
                    count += 1
        if count != self.manifest.quads:
            raise StoreError(f"{self.engine.query_url.url} gave {count:,} statements of "
                             f"the data graphs, where the push wrote {self.manifest.quads:,}: "
                             "its own limit on answers (Virtuoso's ResultSetMaxRows) may have "
                             "cut it, or the graphs changed since; push again")

    def prepare(self) -> None:
        """Nothing to start: a worker opens its connection on its first query."""

    def reading(self) -> AbstractContextManager[RemoteStore]:
        """The store itself: what it made for itself never changes while it serves."""
        return nullcontext(self)

    def close(self) -> None:
        self.engine.close()
        if self._preparation is not None:
            self._preparation.stop()
        if self._served is not None:
            self._served.close()
            self._served = None
        if self._folder is not None:
            shutil.rmtree(self._folder.parent, ignore_errors=True)
            self._folder = None




__all__ = ["RemoteStore"]
