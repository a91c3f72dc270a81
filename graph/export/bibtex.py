"""Papers as BibTeX, read from the graph and written by pybtex.

``/paper/KEY.bib`` is one paper, ``/benchmark/ID.bib`` the papers a benchmark cites. An entry
holds what the graph states of the paper, each field once: the title, the authors in their
credited order, the year a citation states (``dcterms:issued``; never the arXiv month), the
venue as written, the DOI, the arXiv id (``eprint`` with ``archivePrefix = arXiv``) and a
link. Where sources state two values of one field, the first in sorted order is written (the
paper's page shows both). The graph does not say whether a venue is a journal or a
proceedings, so every entry is ``@misc`` with the venue as ``howpublished``, which every
BibTeX style accepts. Its key is the BibTeX key a source cites it by, else the paper's own key.
pybtex writes the file, quoting what the data says.

A title keeps its capitals: a style lowers every letter of a title but its first that braces
do not protect, so each word with a capital past its first letter (``BABILong``, ``LLMs``) is
written in braces. BibTeX reads every brace as markup, so a brace the title holds itself is
left out of the field (pybtex refuses one without its pair); the paper's page shows it.
"""

import re
from collections.abc import Sequence

import pyoxigraph as ox
from pybtex.database import BibliographyData, Entry, Person

from graph.store.base import Store

_FIELDS = """
SELECT ?paper ?field ?value WHERE {
  ?paper ?p ?value .
  VALUES (?p ?field) { (dcterms:title "title") (dcterms:issued "year") (bench:venue "venue")
                      (bench:doi "doi") (bench:arxiv "arxiv") (schema:url "url")
                      (bench:citeKey "key") }
}"""
_AUTHORS = """
SELECT ?paper ?position ?name WHERE {
  ?paper bench:authorCredit ?credit .
  ?credit bench:position ?position ; bench:agent ?person .
  ?person rdfs:label ?name .
}"""
_CITED = "SELECT DISTINCT ?paper WHERE { ?node bench:paper ?paper }"

MEDIA_TYPE = "application/x-bibtex"


def papers_of(store: Store, benchmark: ox.NamedNode) -> list[ox.NamedNode]:
    """The papers ``benchmark`` cites, in IRI order."""
    rows = store.query(_CITED, bindings={"node": benchmark}).rows
    return sorted((row[0] for row in rows if isinstance(row[0], ox.NamedNode)),
                  key=lambda node: node.value)


def bibtex(store: Store, papers: Sequence[ox.NamedNode]) -> str:
    """The BibTeX of ``papers``, one entry each, in the order given."""
    if not papers:
        return ""
    fields: dict[str, dict[str, str]] = {paper.value: {} for paper in papers}
    for paper, field, value in store.query(_FIELDS, bindings={"paper": tuple(papers)}).rows:
        assert paper is not None and field is not None and value is not None
        known = fields[paper.value]
        if field.value not in known or value.value < known[field.value]:
            known[field.value] = value.value
    authors: dict[str, dict[int, str]] = {paper.value: {} for paper in papers}
    for paper, position, name in store.query(_AUTHORS, bindings={"paper": tuple(papers)}).rows:
        assert paper is not None and position is not None and name is not None
        at = authors[paper.value]
        at[int(position.value)] = min(name.value, at.get(int(position.value), name.value))
    data = BibliographyData()
    for paper in papers:
        key = _unique(fields[paper.value].get("key") or _own_key(paper.value), data)
        data.add_entry(key, _entry(fields[paper.value], authors[paper.value]))
    return str(data.to_string("bibtex"))


def _entry(known: dict[str, str], authors: dict[int, str]) -> Entry:
    title = known.get("title")
    fields = {"title": _protected(title) if title else None, "year": known.get("year"),
              "howpublished": known.get("venue"), "doi": known.get("doi"),
              "url": known.get("url")}
    if "arxiv" in known:
        fields |= {"eprint": known["arxiv"], "archivePrefix": "arXiv"}
    people = [Person(authors[at]) for at in sorted(authors)]
    return Entry("misc", fields={name: value for name, value in fields.items() if value},
                 persons={"author": people} if people else None)


def _protected(title: str) -> str:
    """``title`` as a BibTeX field: its own braces left out, each word with a capital past its
    first letter in braces."""
    plain = " ".join(title.replace("{", "").replace("}", "").split())
    return re.sub(r"\S+", lambda word: f"{{{word[0]}}}" if _keeps_case(word[0]) else word[0],
                  plain)


def _keeps_case(word: str) -> bool:
    """Whether a style would lower a capital ``word`` holds past its first letter."""
    letters = [c for c in word if c.isalpha()]
    return any(c.isupper() for c in letters[1:])


def _own_key(iri: str) -> str:
    """The paper's key in its IRI (``{base}paper/2211.08584`` -> ``2211.08584``)."""
    return iri.rstrip("/").rsplit("/", 1)[-1]


def _unique(key: str, data: BibliographyData) -> str:
    """``key``, or ``key-2``, ``key-3``... when two papers are cited by one key."""
    candidate, number = key, 1
    while candidate in data.entries:
        number += 1
        candidate = f"{key}-{number}"
    return candidate
