"""Making rdflib terms at build speed.

``URIRef(...)`` checks its text and ``Literal(...)`` parses and re-normalises its lexical
form: most of a build's mapping time (perf/decisions/terms-built-directly.md). The mapping
already holds checked IRIs (a validated base plus slugs, ids and numbers) and canonical
lexical forms with their Python values, so these functions build the very same terms
directly. ``tests/test_terms.py`` holds them equal to rdflib's own construction in every
respect (equality, hash, N3 form, Python value).
"""

from typing import Any

from rdflib import Literal, URIRef


def iri(text: str) -> URIRef:
    """An IRI the mapping minted itself (never one taken from a record as is)."""
    return str.__new__(URIRef, text)


def plain(text: str) -> Literal:
    """A plain string literal, verbatim."""
    return _literal(text, None, text)


def typed(lexical: str, datatype: URIRef, value: Any) -> Literal:
    """A typed literal from its canonical lexical form and the Python value rdflib gives it
    (``None`` for a datatype rdflib does not convert, such as ``xsd:gYear``)."""
    return _literal(lexical, datatype, value)


def _literal(lexical: str, datatype: URIRef | None, value: Any) -> Literal:
    term = str.__new__(Literal, lexical)
    term._language = None
    term._datatype = datatype
    term._value = value
    # rdflib marks a converted typed value well-typed, and leaves the rest unmarked.
    term._ill_typed = False if datatype is not None and value is not None else None
    return term
