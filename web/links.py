"""How a term of the graph is shown on a page: a label that links where it can."""

from __future__ import annotations

from dataclasses import dataclass

import pyoxigraph as ox
from flask import url_for

from graph.namespace import curie


@dataclass(frozen=True)
class Cell:
    """A term as a page shows it: its text, where it links (if anywhere), and its kind."""

    text: str
    href: str | None
    kind: str
    """``iri``, ``literal``, ``blank`` or ``unbound``: the page's CSS class."""
    note: str = ""
    """A literal's language or datatype, shown small."""


def cell(term: object, base: str) -> Cell:
    """``term`` as a table cell: an IRI as its CURIE linking to what the app knows of it."""
    if term is None:
        return Cell("", None, "unbound")
    if isinstance(term, ox.NamedNode):
        iri = term.value
        text = f"base:{iri[len(base):]}" if iri.startswith(base) else curie(iri)
        return Cell(text, url_for("sparql.endpoint", query=f"DESCRIBE <{iri}>"), "iri")
    if isinstance(term, ox.BlankNode):
        return Cell(f"_:{term.value}", None, "blank")
    assert isinstance(term, ox.Literal)
    note = term.language or ""
    datatype = term.datatype.value
    if not note and not datatype.endswith("#string"):
        note = curie(datatype)
    return Cell(term.value, None, "literal", note)


__all__ = ["Cell", "cell"]
