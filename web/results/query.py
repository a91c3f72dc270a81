"""The result list's SPARQL: which results a view holds, what each shows, and every facet's
counts.

Three queries, each text fixed (judged once a process, ``graph.sparql.admission``), every
chosen value bound as a term by the ``VALUES`` block the store opens the WHERE clause with:

- ``VIEW``: every result of the view, with its scores, which ``ordered`` sorts (``SORTS``).
  Its length is the view's total and a page is a slice of it: a SPARQL ``LIMIT`` or
  ``OFFSET`` would be query text, and every new text is parsed again by the admission's
  slow parser (``graph.sparql.admission``), where a fixed text is judged once. A chosen
  benchmark or model is bound as the node itself (``ResultFacet.direct``), so a benchmark's
  results come from the indexes; every other facet's choice is a literal of match texts
  (``web.results.facets.pick_text``), left unbound when nothing is chosen, so a facet with
  no choice costs one ``BOUND``.
- ``DETAILS``: what a page shows of its results, with ``?result`` bound to them: every
  statement of each in its record's graph, read into a row here, so that the fields of a
  row are read for a page's results, not for every result of the view (which would be
  most of the work of a page).
- ``COUNTS``: each facet's values with the number of results the view would hold with that
  value chosen in its facet alone beside the other facets' choices (as the benchmark list
  counts, ``graph.search.browse``): each result is paired with each facet (a ``VALUES``
  row), kept where every other facet's choice holds, and counted under its value there;
  a value left unbound is the facet's "not stated". A model with two makers pairs its
  results with each, so results are counted distinct.

A result is a ``bench:Result`` with a model and a score, in the graph of its record; its
source is that record's package (``prov:wasDerivedFrom`` of the record graph), or none. The
queries read each result's record through ``GRAPH``. The package's ``schema:name`` is not
read: Oxigraph evaluates an OPTIONAL nested for it (or a path, or a two-pattern OPTIONAL)
once per result rather than by a join, which costs more than the rest of the query, so the
package node is the value, labelled by its own label (name and version) as every node of a
page is (``web.labels``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import pyoxigraph as ox

from graph.namespace import BENCH, DCTERMS, PREFIXES, PROV
from graph.sparql.query_text import BindingValue
from graph.store.base import Limits, Store, term_order
from web.results.facets import (
    BY_NAME,
    CATALOG_RECORD,
    FACETS,
    Selection,
    node_of,
    pick_text,
)

_PREFIXES = "".join(f"PREFIX {prefix}: <{PREFIXES[prefix]}>\n"
                    for prefix in ("bench", "dcterms", "prov"))


def _results(*optional: str) -> str:
    """The results, each read in its record's graph with ``optional`` of what it states
    there. A record graph is one that names itself a ``bench:Record``: that leaves out a
    merge of every graph that an engine may hold as a named graph of its own, and every
    pattern stays inside the record's graph, since on an engine whose default graph is the
    union of its graphs (Virtuoso), a pattern outside would match in the merge too, and
    repeat each row (``graph.store.remote.store``)."""
    stated = "".join(f"\n    OPTIONAL {{ ?result {pattern} }}" for pattern in optional)
    return f"""
  GRAPH ?record {{
    ?record a bench:Record .
    ?benchmark bench:result ?result .
    ?result bench:model ?model ;
            bench:score ?score .
    OPTIONAL {{ ?record prov:wasDerivedFrom ?package }}{stated}
  }}"""


_MADE_BY = "GRAPH ?{0}_graph {{ ?model bench:madeBy ?{0} }}"
"""A model's maker, in whichever graph states it (a model record's; on Virtuoso the merge
as well, which only repeats it)."""
_MATCH = {
    "benchmark": "STR(?benchmark)",
    "model": "STR(?model)",
    "maker": 'IF(BOUND(?maker), STR(?maker), "-")',
    "source": f'IF(BOUND(?package), STR(?package), "{CATALOG_RECORD}")',
    "ran_by": 'IF(BOUND(?ran_by), STR(?ran_by), "-")',
    "setting": """IF(BOUND(?settings), CONCAT('"', ?settings, '"'), "-")""",
}
"""Each facet's match text of a result (``web.results.facets.matched`` gives a key's). An
unbound value is tested with ``BOUND``, not left to an error: Virtuoso's ``CONCAT`` of an
unbound value is an empty text, where SPARQL's is an error."""


def _chosen(facet: str, text: str | None = None) -> str:
    """Whether the match text is one of the lines of the facet's choice."""
    return f'CONTAINS(?pick_{facet}, CONCAT("\\n", {text or _MATCH[facet]}, "\\n"))'


_MAKER = (f"(EXISTS {{ {_MADE_BY.format('chosen_maker')} "
          f"FILTER ({_chosen('maker', 'STR(?chosen_maker)')}) }}"
          ' || (CONTAINS(?pick_maker, "\\n-\\n")'
          f" && NOT EXISTS {{ {_MADE_BY.format('any_maker')} }}))")
"""A result's model has a maker chosen, or has none and "not stated" is chosen: a model with
two makers is one row here, where a row per maker would repeat the result."""
_FILTERED = "\n          && ".join(
    f"(!BOUND(?pick_{facet}) || {_MAKER if facet == 'maker' else _chosen(facet)})"
    for facet in ("maker", "source", "ran_by", "setting"))
_CHOSEN = ("bench:ranBy ?ran_by", "bench:settingsKey ?settings")
"""What a result states that a choice reads."""

VIEW = f"""{_PREFIXES}SELECT ?result ?normalised ?score
WHERE {{{_results(*_CHOSEN, "bench:normalisedScore ?normalised")}
  FILTER ({_FILTERED})
}}"""
"""Every result of a view, with what its orders read (unordered: ``SORTS`` order it)."""

Row = tuple[str, float | None, float | None]
"""A result of a view (its IRI), its normalised score and its score as published (None: not
stated, or not a number)."""


@dataclass(frozen=True)
class Sort:
    """One order of the list."""

    title: str
    key: Callable[[Row], tuple[object, ...]]
    """The order of a view's results, ending in the result's IRI, so ties have one order."""


def _by_score(sign: int) -> Callable[[Row], tuple[object, ...]]:
    def key(row: Row) -> tuple[object, ...]:
        node, normalised, score = row
        value = normalised if normalised is not None else score
        return normalised is None, value is None, sign * (value or 0.0), node
    return key


SORTS: dict[str, Sort] = {
    "benchmark": Sort("Benchmark, then model", lambda row: (row[0],)),
    "-score": Sort("Highest score first", _by_score(-1)),
    "score": Sort("Lowest score first", _by_score(1)),
}
"""The orders a view can take, by name; the first is the default. A result's IRI is its
benchmark's, then its model's key (``…/benchmark/gsm8k/result/gpt_4o/…``), so the first
order keeps each benchmark's results together, model by model. A score is compared on 0–1
where its unit makes the scale plain (``bench:normalisedScore``), and those come first; the
rest follow by the number as published, which is all a source without a unit says.

The orders are made here, not by ``ORDER BY``: on the on-disk store a sort decodes each
term's text at every comparison (``graph.store.base.term_order``), which costs several times
what reading the rows and sorting them in Python does."""

DETAILS = f"""{_PREFIXES}SELECT ?result ?benchmark ?predicate ?value
WHERE {{
  GRAPH ?record {{
    ?record a bench:Record .
    ?benchmark bench:result ?result .
    {{ ?result ?predicate ?value }}
    UNION {{ ?record prov:wasDerivedFrom ?value BIND (prov:wasDerivedFrom AS ?predicate) }}
  }}
}}"""
"""What each bound result states in its record's graph, a statement a row, and the package
the record derives from: one pattern the engine looks up per result, where an OPTIONAL for
each field, inside the ``GRAPH``, was evaluated for every result before the bound ones were
joined (and Virtuoso refused the same OPTIONALs outside it beside a bound value)."""
_FIELDS = {
    str(BENCH.model): "model", str(BENCH.score): "score",
    str(BENCH.metricName): "metric", str(BENCH.subset): "subset",
    str(BENCH.settingsKey): "settings", str(BENCH.unit): "unit",
    str(BENCH.normalisedScore): "normalised", str(BENCH.standardError): "stderr",
    str(BENCH.ciLow): "ci_low", str(BENCH.ciHigh): "ci_high", str(BENCH.ciLevel): "ci_level",
    str(BENCH.samplesScored): "samples", str(BENCH.ranBy): "ran_by", str(DCTERMS.date): "date",
    str(BENCH.dateStatedAs): "date_stated_as", str(BENCH.statedIn): "stated_in",
    str(PROV.wasDerivedFrom): "package", str(BENCH.reportedAs): "reported_as",
    str(BENCH.evaluatedWith): "harness", str(BENCH.harnessVersion): "harness_version",
    str(BENCH.sourceTable): "table",
}
"""The field of ``ResultRow`` each statement gives."""



def _value_of_facet() -> str:
    """The value of the facet ``?facet`` names: ``IF(?facet = "benchmark", ?benchmark,
    IF(...))``, its settings last."""
    value = "?settings"
    for facet in ("ran_by", "source", "maker", "model", "benchmark"):
        node = f'COALESCE(?package, "{CATALOG_RECORD}")' if facet == "source" else f"?{facet}"
        value = f'IF(?facet = "{facet}", {node}, {value})'
    return value


_OTHERS = "\n          && ".join(
    f'(!BOUND(?pick_{facet.name}) || ?facet = "{facet.name}" || {_chosen(facet.name)})'
    for facet in FACETS)
COUNTS = f"""{_PREFIXES}SELECT ?facet ?value (COUNT(DISTINCT ?result) AS ?count)
WHERE {{{_results(*_CHOSEN)}
  OPTIONAL {{ {_MADE_BY.format("maker")} }}
  VALUES ?facet {{ {' '.join(f'"{facet.name}"' for facet in FACETS)} }}
  FILTER ({_OTHERS})
  BIND ({_value_of_facet()} AS ?value)
}}
GROUP BY ?facet ?value"""
"""An unchosen facet's ``?pick_`` is unbound, so its test is one ``BOUND``."""

DETAIL_CHUNK = 300
"""Results a details query binds at most: 300 IRIs of about 100 characters keep its text
well inside the 64 KiB a query may be (``Settings.max_query_bytes``)."""


@dataclass(frozen=True)
class ResultRow:
    """One result as the list shows it: IRIs for nodes, lexical forms for values; None
    where its source states nothing."""

    iri: str
    benchmark: str
    model: str
    score: str
    metric: str | None = None
    subset: str | None = None
    settings: str | None = None
    unit: str | None = None
    normalised: str | None = None
    stderr: str | None = None
    ci_low: str | None = None
    ci_high: str | None = None
    ci_level: str | None = None
    samples: str | None = None
    ran_by: str | None = None
    date: str | None = None
    date_stated_as: str | None = None
    stated_in: str | None = None
    package: str | None = None
    reported_as: str | None = None
    harness: str | None = None
    harness_version: str | None = None
    table: str | None = None

    def nodes(self) -> tuple[str, ...]:
        """The IRIs it shows, to be labelled."""
        return tuple(iri for iri in (self.benchmark, self.model, self.ran_by, self.package,
                                     self.harness) if iri)


def view_bindings(selection: Selection, base: str, direct: bool) -> dict[str, BindingValue]:
    """The selection as a query's bindings: each chosen facet's ``?pick_NAME``, and, for the
    rows (``direct``), a chosen benchmark or model as the node itself (none when no key names
    one, so nothing matches)."""
    bindings: dict[str, BindingValue] = {}
    for name, keys in selection.items():
        facet = BY_NAME[name]
        if not keys:
            continue
        if direct and facet.direct:
            bindings[name] = tuple(node for node in (node_of(key, base) for key in keys)
                                   if node is not None)
        else:
            bindings[f"pick_{name}"] = pick_text(facet, keys, base)
    return bindings


def ordered(store: Store, selection: Selection, sort: str, limits: Limits) -> list[str]:
    """The IRIs of every result of the view, in ``sort``'s order.

    The answer is read from its text (SPARQL 1.1 TSV, ``graph.sparql.result``): a row is an
    IRI in angle brackets and two numbers, each bare or a quoted lexical form with its type,
    split at tabs, which no such term holds. Making a term of every value, to read a
    number from it, would be most of the Python work of a page."""
    answer = store.query(VIEW, bindings=view_bindings(selection, store.base, True),
                         limits=limits)
    rows = []
    for line in answer.payload.split(b"\n")[1:answer.count + 1]:
        node, normalised, score = line.split(b"\t")
        rows.append((node[1:-1].decode(), _number(normalised), _number(score)))
    rows.sort(key=SORTS[sort].key)
    return [row[0] for row in rows]


def _number(term: bytes) -> float | None:
    """A score's value as TSV writes it, to order by (None: none, or no number)."""
    if term.startswith(b'"'):
        term = term[1:term.find(b'"', 1)]
    try:
        return float(term) if term else None
    except ValueError:
        return None


def details(store: Store, results: Sequence[str]) -> list[ResultRow]:
    """What the list shows of ``results`` (IRIs), in their order (a result the store no
    longer has is left out). A field stated twice shows its first value in term order."""
    stated: dict[str, dict[str, str]] = {}
    for start in range(0, len(results), DETAIL_CHUNK):
        chunk = tuple(ox.NamedNode(iri) for iri in results[start:start + DETAIL_CHUNK])
        answer = store.query(DETAILS, bindings={"result": chunk})
        for result, benchmark, predicate, value in sorted(
                answer.rows, key=lambda row: tuple(map(_order, row))):
            if not (isinstance(result, ox.NamedNode) and isinstance(benchmark, ox.NamedNode)
                    and isinstance(predicate, ox.NamedNode) and value is not None):
                continue
            fields = stated.setdefault(result.value, {"benchmark": benchmark.value})
            field = _FIELDS.get(predicate.value)
            if field is not None:
                fields.setdefault(field, value.value)
    return [_row(iri, stated[iri]) for iri in results
            if {"model", "score"} <= stated.get(iri, {}).keys()]


def _row(iri: str, fields: dict[str, str]) -> ResultRow:
    return ResultRow(iri=iri, benchmark=fields.pop("benchmark"), model=fields.pop("model"),
                     score=fields.pop("score"), **fields)


def _order(term: ox.NamedNode | ox.BlankNode | ox.Literal | None) -> tuple[int, str, str]:
    """SPARQL's order of terms, an unbound one last."""
    return (3, "", "") if term is None else term_order(term)


def counts(store: Store, selection: Selection,
           limits: Limits) -> dict[str, list[tuple[ox.NamedNode | ox.Literal | None, int]]]:
    """Each facet's values under the other facets' choices, with their counts; a value of
    None counts the results that state none."""
    answer = store.query(COUNTS, bindings=view_bindings(selection, store.base, False),
                         limits=limits)
    found: dict[str, list[tuple[ox.NamedNode | ox.Literal | None, int]]] = {
        facet.name: [] for facet in FACETS}
    for facet, value, count in answer.rows:
        if isinstance(facet, ox.Literal) and isinstance(count, ox.Literal) \
                and not isinstance(value, ox.BlankNode):
            found[facet.value].append((value, int(count.value)))
    return found


def nodes_of(counted: Mapping[str, Iterable[tuple[object, int]]]) -> set[str]:
    """The IRIs among counted values, to be labelled."""
    return {value.value for values in counted.values() for value, _ in values
            if isinstance(value, ox.NamedNode)}


__all__ = ["COUNTS", "DETAILS", "DETAIL_CHUNK", "SORTS", "VIEW", "ResultRow", "Row", "Sort",
           "counts", "details", "nodes_of", "ordered", "view_bindings"]
