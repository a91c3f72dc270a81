"""A read-only rdflib graph over a fixed set of triples: cheap to build, cheap to read.

rdflib's ``Memory`` store spends more on each ``add`` (contexts, events) than validating the
triple costs (perf/decisions/validation-frozen-graph.md). Validation only reads, so the
triples of one batch of records are indexed once, here, in plain dicts: subject → predicate
→ objects, and (built the first time a predicate is looked up that way) predicate → object →
subjects.
``FrozenGraph`` answers the lookups pyshacl makes straight from those dicts.
"""

from collections.abc import Generator, Iterable, Iterator
from typing import Any

from rdflib import Graph
from rdflib.paths import Path
from rdflib.store import Store
from rdflib.term import Node

Triple = tuple[Node, Node, Node]
_Objects = dict[Node, None]


class FrozenTriples(Store):
    """The triples given, indexed; contexts are ignored (everything is one graph)."""

    # pyshacl wraps the graph in a Dataset, which insists on both.
    context_aware = True
    graph_aware = True
    formula_aware = False
    transaction_aware = False

    def __init__(self, triples: Iterable[Triple]) -> None:
        super().__init__()
        spo: dict[Node, dict[Node, _Objects]] = {}
        by_predicate: dict[Node, list[tuple[Node, Node]]] = {}
        count = 0
        for s, p, o in triples:
            predicates = spo.get(s)
            if predicates is None:
                predicates = spo[s] = {}
            objects = predicates.get(p)
            if objects is None:
                predicates[p] = {o: None}
            elif o in objects:
                continue
            else:
                objects[o] = None
            pairs = by_predicate.get(p)
            if pairs is None:
                by_predicate[p] = [(s, o)]
            else:
                pairs.append((s, o))
            count += 1
        self.spo = spo
        self.by_predicate = by_predicate
        self._pos: dict[Node, dict[Node, list[Node]]] = {}
        self._count = count

    def pos(self, predicate: Node) -> dict[Node, list[Node]]:
        """Object → subjects for one predicate."""
        index = self._pos.get(predicate)
        if index is None:
            index = {}
            for s, o in self.by_predicate.get(predicate, ()):
                subjects = index.get(o)
                if subjects is None:
                    index[o] = [s]
                else:
                    subjects.append(s)
            self._pos[predicate] = index
        return index

    def release(self) -> None:
        """Drop the indexes now. rdflib's graph and namespace manager refer to each other, so
        without this a batch's triples would wait for the cyclic collector to go."""
        self.spo = {}
        self.by_predicate = {}
        self._pos = {}
        self._count = 0

    def add(self, triple: Any, context: Any = None, quoted: bool = False) -> None:
        raise TypeError("FrozenTriples is read-only")

    def remove(self, triple: Any, context: Any = None) -> None:
        raise TypeError("FrozenTriples is read-only")

    def contexts(self, triple: Any = None) -> Generator[Graph, None, None]:
        yield from ()

    def __len__(self, context: Any = None) -> int:
        return self._count

    def triples(self, triple_pattern: Any, context: Any = None) -> Iterator[Any]:
        s, p, o = triple_pattern
        for triple in self.match(s, p, o):
            yield triple, iter(())

    def match(self, s: Node | None, p: Node | None, o: Node | None) -> Iterator[Triple]:
        if s is not None:
            by_predicate = self.spo.get(s)
            if by_predicate is None:
                return
            for predicate in (p,) if p is not None else tuple(by_predicate):
                objects = by_predicate.get(predicate)
                if objects is None:
                    continue
                if o is None:
                    for obj in objects:
                        yield s, predicate, obj
                elif o in objects:
                    yield s, predicate, o
        elif p is not None:
            if o is None:
                for subject, obj in self.by_predicate.get(p, ()):
                    yield subject, p, obj
            else:
                for subject in self.pos(p).get(o, ()):
                    yield subject, p, o
        else:
            for subject, by_predicate in self.spo.items():
                for predicate, objects in by_predicate.items():
                    if o is None:
                        for obj in objects:
                            yield subject, predicate, obj
                    elif o in objects:
                        yield subject, predicate, o


class FrozenGraph(Graph):
    """A ``Graph`` over ``FrozenTriples`` whose lookups skip rdflib's generic machinery."""

    def __init__(self, triples: Iterable[Triple]) -> None:
        self.frozen = FrozenTriples(triples)
        super().__init__(store=self.frozen, bind_namespaces="none")

    def triples(self, triple: Any) -> Iterator[Any]:  # type: ignore[override]
        s, p, o = triple
        if isinstance(p, Path):
            yield from super().triples(triple)
        else:
            yield from self.frozen.match(s, p, o)

    def objects(self, subject: Any = None, predicate: Any = None,  # type: ignore[override]
                unique: bool = False) -> Iterator[Any]:
        if subject is not None and predicate is not None and not isinstance(predicate, Path):
            yield from self.frozen.spo.get(subject, {}).get(predicate, ())
        else:
            yield from _distinct((o for _, _, o in self.triples((subject, predicate, None))),
                                 unique)

    def subjects(self, predicate: Any = None, object: Any = None,  # type: ignore[override]
                 unique: bool = False) -> Iterator[Any]:
        if predicate is not None and object is not None and not isinstance(predicate, Path):
            yield from self.frozen.pos(predicate).get(object, ())
        else:
            yield from _distinct((s for s, _, _ in self.triples((None, predicate, object))),
                                 unique)

    def predicate_objects(self, subject: Any = None,  # type: ignore[override]
                          unique: bool = False) -> Iterator[Any]:
        for _, p, o in self.triples((subject, None, None)):
            yield p, o

    def subject_objects(self, predicate: Any = None,  # type: ignore[override]
                        unique: bool = False) -> Iterator[Any]:
        for s, _, o in self.triples((None, predicate, None)):
            yield s, o

    def subject_predicates(self, object: Any = None,  # type: ignore[override]
                           unique: bool = False) -> Iterator[Any]:
        for s, p, _ in self.triples((None, None, object)):
            yield s, p

    def __contains__(self, triple: Any) -> bool:
        return next(iter(self.triples(triple)), None) is not None

    def __len__(self) -> int:
        return len(self.frozen)


def _distinct(nodes: Iterator[Node], unique: bool) -> Iterator[Node]:
    """``nodes``, each once when ``unique`` (rdflib's ``unique=True``); else as they come.
    (The indexed lookups need no such pass: the triples are held once each.)"""
    if not unique:
        yield from nodes
        return
    seen: set[Node] = set()
    for node in nodes:
        if node not in seen:
            seen.add(node)
            yield node


def frozen_graph(triples: Iterable[Triple]) -> FrozenGraph:
    """An rdflib ``Graph`` over ``triples``, read-only and quick to build."""
    return FrozenGraph(triples)
