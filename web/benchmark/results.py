"""A benchmark's results as its page, its chart and the chart's data show them (DESIGN.md,
"Results and models").

One table per group of comparable results — one metric, one subset, one settings line — in
rank order, a tie group sharing its rank ("1=" for each member); then, apart and unranked, the
results whose source states no setting. Each row says who ran it, when, and where it was read:
the package (or repository) its record derives from, the file, the record; a curated record's
cited URL and date.

The ranking is the named query ``leaderboard`` (``queries/leaderboard.rq``): the rule is
written there once, and this module only groups its rows. What the query does not give — the
record each result lives in, what that record derives from, the normalised score, a curated
record's URL — comes from one more query over the same results (``SOURCES_QUERY``), joined on
what identifies a leaderboard row: model, score, file, metric, subset and settings. The "ours /
paper" pairs are the named query ``paper-vs-reproduction``, which has no parameter: it runs
once per build of the store and the page keeps its benchmark's rows.

All of it is kept per build of the store (``web.benchmark.cache``). A ranking stopped at the
query time limit is said on the page, which still answers.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import pyoxigraph as ox

from graph.errors import BenchgraphError, ErrorKind
from graph.sparql.named import NamedQuery, find_named_query
from graph.sparql.parameters import bind_parameters
from graph.store.base import Store, Term
from graph.store.process.stops import QueryStopped
from web.benchmark.cache import generation_cache
from web.entities.page import graph_cell
from web.labels import fetch_labels
from web.links import Cell, cell

_LOG = logging.getLogger(__name__)

NOT_STATED = "not stated"
"""What the named queries give for a setting, a runner or a date no source states."""
SHAREABLE = ("unit", "stderr", "ran_by", "date", "sources")
"""The columns of a table of results that may be the same in every row."""

SOURCES_QUERY = """SELECT ?model_node ?score ?source ?metric ?subset ?settings ?g ?origin
       ?normalised ?role ?url ?as_of
WHERE {
  ?b bench:result ?r .
  GRAPH ?g { ?r bench:model ?model_node ; bench:score ?score ; bench:statedIn ?source }
  ?g a bench:Record .
  OPTIONAL { ?r bench:metricName ?metric_name }
  OPTIONAL { ?r bench:subset ?subset_name }
  OPTIONAL { ?r bench:settingsKey ?key }
  OPTIONAL { ?r bench:normalisedScore ?normalised }
  OPTIONAL { ?r bench:ranBy ?role }
  OPTIONAL { ?r schema:url ?url }
  OPTIONAL { ?r bench:asOf ?as_of }
  OPTIONAL { ?g prov:wasDerivedFrom ?origin }
  BIND (COALESCE(?metric_name, "") AS ?metric)
  BIND (COALESCE(?subset_name, "") AS ?subset)
  BIND (COALESCE(?key, "not stated") AS ?settings)
}"""
"""Where each result of ``?b`` was read: its record's graph, what the record derives from (a
harness package, a repository), the file; its normalised score, who ran it (the vocabulary's
member, which the leaderboard gives as a word); a curated record's URL and as-of date. The
metric, subset and settings are made as the leaderboard makes them. A graph that is no
record's (a remote engine's copy of the merge) is no source."""


@dataclass(frozen=True)
class Source:
    """Where a result was read."""

    origins: tuple[Cell, ...]
    """What its record derives from: a harness package at a version, a repository."""
    file: str
    record: Cell
    url: Cell | None = None
    """The URL a curated record cites for the score."""
    as_of: str | None = None

    @property
    def label(self) -> str:
        """The source in a few words, as a chart's legend names it: the package, else the
        record."""
        return self.origins[0].text if self.origins else self.record.text


@dataclass(frozen=True)
class ResultRow:
    """One result of a table."""

    rank: int | None
    """None: not ranked (its settings are not stated)."""
    tied: bool
    """Another result of the table shares its rank."""
    model: Cell
    score: str
    """As published."""
    unit: str | None
    stderr: str | None
    ran_by: Cell | None
    """None: the source does not say."""
    date: str | None
    """As precisely as stated; None: not stated."""
    sources: tuple[Source, ...]
    normalised: Decimal | None = None
    disputed: bool = False
    """Another result of the table gives the same model another score."""

    @property
    def rank_text(self) -> str:
        """``3``, ``1=`` for a member of a tie group, ``""`` unranked."""
        if self.rank is None:
            return ""
        return f"{self.rank}=" if self.tied else str(self.rank)

    @property
    def source_label(self) -> str:
        return self.sources[0].label if self.sources else NOT_STATED


@dataclass(frozen=True)
class ResultTable:
    """The results of one metric, subset and settings line."""

    metric: str
    subset: str
    settings: str | None
    """None: no source states the settings, so its results are not ranked."""
    rows: tuple[ResultRow, ...]

    @property
    def ranked(self) -> bool:
        return self.settings is not None

    @property
    def key(self) -> str:
        """The table's name in addresses (``?table=``, ``#results-…``): a digest of what
        makes the group, the same in every build that has the group."""
        text = "\0".join((self.metric, self.subset, self.settings or ""))
        return hashlib.blake2b(text.encode(), digest_size=5).hexdigest()

    @property
    def title(self) -> str:
        """``accuracy · gsm8k_main · inspect_evals · 5-shot``: what is stated, in order."""
        parts = [self.metric, self.subset, self.settings or "settings not stated"]
        return " · ".join(part for part in parts if part)

    @property
    def units(self) -> tuple[str | None, ...]:
        return tuple(dict.fromkeys(row.unit for row in self.rows))

    @property
    def shared(self) -> frozenset[str]:
        """The columns (``unit``, ``stderr``, ``ran_by``, ``date``, ``sources``) whose value
        every row of a table of several has alike: the page says it once, above the rows
        (a harness's table is one package's, one file's, one runner's). No row stating a
        standard error counts as alike too."""
        if len(self.rows) < 2:
            return frozenset()
        first = self.rows[0]
        return frozenset(name for name in SHAREABLE
                         if all(getattr(row, name) == getattr(first, name) for row in self.rows)
                         and (name != "stderr" or first.stderr is None))

    @property
    def narrow(self) -> bool:
        """The table shows its rank, model and score and at most one more column: it fits a
        phone's width as a table (a wider one becomes a card per result there)."""
        return len(SHAREABLE) - len(self.shared) <= 1

    def groups(self) -> list[tuple[ResultRow, ...]]:
        """The rows by rank, in order: a tie group is one group; an unranked table's rows are
        one group."""
        if not self.ranked:
            return [self.rows]
        out: list[list[ResultRow]] = []
        for row in self.rows:
            if out and row.rank is not None and out[-1][0].rank == row.rank:
                out[-1].append(row)
            else:
                out.append([row])
        return [tuple(group) for group in out]


@dataclass(frozen=True)
class Pair:
    """A source's own run beside the figure the paper reports, for one model."""

    model: Cell
    metric: str
    subset: str
    reproduction: str
    paper: str
    difference: str
    source: str


@dataclass(frozen=True)
class BenchmarkResults:
    """Everything the results section of one benchmark shows."""

    tables: tuple[ResultTable, ...] = ()
    """The ranked tables in the leaderboard's order, then the unranked ones."""
    pairs: tuple[Pair, ...] = ()
    stopped: str | None = None
    """Why the results could not be read (a query stopped at its time limit)."""
    truncated: bool = False
    """The leaderboard was cut at the row limit."""

    @property
    def total(self) -> int:
        return sum(len(table.rows) for table in self.tables)

    def table(self, key: str | None) -> ResultTable | None:
        """The table ``key`` names; with no key, the one charted first: the largest ranked
        table, else the largest."""
        if key is not None:
            return next((table for table in self.tables if table.key == key), None)
        ranked = [table for table in self.tables if table.ranked] or list(self.tables)
        return max(ranked, key=lambda table: len(table.rows), default=None)


def benchmark_results(store: Store, benchmark: str) -> BenchmarkResults:
    """The results of the benchmark whose IRI is ``benchmark``, kept per build. A query
    stopped at its time limit would stop again: that is kept too, and said. A store that
    fails to answer (an engine refusing the ranking) is logged and said, and asked again at
    the next request."""
    try:
        return generation_cache().get(store, ("benchmark-results", benchmark),
                                      lambda: _read(store, benchmark))
    except BenchgraphError as error:
        if error.kind is not ErrorKind.STORE:
            raise
        _LOG.warning("the results of <%s> could not be read: %s", benchmark, error)
        return BenchmarkResults(stopped="the store could not answer the query that ranks "
                                        "them (the server's log says why)")


def _read(store: Store, benchmark: str) -> BenchmarkResults:
    node = ox.NamedNode(benchmark)
    leaderboard = _named("leaderboard")
    benchmark_id = benchmark[len(f"{store.base}benchmark/"):]
    try:
        ranked = store.query(leaderboard.text, bind_parameters(
            leaderboard, {"benchmark": benchmark_id}, store.base))
        found = store.query(SOURCES_QUERY, {"b": node})
        pairs = _all_pairs(store)
    except QueryStopped as stopped:
        return BenchmarkResults(stopped=str(stopped))
    rows = [dict(zip(ranked.variables, row, strict=True)) for row in ranked.rows]
    facts = [dict(zip(found.variables, row, strict=True)) for row in found.rows]
    mine = [pair for pair in pairs if pair.get("benchmark") == node]
    iris = [*_iris(rows, "model_node"), *_iris(facts, "origin"), *_iris(facts, "role"),
            *_iris(mine, "model_node")]
    labels = fetch_labels(store, iris)
    show = _Show(store.base, labels.get)
    sources = _sources(facts, show)
    tables = _tables(rows, sources, show)
    return BenchmarkResults(
        tables=(*(t for t in tables if t.ranked), *(t for t in tables if not t.ranked)),
        pairs=tuple(_pair(pair, show) for pair in mine),
        truncated=ranked.truncated or found.truncated,
    )


class _Show:
    """Terms as cells, with the labels of one lookup."""

    def __init__(self, base: str, label: Callable[[str], str | None]) -> None:
        self.base = base
        self.label = label

    def __call__(self, term: Term | None, fallback: str | None = None) -> Cell:
        if isinstance(term, ox.NamedNode):
            return cell(term, self.base, self.label(term.value) or fallback)
        return cell(term, self.base)


_Key = tuple[str, str, str, str, str, str]


@dataclass(frozen=True)
class _Found:
    """What the sources query adds to a leaderboard row."""

    sources: tuple[Source, ...] = ()
    normalised: Decimal | None = None
    ran_by: Cell | None = None


def _key(row: dict[str, Term | None]) -> _Key:
    """What identifies a leaderboard row among the benchmark's results."""
    model, score, source, metric, subset, settings = (
        term_text(row.get(name)) or "" for name in ("model_node", "score", "source", "metric",
                                                 "subset", "settings"))
    return model, score, source, metric, subset, settings


def _sources(facts: list[dict[str, Term | None]], show: _Show) -> dict[_Key, _Found]:
    """Each result's sources (a record each), normalised score and runner, by what identifies
    its leaderboard row."""
    first: dict[_Key, dict[str, dict[str, Term | None]]] = {}
    origins: dict[tuple[_Key, str], dict[str, Cell]] = {}
    for fact in facts:
        key, graph = _key(fact), fact["g"]
        assert isinstance(graph, ox.NamedNode)
        first.setdefault(key, {}).setdefault(graph.value, fact)
        origin = fact.get("origin")
        named = origins.setdefault((key, graph.value), {})
        if origin is not None:
            named.setdefault(origin.value, show(origin))
    out = {}
    for key, by_graph in first.items():
        found = tuple(Source(
            tuple(origins[key, graph].values()), term_text(fact["source"]) or "",
            graph_cell(ox.NamedNode(graph), show.base),
            None if fact.get("url") is None else show(fact["url"]), term_text(fact.get("as_of")))
            for graph, fact in by_graph.items())
        normalised = next((n for fact in by_graph.values()
                           if (n := number(term_text(fact.get("normalised")))) is not None), None)
        role = next((show(r) for fact in by_graph.values() if (r := fact.get("role"))), None)
        out[key] = _Found(found, normalised, role)
    return out


def _tables(rows: list[dict[str, Term | None]], sources: dict[_Key, _Found],
            show: _Show) -> list[ResultTable]:
    grouped: dict[tuple[str, str, str], list[dict[str, Term | None]]] = {}
    for row in rows:
        group = (term_text(row["metric"]) or "", term_text(row["subset"]) or "",
                 term_text(row["settings"]) or NOT_STATED)
        grouped.setdefault(group, []).append(row)
    tables = []
    for (metric, subset, settings), members in grouped.items():
        ranks = Counter(term_text(row["rank"]) for row in members if row.get("rank") is not None)
        scores: dict[str, set[str]] = {}
        for row in members:
            model = term_text(row["model_node"]) or ""
            scores.setdefault(model, set()).add(term_text(row["score"]) or "")
        made = []
        for row in members:
            rank = term_text(row.get("rank"))
            found = sources.get(_key(row), _Found())
            made.append(ResultRow(
                rank=int(rank) if rank is not None else None,
                tied=rank is not None and ranks[rank] > 1,
                model=show(row["model_node"], term_text(row.get("model"))),
                score=term_text(row["score"]) or "",
                unit=term_text(row.get("unit")),
                stderr=term_text(row.get("stderr")),
                ran_by=found.ran_by,
                date=_stated(row.get("date")),
                sources=found.sources,
                normalised=found.normalised,
                disputed=len(scores[term_text(row["model_node"]) or ""]) > 1,
            ))
        tables.append(ResultTable(metric, subset, None if settings == NOT_STATED else settings,
                                  tuple(made)))
    return tables


def _pair(row: dict[str, Term | None], show: _Show) -> Pair:
    metric, subset, reproduction, paper, difference, source = (
        term_text(row[name]) or "" for name in ("metric", "subset", "reproduction", "paper",
                                                "difference", "source"))
    return Pair(show(row["model_node"], term_text(row.get("model"))), metric, subset,
                reproduction, paper, _signed(difference), source)


def _all_pairs(store: Store) -> list[dict[str, Term | None]]:
    """Every benchmark's "ours / paper" pairs: the named query has no parameter, so it runs
    once per build."""
    def read() -> list[dict[str, Term | None]]:
        query = _named("paper-vs-reproduction")
        answer = store.query(query.text)
        return [dict(zip(answer.variables, row, strict=True)) for row in answer.rows]

    pairs: list[dict[str, Term | None]] = generation_cache().get(store, ("pairs",), read)
    return pairs


def _named(name: str) -> NamedQuery:
    query = find_named_query(name)
    assert query is not None, f"the bundled named query {name} is missing"
    return query


def _iris(rows: Sequence[dict[str, Term | None]], name: str) -> list[str]:
    return [term.value for row in rows if isinstance(term := row.get(name), ox.NamedNode)]


def term_text(term: Term | None) -> str | None:
    """A term's lexical form (an IRI's value); None for none."""
    return None if term is None else term.value


def _stated(term: Term | None) -> str | None:
    text = term_text(term)
    return None if text is None or text == NOT_STATED else text


def number(text: str | None) -> Decimal | None:
    """``text`` as a decimal; None for none, or for text that is no number."""
    try:
        return None if text is None else Decimal(text)
    except InvalidOperation:
        return None


def _signed(text: str) -> str:
    """A difference with its sign (``+0.02``, ``-0.03``)."""
    return text if text.startswith(("-", "+")) or number(text) == 0 else f"+{text}"


__all__ = ["NOT_STATED", "SHAREABLE", "SOURCES_QUERY", "BenchmarkResults", "Pair", "ResultRow",
           "ResultTable", "Source", "benchmark_results", "number", "term_text"]
