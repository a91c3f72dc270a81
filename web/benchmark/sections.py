"""The benchmark page's sections that are more than a list of properties: credits, harness
tasks, sources, and results (a chart and a table per group of comparable results,
``web.benchmark.results``)."""

from __future__ import annotations

from dataclasses import dataclass

import pyoxigraph as ox
from flask import request, url_for

from graph.errors import BenchgraphError, ErrorKind
from graph.store.base import Store
from web.benchmark.data import Node, bench, dcterms, schema
from web.benchmark.results import BenchmarkResults, ResultTable, benchmark_results
from web.benchmark.view import Said, Shown, View
from web.params import one_of
from web.results_chart import ChartLinks, benchmark_chart


@dataclass(frozen=True)
class Credit:
    """An author or publisher in its place in the record's list, with its notes."""

    position: int | None
    agent: Shown
    notes: tuple[Shown, ...]


@dataclass(frozen=True)
class Item:
    """An entry of a short list (a harness task, a source): its main value and its facts."""

    main: Shown
    facts: tuple[Shown, ...]
    said: tuple[Said, ...]


@dataclass(frozen=True)
class LocalCopy:
    """A task of a harness that reads its data from the user's disk, as the harness says:
    where (``path``), the archive it downloads there when missing (``download``), or what
    takes the location of data the user must supply (``needs``)."""

    task: tuple[Shown, ...]
    path: tuple[Shown, ...]
    download: tuple[Shown, ...]
    needs: tuple[Shown, ...]


@dataclass(frozen=True)
class HarnessTask(Item):
    """A harness the benchmark runs in, the task's names there and its local data."""

    local: tuple[LocalCopy, ...] = ()


@dataclass(frozen=True)
class ResultsSection:
    """The results section: the benchmark's results, the table charted and how to choose
    another."""

    results: BenchmarkResults
    charted: ResultTable | None
    """The table charted: None when no table has ``CHARTED`` results."""
    chart: ChartLinks | None
    choices: tuple[tuple[str, str], ...]
    """Each table that can be charted: its key, and its title with its size."""
    leaderboard: str
    """The named query's page of every row, with the benchmark bound."""

    def chart_href(self, table: ResultTable) -> str | None:
        """This page charting ``table``; None for the table charted and one too small."""
        if self.is_charted(table) or len(table.rows) < CHARTED:
            return None
        return (url_for(request.endpoint or "entities.node", **(request.view_args or {}),
                        chart=table.key) + "#results")

    def is_charted(self, table: ResultTable) -> bool:
        return self.charted is not None and table.key == self.charted.key

    def opened(self, table: ResultTable) -> bool:
        """Whether ``table`` is shown unfolded: the first, and the one charted."""
        return self.is_charted(table) or (bool(self.results.tables)
                                          and table.key == self.results.tables[0].key)


def parts_of(view: View, link: str, of: Node | None = None) -> list[Node]:
    """The parts ``of`` (the benchmark, else one of its parts) reaches by ``link``, in list
    order where they have one."""
    found = [view.hood.parts[term.value] for term in (of or view.hood.benchmark).objects(link)
             if term.value in view.hood.parts]
    return sorted(found, key=lambda node: (_position(node) or 0, node.iri))


def credits(view: View, link: str) -> list[Credit]:
    out = []
    for node in parts_of(view, link):
        agents = view.shown(node.get(bench.agent))
        for agent in agents:
            out.append(Credit(_position(node), agent, view.shown(node.get(bench.note))))
    return out


def paper_authors(view: View, paper: Node) -> list[Credit]:
    """The authors of ``paper`` in the order its citation lists them."""
    prefix = f"{paper.iri}/author/"
    nodes = sorted((node for iri, node in view.hood.parts.items() if iri.startswith(prefix)),
                   key=lambda node: (_position(node) or 0, node.iri))
    return [Credit(_position(node), agent, ()) for node in nodes
            for agent in view.shown(node.get(bench.agent))]


def harness_tasks(view: View) -> list[HarnessTask]:
    """Each harness the benchmark runs in, with the task's names there and the data its
    sub-tasks read from the user's disk."""
    return [HarnessTask(harness, view.shown(node.get(bench.taskName)), harness.said,
                        _local_copies(view, node))
            for node in parts_of(view, bench.harnessTask)
            for harness in view.shown(node.get(bench.harness))]


def _local_copies(view: View, task: Node) -> tuple[LocalCopy, ...]:
    return tuple(
        LocalCopy(view.shown(node.get(bench.taskName)), view.shown(node.get(bench.localPath)),
                  view.shown(node.get(bench.downloadUrl)),
                  view.shown(node.get(bench.needsLocalData)))
        for node in parts_of(view, bench.subtask, task)
        if node.get(bench.localPath) or node.get(bench.needsLocalData))


def sources(view: View) -> list[Item]:
    """The documents the records cite, each with its URL and when it was read."""
    items = []
    for node in parts_of(view, bench.source):
        title = view.shown(node.get(dcterms.title)) or view.shown(node.get(schema.url))
        facts = (*view.shown(node.get(schema.url)), *view.shown(node.get(bench.accessed)))
        said = tuple(dict.fromkeys(s for shown in title for s in shown.said))
        for main in title[:1]:
            items.append(Item(main, facts if title[0].href is None else facts[1:], said))
    return items


CHARTED = 2
"""Results a table needs to be charted: a chart of one point says nothing its row does not."""


def results(store: Store, benchmark: str, benchmark_id: str) -> ResultsSection:
    """The benchmark's results (``web.benchmark.results``), charting the table the ``chart``
    parameter names, of those with ``CHARTED`` results (by default the largest ranked one,
    else the largest). A ``chart`` no table has is a 400 naming it."""
    found = benchmark_results(store, benchmark)
    chartable = [table for table in found.tables if len(table.rows) >= CHARTED]
    default = found.table(None)
    if default not in chartable:
        default = max(chartable, key=lambda table: len(table.rows), default=None)
    charted = None
    if default is not None:
        key = one_of("chart", [table.key for table in chartable], default.key)
        charted = next(table for table in chartable if table.key == key)
    elif request.args.get("chart"):
        raise BenchgraphError(f"chart: no table of this benchmark's results has the {CHARTED} "
                              "results a chart needs", ErrorKind.USAGE)
    return ResultsSection(
        found, charted, benchmark_chart(benchmark_id, charted) if charted else None,
        tuple((table.key, f"{table.title} ({len(table.rows)})") for table in chartable),
        url_for("queries.query", name="leaderboard", benchmark=benchmark_id))


def _position(node: Node) -> int | None:
    term = node.first(bench.position)
    if isinstance(term, ox.Literal) and term.value.isdigit():
        return int(term.value)
    return None


__all__ = ["Credit", "HarnessTask", "Item", "LocalCopy", "ResultsSection", "credits",
           "harness_tasks", "parts_of", "results", "sources"]
