"""A pyoxigraph store holding rdflib quads as a build's store holds them: each quad in its
named graph, and in the default graph the merge of them all (each statement once)."""

from collections.abc import Iterable, Iterator
from pathlib import Path

import pyoxigraph as ox
from rdflib import URIRef

from graph.dataset.oxigraph import to_oxigraph
from graph.dataset.quads import Quad

_Term = ox.NamedNode | ox.BlankNode | ox.Literal


def store_of(quads: Iterable[Quad], path: Path | None = None) -> ox.Store:
    """A store of ``quads``: in memory, or on disk in the folder ``path``, compacted as the
    build's writing process leaves its store (``Store.optimize``: a store left as the bulk
    loader wrote it took half as long again to read graph by graph)."""
    store = ox.Store() if path is None else ox.Store(str(path))
    store.bulk_extend(_as_oxigraph(quads))
    if path is not None:
        store.flush()
        store.optimize()
    return store


def _as_oxigraph(quads: Iterable[Quad]) -> Iterator[ox.Quad]:
    """Each quad in its graph and again in the default graph (the store keeps one of those
    a statement stated in many graphs gives). Each term is converted once: an IRI looked up
    by its text (a plain string compares in C; an rdflib term compares in Python)."""
    made: dict[object, _Term] = {}

    def term(node: object) -> _Term:
        key = str(node) if type(node) is URIRef else node
        found = made.get(key)
        if found is None:
            found = made[key] = to_oxigraph(node)
        return found

    default = ox.DefaultGraph()
    for s, p, o, g in quads:
        subject, predicate, object_ = term(s), term(p), term(o)
        graph = term(g)
        assert isinstance(subject, ox.NamedNode | ox.BlankNode)
        assert isinstance(predicate, ox.NamedNode) and isinstance(graph, ox.NamedNode)
        yield ox.Quad(subject, predicate, object_, graph)
        yield ox.Quad(subject, predicate, object_, default)
