"""The one format registry: every format benchgraph writes, each once, looked up by any key.

Each ``Format`` has its name, other names, file extensions, media types, what it can hold and
its writer. ``benchgraph build --format``, ``benchgraph query --format``, the web app's content
negotiation and its dumps all read this table, so ``ttl`` and ``turtle`` are one format with
one writer wherever they are asked for.

What a format holds (``Content``):

- ``DATASET``: named graphs kept apart (TriG, N-Quads, JSON-LD); one graph too;
- ``GRAPH``: one graph (Turtle, N-Triples, RDF/XML): a dataset written in it is the union
  of its named graphs;
- ``RESULTS``: the answer of a SELECT or ASK query (a table, CSV, TSV, the W3C JSON and XML
  result formats).

A graph format is written from pyoxigraph quads grouped by graph and subject
(``graph.export.writers``); a results format from a ``QueryResult``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from graph.errors import ErrorKind
from graph.export.writers import (
    RdfWriter,
    write_jsonld,
    write_nquads,
    write_ntriples,
    write_rdfxml,
    write_trig,
    write_turtle,
)
from graph.sparql import results
from graph.sparql.results import FormatError, TableLayout

if TYPE_CHECKING:
    from graph.sparql.result import QueryResult

ResultsWriter = Callable[["QueryResult", TableLayout], str]
"""Writes a SELECT or ASK result; only the table reads the layout."""


class Content(Enum):
    """What a format can hold."""

    DATASET = "dataset"
    GRAPH = "graph"
    RESULTS = "results"


@dataclass(frozen=True)
class Format:
    """One format: how it is named and recognised, what it holds, and how it is written."""

    name: str
    """The canonical name, as ``--format`` takes it (``turtle``)."""
    aliases: tuple[str, ...]
    """Other names accepted for it (``ttl``)."""
    media_types: tuple[str, ...]
    """Media types, the preferred (registered) one first."""
    extensions: tuple[str, ...]
    """File extensions with their dot, the preferred one first."""
    content: Content
    rdf_writer: RdfWriter | None = None
    """The writer of a graph or dataset format."""
    results_writer: ResultsWriter | None = None
    """The writer of a results format."""
    rdflib_name: str | None = None
    """rdflib's name for its parser of this format (``Graph.parse``, ``Result.parse``)."""
    label: str = ""
    """Its written name, for people (``Turtle``, ``SPARQL JSON results``)."""
    iri: str | None = None
    """The W3C's IRI for the format (``http://www.w3.org/ns/formats/Turtle``), which a SPARQL
    service description names it by; None for one the W3C lists none for (the table)."""

    def __post_init__(self) -> None:
        if (self.rdf_writer is None) != (self.content is Content.RESULTS) or (
            self.results_writer is None
        ) == (self.content is Content.RESULTS):
            raise AssertionError(f"format {self.name}: one writer, for what it holds")

    @property
    def media_type(self) -> str:
        """The preferred media type."""
        return self.media_types[0]

    @property
    def content_type(self) -> str:
        """The ``Content-Type`` to serve it with: a text format says its charset (UTF-8)."""
        text = self.media_type.startswith("text/")
        return f"{self.media_type}; charset=utf-8" if text else self.media_type

    @property
    def extension(self) -> str:
        """The preferred file extension, with its dot."""
        return self.extensions[0]

    @property
    def keeps_graphs(self) -> bool:
        """True when named graphs stay apart; False when a dataset is written as its union."""
        return self.content is Content.DATASET

    @property
    def holds_graph(self) -> bool:
        """True for every RDF format: a graph (a CONSTRUCT result, a dump) can be written in it."""
        return self.content is not Content.RESULTS

    def fits(self, form: str) -> bool:
        """Whether the result of a query of this form (``SELECT``, ``CONSTRUCT``...) fits."""
        return self.holds_graph == (form in GRAPH_FORMS)

    def __str__(self) -> str:
        return self.name


GRAPH_FORMS = ("CONSTRUCT", "DESCRIBE")
_W3C = "http://www.w3.org/ns/formats/"
"""The query forms whose result is a graph; SELECT and ASK give results."""


def _plain(writer: Callable[[QueryResult], str]) -> ResultsWriter:
    """A W3C results writer, which takes no layout: programs get every value in full."""
    return lambda result, layout: writer(result)


TURTLE = Format("turtle", ("ttl",), ("text/turtle", "application/x-turtle"), (".ttl",),
                Content.GRAPH, rdf_writer=write_turtle, rdflib_name="turtle",
                iri=_W3C + "Turtle", label="Turtle")
NTRIPLES = Format("ntriples", ("nt", "n-triples"), ("application/n-triples",), (".nt",),
                  Content.GRAPH, rdf_writer=write_ntriples, rdflib_name="nt",
                  iri=_W3C + "N-Triples", label="N-Triples")
RDFXML = Format("rdfxml", ("rdf-xml", "rdf/xml"), ("application/rdf+xml",),
                (".rdf", ".owl"), Content.GRAPH, rdf_writer=write_rdfxml, rdflib_name="xml",
                iri=_W3C + "RDF_XML", label="RDF/XML")
TRIG = Format("trig", (), ("application/trig", "application/x-trig"), (".trig",),
              Content.DATASET, rdf_writer=write_trig, rdflib_name="trig", iri=_W3C + "TriG",
              label="TriG")
NQUADS = Format("nquads", ("nq", "n-quads"), ("application/n-quads", "text/x-nquads"), (".nq",),
                Content.DATASET, rdf_writer=write_nquads, rdflib_name="nquads",
                iri=_W3C + "N-Quads", label="N-Quads")
JSONLD = Format("jsonld", ("json-ld",), ("application/ld+json",), (".jsonld", ".json"),
                Content.DATASET, rdf_writer=write_jsonld, rdflib_name="json-ld",
                iri=_W3C + "JSON-LD", label="JSON-LD")
TABLE = Format("table", ("text",), ("text/plain",), (".txt",), Content.RESULTS,
               results_writer=results.to_table, label="Text table")
CSV = Format("csv", (), ("text/csv",), (".csv",), Content.RESULTS,
             results_writer=_plain(results.to_csv), rdflib_name="csv",
             iri=_W3C + "SPARQL_Results_CSV", label="CSV")
TSV = Format("tsv", (), ("text/tab-separated-values",), (".tsv",), Content.RESULTS,
             results_writer=_plain(results.to_tsv), rdflib_name="tsv",
             iri=_W3C + "SPARQL_Results_TSV", label="TSV")
SPARQL_JSON = Format("json", ("srj",), ("application/sparql-results+json",), (".srj",),
                     Content.RESULTS, results_writer=_plain(results.to_json), rdflib_name="json",
                     iri=_W3C + "SPARQL_Results_JSON", label="SPARQL JSON results")
SPARQL_XML = Format("xml", ("srx",), ("application/sparql-results+xml",), (".srx",),
                    Content.RESULTS, results_writer=_plain(results.to_xml), rdflib_name="xml",
                    iri=_W3C + "SPARQL_Results_XML", label="SPARQL XML results")

FORMATS: tuple[Format, ...] = (TURTLE, NTRIPLES, RDFXML, TRIG, NQUADS, JSONLD,
                               TABLE, CSV, TSV, SPARQL_JSON, SPARQL_XML)
"""Every format; within each kind, the preferred first (the order negotiation breaks ties by)."""
RDF_FORMATS = tuple(fmt for fmt in FORMATS if fmt.holds_graph)
"""The formats a graph or a dataset can be written in, Turtle (the default) first."""
RESULT_FORMATS = tuple(fmt for fmt in FORMATS if not fmt.holds_graph)
"""The formats of SELECT and ASK results, the table (the default) first."""
DEFAULT_FORMAT = TURTLE


def _indexes() -> tuple[dict[str, Format], dict[str, Format], dict[str, Format]]:
    by_name: dict[str, Format] = {}
    by_extension: dict[str, Format] = {}
    by_media_type: dict[str, Format] = {}
    for fmt in FORMATS:
        for index, keys in ((by_name, (fmt.name, *fmt.aliases)), (by_extension, fmt.extensions),
                            (by_media_type, fmt.media_types)):
            for key in keys:
                if index.setdefault(key, fmt) is not fmt:
                    raise AssertionError(f"{key!r} names two formats")  # a mistake above
    return by_name, by_extension, by_media_type


_BY_NAME, _BY_EXTENSION, _BY_MEDIA_TYPE = _indexes()


def names(formats: Iterable[Format] = FORMATS) -> str:
    """The formats' names as a message lists them: ``turtle, ntriples, ...``."""
    return ", ".join(fmt.name for fmt in formats)


def format_named(name: str, choices: Sequence[Format] = FORMATS) -> Format:
    """The format called ``name`` or one of its aliases (any case); FormatError, listing the
    ``choices`` the caller would take, if none is."""
    found = _BY_NAME.get(name.strip().lower())
    if found is None:
        raise FormatError(f"unknown format {name!r}; choose one of {names(choices)}",
                          ErrorKind.USAGE)
    return found


def format_for_path(path: Path) -> Format:
    """The format a file's extension names (any case); FormatError if it names none."""
    found = _BY_EXTENSION.get(path.suffix.lower())
    if found is None:
        extensions = ", ".join(ext for fmt in RDF_FORMATS for ext in fmt.extensions)
        what = f"extension {path.suffix!r}" if path.suffix else "no extension"
        raise FormatError(f"cannot tell the format of {path} from its {what}: give --format "
                          f"({names(RDF_FORMATS)}) or use one of {extensions}", ErrorKind.USAGE)
    return found


def format_for_media_type(media_type: str) -> Format | None:
    """The format of a media type (parameters such as ``; charset=utf-8`` and case ignored),
    or None when benchgraph writes no format of that type."""
    return _BY_MEDIA_TYPE.get(media_type.split(";", 1)[0].strip().lower())


def format_for(name: str | None, path: Path | None = None) -> Format:
    """The format to write a graph or dataset in: by ``name`` when given (it wins over the
    extension), else by the extension of ``path``, else Turtle. FormatError for an unknown
    one, or one that holds query results, not graphs."""
    fmt = format_named(name, RDF_FORMATS) if name is not None else (
        format_for_path(path) if path is not None else DEFAULT_FORMAT)
    if not fmt.holds_graph:
        raise FormatError(f"{fmt.name} is a format of SELECT and ASK results, not of a graph; "
                          f"choose one of {names(RDF_FORMATS)}", ErrorKind.USAGE)
    return fmt


_WITH_ARTICLE = {"SELECT": "a SELECT", "ASK": "an ASK", "CONSTRUCT": "a CONSTRUCT",
                 "DESCRIBE": "a DESCRIBE"}


def format_for_query(name: str | None, form: str) -> Format:
    """The format to write the result of a query of this form in: ``name``, else the table
    (SELECT, ASK) or Turtle (CONSTRUCT, DESCRIBE). FormatError when it does not fit."""
    if name is None:
        return TURTLE if form in GRAPH_FORMS else TABLE
    fmt = format_named(name)
    if not fmt.fits(form):
        raise FormatError(f"--format {name} does not fit {_WITH_ARTICLE.get(form, form)} query "
                          f"(use {names(formats_for(form))})")
    return fmt


def formats_for(form: str) -> tuple[Format, ...]:
    """The formats the result of a query of this form can be written in, the default first."""
    return RDF_FORMATS if form in GRAPH_FORMS else RESULT_FORMATS


def media_types(formats: Iterable[Format] = RDF_FORMATS) -> tuple[str, ...]:
    """Every media type of these formats (the RDF ones unless told), each format's preferred
    one first."""
    return tuple(media_type for fmt in formats for media_type in fmt.media_types)


__all__ = [
    "CSV",
    "DEFAULT_FORMAT",
    "FORMATS",
    "GRAPH_FORMS",
    "JSONLD",
    "NQUADS",
    "NTRIPLES",
    "RDFXML",
    "RDF_FORMATS",
    "RESULT_FORMATS",
    "SPARQL_JSON",
    "SPARQL_XML",
    "TABLE",
    "TRIG",
    "TSV",
    "TURTLE",
    "Content",
    "Format",
    "FormatError",
    "RdfWriter",
    "ResultsWriter",
    "format_for",
    "format_for_media_type",
    "format_for_path",
    "format_for_query",
    "format_named",
    "formats_for",
    "media_types",
    "names",
]
