"""Reading the facts the index needs from a store: its default graph, the merge of every graph.

The index is written from the store it indexes, once the store is written (by the process that
wrote it: ``graph.store.writing``), so it is always of the same graph. Statements are read as
the default graph holds them: a value two records state is one value here. Each predicate's
statements are read once, by pyoxigraph's index of the default graph, and each term is given a
number the first time it is met, so that the lists the index reads are arrays of numbers
(``Grouped``). Every list is in a fixed order (by the N-Triples form of its terms), so the same
graph always gives the same index (perf/decisions/search-index-from-the-store.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pyoxigraph as ox
from rdflib import URIRef

from graph.namespace import XSD

Values = Mapping[int, list[int]]
"""Object ids by subject id, for one predicate (or several)."""

_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")
_INTEGER = ox.NamedNode(str(XSD.integer))


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
        pairs = np.unique(subjects.astype(np.int64) * terms + objects)  # sorted, each once
        firsts, objects = np.divmod(pairs, terms)
        first = np.ones(len(firsts), dtype=np.bool_)  # where a subject's run begins
        first[1:] = firsts[1:] != firsts[:-1]
        starts = np.flatnonzero(first)
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


Term = ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple
"""A term of a store (a quoted triple only where a graph states one: the build never does)."""


def term_text(term: Term) -> str:
    """A literal's lexical form, an IRI's text (a quoted triple's N-Triples form)."""
    return str(term) if isinstance(term, ox.Triple) else term.value


class Facts:
    """The statements of a store's default graph by predicate, and the text of their terms,
    each term by its number."""

    def __init__(self, store: ox.Store) -> None:
        self._store = store
        self._numbers: dict[Term, int] = {}
        self._terms: list[Term] = []
        self._cache: dict[tuple[URIRef, ...], Grouped] = {}

    def _number(self, term: Term) -> int:
        number = self._numbers.get(term)
        if number is None:
            number = self._numbers[term] = len(self._terms)
            self._terms.append(term)
        return number

    def _statements(self, predicate: URIRef, obj: Term | None = None) -> Iterator[ox.Quad]:
        return self._store.quads_for_pattern(None, ox.NamedNode(predicate), obj,
                                             ox.DefaultGraph())

    def values(self, predicate: URIRef) -> Values:
        """What each subject has for ``predicate``: distinct objects, in N-Triples order."""
        return self.union((predicate,))

    def union(self, predicates: tuple[URIRef, ...]) -> Values:
        """What each subject has for any of ``predicates``, distinct, in N-Triples order."""
        found = self._cache.get(predicates)
        if found is None:
            number = self._number
            subjects: list[int] = []
            objects: list[int] = []
            for predicate in predicates:
                for quad in self._statements(predicate):
                    subjects.append(number(quad.subject))
                    objects.append(number(quad.object))
            found = self._cache[predicates] = Grouped(
                np.asarray(subjects, dtype=np.int64), np.asarray(objects, dtype=np.int64),
                max(len(self._terms), 1), self.ntriples)
        return found

    def integer(self, value: int) -> int:
        """The number of the ``xsd:integer`` literal ``value``, whether the graph holds it
        or not (a count the index makes)."""
        return self._number(ox.Literal(str(value), datatype=_INTEGER))

    def id_of(self, iri: URIRef) -> int | None:
        """The number of an IRI met so far; None for one not met."""
        return self._numbers.get(ox.NamedNode(iri))

    def subjects_of(self, predicate: URIRef, obj: URIRef) -> list[int]:
        """The subjects that state ``predicate obj``, distinct, in the order they were met."""
        number = self._number
        return list(dict.fromkeys(number(quad.subject)
                                  for quad in self._statements(predicate, ox.NamedNode(obj))))

    def text(self, term_id: int) -> str:
        """A literal's lexical form, an IRI's text."""
        return term_text(self._terms[term_id])

    def texts(self, term_ids: Iterable[int]) -> list[str]:
        """The texts of literals (IRIs among them are skipped), in the order given."""
        terms = self._terms
        return [term_text(terms[i]) for i in term_ids if isinstance(terms[i], ox.Literal)]

    def is_iri(self, term_id: int) -> bool:
        return isinstance(self._terms[term_id], ox.NamedNode)

    def ntriples(self, term_id: int) -> str:
        return str(self._terms[term_id])


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
