"""Which format a response is written in: the ``format`` parameter, a suffix, or ``Accept``.

SELECT and ASK answers are written in the W3C result formats, CONSTRUCT and DESCRIBE answers
(and the service description) in the RDF formats; pyoxigraph writes both, from the answer the
store gave. A client that names no format, or only ones this kind of answer cannot take, gets
the kind's default (JSON results, Turtle).
"""

from __future__ import annotations

from dataclasses import dataclass

import pyoxigraph as ox
from flask import request
from werkzeug.datastructures import MIMEAccept

from graph.errors import BenchgraphError, ErrorKind
from graph.namespace import PREFIXES
from graph.store.result import QueryResult


@dataclass(frozen=True)
class WebFormat:
    """A format a response can be written in."""

    name: str
    """What ``?format=`` and a suffix (``.json``) call it."""
    media_type: str
    results: ox.QueryResultsFormat | None = None
    rdf: ox.RdfFormat | None = None

    @property
    def iri(self) -> str:
        """The W3C's IRI for the format (``http://www.w3.org/ns/formats/Turtle``)."""
        fmt = self.results or self.rdf
        assert fmt is not None
        return _W3C_IRIS.get(fmt.iri, fmt.iri)


_W3C_IRIS = {"https://www.w3.org/ns/formats/data/JSON-LD": "http://www.w3.org/ns/formats/JSON-LD"}
"""Where pyoxigraph's format IRI is not the one on the W3C's list of format IRIs, which
clients match a service description's sd:resultFormat against."""


RESULT_FORMATS: tuple[WebFormat, ...] = (
    WebFormat("json", "application/sparql-results+json", results=ox.QueryResultsFormat.JSON),
    WebFormat("xml", "application/sparql-results+xml", results=ox.QueryResultsFormat.XML),
    WebFormat("csv", "text/csv", results=ox.QueryResultsFormat.CSV),
    WebFormat("tsv", "text/tab-separated-values", results=ox.QueryResultsFormat.TSV),
)
GRAPH_FORMATS: tuple[WebFormat, ...] = (
    WebFormat("ttl", "text/turtle", rdf=ox.RdfFormat.TURTLE),
    WebFormat("nt", "application/n-triples", rdf=ox.RdfFormat.N_TRIPLES),
    WebFormat("rdf", "application/rdf+xml", rdf=ox.RdfFormat.RDF_XML),
    WebFormat("jsonld", "application/ld+json", rdf=ox.RdfFormat.JSON_LD),
)
_ALIASES = {"turtle": "ttl", "ntriples": "nt", "n-triples": "nt", "rdfxml": "rdf", "rdf+xml": "rdf",
            "xml": "xml", "json-ld": "jsonld", "srj": "json", "srx": "xml"}


def choose(candidates: tuple[WebFormat, ...], named: str | None = None,
           fallback_to_accept: bool = False) -> WebFormat:
    """The format of ``candidates`` the request asks for: by ``named`` (a ``format`` parameter
    or suffix, by name or media type), else by ``Accept``, else the first.

    A ``named`` that no candidate has is a BenchgraphError, unless ``fallback_to_accept`` and
    ``Accept`` names a candidate itself (not by a wildcard): SPARQL clients send one
    ``format`` for every kind of answer beside an ``Accept`` that fits the query
    (SPARQLWrapper's ``format=xml`` comes with ``Accept: application/rdf+xml`` for a
    CONSTRUCT), and the SPARQL Protocol negotiates by ``Accept``."""
    if named:
        key = _ALIASES.get(named.lower(), named.lower())
        for fmt in candidates:
            if key in (fmt.name, fmt.media_type):
                return fmt
        accepted = _accepted(candidates, wildcards=False) if fallback_to_accept else None
        if accepted is not None:
            return accepted
        names = ", ".join(fmt.name for fmt in candidates)
        raise BenchgraphError(f"format {named!r} cannot hold this answer (use {names})",
                              ErrorKind.USAGE)
    return _accepted(candidates, wildcards=True) or candidates[0]


def _accepted(candidates: tuple[WebFormat, ...], wildcards: bool) -> WebFormat | None:
    """The candidate ``Accept`` prefers, if any; with ``wildcards`` false, only one it names."""
    accept = request.accept_mimetypes
    if not wildcards:
        accept = MIMEAccept([(value, quality) for value, quality in accept if "*" not in value])
    best = accept.best_match([fmt.media_type for fmt in candidates])
    return next((fmt for fmt in candidates if fmt.media_type == best), None)


def formats_for(result: QueryResult) -> tuple[WebFormat, ...]:
    """The formats that can hold ``result``."""
    return GRAPH_FORMATS if result.is_graph else RESULT_FORMATS


def write(result: QueryResult, fmt: WebFormat, base: str) -> bytes:
    """``result`` in ``fmt``."""
    if fmt.results is not None:
        body = result.solutions().serialize(format=fmt.results)
    else:
        assert fmt.rdf is not None
        body = write_triples(result.triples, fmt, base)
    assert body is not None
    return body


def write_triples(triples: tuple[ox.Triple, ...] | list[ox.Triple], fmt: WebFormat,
                  base: str) -> bytes:
    """RDF triples in ``fmt``, with the project's prefixes and ``base:`` for the data."""
    body = ox.serialize(triples, format=fmt.rdf, prefixes={**PREFIXES, "base": base})
    assert body is not None
    return body


def content_type(fmt: WebFormat) -> str:
    """The Content-Type header of a response in ``fmt``."""
    text = fmt.media_type.startswith("text/") or fmt.name in ("json", "jsonld", "xml", "rdf")
    return f"{fmt.media_type}; charset=utf-8" if text else fmt.media_type


__all__ = ["GRAPH_FORMATS", "RESULT_FORMATS", "WebFormat", "choose", "content_type",
           "formats_for", "write", "write_triples"]
