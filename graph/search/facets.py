"""The benchmark list's facets, and each benchmark as one row of it, read from the build.

Live SPARQL was measured first: the counts of every facet value, and a page of rows with
one facet selected, each took far longer than a page may
(perf/decisions/facets-from-the-index.md). So what a facet view needs is computed once when
the store is built and kept beside the index (``graph.search.index``): one row per benchmark
with its sort keys and what a list shows, one row per (benchmark, facet value), and each
facet value's benchmarks as a bit mask. Counting under any selection is then arithmetic on
those masks (``graph.search.bits``).

A facet value is a term of the graph: an IRI (a suite, a tag, an organisation ...) or a
literal (a status, the ``catalogued`` flag); a count facet's, an integer (how many harnesses
run the benchmark). Its *key*, which a URL carries, is the part a
person can read and that stays unique within its facet: an IRI under a known prefix as its
CURIE (``bench:Gated``), one under the base without it (``tag/radiology``), any other whole,
a literal as its text (in N-Triples form, quotes and all, should that text be another
value's key, or ``NOT_STATED``).

``NOT_STATED`` is the key of one more value in every facet: that no value of the facet is
stated (DESIGN, "Stated facts": a facet says how many benchmarks it could not judge). It
is chosen, counted and combined as any other value is, so a view can ask for the
benchmarks that state no access level, or for those gated or not stated.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rdflib import URIRef

from graph.namespace import BENCH, DCTERMS, RDF, RDFS, SKOS, curie
from graph.plain_text import plain_text
from graph.search.extract import Facts, Values, date_key, first_text, local_name


@dataclass(frozen=True)
class Facet:
    """One facet of the benchmark list."""

    name: str
    """Its URL parameter (``tag``)."""
    title: str
    predicates: tuple[URIRef, ...]
    """A benchmark's values: the objects of any of these (then ``through``, if given)."""
    through: tuple[URIRef, ...] = ()
    """Further steps from the first objects, in turn (a harness task to its harness; a
    paper to its year)."""
    count: bool = False
    """A benchmark's value is how many distinct values it reaches (the harnesses that run
    it), an ``xsd:integer``; it has none where it reaches none."""


FACETS: tuple[Facet, ...] = (
    Facet("suite", "Suite", (BENCH.inSuite,)),
    Facet("access", "Access level", (BENCH.accessLevel,)),
    Facet("harness", "Harness", (BENCH.harnessTask,), through=(BENCH.harness,)),
    Facet("harnesses", "Harnesses that run it", (BENCH.harnessTask,), through=(BENCH.harness,),
          count=True),
    Facet("local_data", "Needs local data", (BENCH.harnessTask,),
          through=(BENCH.subtask, BENCH.needsLocalData)),
    Facet("hub_access", "Hub access", (BENCH.dataset,), through=(BENCH.hubAccess,)),
    Facet("category", "Category", (BENCH.category, BENCH.subcategory)),
    Facet("tag", "Tag", (BENCH.tag,)),
    Facet("publisher", "Publisher", (BENCH.publisher,)),
    Facet("year", "Paper's year", (BENCH.paper,), through=(DCTERMS.issued,)),
    Facet("arxiv", "On arXiv since", (BENCH.paper,), through=(BENCH.arxivSubmitted,)),
    Facet("venue", "Venue", (BENCH.paper,), through=(BENCH.venue,)),
    Facet("status", "Status", (BENCH.status,)),
    Facet("catalogued", "Record", (BENCH.catalogued,)),
)
"""The facets, in the order a page shows them. ``catalogued`` tells benchmarks a record
describes from those only named by another (a variant, a link). Each stated fact is its own
facet, never folded into another (DESIGN.md, "Stated facts"): the access level a source
states, the data a harness needs on disk, a hub's gate word; the year a citation states
and the month an arXiv id says the paper was submitted."""

@dataclass(frozen=True)
class Sort:
    """One order of the list."""

    title: str
    order: str
    """The SQL ``ORDER BY`` of ``bench AS b``, ending in the IRI, so ties have one order."""


SORTS: dict[str, Sort] = {
    "name": Sort("Name, A to Z", "b.label_key, b.iri"),
    "-name": Sort("Name, Z to A", "b.label_key DESC, b.iri DESC"),
    "-released": Sort("Newest release first",
                      "b.released_key DESC NULLS LAST, b.label_key, b.iri"),
    "released": Sort("Oldest release first", "b.released_key NULLS LAST, b.label_key, b.iri"),
    "-updated": Sort("Recently reviewed first",
                     "nullif(b.updated, '') DESC NULLS LAST, b.label_key, b.iri"),
    "-results": Sort("Most results first", "b.results DESC, b.label_key, b.iri"),
}
"""The orders a view can take, by name (``-`` for descending); the first is the default."""
ORDER_COLUMNS = ("iri", "label_key", "released_key", "updated", "results")
"""The columns of ``bench`` the orders read: a benchmark whose row changed in none of them
moves in none (``graph.search.update``)."""

_FLAG_LABELS = {"true": "catalogued", "false": "named by reference only"}

NOT_STATED = "-"
"""The key of a facet's benchmarks that state none of its values: no value's key is this
(``_Keys``), and it reads short in a URL (``?access=-``)."""
NOT_STATED_LABEL = "not stated"


@dataclass(frozen=True)
class FacetValue:
    """One value of one facet, as the index keeps it."""

    facet: str
    key: str
    term: str
    """Its N-Triples form: the RDF term itself."""
    label: str


@dataclass(frozen=True)
class BenchmarkRow:
    """One benchmark as the list shows and sorts it."""

    iri: str
    identifier: str
    label: str
    summary: str
    released: str
    """The earliest release date stated ("" for none); a verbatim value when no date is."""
    released_key: str | None
    updated: str
    """The latest day a record describing it was reviewed or researched ("" for none)."""
    updated_record: str
    """That record's IRI ("" for none)."""
    catalogued: bool
    results: int
    values: tuple[FacetValue, ...]


def benchmark_rows(facts: Facts, base: str) -> Iterator[BenchmarkRow]:
    """Every benchmark of the graph with its facet values, by IRI."""
    labels = facts.union((RDFS.label, SKOS.prefLabel))
    per_facet = {facet.name: _facet_values(facts, facet) for facet in FACETS}
    keys = _Keys(facts, base, labels)
    identifiers, abstracts = facts.values(DCTERMS.identifier), facts.values(DCTERMS.abstract)
    released, results = facts.values(BENCH.released), facts.values(BENCH.result)
    freshness = _freshness(facts)
    for node in sorted(facts.subjects_of(RDF.type, BENCH.Benchmark), key=facts.text):
        iri = facts.text(node)
        dates = facts.texts(released.get(node, ()))
        proper = sorted(filter(None, map(date_key, dates)))
        updated, record = freshness.get(node, ("", ""))
        values = tuple(keys.value(facet.name, term)
                       for facet in FACETS for term in per_facet[facet.name].get(node, ()))
        yield BenchmarkRow(
            iri=iri,
            identifier=first_text(facts, identifiers, node) or local_name(iri),
            label=first_text(facts, labels, node) or local_name(iri),
            summary=plain_text(first_text(facts, abstracts, node)),
            released=proper[0] if proper else (dates[0] if dates else ""),
            released_key=proper[0] if proper else None,
            updated=updated,
            updated_record=record,
            catalogued="true" in facts.texts(per_facet["catalogued"].get(node, ())),
            results=len(results.get(node, ())),
            values=values,
        )


def _facet_values(facts: Facts, facet: Facet) -> Values:
    reached = facts.union(facet.predicates)
    for predicate in facet.through:
        step = facts.values(predicate)
        reached = {node: sorted({v for at in ats for v in step.get(at, ())}, key=facts.ntriples)
                   for node, ats in reached.items()}
    if facet.count:
        return {node: [facts.integer(len(values))] for node, values in reached.items() if values}
    return {node: values for node, values in reached.items() if values}


def _freshness(facts: Facts) -> dict[int, tuple[str, str]]:
    """For each benchmark, the latest review or research day of a record describing it, and
    that record (the first by IRI on a tie)."""
    days = facts.union((BENCH.reviewed, BENCH.researched))
    best: dict[int, tuple[str, str]] = {}
    for record, benchmarks in facts.values(BENCH.describes).items():
        stated = sorted(filter(None, map(date_key, facts.texts(days.get(record, ())))))
        if not stated:
            continue
        day, iri = stated[-1], facts.text(record)
        for benchmark in benchmarks:
            held = best.get(benchmark)
            if held is None or day > held[0] or (day == held[0] and iri < held[1]):
                best[benchmark] = (day, iri)
    return best


class _Keys:
    """Facet values by term, made once each, with keys unique within their facet."""

    def __init__(self, facts: Facts, base: str, labels: Values) -> None:
        self._facts, self._base, self._labels = facts, base, labels
        self._made: dict[tuple[str, int], FacetValue] = {}
        self._taken: dict[str, set[str]] = {}

    def value(self, facet: str, term: int) -> FacetValue:
        found = self._made.get((facet, term))
        if found is None:
            found = self._made[facet, term] = self._new(facet, term)
        return found

    def _new(self, facet: str, term: int) -> FacetValue:
        facts = self._facts
        text, ntriples = facts.text(term), facts.ntriples(term)
        if facts.is_iri(term):
            key = curie(text)
            if key.startswith("<"):
                key = text.removeprefix(self._base)
            label = first_text(facts, self._labels, term) or local_name(text)
        else:
            key, label = text, _FLAG_LABELS.get(text, text) if facet == "catalogued" else text
        taken = self._taken.setdefault(facet, set())
        if key in taken or key == NOT_STATED:
            key = ntriples
        taken.add(key)
        return FacetValue(facet, key, ntriples, label)


__all__ = ["FACETS", "NOT_STATED", "NOT_STATED_LABEL", "ORDER_COLUMNS", "SORTS", "BenchmarkRow",
           "Facet", "FacetValue", "Sort", "benchmark_rows"]
