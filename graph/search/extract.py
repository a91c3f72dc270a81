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
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from rdflib import Literal, URIRef

from graph.dataset.canonical import first_of_runs, sorted_unique_rows
from graph.dataset.table import OBJECT, PREDICATE, SUBJECT, QuadTable

Values = Mapping[int, list[int]]
"""Object ids by subject id, for one predicate (or several)."""

_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")


class Grouped(Mapping[int, list[int]]):
    """The distinct objects of each subject, in N-Triples order, held as three arrays: the
    subjects (sorted), where each one's objects start, and the objects: 16 bytes a subject
    and 4 an object. A dictionary of lists held about ten times that a subject, and the
    index keeps one for every predicate it reads (perf/decisions/search-index-arrays.md)."""

    def __init__(self, subjects: npt.NDArray[np.integer[Any]],
                 objects: npt.NDArray[np.integer[Any]], terms: int,
                 order: Callable[[int], str]) -> None:
        """``subjects`` and ``objects`` are statements (repeats allowed, in any order) over
        ``terms`` term ids."""
        firsts, objects = sorted_unique_rows([subjects, objects], terms)
        starts = np.flatnonzero(first_of_runs(firsts))
        self._subjects = firsts[starts]
        self._starts = np.append(starts, len(firsts))
        self._objects = objects.astype(np.int32)
        for index in np.flatnonzero(np.diff(self._starts) > 1).tolist():
            run = slice(int(self._starts[index]), int(self._starts[index + 1]))
            self._objects[run] = sorted(self._objects[run].tolist(), key=order)

    def __getitem__(self, subject: int) -> list[int]:
        index = int(np.searchsorted(self._subjects, subject))
        if index == len(self._subjects) or self._subjects[index] != subject:
            raise KeyError(subject)
        found: list[int] = self._objects[self._starts[index]:self._starts[index + 1]].tolist()
        return found

    def __iter__(self) -> Iterator[int]:
        return iter(self._subjects.tolist())

    def __len__(self) -> int:
        return len(self._subjects)

    def items(self) -> Iterator[tuple[int, list[int]]]:  # type: ignore[override]
        """Each subject with its objects, in subject order (one pass, no lookups)."""
        starts = self._starts.tolist()
        objects = self._objects
        for index, subject in enumerate(self._subjects.tolist()):
            yield subject, objects[starts[index]:starts[index + 1]].tolist()


class Facts:
    """The statements of a table by predicate, and the text of its terms."""

    def __init__(self, table: QuadTable) -> None:
        self._terms = table.terms
        # The table's own 32-bit rows, read in place (it does not grow while it is indexed):
        # three 64-bit columns copied were held while the index was written
        # (perf/decisions/rows-read-in-place.md).
        held = table.held_rows()
        self._subjects, self._predicates, self._objects = (
            held[:, SUBJECT], held[:, PREDICATE], held[:, OBJECT])
        self._cache: dict[tuple[URIRef, ...], Grouped] = {}

    def values(self, predicate: URIRef) -> Values:
        """What each subject has for ``predicate``: distinct objects, in N-Triples order."""
        return self.union((predicate,))

    def union(self, predicates: tuple[URIRef, ...]) -> Values:
        """What each subject has for any of ``predicates``, distinct, in N-Triples order."""
        found = self._cache.get(predicates)
        if found is None:
            ids = [term_id for term_id in map(self._terms.find_iri, predicates)
                   if term_id is not None]
            mask = np.isin(self._predicates, ids)
            found = self._cache[predicates] = Grouped(
                self._subjects[mask], self._objects[mask], len(self._terms),
                self._terms.ntriples.__getitem__)
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


__all__ = ["Facts", "Grouped", "Values", "date_key", "first_text", "local_name"]
