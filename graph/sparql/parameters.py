"""A named query's parameters, from the text a user typed to the RDF terms they bind.

Each value is checked against its parameter's type (DESIGN.md, "Named queries") and becomes
a pyoxigraph term, which the store binds to the query's variable (a ``VALUES`` block opening
the WHERE clause, ``graph.sparql.query_text``): the user's text is never pasted into the
query, so quotes, braces or ``#`` in a value are data. An ``id`` becomes the benchmark's IRI,
``{base}benchmark/{id}``, so ``--param benchmark=mimic_rrs`` names the node itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date

import pyoxigraph as ox

from graph.ingest.records.fields import BENCHMARK_ID
from graph.mapping.iris import Iris
from graph.namespace import BASE_PREFIX, PREFIXES
from graph.sparql.errors import ParameterError
from graph.sparql.named import NamedQuery, Parameter

BoundTerm = ox.NamedNode | ox.Literal

_XSD = "http://www.w3.org/2001/XMLSchema#"
_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_CURIE = re.compile(r"(?P<prefix>[A-Za-z][A-Za-z0-9_.-]*|):(?P<local>.*)")
_IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\]')
MAX_STRING_CHARS = 10_000
MAX_ID_CHARS = 200
"""The longest ``id`` a parameter takes: a bound on what a user types. What an id is, is
``graph.ingest.records.fields.BENCHMARK_ID``."""


def bind_parameters(
    query: NamedQuery, values: Mapping[str, str], base: str
) -> dict[str, BoundTerm]:
    """The query's parameters as RDF terms: each given value checked against its type, each
    missing one from its default. ParameterError for an unknown, missing or bad parameter."""
    for name in values:
        if query.parameter(name) is None:
            known = ", ".join(p.name for p in query.parameters) or "none"
            raise ParameterError(f"unknown parameter {name!r} for {query.name} "
                                 f"(its parameters: {known})")
    bindings: dict[str, BoundTerm] = {}
    for parameter in query.parameters:
        value = values.get(parameter.name, parameter.default)
        if value is None:
            raise ParameterError(
                f"missing parameter {parameter.name!r} for {query.name}: {parameter.description} "
                f"({_article(parameter.type)} {parameter.type})"
            )
        bindings[parameter.name] = coerce(parameter, value, base)
    return bindings


def coerce(parameter: Parameter, value: str, base: str) -> BoundTerm:
    """``value`` as the RDF term its parameter's type makes of it; ParameterError if it is not
    a value of that type."""
    def bad(reason: str) -> ParameterError:
        return ParameterError(f"parameter {parameter.name!r} ({parameter.type}): {reason}")

    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise bad("the value is not valid UTF-8 text") from None
    match parameter.type:
        case "id":
            if len(value) > MAX_ID_CHARS or not BENCHMARK_ID.fullmatch(value):
                raise bad(f"{_shown(value)} is not a benchmark id (a-z, 0-9 and _ only)")
            return ox.NamedNode(Iris(base).benchmark(value))
        case "iri":
            return _iri(value, base, bad)
        case "string":
            if len(value) > MAX_STRING_CHARS:
                raise bad(f"longer than {MAX_STRING_CHARS:,} characters")
            return ox.Literal(value)
        case "integer":
            if not _INTEGER.fullmatch(value.strip()):
                raise bad(f"{_shown(value)} is not a whole number")
            return ox.Literal(str(int(value.strip())), datatype=ox.NamedNode(_XSD + "integer"))
        case "date":
            if not _DATE.fullmatch(value.strip()):
                raise bad(f"{_shown(value)} is not a date (YYYY-MM-DD)")
            try:
                date.fromisoformat(value.strip())
            except ValueError:
                raise bad(f"{_shown(value)} is not a real date") from None
            return ox.Literal(value.strip(), datatype=ox.NamedNode(_XSD + "date"))
    raise AssertionError(f"unhandled parameter type {parameter.type}")


def _iri(value: str, base: str, make: Callable[[str], ParameterError]) -> ox.NamedNode:
    text = value.strip()
    if text.startswith("<") and text.endswith(">"):
        iri = text[1:-1]
    else:
        curie = _CURIE.fullmatch(text)
        prefixes = {**PREFIXES, BASE_PREFIX: base}
        if curie is not None and curie.group("prefix") in prefixes:
            iri = prefixes[curie.group("prefix")] + curie.group("local")
        elif "://" in text or text.startswith("urn:"):
            iri = text
        else:
            known = ", ".join(sorted(prefixes))
            raise make(f"{_shown(value)} is neither a known CURIE (prefixes: {known}) nor an "
                       "absolute IRI; write a full IRI as <...>")
    if _IRI_FORBIDDEN.search(iri):
        raise make(f"{_shown(value)} is not an IRI: it holds spaces, quotes, braces or <>")
    try:
        return ox.NamedNode(iri)
    except ValueError:
        raise make(f"{_shown(value)} is not an absolute IRI") from None


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _shown(value: str) -> str:
    return repr(value if len(value) <= 60 else value[:57] + "...")


__all__ = ["MAX_ID_CHARS", "MAX_STRING_CHARS", "BoundTerm", "bind_parameters", "coerce"]
