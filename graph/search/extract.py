"""Reading the facts the index needs straight from the build's ``QuadTable``.

The index is written while the store is built, from the same table the store is loaded from,
so it is always of the same graph. Reading the table costs a numpy mask per predicate and a
Python pass over the statements that match, about a second at 10,000 records; asking the
freshly loaded store by SPARQL would cost a query process and several seconds more.

Statements are read as the default graph holds them, the merge of every graph: a value two
records state is one value here. Every list is in a fixed order (by the N-Triples form of
its terms), so the same build always writes the same index.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable

import numpy as np
from rdflib import Literal, URIRef

from graph.dataset.table import OBJECT, PREDICATE, SUBJECT, QuadTable

Values = dict[int, list[int]]
"""Object ids by subject id, for one predicate."""

_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")


class Facts:
    """The statements of a table by predicate, and the text of its terms."""

    def __init__(self, table: QuadTable) -> None:
        self._table = table
        self._terms = table.terms
        # The table's own 32-bit rows, read in place (it does not grow while it is indexed):
        # three 64-bit columns copied were 0.3 GB at 100,000 records, held while the index
        # was written, beside the store's loading.
        held = table.held_rows()
        self._subjects, self._predicates, self._objects = (
            held[:, SUBJECT], held[:, PREDICATE], held[:, OBJECT])
        self._cache: dict[str, Values] = {}
        self._unions: dict[tuple[URIRef, ...], Values] = {}

    def values(self, predicate: URIRef) -> Values:
        """What each subject has for ``predicate``: distinct objects, in N-Triples order."""
        found = self._cache.get(predicate)
        if found is not None:
            return found
        found = {}
        term_id = self._terms.find_iri(predicate)
        if term_id is not None:
            mask = self._predicates == term_id
            pairs = set(zip(self._subjects[mask].tolist(), self._objects[mask].tolist(),
                            strict=True))
            order = self._terms.ntriples.__getitem__
            grouped: defaultdict[int, list[int]] = defaultdict(list)
            for subject, obj in pairs:
                grouped[subject].append(obj)
            found = {subject: _ordered(objs, order) for subject, objs in grouped.items()}
        self._cache[predicate] = found
        return found

    def union(self, predicates: tuple[URIRef, ...]) -> Values:
        """What each subject has for any of ``predicates``, distinct, in N-Triples order."""
        if len(predicates) == 1:
            return self.values(predicates[0])
        found = self._unions.get(predicates)
        if found is None:
            merged: defaultdict[int, set[int]] = defaultdict(set)
            for predicate in predicates:
                for subject, objs in self.values(predicate).items():
                    merged[subject].update(objs)
            order = self._terms.ntriples.__getitem__
            found = self._unions[predicates] = {
                subject: _ordered(list(objs), order) for subject, objs in merged.items()}
        return found

    def id_of(self, iri: URIRef) -> int | None:
        """The id of an IRI the graph holds; None for one it does not (nothing is added)."""
        return self._terms.find_iri(iri)

    def subjects_of(self, predicate: URIRef, obj: URIRef) -> list[int]:
        """The subjects that state ``predicate obj``, distinct, in id order."""
        predicate_id, object_id = self.id_of(predicate), self.id_of(obj)
        if predicate_id is None or object_id is None:
            return []
        mask = (self._predicates == predicate_id) & (self._objects == object_id)
        return [int(term) for term in np.unique(self._subjects[mask])]

    def text(self, term_id: int) -> str:
        """A literal's lexical form, an IRI's text."""
        return str(self._terms.terms[term_id])

    def texts(self, term_ids: Iterable[int]) -> list[str]:
        """The texts of literals (IRIs among them are skipped), in the order given."""
        terms = self._terms.terms
        return [str(terms[i]) for i in term_ids if isinstance(terms[i], Literal)]

    def is_iri(self, term_id: int) -> bool:
        return isinstance(self._terms.terms[term_id], URIRef)

    def ntriples(self, term_id: int) -> str:
        return self._terms.ntriples[term_id]


def _ordered(ids: list[int], order: Callable[[int], str]) -> list[int]:
    return ids if len(ids) == 1 else sorted(ids, key=order)


def first_text(facts: Facts, values: Values, subject: int) -> str:
    """The first literal ``subject`` has among ``values`` that is not blank ("" for none): a
    record's empty ``name`` stays in the graph as written, but names nothing."""
    return next((text for text in facts.texts(values.get(subject, ())) if text.strip()), "")


def date_key(text: str) -> str | None:
    """``text`` when it is an ISO date, year-month or year (sortable as text); None for a
    value kept verbatim (``c. 2018``)."""
    return text if _DATE.fullmatch(text) else None


def local_name(iri: str) -> str:
    """The last segment of an IRI: after its ``#``, else its last ``/``."""
    return iri.rpartition("#")[2] if "#" in iri else iri.rstrip("/").rpartition("/")[2]


__all__ = ["Facts", "Values", "date_key", "first_text", "local_name"]
