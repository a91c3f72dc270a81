"""The built dataset as a table: each distinct RDF term once, each quad four integers.

A build of 10,000 records states about a million quads over a few hundred thousand distinct
terms (predicates, classes, the named graph of a record, shared organisations, people and
labels repeat). The mapping therefore interns every term as it states it: ``TermTable``
gives each distinct term a small integer id, its N-Triples form (what the writers sort and
write) and one rdflib term (what the rdflib API hands out). ``QuadTable`` keeps the quads as
rows of ids, so that writing a million quads never converts a million rdflib terms, and
makes the rdflib quads only when a caller asks for them (``QuadTable.quads``).

Ids are handed out by N-Triples form: two rdflib terms that are the same RDF term
(``"a"@en-US`` and ``"a"@en-us``, a plain literal and one typed ``xsd:string``) share one
id, and the first one stated is the one ``terms`` keeps. Literals keep their lexical form
exactly as stated. Every IRI, datatype and language tag is checked by pyoxigraph, once per
distinct value: ValueError names the bad one. A blank node is refused (TypeError): the
graph never holds one.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from json.encoder import encode_basestring as quoted
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from graph.dataset.oxigraph import literal, named_node
from graph.dataset.quads import Object, Quad
from graph.dataset.terms import iri as known_iri
from graph.dataset.terms import plain, typed

SUBJECT, PREDICATE, OBJECT, GRAPH = range(4)
"""The positions of a quad, as ``QuadTable.column`` takes them."""

_NONE = "None"  # str(None): what a missing datatype is in a literal key (no IRI is "None")
_XSD_STRING = str(XSD.string)
_IRI, _PLAIN, _TYPED, _TAGGED = b"IPTL"
_Key = TypeVar("_Key")


class _Ids(dict[_Key, int]):
    """A dictionary that makes the id of a key it has not seen yet with ``make``, unless a
    restored table ``kept`` it (by its text: ``TermTable.restored``)."""

    def __init__(self, make: Callable[[_Key], int]) -> None:
        super().__init__()
        self._make = make
        self.kept: dict[str, int] = {}

    def __missing__(self, key: _Key) -> int:
        kept = self.kept.get(str(key)) if self.kept and isinstance(key, URIRef) else None
        found = self[key] = self._make(key) if kept is None else kept
        return found


class _LazyTerms(list[Object]):
    """The rdflib terms of a restored table, each made on first use by ``make`` (its id)."""

    def __init__(self, count: int, make: Callable[[int], Object]) -> None:
        super().__init__([None] * count)  # type: ignore[list-item]
        self._make = make

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        found = super().__getitem__(index)
        if found is None:
            index = range(len(self))[index]
            found = self._make(index)
            self[index] = found
        return found

    def __iter__(self) -> Iterator[Object]:
        return (self[i] for i in range(len(self)))


class _Suffixes(dict[tuple[str, str | None], str]):
    """What follows the quoted lexical form in N-Triples, per (datatype, language)."""

    def __missing__(self, key: tuple[str, str | None]) -> str:
        datatype, language = key
        empty = literal("", None if datatype == _NONE else datatype, language)
        found = self[key] = str(empty)[2:]  # pyoxigraph's own form after '""': '@en-us', '^^<…>'
        return found


class _Stored:
    """The terms themselves, by id. Kept apart from the lookups that call into it, so that
    a table holds no reference cycle: dropped, it is freed at once, not by the collector."""

    __slots__ = ("ntriples", "terms")

    def __init__(self) -> None:
        self.ntriples: list[str] = []
        self.terms: list[Object] = []

    def add(self, text: str, term: Object) -> int:
        self.ntriples.append(text)
        self.terms.append(term)
        return len(self.ntriples) - 1


@dataclass(frozen=True)
class TermSnapshot:
    """Every term of a ``TermTable`` by id, as plain data: what a store keeps on disk to
    restore the table of its build (``TermTable.snapshot``, ``TermTable.restored``)."""

    kinds: bytes
    """One byte an id: ``I`` an IRI, ``P`` a plain literal, ``T`` a typed one, ``L`` one
    with a language tag."""
    ntriples: list[str]
    """The N-Triples form of each id."""
    lexicals: list[str]
    """The lexical form of each literal, in id order (IRIs have none)."""
    extras: list[str]
    """The datatype of each typed literal and the language tag (as stated) of each tagged
    one, in id order."""

    @classmethod
    def joined(cls, parts: Iterable[TermSnapshot]) -> TermSnapshot:
        """The snapshots of consecutive id ranges as one (``TermTable.snapshot(start)``)."""
        kinds, ntriples, lexicals, extras = bytearray(), [], [], []
        for part in parts:
            kinds += part.kinds
            ntriples += part.ntriples
            lexicals += part.lexicals
            extras += part.extras
        return cls(bytes(kinds), ntriples, lexicals, extras)


def _new_iri(stored: _Stored, iri: URIRef) -> int:
    if not isinstance(iri, URIRef):
        raise TypeError(f"expected an IRI, got {type(iri).__name__} {iri!r}")
    return stored.add(str(named_node(str(iri))), iri)


def _new_plain(stored: _Stored, text: str) -> int:
    return stored.add(quoted(text), plain(text))


class TermTable:
    """Distinct RDF terms, each with an integer id (0, 1, 2, …), its N-Triples form and an
    rdflib term.

    Each kind of term is looked up by its own key, which is the term's identity: an IRI by
    its text, a plain literal by its string, a typed literal by (lexical form, datatype), a
    language-tagged one by (lexical form, lower-case tag). A literal typed ``xsd:string`` is
    the plain literal. So one RDF term gets one id however it is stated."""

    def __init__(self) -> None:
        stored = self._stored = _Stored()
        self.ntriples: list[str] = stored.ntriples
        """The N-Triples form of each id."""
        self.terms: list[Object] = stored.terms
        """The rdflib term of each id (the first one stated)."""
        self._suffixes = _Suffixes()
        self._typed: dict[tuple[str, URIRef], int] = {}
        self._tagged: dict[tuple[str, str], int] = {}
        # The two lookups made for nearly every quad stated: C-level calls when the term is
        # known (``dict.__getitem__``), ``__missing__`` interns a new one.
        self._iri_ids = _Ids(partial(_new_iri, stored))
        self.iri: Callable[[URIRef], int] = self._iri_ids.__getitem__
        """The id of an IRI; TypeError for anything else (a blank node, a literal)."""
        self._plain_ids = _Ids(partial(_new_plain, stored))
        self.plain: Callable[[str], int] = self._plain_ids.__getitem__
        """The id of the plain string literal ``text``."""

    def __len__(self) -> int:
        return len(self.ntriples)

    def find_iri(self, iri: URIRef) -> int | None:
        """The id of an IRI the table holds; None (and nothing added) for one it does not."""
        found = self._iri_ids.get(iri)
        return self._iri_ids.kept.get(str(iri)) if found is None else found

    def typed(self, lexical: str, datatype: URIRef, value: Any) -> int:
        """The id of a typed literal, from its lexical form and its Python value (as
        ``graph.dataset.terms.typed`` takes them)."""
        key = (lexical, datatype)
        found = self._typed.get(key)
        if found is None:
            if str(datatype) == _XSD_STRING:  # the plain literal (URIRef.__eq__ is not str)
                return self.plain(str(lexical))
            text = quoted(lexical) + self._suffixes[str(datatype), None]
            found = self._typed[key] = self._stored.add(text, typed(lexical, datatype, value))
        return found

    def object(self, term: Object) -> int:
        """The id of an object: an IRI or a literal; TypeError for anything else."""
        if not isinstance(term, Literal):
            return self.iri(term)
        lexical = str(term)
        language = term.language
        if language:
            key = (lexical, language.lower())
            found = self._tagged.get(key)
            if found is None:
                text = quoted(lexical) + self._suffixes[_NONE, language]
                found = self._tagged[key] = self._stored.add(text, term)
            return found
        datatype = term.datatype
        if datatype is None:
            return self.plain(lexical)
        return self.typed(lexical, datatype, term.value)

    def form(self, term: Object) -> str:
        """The N-Triples form of an IRI or a literal (interned like any other): the one way an
        rdflib term becomes pyoxigraph's text, for a store to load or a query to hold."""
        return self.ntriples[self.object(term)]

    def snapshot(self, start: int = 0) -> TermSnapshot:
        """The table's terms from id ``start`` on as data: ``restored`` gives the same table
        back from the snapshots of all of them (``TermSnapshot.joined``)."""
        kinds = bytearray(len(self.ntriples) - start)
        lexicals: list[str] = []
        extras: list[str] = []
        for offset, term in enumerate(self.terms[start:]):
            if not isinstance(term, Literal):
                kinds[offset] = _IRI
                continue
            lexicals.append(str(term))
            if term.language:
                kinds[offset] = _TAGGED
                extras.append(term.language)
            elif term.datatype is None or str(term.datatype) == _XSD_STRING:
                kinds[offset] = _PLAIN
            else:
                kinds[offset] = _TYPED
                extras.append(str(term.datatype))
        return TermSnapshot(bytes(kinds), self.ntriples[start:], lexicals, extras)

    @classmethod
    def restored(cls, snapshot: TermSnapshot) -> TermTable:
        """The table ``snapshot`` was taken of: the same ids, forms and lookups. Nothing is
        made of it up front but two dictionaries of text: an rdflib term is made when its id
        is first asked for (``terms[id]``), an IRI's lookup entry when the IRI is first
        looked up. So an incremental build, which states a few records' terms and reads a
        few thousand others, never makes the few hundred thousand a table holds (at 10,000
        records, making them all took 5-7 s of a rebuild). Terms are made without checking
        (they were when first stated); a typed literal's Python value is not made again
        (``value`` is None): a caller handing terms to rdflib-level checks (SHACL) makes
        them anew from their lexical form and datatype."""
        table = cls()
        forms = snapshot.ntriples
        table._stored.ntriples.extend(forms)
        kinds = snapshot.kinds
        literal_ids = [i for i, kind in enumerate(kinds) if kind != _IRI]
        lexical_of = dict(zip(literal_ids, snapshot.lexicals, strict=True))
        extra_ids = [i for i, kind in enumerate(kinds) if kind in (_TYPED, _TAGGED)]
        extra_of = dict(zip(extra_ids, snapshot.extras, strict=True))

        def make(term_id: int) -> Object:
            kind = kinds[term_id]
            if kind == _IRI:
                return known_iri(forms[term_id][1:-1])
            if kind == _PLAIN:
                return plain(lexical_of[term_id])
            if kind == _TYPED:
                return typed(lexical_of[term_id], known_iri(extra_of[term_id]), None)
            return Literal(lexical_of[term_id], lang=extra_of[term_id])

        table._stored.terms = _LazyTerms(len(forms), make)
        table.terms = table._stored.terms
        table._iri_ids.kept = {forms[i][1:-1]: i for i, kind in enumerate(kinds) if kind == _IRI}
        for term_id, lexical in lexical_of.items():
            kind = kinds[term_id]
            if kind == _PLAIN:
                table._plain_ids[lexical] = term_id
            elif kind == _TYPED:
                table._typed[lexical, known_iri(extra_of[term_id])] = term_id
            else:
                table._tagged[lexical, extra_of[term_id].lower()] = term_id
        return table

    def order(self) -> list[int]:
        """Every id, sorted by the N-Triples form of its term."""
        return sorted(range(len(self.ntriples)), key=self.ntriples.__getitem__)

    def encoded(self, ids: Iterable[int]) -> list[bytes]:
        """The UTF-8 N-Triples form of each id; ValueError for a string that is not valid
        Unicode (a lone surrogate)."""
        texts = self.ntriples
        try:
            return list(map(str.encode, map(texts.__getitem__, ids)))
        except UnicodeEncodeError as error:
            bad = next(text for text in texts if not _encodes(text))
            raise ValueError(f"not valid Unicode ({error.reason}): {bad}") from None


def _encodes(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


class QuadTable:
    """Quads as rows of term ids: (subject, predicate, object, graph), in the order stated,
    repeats included."""

    def __init__(self, terms: TermTable | None = None) -> None:
        self.terms = TermTable() if terms is None else terms
        self._rows = array("q")  # four ids a quad, one after another
        self.add: Callable[[tuple[int, int, int, int]], None] = self._rows.extend
        """Adds a quad, as the ids ``terms`` gave its (subject, predicate, object, graph);
        a C-level call, as it is made for every quad of a build."""

    @classmethod
    def of_rows(cls, terms: TermTable, rows: npt.NDArray[np.int64]) -> QuadTable:
        """A table of ``terms`` holding ``rows`` (as ``rows()`` gives them): a kept table
        restored, or part of one (``select``). Mapping more records into it adds to
        ``terms``, which may be shared with another table."""
        table = cls(terms)
        table._rows.frombytes(np.ascontiguousarray(rows, dtype=np.int64).tobytes())
        return table

    def rows(self) -> npt.NDArray[np.int64]:
        """Every quad as a row of four ids (subject, predicate, object, graph), a copy."""
        return np.frombuffer(self._rows, dtype=np.int64).reshape(-1, 4).copy()

    def select(self, keep: npt.NDArray[np.bool_]) -> QuadTable:
        """A table of the same terms holding the quads where ``keep`` is true."""
        return QuadTable.of_rows(self.terms, self.rows()[keep])

    def __len__(self) -> int:
        return len(self._rows) // 4

    def extend(self, quads: Iterable[Quad]) -> None:
        """rdflib quads (the ontology's, a test's); TypeError for a row that is not a quad of
        IRIs and literals, ValueError for a term pyoxigraph refuses."""
        rows = quads if isinstance(quads, (list, tuple)) else list(quads)
        if not rows:
            return
        subjects, predicates, objects, graphs = _split(rows)
        terms = self.terms
        columns = (
            map(terms.iri, subjects),
            map(terms.iri, predicates),
            map(terms.object, objects),
            map(terms.iri, graphs),
        )
        flat = array("q", bytes(8 * 4 * len(rows)))
        for position, column in enumerate(columns):
            flat[position::4] = array("q", column)
        self._rows.extend(flat)

    def column(self, position: int) -> npt.NDArray[np.int64]:
        """The ids at one position (``SUBJECT``, ``PREDICATE``, ``OBJECT``, ``GRAPH``) of
        every quad, as a numpy array of its own (the table may grow while it is used)."""
        return np.frombuffer(self._rows[position::4], dtype=np.int64)

    def quads(self) -> list[Quad]:
        """Every quad as rdflib terms, in the order stated."""
        term = self.terms.terms.__getitem__
        columns = [map(term, self.column(position).tolist()) for position in range(4)]
        return list(zip(*columns, strict=True))

    @classmethod
    def of(cls, quads: Iterable[Quad]) -> QuadTable:
        """A table of rdflib quads."""
        table = cls()
        table.extend(quads)
        return table


def _split(rows: list[Quad] | tuple[Quad, ...]) -> tuple[tuple[Any, ...], ...]:
    """Subjects, predicates, objects and graphs as four columns; TypeError unless each row has 4."""
    try:
        split = tuple(zip(*rows, strict=True))
    except ValueError:
        split = ()
    if len(split) != 4:
        odd = next((row for row in rows if len(row) != 4), rows[0])
        raise TypeError(f"a quad has four terms (subject, predicate, object, graph), not {odd!r}")
    return split
