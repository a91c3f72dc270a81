"""How a term of the graph is shown on a page: a label that links where it can.

Where an IRI links (``iri_href``), in this order:

- the ontology's classes and properties (``bench:Benchmark``, ``bench:accessLevel``) to their
  entry in the ontology's documentation, ``/ontology#Name``;
- the vocabularies' individuals (``bench:Gated``, ``bench:HELM``, ``bench:MedHELM``) and
  schemes, which live in the ontology's namespace and not under the base, to their pages at
  ``/vocabulary/Name``;
- an IRI under the base (``{base}benchmark/x``) to its page, ``/benchmark/x``;
- any other http(s) IRI out, to itself. Nothing else links: a ``javascript:`` or ``data:``
  IRI, or any other scheme, shows as text.

A literal links only when it is an ``xsd:anyURI`` whose scheme is http(s): the data's URLs
are such literals, and a value that broke the URL rule is kept as a plain string. A named
query's list of IRIs (``#+ links:``, a ``GROUP_CONCAT`` of them) is shown one item a link,
each by the same rules (``listed``); a value that names a node of its row (``#+ link:``, a
benchmark's id beside the benchmark's IRI) links where the node does (``naming``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

import pyoxigraph as ox
from flask import url_for

from graph.namespace import BENCH, BENCH_IRI, BENCH_TERMS, ONTOLOGY_IRI, SCHEMA, XSD, curie

_ANY_URI = str(XSD.anyURI)
_URL = str(SCHEMA.url)
_STRING = str(XSD.string)


@dataclass(frozen=True)
class Cell:
    """A term as a page shows it: its text, where it links (if anywhere), and its kind."""

    text: str
    href: str | None
    kind: str
    """``iri`` (a page here), ``external`` (a link out), ``literal``, ``blank`` or ``unbound``:
    the page's CSS class."""
    note: str = ""
    """A literal's language or datatype, shown small."""
    title: str = ""
    """The IRI itself, shown on hover where the text is a label."""


def is_http(url: str) -> bool:
    """Whether ``url`` is an absolute http(s) URL with a host (the only kind a page links)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def ontology_href(name: str = "") -> str:
    """The ontology's documentation, at the entry of ``name`` if one is given."""
    page = url_for("home.index") + "ontology"
    return f"{page}#{name}" if name else page


def iri_href(iri: str, base: str) -> str | None:
    """Where a page links ``iri``: a page of this app, the IRI itself (http(s) elsewhere), or
    None (any other scheme)."""
    if iri.startswith(BENCH_IRI):
        name = iri[len(BENCH_IRI):]
        if name in BENCH_TERMS:
            return ontology_href(name)
        return url_for("entities.vocabulary", name=name) if name else ontology_href()
    if iri == str(ONTOLOGY_IRI):
        return ontology_href()
    if iri.startswith(base) and len(iri) > len(base):
        return url_for("entities.node", rest=iri[len(base):])
    return iri if is_http(iri) else None


_READ_AT = ((str(BENCH.arxiv), "arXiv {}", "https://arxiv.org/abs/{}"),
            (str(BENCH.doi), "doi.org/{}", "https://doi.org/{}"))


def reading_links(statements: Iterable[tuple[str, object]]) -> tuple[Cell, ...]:
    """Where to read a paper, from its statements (predicate IRI, value): arxiv.org for its
    arXiv id, doi.org for its DOI, and its own links. An id goes into the address quoted, so a
    value that is no id (kept as written) cannot leave the site it names."""
    links: dict[str, Cell] = {}
    for predicate, value in statements:
        if not isinstance(value, ox.Literal):
            continue
        for iri, text, address in _READ_AT:
            if predicate == iri and value.value.strip():
                href = address.format(quote(value.value.strip(), safe="/:.()_-;"))
                links.setdefault(href, Cell(text.format(value.value), href, "external"))
        if predicate == _URL and value.datatype.value == _ANY_URI and is_http(value.value):
            links.setdefault(value.value, Cell(value.value, value.value, "external"))
    return tuple(links.values())


def cell(term: object, base: str, label: str | None = None) -> Cell:
    """``term`` as a table cell: an IRI as its label (else its CURIE), linking by
    ``iri_href``; a literal as its text, with its language or datatype as a note."""
    if term is None:
        return Cell("", None, "unbound")
    if isinstance(term, ox.NamedNode):
        iri = term.value
        href = iri_href(iri, base)
        local = href is not None and not href.startswith(("http:", "https:"))
        kind = "iri" if local or href is None else "external"
        return Cell(label or curie(iri, base), href, kind, title=iri)
    if isinstance(term, ox.BlankNode):
        return Cell(f"_:{term.value}", None, "blank")
    assert isinstance(term, ox.Literal)
    note = term.language or ""
    datatype = term.datatype.value
    if not note and datatype != _STRING:
        note = curie(datatype)
    href = term.value if datatype == _ANY_URI and is_http(term.value) else None
    return Cell(term.value, href, "literal", note)


def naming(term: object, node: object, base: str) -> Cell:
    """``term``, a literal that names ``node`` (a benchmark's id, a model's name), as a cell
    that links where the node does, with the node's IRI on hover. Where either is missing
    (an OPTIONAL left unbound) the one that is there is the cell."""
    if isinstance(term, ox.Literal) and isinstance(node, ox.NamedNode):
        return cell(node, base, label=term.value)
    return cell(node if term is None else term, base)


def listed(term: object, base: str) -> tuple[Cell, ...]:
    """A literal holding IRIs separated by spaces, as one cell an IRI (each linking by
    ``iri_href``); an item that is no IRI stays text. Any other term is its one cell."""
    if not isinstance(term, ox.Literal):
        return (cell(term, base),)
    cells = []
    for item in term.value.split():
        try:
            node = ox.NamedNode(item)
        except ValueError:
            cells.append(Cell(item, None, "literal"))
        else:
            cells.append(cell(node, base))
    return tuple(cells)


__all__ = ["Cell", "cell", "iri_href", "is_http", "listed", "naming", "ontology_href",
           "reading_links"]
