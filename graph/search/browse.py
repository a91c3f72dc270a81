"""The benchmark list from the index: rows of one view, the total, and every facet's counts.

Facets combine as a faceted catalogue does: a benchmark matches when, for every facet with
values chosen, it has at least one of them (OR within a facet, AND across facets). A
value's count is the number of benchmarks the view would hold with that value chosen in its
facet alone beside the other facets' choices: for a facet with nothing chosen, exactly how
many of the current rows have the value; for one with a choice, how many its other values
would give instead (so choosing a second value, an OR, is never a blind step). A facet's
benchmarks that state none of its values are one more value of it, ``NOT_STATED``, chosen
and counted alike, and shown apart from the values stated (``FacetCounts.not_stated``).

The sets are bit masks kept in the index (``graph.search.bits``): a view costs three
small queries (the facet values, the sort's order, the page's rows), however many facets
it chooses. Every value a request names is bound as an SQL parameter.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from graph.search import bits
from graph.search.facets import FACETS, NOT_STATED, SORTS, Sort
from graph.search.results import (
    BrowsePage,
    BrowseRequest,
    BrowseRow,
    FacetCount,
    FacetCounts,
    SearchError,
    ValueRef,
)

MAX_PAGE = 500
MAX_CHOSEN = 50
"""Facet values one view may choose, at most."""
_FACET_ORDER = {facet.name: position for position, facet in enumerate(FACETS)}
_TITLES = {facet.name: facet.title for facet in FACETS}


_WHOLE_TABLE = 2000
"""Rows above which a request reads the tables through rather than row by row."""
_ROW_COLUMNS = ("id, iri, identifier, label, summary, released, updated, updated_record, "
                "catalogued, results")


@dataclass(frozen=True)
class _Value:
    number: int
    ref: ValueRef
    label_key: str
    count: int
    """Benchmarks with it, in the whole list."""
    members: int
    """Their mask."""


def browse(db: sqlite3.Connection, request: BrowseRequest) -> BrowsePage:
    """One view of the benchmark list; SearchError for a facet, sort or page that is not."""
    _check(request)
    (count,) = db.execute("SELECT value FROM meta WHERE key = 'benchmarks'").fetchone()
    everything = bits.every(int(count))
    values = _values(db)
    chosen = {facet: tuple(dict.fromkeys(keys)) for facet, keys in request.selection.items()
              if keys}
    masks = {facet: _union(values.get(facet, []), keys) for facet, keys in chosen.items()}
    matching = _intersection(masks.values(), everything)
    (ordered,) = db.execute("SELECT numbers FROM bench_order WHERE sort = ?",
                            (request.sort,)).fetchone()
    numbers = bits.in_order(matching, ordered, int(count))
    end = None if request.limit is None else request.offset + request.limit
    rows = _rows(db, numbers[request.offset:end], values)
    facets = []
    for facet in FACETS:
        others = _intersection((m for f, m in masks.items() if f != facet.name), everything)
        facets.append(_counts(facet.name, values.get(facet.name, []), others, everything,
                              chosen.get(facet.name, ()), request))
    return BrowsePage(request, rows, len(numbers), tuple(facets))


def _check(request: BrowseRequest) -> Sort:
    unknown = sorted(set(request.selection) - set(_FACET_ORDER))
    if unknown:
        raise SearchError(f"there is no facet {unknown[0]!r} (there are "
                          f"{', '.join(_FACET_ORDER)})")
    if sum(map(len, request.selection.values())) > MAX_CHOSEN:
        raise SearchError(f"a view chooses at most {MAX_CHOSEN} facet values")
    sort = SORTS.get(request.sort)
    if sort is None:
        raise SearchError(f"there is no sort {request.sort!r} (there are {', '.join(SORTS)})")
    if request.limit is not None and not 1 <= request.limit <= MAX_PAGE:
        raise SearchError(f"a page holds 1 to {MAX_PAGE} rows, not {request.limit}")
    if request.offset < 0:
        raise SearchError(f"a page starts at row 0 or later, not {request.offset}")
    return sort


def _values(db: sqlite3.Connection) -> dict[str, list[_Value]]:
    """Every facet value, by facet."""
    found: defaultdict[str, list[_Value]] = defaultdict(list)
    for number, facet, key, label, term, label_key, count, members in db.execute(
            "SELECT id, facet, key, label, term, label_key, count, members FROM facet_value"):
        found[facet].append(_Value(number, ValueRef(facet, key, label, term), label_key, count,
                                   bits.unpack(members)))
    return found


def _union(values: list[_Value], keys: tuple[str, ...]) -> int:
    """The benchmarks with any of ``keys`` (none for a key the index does not know)."""
    mask = 0
    for value in values:
        if value.ref.key in keys:
            mask |= value.members
    return mask


def _intersection(masks: Iterable[int], everything: int) -> int:
    mask = everything
    for other in masks:
        mask &= other
    return mask


def _rows(db: sqlite3.Connection, numbers: list[int],
          values: dict[str, list[_Value]]) -> tuple[BrowseRow, ...]:
    """The rows of ``numbers``, in that order, each with its facet values (in facet order,
    then by label)."""
    if len(numbers) > _WHOLE_TABLE:  # an export: read the tables through, not by number
        found = {row[0]: row for row in db.execute(f"SELECT {_ROW_COLUMNS} FROM bench")}
        members = db.execute("SELECT bench, value FROM membership")
    else:
        chosen = json.dumps(numbers)
        found = {row[0]: row for row in db.execute(
            f"SELECT {_ROW_COLUMNS} FROM bench WHERE id IN (SELECT value FROM json_each(?))",
            (chosen,))}
        members = db.execute("SELECT bench, value FROM membership WHERE bench IN "
                             "(SELECT value FROM json_each(?))", (chosen,))
    ranked = sorted((value for facet in values.values() for value in facet),
                    key=lambda v: (_FACET_ORDER[v.ref.facet], v.label_key, v.ref.key))
    position = {value.number: (place, value.ref) for place, value in enumerate(ranked)}
    held: defaultdict[int, list[tuple[int, ValueRef]]] = defaultdict(list)
    for number, value in members:
        held[number].append(position[value])
    return tuple(
        BrowseRow(iri=iri, identifier=identifier, label=label, summary=summary,
                  released=released, updated=updated, updated_record=record,
                  catalogued=bool(catalogued), results=results,
                  values=tuple(ref for _, ref in sorted(held[number], key=_first)))
        for number, iri, identifier, label, summary, released, updated, record, catalogued,
        results in map(found.__getitem__, numbers)
    )


def _first(item: tuple[int, ValueRef]) -> int:
    return item[0]


def _counts(facet: str, values: list[_Value], others: int, everything: int,
            picked: tuple[str, ...], request: BrowseRequest) -> FacetCounts:
    """One facet's values with their counts under the other facets' choices."""
    if others == everything:  # nothing chosen elsewhere: the counts the build made
        counts = {value.number: value.count for value in values}
    else:
        counts = {value.number: (value.members & others).bit_count() for value in values}
    unstated = next(value for value in values if value.ref.key == NOT_STATED)
    not_stated = FacetCount(unstated.ref, counts[unstated.number], NOT_STATED in picked)
    values = [value for value in values if value is not unstated]
    ranked = sorted((value for value in values if counts[value.number] or value.ref.key in picked),
                    key=lambda value: (-counts[value.number], value.label_key, value.ref.key))
    size = None if facet in request.expanded else request.facet_size
    shown = [value for position, value in enumerate(ranked)
             if size is None or position < size or value.ref.key in picked]
    out = [FacetCount(value.ref, counts[value.number], value.ref.key in picked)
           for value in shown]
    held = {value.ref.key for value in shown} | {NOT_STATED}
    out += [FacetCount(ValueRef(facet, key, key, ""), 0, True)
            for key in picked if key not in held]  # a key this index does not know (an old link)
    return FacetCounts(facet, _TITLES[facet], tuple(out), hidden=len(ranked) - len(shown),
                       not_stated=not_stated)


__all__ = ["MAX_CHOSEN", "MAX_PAGE", "browse"]
