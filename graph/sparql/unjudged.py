"""How many nodes a named query could not judge: its ``NAME.unjudged.rq`` count, run with the
values of the parameters it shares with the query. The page and ``benchgraph query`` both say
it, so that an answer resting on a property most nodes lack does not look complete."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pyoxigraph as ox

from graph.sparql.named import NamedQuery
from graph.sparql.parameters import bind_parameters
from graph.store.base import Limits, Store


@dataclass(frozen=True)
class Unjudged:
    """How many nodes a named query could not judge, of how many, and what they are."""

    count: int
    total: int
    what: str
    """The count query's title: "MedHELM benchmarks state no access level"."""

    def __str__(self) -> str:
        return f"{self.count:,} of {self.total:,} {self.what}."


def count_unjudged(query: NamedQuery, values: Mapping[str, str], store: Store,
                   limits: Limits) -> Unjudged | None:
    """What ``query``'s count of unjudged nodes (``NAME.unjudged.rq``) says, run with the
    values of the parameters it shares with ``query``; None when the query has no such count
    or it judged every node."""
    counted = query.unjudged
    if counted is None:
        return None
    own = {name: value for name, value in values.items() if counted.parameter(name)}
    result = store.query(counted.text, bindings=bind_parameters(counted, own, store.base),
                         limits=limits)
    (row,) = result.rows  # aggregates without GROUP BY: one row
    found = dict(zip(result.variables, row, strict=True))
    count, total = (_integer(found[name]) for name in ("unjudged", "total"))
    return Unjudged(count, total, counted.title) if count else None


def _integer(term: object) -> int:
    assert isinstance(term, ox.Literal), f"a count is a number, not {term!r}"
    return int(term.value)


__all__ = ["Unjudged", "count_unjudged"]
