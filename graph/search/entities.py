"""The nodes people search for, each as one document: its names, aliases, tags and summary.

Which nodes: benchmarks first, then the other named nodes a person looks up by name, in
this order of rank (``KINDS``): organisations, people, papers, models, harnesses, suites,
tags, categories. Records, results, datasets, sources and credits are parts of a benchmark,
found through it, not by a name of their own. A benchmark no record describes (known only
by reference) ranks after every catalogued one.

What each field holds:

- **names**: ``rdfs:label`` and ``skos:prefLabel``;
- **aliases**: ``skos:altLabel`` and the identifiers a person may type: the catalog id
  (``dcterms:identifier``), a notation (``skos:notation``: ``helm``, ``medhelm``), an arXiv
  id, a paper's title;
- **tags**: the labels of a benchmark's tags;
- **summary**: ``dcterms:abstract``, else ``rdfs:comment`` (the ontology's harnesses and
  suites), as the text its markdown reads as (``graph.plain_text``: HELM's summaries link
  their papers, and a search for ``arxiv`` should not find them all).

The label a hit shows is the node's first name in folded order (a benchmark two records name
differently shows one of them, always the same); a node without one shows its IRI's last
segment.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rdflib import URIRef

from graph.namespace import BENCH, DCTERMS, RDF, RDFS, SKOS
from graph.plain_text import plain_text
from graph.search.extract import Facts, first_text, local_name
from graph.search.text import fold, joined, name_key

KINDS: tuple[tuple[str, URIRef], ...] = (
    ("benchmark", BENCH.Benchmark),
    ("organisation", BENCH.Organization),
    ("person", BENCH.Person),
    ("paper", BENCH.Paper),
    ("model", BENCH.Model),
    ("harness", BENCH.Harness),
    ("suite", BENCH.Suite),
    ("tag", BENCH.Tag),
    ("category", BENCH.Category),
)
"""Kinds by rank: a hit of an earlier kind comes first among hits that match alike."""

_NAMES = (RDFS.label, SKOS.prefLabel)
_ALIASES = (SKOS.altLabel, DCTERMS.identifier, SKOS.notation, BENCH.arxiv, DCTERMS.title)


@dataclass(frozen=True)
class Entity:
    """One searchable node."""

    iri: str
    kind: str
    rank: int
    """The kind's rank: 0 a catalogued benchmark, 1 another benchmark, then ``KINDS`` order."""
    label: str
    names: tuple[str, ...]
    aliases: tuple[str, ...]
    tags: tuple[str, ...]
    summary: str

    @property
    def keys(self) -> set[str]:
        """The keys of every name and alias, matched whole or as a prefix."""
        return {key for key in map(name_key, self.names + self.aliases) if key}

    @property
    def joined_keys(self) -> set[str]:
        """The joined keys of its keys of several words (``graph.search.text.joined``): a
        one-word key is its own joined key, matched in ``keys`` already."""
        return {joined(key) for key in self.keys if " " in key}


def entities(facts: Facts) -> Iterator[Entity]:
    """Every searchable node of the graph, in ``KINDS`` order, then by IRI."""
    names = facts.union(_NAMES)
    aliases = facts.union(_ALIASES)
    tags = facts.values(BENCH.tag)
    abstracts = facts.values(DCTERMS.abstract)
    comments = facts.values(RDFS.comment)
    catalogued = facts.values(BENCH.catalogued)
    seen: set[int] = set()
    for rank, (kind, cls) in enumerate(KINDS, start=1):
        members = [node for node in facts.subjects_of(RDF.type, cls) if node not in seen]
        seen.update(members)
        for node in sorted(members, key=facts.text):
            own_names = tuple(sorted({name for name in facts.texts(names.get(node, ()))
                                      if name.strip()}, key=_folded))  # a blank one names nothing
            iri = facts.text(node)
            if kind == "benchmark":
                rank_here = 0 if "true" in facts.texts(catalogued.get(node, ())) else 1
            else:
                rank_here = rank
            yield Entity(
                iri=iri,
                kind=kind,
                rank=rank_here,
                label=own_names[0] if own_names else local_name(iri),
                names=own_names,
                aliases=tuple(dict.fromkeys(facts.texts(aliases.get(node, ())))),
                tags=tuple(first_text(facts, names, tag) or local_name(facts.text(tag))
                           for tag in tags.get(node, ())),
                summary=plain_text(first_text(facts, abstracts, node)
                                   or first_text(facts, comments, node)),
            )


def _folded(text: str) -> tuple[str, str]:
    return fold(text), text


__all__ = ["KINDS", "Entity", "entities"]
