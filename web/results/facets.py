"""The facets of the result list, and what a value's key in a URL is compared as.

A facet is a question every result answers once or not at all (a maker: once per maker the
model states): its benchmark, its model, the model's maker (``bench:madeBy``), its source
(the package the result's record derives from, ``prov:wasDerivedFrom`` of the record's
graph, labelled with its name and version; ``CATALOG_RECORD`` for a record written by hand,
which derives from none), who ran
it (``bench:ranBy``) and its settings (``bench:settingsKey``, the one canonical line that
makes results comparable). ``NOT_STATED`` is one more value of each: the results that state
none, counted and chosen as any other value (DESIGN.md, "Stated facts").

A value's *key*, which a URL carries, is the one the benchmark list gives a node
(``graph.search.facets``): ``bench:RunByCommunity`` for a term of the ontology, the path
below the base for a node of the data (``model/gpt_4o``), any other IRI whole; a setting is
its own text. The queries compare each result's value as a *match text* (``matched``): the
IRI; a setting in double quotes, so no setting reads as ``-`` (not stated) or as
``catalog record``, which no IRI can be either (an IRI holds no space and no quote). The
keys chosen in one facet are bound as one literal, their match texts each on a line of its
own (``pick_text``): a query asks whether a result's match text is one of its lines, so
the query's text stays the same for every view and no chosen value is ever pasted into it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pyoxigraph as ox

from graph.errors import BenchgraphError, ErrorKind
from graph.namespace import PREFIXES, curie
from graph.search.browse import MAX_CHOSEN
from graph.search.facets import NOT_STATED, NOT_STATED_LABEL

CATALOG_RECORD = "catalog record"
"""The source of a result whose record derives from no package: a catalog page, a directory
page. Its key and its match text both (no IRI holds a space)."""

Selection = Mapping[str, tuple[str, ...]]
"""Keys chosen, by facet name: any of one facet's (OR), all facets' (AND)."""


@dataclass(frozen=True)
class ResultFacet:
    """One facet of the result list."""

    name: str
    """Its URL parameter, and the name the queries give its value (``?pick_NAME``)."""
    title: str
    literal: bool = False
    """Its values are texts (a settings line), not nodes."""
    direct: bool = False
    """Every result has exactly one value, a node: the rows query binds the node itself,
    which the engine answers from its indexes, where comparing texts reads every result."""


FACETS: tuple[ResultFacet, ...] = (
    ResultFacet("benchmark", "Benchmark", direct=True),
    ResultFacet("model", "Model", direct=True),
    ResultFacet("maker", "Maker"),
    ResultFacet("source", "Source"),
    ResultFacet("ran_by", "Who ran it"),
    ResultFacet("setting", "Setting", literal=True),
)
"""In the order a page shows them."""
FACET_NAMES = tuple(facet.name for facet in FACETS)
BY_NAME = {facet.name: facet for facet in FACETS}


def value_key(facet: ResultFacet, term: ox.NamedNode | ox.Literal | None, base: str) -> str:
    """The key of a value a query gave (None: the results that state none)."""
    if term is None:
        return NOT_STATED
    if isinstance(term, ox.Literal):
        # a setting that reads as a key of its own is written as its N-Triples form; in a
        # facet of nodes the one literal is the catalog record's mark
        reserved = facet.literal and term.value in (NOT_STATED, CATALOG_RECORD)
        return f'"{term.value}"' if reserved else term.value
    shown = curie(term.value)
    if not shown.startswith("<"):
        return shown
    if term.value.startswith(base) and len(term.value) > len(base):
        return term.value[len(base):]
    return term.value


def value_label(facet: ResultFacet, key: str) -> str | None:
    """The label of a value no node names: not stated, a catalog record, a setting (its
    text); None for a node's key."""
    if key == NOT_STATED:
        return NOT_STATED_LABEL
    if facet.literal:
        return matched(facet, key, "")[1:-1]
    return CATALOG_RECORD if key == CATALOG_RECORD else None


def iri_of(key: str, base: str) -> str:
    """The IRI a node's key names (``value_key`` read back)."""
    prefix, colon, local = key.partition(":")
    if colon and prefix in PREFIXES:
        return PREFIXES[prefix] + local
    return key if "://" in key else base + key


def node_of(key: str, base: str) -> ox.NamedNode | None:
    """The node a key names; None for ``NOT_STATED`` or a key that names no IRI."""
    if key in (NOT_STATED, CATALOG_RECORD):
        return None
    try:
        return ox.NamedNode(iri_of(key, base))
    except ValueError:
        return None


def matched(facet: ResultFacet, key: str, base: str) -> str:
    """What the queries compare a result's value of ``facet`` with, for ``key``."""
    if key in (NOT_STATED, CATALOG_RECORD):
        return key
    if facet.literal:
        text = key[1:-1] if key in (f'"{NOT_STATED}"', f'"{CATALOG_RECORD}"') else key
        return f'"{text}"'
    return iri_of(key, base)


def pick_text(facet: ResultFacet, keys: tuple[str, ...], base: str) -> ox.Literal:
    """The keys chosen in ``facet`` as one literal: each one's match text on a line of its
    own, and a line break first and last, so that every match text is found whole."""
    return ox.Literal("\n" + "".join(f"{matched(facet, key, base)}\n" for key in keys))


def check_selection(selection: Selection) -> None:
    """BenchgraphError (400) for a selection no page makes: too many values, or a value with
    a line break (no key holds one: an IRI cannot, a settings key is one line)."""
    if sum(map(len, selection.values())) > MAX_CHOSEN:
        raise BenchgraphError(f"a view chooses at most {MAX_CHOSEN} facet values",
                              ErrorKind.USAGE)
    for name, keys in selection.items():
        if any("\n" in key or "\r" in key for key in keys):
            raise BenchgraphError(f"a value of {name} holds a line break; no value does",
                                  ErrorKind.USAGE)


__all__ = ["BY_NAME", "CATALOG_RECORD", "FACETS", "FACET_NAMES", "ResultFacet", "Selection",
           "check_selection", "iri_of", "matched", "node_of", "pick_text", "value_key",
           "value_label"]
