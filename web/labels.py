"""Labels of many IRIs at once: what a page shows in place of a raw IRI.

A page gathers every IRI it will show (the node, its properties, the values, the rows of its
lists) and asks for all their labels in one query, so a page costs one label query however
many links it has. One deterministic choice per IRI: the first of ``LABEL_PROPERTIES`` it
has (``dcterms:title``, then ``rdfs:label``, ``skos:prefLabel``, ``foaf:name``), English
before no language before any other language, then the least text; two records that name a
node differently still give it one label, the same on every page. A title comes first so
that a paper is headed by its title wherever one source states it, even where another
source, which knows only its arXiv id, labels it by that id. An IRI with none shows as
its CURIE (``bench:Gated``, ``base:benchmark/x``); so does one whose only label is blank
(a record's empty ``name`` stays in the graph as written, DESIGN.md "Defects").

The IRIs are bound to the query's ``?node`` as a tuple of ``NamedNode`` terms (which refuse
any text that is not an IRI): the store writes them as a ``VALUES`` list, and the query's own
text stays the same on every page, so it is judged once (``graph.sparql.admission``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import pyoxigraph as ox

from graph.namespace import DCTERMS, FOAF, RDFS, SKOS, curie
from graph.store.base import Store

LABEL_PROPERTIES: tuple[str, ...] = (str(DCTERMS.title), str(RDFS.label), str(SKOS.prefLabel),
                                     str(FOAF.name))
"""In order of preference."""
CHUNK = 400
"""IRIs per label query: a page with more asks again (no page does at 10,000 records)."""


@dataclass(frozen=True)
class Labels:
    """The label of each IRI asked for that has one; ``text`` falls back to a CURIE."""

    base: str
    found: Mapping[str, str]

    def text(self, iri: str) -> str:
        """The label of ``iri``, or its CURIE when it has none."""
        return self.found.get(iri) or curie(iri, self.base)

    def get(self, iri: str) -> str | None:
        """The label of ``iri``, None when it has none."""
        return self.found.get(iri)


def fetch_labels(store: Store, iris: Iterable[str]) -> Labels:
    """The labels of ``iris`` (IRIs as text; duplicates and non-IRIs are fine).

    Two lookups at most: ``dcterms:title`` and ``rdfs:label`` of every IRI, then the other
    label properties of those that had neither (most nodes have an ``rdfs:label``; asking all
    four properties of every IRI cost 2.5 times as much). A part of a node with no label of its own
    (``{base}benchmark/x/author/1``, a result) is labelled by its owner's label and its path
    below it: ``MIMIC-RRS › author/1``."""
    asked = set(iris)
    owners = {iri: owner for iri in asked if (owner := _owner(iri, store.base))}
    nodes = _nodes(asked | set(owners.values()))
    found = _lookup(store, nodes, LABEL_PROPERTIES[:2])
    found.update(_lookup(store, [n for n in nodes if n.value not in found], LABEL_PROPERTIES[2:]))
    for iri, owner in owners.items():
        if iri not in found and owner in found:
            found[iri] = f"{found[owner]} › {iri[len(owner) + 1:]}"
    return Labels(store.base, found)


def _nodes(iris: Iterable[str]) -> list[ox.NamedNode]:
    nodes = []
    for iri in sorted(iris):
        try:
            nodes.append(ox.NamedNode(iri))
        except ValueError:  # not an IRI (a blank node's id, say): nothing to label
            continue
    return nodes


def _lookup(store: Store, nodes: list[ox.NamedNode],
            properties: tuple[str, ...]) -> dict[str, str]:
    """The chosen label of each of ``nodes`` that has one of ``properties``."""
    best: dict[str, tuple[int, int, str]] = {}
    for start in range(0, len(nodes), CHUNK):
        result = store.query(_label_query(properties),
                             bindings={"node": tuple(nodes[start:start + CHUNK])})
        for node, rank, label in result.rows:
            if not (isinstance(node, ox.NamedNode) and isinstance(label, ox.Literal)
                    and isinstance(rank, ox.Literal)) or not label.value.strip():
                continue  # a blank name (a record's empty ``name``, kept as written) names nothing
            key = (int(rank.value), _language_rank(label.language), label.value)
            if node.value not in best or key < best[node.value]:
                best[node.value] = key
    return {iri: key[2] for iri, key in best.items()}


def _owner(iri: str, base: str) -> str | None:
    """The node a part hangs below (``{base}benchmark/x`` for ``{base}benchmark/x/dataset``);
    None for a node that is not a part."""
    if not iri.startswith(base):
        return None
    kind, _, rest = iri[len(base):].partition("/")
    key, slash, _part = rest.partition("/")
    return f"{base}{kind}/{key}" if kind and key and slash and _part else None


@lru_cache(maxsize=4)
def _label_query(properties: tuple[str, ...]) -> str:
    """One lookup per bound node and property (a UNION of bound patterns), which the engine
    answers from its indexes; a ``VALUES`` of properties beside the nodes made it scan every
    label."""
    branches = " UNION ".join(
        f"{{ ?node <{iri}> ?label BIND({LABEL_PROPERTIES.index(iri)} AS ?rank) }}"
        for iri in properties
    )
    return f"SELECT ?node ?rank ?label WHERE {{ {branches} }}"


def _language_rank(language: str | None) -> int:
    if language == "en" or (language or "").startswith("en-"):
        return 0
    return 1 if not language else 2


__all__ = ["LABEL_PROPERTIES", "Labels", "fetch_labels"]
