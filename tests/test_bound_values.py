"""A variable bound to a tuple of terms takes each in turn (a ``VALUES`` list), so that a
query the app asks with different values on every page keeps one text, judged once."""

from __future__ import annotations

from typing import Any

import pyoxigraph as ox

from graph.sparql.query_text import with_values
from graph.store.base import Store
from web.labels import fetch_labels

BASE = "https://w3id.org/benchgraph/"


def test_each_combination_of_the_values_is_a_row() -> None:
    a, b, c = (ox.NamedNode(f"urn:x:{name}") for name in "abc")
    bound = with_values("SELECT * WHERE { ?s ?p ?o }", "SELECT", {"s": (a, b), "p": c})
    assert bound is not None
    assert "VALUES (?s ?p) { (<urn:x:a> <urn:x:c>) (<urn:x:b> <urn:x:c>) }" in bound


def test_a_tuple_binding_answers_for_each_term(seed_store: Store) -> None:
    nodes = tuple(ox.NamedNode(f"{BASE}benchmark/{key}") for key in ("mimic_rrs", "healthbench"))
    result = seed_store.query(
        "SELECT ?b ?id WHERE { ?b <http://purl.org/dc/terms/identifier> ?id }",
        bindings={"b": nodes})
    assert sorted(row[1].value for row in result.rows) == ["healthbench", "mimic_rrs"]


class _Asked:
    """A store that records the texts it is asked and answers with no rows."""

    base = BASE

    def __init__(self, store: Store) -> None:
        self.store = store
        self.texts: list[str] = []

    def query(self, text: str, bindings: Any = None, **options: Any) -> Any:
        self.texts.append(text)
        return self.store.query(text, bindings=bindings, **options)


def test_labels_of_other_nodes_are_asked_in_the_same_words(seed_store: Store) -> None:
    asked = _Asked(seed_store)
    first = fetch_labels(asked, [f"{BASE}benchmark/mimic_rrs"])  # type: ignore[arg-type]
    others = [f"{BASE}benchmark/healthbench", f"{BASE}org/stanford"]
    second = fetch_labels(asked, others)  # type: ignore[arg-type]
    assert first.get(f"{BASE}benchmark/mimic_rrs") and second.get(f"{BASE}benchmark/healthbench")
    assert len(set(asked.texts)) <= 2  # rdfs:label, then the other label properties
