"""What writing the search index holds: each predicate's statements as three arrays
(``graph.search.extract.Grouped``), the entities' rows a run at a time
(``graph.search.index.insert_entities``)."""

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyoxigraph as ox
import pytest
from rdflib import URIRef
from rdflib.namespace import RDFS

from graph.search import index
from graph.search.entities import Entity
from graph.search.extract import Facts, Grouped
from tests.memory import traced

IRI = "https://example.org/node/"
GRAPH = URIRef("https://example.org/graph")


def reference(pairs: list[tuple[int, int]], order: list[str]) -> dict[int, list[int]]:
    """What each subject has, distinct, in the order of ``order``: the dictionary of lists
    the index kept before."""
    found: dict[int, set[int]] = {}
    for subject, obj in pairs:
        found.setdefault(subject, set()).add(obj)
    return {subject: sorted(objects, key=order.__getitem__) for subject, objects in found.items()}


@pytest.mark.parametrize("seed", range(5))
def test_grouped_answers_as_a_dictionary_of_lists_did(seed: int) -> None:
    """Random statements, repeats among them: every subject's objects, distinct and in the
    order of their forms (not of their ids), by lookup and by ``items``; a subject without
    any is missing."""
    rng = random.Random(seed)
    order = [f'"{rng.random()}"' for _ in range(300)]
    pairs = [(rng.randrange(200), rng.randrange(300)) for _ in range(rng.randrange(0, 2000))]
    expected = reference(pairs, order)
    subjects = np.asarray([s for s, _ in pairs], dtype=np.int32)
    objects = np.asarray([o for _, o in pairs], dtype=np.int32)
    grouped = Grouped(subjects, objects, len(order), order.__getitem__)
    assert dict(grouped.items()) == expected
    assert list(grouped.items()) == sorted(expected.items())
    assert {subject: grouped[subject] for subject in grouped} == expected
    assert len(grouped) == len(expected)
    missing = next(subject for subject in range(201) if subject not in expected)
    assert grouped.get(missing, ()) == ()
    assert missing not in grouped


def test_a_predicate_is_held_in_a_few_bytes_a_subject() -> None:
    """50,000 subjects with an object each: a predicate's statements are held in under 40
    bytes a subject (a dictionary of lists held over 150)."""
    count = 50_000
    order = [f"<{IRI}{i}>" for i in range(2 * count)]
    numbers = np.arange(count, dtype=np.int64)
    grouped, held, _ = traced(lambda: Grouped(numbers, numbers + count, len(order),
                                              order.__getitem__))
    assert len(grouped) == count and grouped[123] == [count + 123]
    assert held < 40 * count, (held, count)


def test_the_facts_are_read_from_the_merge_of_a_store() -> None:
    """The index reads the default graph (the merge), each term numbered once: a statement
    of a named graph alone is not read."""
    store = ox.Store()
    label = ox.NamedNode(str(RDFS.label))
    for i in range(3):
        node = ox.NamedNode(f"{IRI}{i}")
        store.add(ox.Quad(node, label, ox.Literal(f"label {i}")))
        store.add(ox.Quad(node, label, ox.Literal(f"label {i}"), ox.NamedNode(str(GRAPH))))
    store.add(ox.Quad(ox.NamedNode(f"{IRI}9"), label, ox.Literal("only named"),
                      ox.NamedNode(str(GRAPH))))
    facts = Facts(store)
    labels = facts.values(RDFS.label)
    node = facts.id_of(URIRef(f"{IRI}1"))
    assert node is not None and facts.texts(labels[node]) == ["label 1"]
    assert len(labels) == 3 and facts.id_of(URIRef(f"{IRI}9")) is None


def many_entities(count: int) -> Iterator[tuple[int, Entity]]:
    for number in range(1, count + 1):
        yield number, Entity(iri=f"{IRI}{number}", kind="person", rank=3,
                             label=f"Person {number}", names=(f"Person {number}",),
                             aliases=(f"P{number}",), tags=(), summary="x" * 200)


def test_entities_are_inserted_a_run_at_a_time(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """30,000 entities, 1,000 at a time: inserting them allocates under a tenth of what
    their rows held together, and every row is there."""
    monkeypatch.setattr(index, "ENTITIES_AT_A_TIME", 1000)
    count = 30_000
    db = sqlite3.connect(tmp_path / "index.sqlite")
    db.executescript(index._SCHEMA)
    together = sum(len(repr(index.entity_rows(n, e))) + 200 for n, e in many_entities(count))
    (entities, names), _, peak = traced(lambda: index.insert_entities(db,
                                                                      many_entities(count)))
    assert (entities, names) == (count, 2 * count)
    assert db.execute("SELECT count(*) FROM entity").fetchone() == (count,)
    assert db.execute("SELECT label FROM entity WHERE id = 30000").fetchone() == (
        "Person 30000",)
    assert peak < together / 10, (peak, together)
