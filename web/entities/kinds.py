"""What each kind of node's page lists beyond its statements: an organisation's benchmarks and
papers, a person's papers (those they wrote, and those of the benchmarks that credit them),
benchmarks (those that credit them, and those citing a paper they wrote) and co-authors, a
paper's authors (in the paper's order, or its benchmark's) and benchmarks, a
model's results across benchmarks, the benchmarks of a harness, a suite, an access level, a
tag or a category. Which lists a page has follows the node's ``rdf:type`` (``KIND_LISTS``).

A list is two queries, with the node bound as ``?node``. The first finds the rows' keys (the
benchmarks, say), which are sorted and paged here; the second reads the columns of one page's
keys only, given as a ``VALUES`` block. Measured on a store folder of 10,000 records, sorting
2,046 benchmarks by name in the engine took 86 ms of CPU (it decodes each name from the store
at each comparison) and reading their keys 10 ms; one page's columns take 2 ms. So a list is
sorted by its keys' IRIs (a benchmark's id, a paper's arXiv id: near the names' order), and a
list of thousands still costs one read of its keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import pyoxigraph as ox

from graph.namespace import BENCH
from graph.store.base import Store, Term, term_order
from graph.store.result import Row
from web.params import MAX_PAGE, whole_number

PAGE_SIZE = 50
"""Rows a page of a list shows."""

Shape = Literal["term", "iris", "text", "graph"]
Cell = tuple[Term, ...] | str
"""What a list shows in one cell: terms (each a label that links), or plain text."""


@dataclass(frozen=True)
class Column:
    """A column of a list: its heading and the query variable it shows."""

    title: str
    variable: str
    shape: Shape = "term"
    """``term``: the value as a term; ``iris``: a space-separated list of IRIs (a
    ``GROUP_CONCAT``), each a term; ``text``: the value's text alone (a count, a score);
    ``graph``: the graph (record) that states a row."""


@dataclass(frozen=True)
class ListQuery:
    """A list on a node's page."""

    key: str
    """The section's anchor; its page is the request parameter ``{key}_page``."""
    title: str
    columns: tuple[Column, ...]
    keys: str
    """Finds every row: its first variable is the row's key, ``?node`` is bound."""
    details: str
    """Reads the columns of one page of rows: ``?key`` is bound to each row's key (the first
    variable of ``keys``) in turn, ``?node`` to the node."""
    empty: str
    order: tuple[str, ...] = ()
    """The variables of ``keys`` that rows sort by, ``-n`` for a count, largest first
    (default: the key)."""


@dataclass(frozen=True)
class Section:
    """One page of a list, ready for a template."""

    key: str
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    total: int
    page: int
    pages: int
    empty: str
    truncated: bool = False
    """The keys were cut at the row limit: the list has more."""


def _benchmarks(key: str, title: str, pattern: str, empty: str,
                task: bool = False) -> ListQuery:
    """The benchmarks ``pattern`` links to ``?node`` (as ``?b``), with their access levels."""
    columns = (Column("Benchmark", "key"),
               *((Column("Task", "tasks", "text"),) if task else ()),
               Column("Access level", "levels", "iris"))
    tasks = f"OPTIONAL {{ {pattern} ?task bench:taskName ?t }}" if task else ""
    return ListQuery(
        key, title, columns,
        keys=f"SELECT DISTINCT ?b WHERE {{ {pattern} }}",
        details=f"""SELECT ?key (GROUP_CONCAT(DISTINCT STR(?a); separator=" ") AS ?levels)
                    (GROUP_CONCAT(DISTINCT STR(?t); separator=", ") AS ?tasks)
                    WHERE {{ BIND(?key AS ?b) {tasks}
                             OPTIONAL {{ ?b bench:accessLevel ?a FILTER(isIRI(?a)) }} }}
                    GROUP BY ?key""",
        empty=empty,
    )


def _papers(pattern: str) -> ListQuery:
    """The papers of the benchmarks ``pattern`` finds, with how many of them cite each."""
    return ListQuery(
        "papers", "Papers", (Column("Paper", "key"), Column("Year", "year", "text"),
                             Column("Benchmarks", "n", "text")),
        keys=f"SELECT ?paper (COUNT(DISTINCT ?b) AS ?n) WHERE {{ {pattern} ?b bench:paper ?paper }}"
             " GROUP BY ?paper",
        details="""SELECT ?key (MIN(STR(?y)) AS ?year)
                    WHERE { OPTIONAL { ?key dcterms:issued ?y } } GROUP BY ?key""",
        empty="No paper is recorded for these benchmarks.",
    )


_PUBLISHED = "?b bench:publisher ?node ."
_AUTHORED = ("{ ?b dcterms:creator ?node ; a bench:Benchmark } "
             "UNION { ?b bench:paper/dcterms:creator ?node }")
"""A person's benchmarks: those that credit them, and those citing a paper they wrote."""

LIST_QUERIES: dict[str, ListQuery] = {
    "org-benchmarks": _benchmarks("benchmarks", "Benchmarks it publishes", _PUBLISHED,
                                  "No benchmark names it as a publisher."),
    "org-papers": _papers(_PUBLISHED),
    "person-benchmarks": _benchmarks("benchmarks", "Benchmarks", _AUTHORED,
                                     "No benchmark credits this person."),
    "person-papers": ListQuery(
        "papers", "Papers", (Column("Paper", "key"), Column("Year", "year", "text"),
                             Column("Benchmarks", "n", "text")),
        keys="""SELECT ?paper (COUNT(DISTINCT ?b) AS ?n)
                WHERE { { ?paper dcterms:creator ?node ; a bench:Paper }
                        UNION { ?c dcterms:creator ?node ; bench:paper ?paper }
                        OPTIONAL { ?b bench:paper ?paper } }
                GROUP BY ?paper""",
        details="""SELECT ?key (MIN(STR(?y)) AS ?year)
                    WHERE { OPTIONAL { ?key dcterms:issued ?y } } GROUP BY ?key""",
        empty="No paper is recorded for this person.",
    ),
    "coauthors": ListQuery(
        "coauthors", "Co-authors",
        (Column("Person", "key"), Column("Shared papers and benchmarks", "n", "text")),
        keys="""SELECT ?other (COUNT(DISTINCT ?work) AS ?n)
                WHERE { ?work dcterms:creator ?node , ?other . FILTER(?other != ?node) }
                GROUP BY ?other""",
        details="SELECT ?key WHERE { }",
        empty="No co-author is recorded.",
        order=("-n", "other"),
    ),
    "paper-authors": ListQuery(
        "authors", "Authors", (Column("Author", "key"), Column("Position", "first", "text")),
        keys="""SELECT ?person (MIN(?pos) AS ?first)
                WHERE { { ?node bench:authorCredit ?credit }
                        UNION { ?b bench:paper ?node ; bench:authorCredit ?credit }
                        ?credit bench:agent ?person . OPTIONAL { ?credit bench:position ?pos } }
                GROUP BY ?person""",
        details="SELECT ?key WHERE { }",
        empty="The records name no authors for it.",
        order=("first", "person"),
    ),
    "paper-benchmarks": _benchmarks("benchmarks", "Benchmarks that cite it",
                                    "?b bench:paper ?node .", "No benchmark cites it."),
    "model-results": ListQuery(
        "results", "Results",
        (Column("Benchmark", "b"), Column("Score", "score", "text"),
         Column("Unit", "unit", "text"), Column("Source", "src"), Column("As of", "asof", "text"),
         Column("Record", "g", "graph")),
        keys="SELECT ?r ?b WHERE { ?r bench:model ?node . ?b bench:result ?r }",
        details="""SELECT ?key ?score ?unit ?src ?asof ?g
                    WHERE { GRAPH ?g { ?key bench:model ?node .
                                     OPTIONAL { ?key bench:score ?score }
                                     OPTIONAL { ?key bench:unit ?unit }
                                     OPTIONAL { ?key schema:url ?src }
                                     OPTIONAL { ?key bench:asOf ?asof } } }""",
        empty="No result is recorded for this model.",
        order=("b", "r"),
    ),
    "harness-benchmarks": _benchmarks(
        "benchmarks", "Benchmarks in this harness",
        "?b bench:harnessTask ?task . ?task bench:harness ?node .",
        "No benchmark has a task in this harness.", task=True),
    "suite-benchmarks": _benchmarks("benchmarks", "Benchmarks in the suite",
                                    "?b bench:inSuite ?node .", "No benchmark is in the suite."),
    "access-benchmarks": _benchmarks("benchmarks", "Benchmarks at this access level",
                                     "?b bench:accessLevel ?node .",
                                     "No benchmark has this access level."),
    "tag-benchmarks": _benchmarks("benchmarks", "Benchmarks with this tag", "?b bench:tag ?node .",
                                  "No benchmark has this tag."),
    "category-benchmarks": _benchmarks(
        "benchmarks", "Benchmarks in this category",
        "?b bench:category|bench:subcategory ?node .", "No benchmark is filed here."),
}

KIND_LISTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (str(BENCH.Organization), ("org-benchmarks", "org-papers")),
    (str(BENCH.Person), ("person-benchmarks", "person-papers", "coauthors")),
    (str(BENCH.Paper), ("paper-authors", "paper-benchmarks")),
    (str(BENCH.Model), ("model-results",)),
    (str(BENCH.Harness), ("harness-benchmarks",)),
    (str(BENCH.Suite), ("suite-benchmarks",)),
    (str(BENCH.AccessLevel), ("access-benchmarks",)),
    (str(BENCH.Tag), ("tag-benchmarks",)),
    (str(BENCH.Category), ("category-benchmarks",)),
)
"""The lists of each kind of node, by class; a node of several kinds takes the first."""


def lists_for(types: set[str]) -> tuple[ListQuery, ...]:
    """The lists of a node with these ``rdf:type`` IRIs (none for a kind without lists)."""
    for kind, names in KIND_LISTS:
        if kind in types:
            return tuple(LIST_QUERIES[name] for name in names)
    return ()


def run_list(store: Store, spec: ListQuery, node: ox.NamedNode, page: int) -> Section:
    """Page ``page`` (from 1) of ``spec`` for ``node``."""
    found = store.query(spec.keys, bindings={"node": node})
    index = {name: at for at, name in enumerate(found.variables)}
    order = spec.order or (found.variables[0],)
    rows = sorted((row for row in found.rows if row[0] is not None),
                  key=lambda row: tuple(_sort_key(row, index, name) for name in order))
    pages = max(1, -(-len(rows) // PAGE_SIZE))
    page = min(page, pages)
    shown = rows[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
    details: dict[Term | None, dict[str, Term | None]] = {}
    if shown:
        keys = tuple(row[0] for row in shown if isinstance(row[0], (ox.NamedNode, ox.Literal)))
        result = store.query(spec.details, bindings={"node": node, "key": keys})
        for row in result.rows:
            details.setdefault(row[0], dict(zip(result.variables, row, strict=True)))
    cells = []
    for row in shown:
        values = {**dict(zip(found.variables, row, strict=True)), **details.get(row[0], {}),
                  "key": row[0]}
        cells.append(tuple(_cell(values.get(column.variable), column.shape)
                           for column in spec.columns))
    return Section(spec.key, spec.title, spec.columns, tuple(cells), len(rows), page, pages,
                   spec.empty, found.truncated)


def _sort_key(row: Row, index: Mapping[str, int], name: str) -> tuple[float, str, str]:
    """A row's place by the variable ``name`` (``-name``: a number, largest first)."""
    term = row[index[name.lstrip("-")]]
    if name.startswith("-"):
        return -float(term.value) if term is not None else 0.0, "", ""
    if term is None:
        return 3.0, "", ""
    rank, text, extra = term_order(term)
    if isinstance(term, ox.Literal) and extra.endswith("#integer"):
        return float(rank), f"{int(text):020d}", extra
    return float(rank), text, extra


def _cell(term: Term | None, shape: Shape) -> Cell:
    if term is None:
        return ()
    if shape == "text":
        return term.value
    if shape == "iris":
        return tuple(ox.NamedNode(iri) for iri in term.value.split())
    return (term,)


def section_iris(sections: tuple[Section, ...]) -> list[str]:
    """Every IRI the sections show: what their page asks labels for."""
    return [term.value for section in sections for row in section.rows for cell in row
            if not isinstance(cell, str) for term in cell if isinstance(term, ox.NamedNode)]


def page_arg(args: Mapping[str, str], name: str) -> int:
    """The page number a request's parameter ``name`` asks for (1 when it is absent);
    BenchgraphError (a 400 naming it) for anything but a whole number from 1 to
    ``web.params.MAX_PAGE``. A page past a list's last shows its last."""
    return whole_number(name, MAX_PAGE, args=args)


__all__ = ["KIND_LISTS", "LIST_QUERIES", "PAGE_SIZE", "Column", "ListQuery", "Section",
           "lists_for", "page_arg", "run_list", "section_iris"]
