"""Which form a response takes: the HTML page, or data by a suffix, a ``format`` parameter or
``Accept``.

**Pages.** An address that is a page (an entity, a benchmark, ``/search``, ``/benchmarks``, the
ontology, the shapes, the validation report) answers with its HTML unless data is asked for:
a client that sends no ``Accept``, or ``*/*``, gets the page, as a person typing the address
into any tool expects. Data is asked for by a suffix (``/benchmark/x.ttl``), a ``format``
parameter (``?format=ttl``), or an ``Accept`` that ranks one of the page's data types above
HTML (a tie goes to the page). Each page lists what it offers besides HTML as ``Offer``s; a
registry format (``graph.export.formats``) is offered at each of its extensions and by its
names, so ``/benchmark/x.json`` is JSON-LD as the README's formats table says, and a graph
page answers ``Accept: application/json`` with JSON-LD too, JSON being what such a client
reads.
An ``Accept`` that takes neither the page nor any of its data is a 406 whose message lists
what the address gives; a page with no data at all gets the same answer from the app's error
module (``web.errors``), so every page follows the rule.

**Query answers.** ``/sparql`` follows the SPARQL 1.1 Protocol instead (``choose``): SELECT and
ASK answers in the four W3C result formats, graphs in Turtle, N-Triples, RDF/XML and JSON-LD,
by ``format`` or ``Accept``, and the first of them for a client that names no format (SPARQL
clients send their own ``Accept``). Every answer is written by the registry's writer
(``graph.export.query_results``): byte for byte what ``benchgraph query --format`` writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox
from flask import abort, request
from werkzeug.exceptions import NotAcceptable

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
    negotiate,
)
from graph.export.query_results import serialize_result
from graph.store.result import QueryResult

HTML = "text/html"
JSON_TYPE = "application/json"

RESULT_FORMATS: tuple[Format, ...] = (SPARQL_JSON, SPARQL_XML, CSV, TSV)
"""What a SELECT or ASK answer is served in, the default first."""
GRAPH_FORMATS: tuple[Format, ...] = (TURTLE, NTRIPLES, RDFXML, JSONLD)
"""What a graph is served in, the default first."""


def formats_for(result: QueryResult) -> tuple[Format, ...]:
    """The formats that can hold ``result``."""
    return GRAPH_FORMATS if result.is_graph else RESULT_FORMATS


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

    @property
    def name(self) -> str:
        """What its links call it: its first suffix."""
        return self.suffixes[0]

    @property
    def media_type(self) -> str:
        return self.media_types[0]


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


def page_or_data(offers: Sequence[Offer], suffix: str | None = None) -> Offer | None:
    """What the request asks of a page that also answers in ``offers``: None for its HTML,
    else the offer (see the module's docstring).

    ``suffix`` is the address's own (``json`` of ``/search.json``): one no offer is called is
    a 404 naming the addresses that exist. A ``format`` parameter no offer is called is a 400
    naming the ones that are; an ``Accept`` that takes neither the page nor an offer, a 406."""
    if suffix is not None:
        found = next((offer for offer in offers if suffix in offer.suffixes), None)
        if found is None:
            stem = request.path.rsplit(".", 1)[0]
            abort(404, f"there is no {request.path}; the data is at "
                       + ", ".join(f"{stem}.{offer.name}" for offer in offers))
        return found
    named = request.args.get("format")
    if named is not None:
        found = _called(offers, named)
        if found is None:
            raise BenchgraphError(f"format={named[:40]!r} is not a form of this page (use "
                                  f"{', '.join(offer.name for offer in offers)})",
                                  ErrorKind.USAGE)
        return found
    accept = request.accept_mimetypes
    if not accept:  # no Accept at all: anything will do, and a page is what the address is
        return None
    best = accept.best_match([HTML, *(t for offer in offers for t in offer.media_types)])
    if best is None:
        raise NotAcceptable(not_acceptable(offers))
    return None if best == HTML else next(o for o in offers if best in o.media_types)


def _called(offers: Sequence[Offer], name: str) -> Offer | None:
    """The offer a ``format`` parameter calls ``name``: a suffix, an alias or a media type."""
    wanted = name.strip().lower()
    return next((offer for offer in offers
                 if wanted in (*offer.suffixes, *offer.aliases, *offer.media_types)), None)


def not_acceptable(offers: Iterable[Offer] = ()) -> str:
    """The message of a 406: what the address gives, and how to ask for each."""
    forms = [f"{HTML} (the page)",
             *(f"{offer.media_type} ({', '.join(f'.{s}' for s in offer.suffixes)})"
               for offer in offers)]
    return ("the Accept header asks for nothing this address gives; it gives "
            + ", ".join(forms))


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
    if named:
        found = _named(named)
        if found in candidates:
            return found
        named_outright = _without_wildcards(request.headers.get("Accept"))
        if fallback_to_accept and named_outright is not None:
            accepted = negotiate(named_outright, candidates)
            if accepted is not None:
                return accepted
        raise BenchgraphError(f"format {named!r} cannot hold this answer (use "
                              f"{names(candidates)})", ErrorKind.USAGE)
    return negotiate(request.headers.get("Accept"), candidates) or candidates[0]


def _named(named: str) -> Format | None:
    try:
        return format_named(named)
    except FormatError:
        pass
    try:
        return format_for_path(Path(f"x.{named}"))
    except FormatError:
        return format_for_media_type(named)


def _without_wildcards(accept: str | None) -> str | None:
    if accept is None:
        return None
    ranges = [part for part in accept.split(",") if "*" not in part.split(";", 1)[0]]
    return ",".join(ranges) or None


def write(result: QueryResult, fmt: Format, base: str) -> bytes:
    """``result`` in ``fmt``."""
    return serialize_result(result, fmt, base=base)


def write_triples(triples: Iterable[ox.Triple], fmt: Format, base: str) -> bytes:
    """RDF triples in ``fmt`` (a graph that is no query's answer: a service description)."""
    return serialize_result(QueryResult.graph("CONSTRUCT", triples), fmt, base=base)


def suffix_of(fmt: Format) -> str:
    """What a URL ends in to ask for ``fmt`` (``.json``, ``.ttl``): a result format's name, a
    graph format's preferred extension."""
    return fmt.name if fmt in RESULT_FORMATS else fmt.extension.removeprefix(".")


def content_type(fmt: Format) -> str:
    """The Content-Type header of a response in ``fmt``: UTF-8 said for every text format."""
    if fmt.media_type.startswith("text/") or fmt.media_type.endswith(("+json", "+xml")):
        return f"{fmt.media_type}; charset=utf-8"
    return fmt.content_type


def link_header(alternates: Iterable[tuple[str, str]]) -> str:
    """The ``Link`` header naming each ``(media type, href)`` as an alternate of the page."""
    return ", ".join(f'<{href}>; rel="alternate"; type="{media_type}"'
                     for media_type, href in alternates)


__all__ = ["GRAPH_FORMATS", "GRAPH_OFFERS", "HTML", "JSON", "JSON_TYPE", "RESULT_FORMATS",
           "TABLE", "Offer", "choose", "content_type", "formats_for", "link_header",
           "not_acceptable", "offer_of", "page_or_data", "suffix_of", "write", "write_triples"]
