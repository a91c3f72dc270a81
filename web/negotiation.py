"""The forms an answer takes (the media-type and format tables) and which of them a request's
``Accept`` prefers.

Werkzeug reads the header (``request.accept_mimetypes``, a ``MIMEAccept``): each media range
with its weight, the most specific range deciding a type's weight (``text/turtle;q=0`` beats
``*/*``), and of two types the client weighs alike, the one it names more specifically, then
the one offered first. Each form is matched by all its media types (``text/turtle`` and
``application/x-turtle``; plain ``application/json`` for JSON-LD, as a JSON client reads it)
and by the ``Content-Type`` it is served with (``text/turtle; charset=utf-8``), but a form
whose own type the client refuses (``q=0``) is not brought back by another of its names
through a wildcard: it would be served as the type refused (RFC 9110, 12.5.1).

Pages choose between their HTML and their data in ``web.data_view``. ``/sparql`` follows the
SPARQL 1.1 Protocol instead (``choose``): SELECT and ASK answers in the four W3C result
formats, graphs in Turtle, N-Triples, RDF/XML and JSON-LD, by ``format`` or ``Accept``, and
the first of them for a client that names no format it can have (SPARQL clients send their
own ``Accept``). Every answer is written by the registry's writer
(``graph.export.query_results``): byte for byte what ``benchgraph query --format`` writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pyoxigraph as ox
from flask import request
from werkzeug.datastructures import MIMEAccept

from graph.errors import BenchgraphError, ErrorKind
from graph.export.formats import (
    CSV,
    JSONLD,
    NTRIPLES,
    RDFXML,
    SPARQL_JSON,
    SPARQL_XML,
    TSV,
    TURTLE,
    Format,
    FormatError,
    format_for_media_type,
    format_for_path,
    format_named,
    names,
)
from graph.export.query_results import serialize_result
from graph.sparql.result import QueryResult

HTML = "text/html"
JSON_TYPE = "application/json"

RESULT_FORMATS: tuple[Format, ...] = (SPARQL_JSON, SPARQL_XML, CSV, TSV)
"""What a SELECT or ASK answer is served in, the default first."""
GRAPH_FORMATS: tuple[Format, ...] = (TURTLE, NTRIPLES, RDFXML, JSONLD)
"""What a graph is served in, the default first."""

Form = TypeVar("Form")


def formats_for(result: QueryResult) -> tuple[Format, ...]:
    """The formats that can hold ``result``."""
    return GRAPH_FORMATS if result.is_graph else RESULT_FORMATS


def content_type(fmt: Format) -> str:
    """The Content-Type header of a response in ``fmt``: UTF-8 said for every text format."""
    if fmt.media_type.startswith("text/") or fmt.media_type.endswith(("+json", "+xml")):
        return f"{fmt.media_type}; charset=utf-8"
    return fmt.content_type


@dataclass(frozen=True)
class Offer:
    """A form of data a page answers in besides its HTML."""

    suffixes: tuple[str, ...]
    """What the page's address may end in to ask for it (``json`` for ``/search.json``); the
    first is the one its links use."""
    media_types: tuple[str, ...]
    """The media types that ask for it; the first is the one it is served as."""
    format: Format | None = None
    """The registry's format that writes it; None for a page's own JSON or table."""
    aliases: tuple[str, ...] = ()
    """Other names a ``format`` parameter may give it (the registry's name and aliases)."""
    served_as: str = ""
    """Its Content-Type, where that is neither its format's nor its media type."""

    @property
    def name(self) -> str:
        """What its links call it: its first suffix."""
        return self.suffixes[0]

    @property
    def media_type(self) -> str:
        return self.media_types[0]

    @property
    def content_type(self) -> str:
        """The Content-Type it is served with."""
        if self.served_as:
            return self.served_as
        return self.media_type if self.format is None else content_type(self.format)


def offer_of(fmt: Format, *also: str) -> Offer:
    """``fmt`` as a page offers it: at each of its extensions (the preferred first), by its
    media types, then ``also``, and by its name and aliases as a ``format`` parameter."""
    return Offer(tuple(extension.removeprefix(".") for extension in fmt.extensions),
                 (*fmt.media_types, *also), fmt, (fmt.name, *fmt.aliases))


GRAPH_OFFERS: tuple[Offer, ...] = (*(offer_of(fmt) for fmt in (TURTLE, NTRIPLES, RDFXML)),
                                   offer_of(JSONLD, JSON_TYPE))
"""What a page about a graph (a node, the ontology) answers in: JSON-LD for plain JSON too."""
RESULT_OFFERS: tuple[Offer, ...] = tuple(
    Offer((fmt.name, *(ext.removeprefix(".") for ext in fmt.extensions)),
          (*fmt.media_types, *((JSON_TYPE,) if fmt is SPARQL_JSON else ())), fmt,
          (fmt.name, *fmt.aliases))
    for fmt in RESULT_FORMATS)
"""What a page of a query's rows (a named query's) answers in: at ``.json``, ``.xml``,
``.csv``, ``.tsv`` as its links name them, and the W3C media types; SPARQL JSON for plain
JSON too."""
JSON = Offer(("json",), (JSON_TYPE,))
"""A page's own JSON (a search's hits, the benchmark list, the validation report)."""
TABLE = Offer(("csv",), CSV.media_types, CSV)
"""A page's rows as CSV (the benchmark list)."""


def preferred(accept: MIMEAccept, forms: Iterable[tuple[Form, Sequence[str], str]]
              ) -> Form | None:
    """Of ``forms`` (each with its media types, its own first, and the Content-Type it is
    served with), the one ``accept`` prefers (see the module's docstring); None when it
    takes none of them."""
    by_type: dict[str, Form] = {}
    for form, media_types, served in forms:
        own = media_types[0]
        if accept.find(own) >= 0 and accept.quality(own) == 0:  # refused: by no other name
            continue
        for media_type in (*media_types, served):
            by_type.setdefault(media_type, form)
    best = accept.best_match(by_type)
    return None if best is None else by_type[best]


def wants_html() -> bool:
    """Whether an address that is a page and data too answers with the page: the client sent
    no ``Accept``, or one that ranks HTML at least as high as JSON (``*/*`` ties, and a tie
    is the page). A page that knows its data forms asks ``web.data_view`` instead."""
    accept = request.accept_mimetypes
    return not accept or accept.best_match([HTML, JSON_TYPE]) == HTML


def is_browser() -> bool:
    """Whether the client is a browser: its ``Accept`` ranks HTML above JSON. A browser gets
    an error as a page and a link to a query opens the editor; a program (``*/*``, a SPARQL
    client's types, no ``Accept``) gets an error as JSON and an answer as data."""
    accept = request.accept_mimetypes
    return accept.best_match([HTML, JSON_TYPE]) == HTML and accept[HTML] > accept[JSON_TYPE]


def choose(candidates: tuple[Format, ...], named: str | None = None,
           fallback_to_accept: bool = False) -> Format:
    """The format of ``candidates`` a query answer is written in: by ``named`` (a ``format``
    parameter or a suffix: a name, an extension or a media type of the registry), else by
    ``Accept``, else the first.

    A ``named`` that no candidate has is a BenchgraphError, unless ``fallback_to_accept`` and
    ``Accept`` names a candidate itself (not by a wildcard): SPARQL clients send one
    ``format`` for every kind of answer beside an ``Accept`` that fits the query
    (SPARQLWrapper's ``format=xml`` comes with ``Accept: application/rdf+xml`` for a
    CONSTRUCT), and the SPARQL Protocol negotiates by ``Accept``."""
    accept = request.accept_mimetypes
    if named:
        found = _named(named)
        if found in candidates:
            return found
        outright = MIMEAccept([(value, q) for value, q in accept if "*" not in value])
        accepted = _accepted(outright, candidates) if fallback_to_accept else None
        if accepted is not None:
            return accepted
        raise BenchgraphError(f"format {named!r} cannot hold this answer (use "
                              f"{names(candidates)})", ErrorKind.USAGE)
    return _accepted(accept, candidates) or candidates[0]


def _accepted(accept: MIMEAccept, candidates: tuple[Format, ...]) -> Format | None:
    return preferred(accept, ((fmt, fmt.media_types, content_type(fmt)) for fmt in candidates))


def _named(named: str) -> Format | None:
    try:
        return format_named(named)
    except FormatError:
        pass
    try:
        return format_for_path(Path(f"x.{named}"))
    except FormatError:
        return format_for_media_type(named)


def write(result: QueryResult, fmt: Format, base: str) -> bytes:
    """``result`` in ``fmt``."""
    return serialize_result(result, fmt, base=base)


def write_triples(triples: Iterable[ox.Triple], fmt: Format, base: str) -> bytes:
    """RDF triples in ``fmt`` (a graph that is no query's answer: a service description)."""
    return serialize_result(QueryResult.graph("CONSTRUCT", triples), fmt, base=base)


__all__ = ["GRAPH_FORMATS", "GRAPH_OFFERS", "HTML", "JSON", "JSON_TYPE", "RESULT_FORMATS",
           "RESULT_OFFERS", "TABLE", "Offer", "choose", "content_type", "formats_for",
           "is_browser", "offer_of", "preferred", "wants_html", "write",
           "write_triples"]
