"""The validator's read-only graph answers every lookup as an rdflib ``Graph`` of the same
triples does (pyshacl reads the data through these calls only)."""

import random
from itertools import product

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.paths import OneOrMore
from rdflib.term import Node

from graph.validation.store import frozen_graph

EX = "https://example.org/"
NODES = [URIRef(f"{EX}n{i}") for i in range(6)]
PREDICATES = [URIRef(f"{EX}p{i}") for i in range(3)]
OBJECTS: list[Node] = [*NODES, Literal("x"), Literal("1", datatype=URIRef(f"{EX}t"))]


def random_triples(seed: int) -> list[tuple[Node, Node, Node]]:
    rng = random.Random(seed)
    triples = [(rng.choice(NODES), rng.choice(PREDICATES), rng.choice(OBJECTS))
               for _ in range(60)]
    return triples + triples[:10]  # repeats, held once


@pytest.mark.parametrize("seed", range(3))
def test_every_lookup_answers_as_rdflib_does(seed: int) -> None:
    triples = random_triples(seed)
    ours, theirs = frozen_graph(triples), Graph()
    for triple in triples:
        theirs.add(triple)
    assert len(ours) == len(theirs)
    subjects, predicates, objects = [None, *NODES[:3]], [None, *PREDICATES], [None, *OBJECTS[5:]]
    for s, p, o in product(subjects, predicates, objects):
        assert sorted(ours.triples((s, p, o))) == sorted(theirs.triples((s, p, o)))
        assert ((s, p, o) in ours) == ((s, p, o) in theirs)
    for unique in (False, True):
        for s, p in product(subjects, predicates):
            assert sorted(ours.objects(s, p, unique)) == sorted(theirs.objects(s, p, unique))
        for p, o in product(predicates, objects):
            assert sorted(ours.subjects(p, o, unique)) == sorted(theirs.subjects(p, o, unique))
    path = PREDICATES[0] * OneOrMore  # a path: rdflib evaluates it over our lookups
    assert sorted(ours.objects(NODES[0], path)) == sorted(theirs.objects(NODES[0], path))
