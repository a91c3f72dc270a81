"""The benchmark page's sections that are more than a list of properties: credits, harness
tasks, sources, results (sortable), lineage and what links here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from urllib.parse import urlencode

import pyoxigraph as ox
from flask import request

from web.benchmark.data import Node, bench, dcterms, schema
from web.benchmark.view import Said, Shown, View
from web.params import one_of


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
class Result:
    model: Shown
    score: Shown
    unit: Shown | None
    source: Shown | None
    """The URL the record cites for the score."""
    as_of: Shown | None
    said: tuple[Said, ...]
    disputed: bool
    """Another record gives the same model another score."""


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    href: str
    order: str
    """``ascending``, ``descending`` (the column the table is sorted by) or ``none``."""


@dataclass(frozen=True)
class Results:
    rows: tuple[Result, ...]
    columns: tuple[Column, ...]


def parts_of(view: View, link: str) -> list[Node]:
    """The benchmark's parts reached by ``link``, in list order where they have one."""
    found = [view.hood.parts[term.value] for term in view.hood.benchmark.objects(link)
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


def harness_tasks(view: View) -> list[Item]:
    """Each harness the benchmark runs in, with the task's name there."""
    return [Item(harness, view.shown(node.get(bench.taskName)), harness.said)
            for node in parts_of(view, bench.harnessTask)
            for harness in view.shown(node.get(bench.harness))]


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


_SORTS: dict[str, Callable[[Result], tuple[object, ...]]] = {
    "model": lambda r: (r.model.text.casefold(),),
    "score": lambda r: (_number(r.score.text),),
    "unit": lambda r: ((r.unit.text if r.unit else "").casefold(),),
    "source": lambda r: (r.said[0].number if r.said else 0,),
}
_TITLES = {"model": "Model", "score": "Score", "unit": "Unit", "source": "Source"}


def results(view: View, lower_is_better: bool) -> Results:
    """The results table, sorted as the ``sort`` parameter asks (``score``, ``-score``,
    ``model`` ...); by default best score first, as the metric's direction says."""
    rows = []
    for node in parts_of(view, bench.result):
        scores = view.shown(node.get(bench.score))
        for model in view.shown(node.get(bench.model)):
            for score in scores:
                rows.append(Result(model, score, _one(view, node, bench.unit),
                                   _one(view, node, schema.url), _one(view, node, bench.asOf),
                                   score.said, False))
    by_model: dict[str, set[str]] = {}
    for row in rows:
        by_model.setdefault(row.model.text, set()).add(row.score.text)
    rows = [Result(r.model, r.score, r.unit, r.source, r.as_of, r.said,
                   len(by_model[r.model.text]) > 1) for r in rows]
    default = "score" if lower_is_better else "-score"
    asked = one_of("sort", [order for name in _SORTS for order in (name, f"-{name}")], default)
    key = asked.removeprefix("-")
    descending = asked.startswith("-")
    rows.sort(key=lambda r: (_SORTS["model"](r), _SORTS["source"](r)))
    rows.sort(key=_SORTS[key], reverse=descending)
    columns = tuple(_column(name, title, key, descending, default)
                    for name, title in _TITLES.items())
    return Results(tuple(rows), columns)


def _column(name: str, title: str, key: str, descending: bool, default: str) -> Column:
    """A column heading's link: the column sorted by, in the other direction; another, in
    its first direction (best score first; text A to Z)."""
    if name == key:
        return Column(name, title, _sort_href(name if descending else f"-{name}"),
                      "descending" if descending else "ascending")
    return Column(name, title, _sort_href(default if name == "score" else name), "none")


def _sort_href(sort: str) -> str:
    args = dict(request.args)
    args["sort"] = sort
    return f"{request.script_root}{request.path}?{urlencode(args)}#results"


def _one(view: View, node: Node, predicate: str) -> Shown | None:
    shown = view.shown(node.get(predicate))
    return shown[0] if shown else None


def _position(node: Node) -> int | None:
    term = node.first(bench.position)
    if isinstance(term, ox.Literal) and term.value.isdigit():
        return int(term.value)
    return None


def _number(text: str) -> Decimal:
    try:
        return Decimal(text)
    except InvalidOperation:  # a score kept verbatim because it broke the lexical rule
        return Decimal("-Infinity")


__all__ = ["Column", "Credit", "Item", "Result", "Results", "credits", "harness_tasks",
           "parts_of", "results", "sources"]
