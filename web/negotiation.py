"""Which format a response is written in: a ``format`` parameter, a suffix, or ``Accept``.

Every format is one of the registry's (``graph.export.formats``), looked up there by name,
extension or media type, and written by its writer (``graph.export.query_results``): a web
answer is byte for byte what ``benchgraph query --format`` writes. The web offers SELECT
and ASK answers in the four W3C result formats, and graphs (CONSTRUCT, DESCRIBE, a node's
description, the service description) in Turtle, N-Triples, RDF/XML and JSON-LD. A client
that names no format, or only ones this kind of answer cannot take, gets the first one
(JSON results, Turtle).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pyoxigraph as ox
from flask import request

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

RESULT_FORMATS: tuple[Format, ...] = (SPARQL_JSON, SPARQL_XML, CSV, TSV)
"""What a SELECT or ASK answer is served in, the default first."""
GRAPH_FORMATS: tuple[Format, ...] = (TURTLE, NTRIPLES, RDFXML, JSONLD)
"""What a graph is served in, the default first."""


def formats_for(result: QueryResult) -> tuple[Format, ...]:
    """The formats that can hold ``result``."""
    return GRAPH_FORMATS if result.is_graph else RESULT_FORMATS


def choose(candidates: tuple[Format, ...], named: str | None = None,
           fallback_to_accept: bool = False) -> Format:
    """The format of ``candidates`` the request asks for: by ``named`` (a ``format`` parameter
    or a suffix: a name, an extension or a media type of the registry), else by ``Accept``,
    else the first.

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


__all__ = ["GRAPH_FORMATS", "RESULT_FORMATS", "choose", "content_type", "formats_for", "suffix_of",
           "write", "write_triples"]
