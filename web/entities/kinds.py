"""What each kind of node's page lists beyond its statements: an organisation's benchmarks and
papers, a person's papers (those they wrote, and those of the benchmarks that credit them),
benchmarks (those that credit them, and those citing a paper they wrote) and co-authors, a
paper's authors (in the paper's order, or its benchmark's) and benchmarks, a model's maker,
family, Hugging Face id and names (a short list of facts) and its results across benchmarks
(with a chart, ``web.results_chart``: who ran each, when, and where it was read), the
benchmarks of a harness, a suite, an access level, a tag or a category. Which lists a page
has follows the node's ``rdf:type`` (``KIND_LISTS``).

A list is two queries, with the node bound as ``?node``. The first finds the rows' keys (the
benchmarks, say), which are sorted and paged here; the second reads the columns of one page's
keys only, given as a ``VALUES`` block. Sorting thousands of benchmarks by name in the engine
took many times longer than reading their keys (it decodes each name from the store at each
comparison: perf/decisions/sort-answers-in-python.md). So a list is sorted by its keys' IRIs
(a benchmark's id, a paper's arXiv id: near the names' order), and a list of thousands still
costs one read of its keys.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

import pyoxigraph as ox

from graph.namespace import BENCH
from graph.sparql.result import Row
from graph.store.base import Store, Term, term_order
from web.benchmark.results import NOT_STATED
from web.params import MAX_PAGE, whole_number
from web.results_chart import ChartLinks, model_chart

PAGE_SIZE = 50
"""Rows a page of a list shows."""

Shape = Literal["term", "iris", "text", "graph"]
PageLayout = Literal["table", "facts"]
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
    missing: str = ""
    """What an empty cell says (``not stated``: the source does not say)."""
    joined: bool = False
    """Shown in the cell of the column before it, with no heading of its own (a result's file
    and record beside the package it was read from)."""


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
    layout: PageLayout = "table"
    """``table``; ``facts``: a short list of facts, the first column naming each (a model's
    maker, family and names), unpaged."""
    chart: Callable[[ox.NamedNode], ChartLinks] | None = None
    """The chart of the list's rows (a model's results), shown above them when there are
    any."""
    fold: bool = False
    """Say once, above the table, what every row of the page has alike (``Section.shared``)."""


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
    layout: PageLayout = "table"
    chart: ChartLinks | None = None
    fold: bool = False

    @property
    def facts(self) -> list[tuple[str, list[Cell]]]:
        """A ``facts`` list's rows: each label (the first column) with its values, in order."""
        out: list[tuple[str, list[Cell]]] = []
        for label, *values in self.rows:
            name = label if isinstance(label, str) else ""
            if not out or out[-1][0] != name:
                out.append((name, []))
            out[-1][1].extend(values)
        return out

    @property
    def groups(self) -> tuple[tuple[Column, tuple[int, ...]], ...]:
        """The table's columns as its cells show them: each column with a heading, and the
        positions of the values its cell holds (its own, then those joined to it)."""
        out: list[tuple[Column, tuple[int, ...]]] = []
        for at, column in enumerate(self.columns):
            if column.joined and out:
                out[-1] = (out[-1][0], (*out[-1][1], at))
            else:
                out.append((column, (at,)))
        return tuple(out)

    @property
    def shared(self) -> tuple[tuple[Column, tuple[int, ...]], ...]:
        """The groups whose cells are alike in every row of a ``fold`` list's page of several
        rows: the page says them once, above the table (a harness's results have one unit,
        one runner, no date)."""
        if not self.fold or len(self.rows) < 2:
            return ()
        return tuple((column, places) for column, places in self.groups[1:]
                     if all(row[at] == self.rows[0][at] for row in self.rows for at in places))

    @property
    def said_once(self) -> tuple[tuple[Column, tuple[int, ...]], ...]:
        """The shared groups that say something (a column empty in every row says nothing,
        unless it says what an empty cell means)."""
        first = self.rows[0] if self.rows else ()
        return tuple((column, places) for column, places in self.shared
                     if column.missing or any(first[at] for at in places))

    @property
    def shown(self) -> tuple[tuple[Column, tuple[int, ...]], ...]:
        """The groups the table shows: all but the shared."""
        shared = self.shared
        return tuple(group for group in self.groups if group not in shared)


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
    "model-facts": ListQuery(
        "model", "About the model", (Column("", "what", "text"), Column("", "key")),
        keys="""SELECT DISTINCT ?value ?what ?at WHERE {
                  { ?node bench:madeBy ?value BIND("Made by" AS ?what) BIND(1 AS ?at) }
                  UNION { ?node bench:snapshotOf ?value
                          BIND("A dated snapshot of" AS ?what) BIND(2 AS ?at) }
                  UNION { ?value bench:snapshotOf ?node
                          BIND("Its dated snapshots" AS ?what) BIND(3 AS ?at) }
                  UNION { ?node bench:snapshotOf ?family . ?value bench:snapshotOf ?family
                          FILTER (?value != ?node)
                          BIND("Other snapshots of its family" AS ?what) BIND(4 AS ?at) }
                  UNION { ?node bench:hubId ?id
                          BIND(IRI(CONCAT("https://huggingface.co/", STR(?id))) AS ?value)
                          BIND("On Hugging Face" AS ?what) BIND(5 AS ?at) }
                  UNION { ?node dcterms:issued ?value BIND("Released" AS ?what) BIND(6 AS ?at) }
                  UNION { ?node bench:parameterCount ?value
                          BIND("Parameters" AS ?what) BIND(7 AS ?at) }
                  UNION { ?node bench:modelAccess ?value BIND("Access" AS ?what) BIND(8 AS ?at) }
                  UNION { { ?node rdfs:label ?value } UNION { ?node skos:altLabel ?value }
                          BIND("Names in its sources" AS ?what) BIND(9 AS ?at) }
                }""",
        details="SELECT ?key WHERE { }",
        empty="No record says who made it, what it is a snapshot of, or what else it is called.",
        order=("at", "value"),
        layout="facts",
    ),
    "model-results": ListQuery(
        "results", "Results",
        (Column("Benchmark", "b"), Column("Metric · subset", "part", "text"),
         Column("Settings", "settings", "text", missing=NOT_STATED),
         Column("Score", "score", "text"), Column("Unit", "unit", "text", missing=NOT_STATED),
         Column("± s.e.", "stderr", "text"),
         Column("Ran by", "role", missing=NOT_STATED),
         Column("Date", "date", "text", missing=NOT_STATED),
         Column("Source", "origin"), Column("File", "file", "text", joined=True),
         Column("Record", "g", "graph", joined=True)),
        keys="SELECT ?r ?b WHERE { ?r bench:model ?node . ?b bench:result ?r }",
        details="""SELECT ?key ?part ?settings ?score ?unit ?stderr ?role ?date ?file ?origin ?g
                    WHERE { GRAPH ?g { ?key bench:model ?node .
                                     OPTIONAL { ?key bench:score ?score }
                                     OPTIONAL { ?key bench:metricName ?metric }
                                     OPTIONAL { ?key bench:subset ?subset }
                                     OPTIONAL { ?key bench:settingsKey ?settings }
                                     OPTIONAL { ?key bench:unit ?unit }
                                     OPTIONAL { ?key bench:standardError ?stderr }
                                     OPTIONAL { ?key bench:ranBy ?role }
                                     OPTIONAL { ?key dcterms:date ?date }
                                     OPTIONAL { ?key bench:statedIn ?file } }
                            ?g a bench:Record .
                            OPTIONAL { ?g prov:wasDerivedFrom ?origin }
                            BIND (CONCAT(COALESCE(?metric, ""),
                                         IF(BOUND(?metric) && BOUND(?subset), " · ", ""),
                                         COALESCE(?subset, "")) AS ?part) }""",
        empty="No result is recorded for this model.",
        order=("b", "r"),
        chart=lambda node: model_chart(node.value.rsplit("/model/", 1)[-1]),
        fold=True,
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
    (str(BENCH.Model), ("model-facts", "model-results")),
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
    """Page ``page`` (from 1) of ``spec`` for ``node`` (a ``facts`` list whole)."""
    found = store.query(spec.keys, bindings={"node": node})
    index = {name: at for at, name in enumerate(found.variables)}
    order = spec.order or (found.variables[0],)
    rows = sorted((row for row in found.rows if row[0] is not None),
                  key=lambda row: tuple(_sort_key(row, index, name) for name in order))
    size = (len(rows) or 1) if spec.layout == "facts" else PAGE_SIZE
    pages = max(1, -(-len(rows) // size))
    page = min(page, pages)
    shown = rows[(page - 1) * size: page * size]
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
    chart = spec.chart(node) if spec.chart is not None and rows else None
    return Section(spec.key, spec.title, spec.columns, tuple(cells), len(rows), page, pages,
                   spec.empty, found.truncated, spec.layout, chart, spec.fold)


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
