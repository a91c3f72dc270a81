"""The built dataset as a table: each distinct RDF term once, each quad four integers.

A build of 10,000 records states about a million quads over a few hundred thousand distinct
terms (predicates, classes, the named graph of a record, shared organisations, people and
labels repeat). The mapping therefore interns every term as it states it: ``TermTable``
gives each distinct term a small integer id and keeps its N-Triples form (what the writers
sort and write) and its kind; the rdflib term (what the rdflib API hands out) is made from
them when asked for (``TermTable.terms``). ``QuadTable`` keeps the quads as rows of 32-bit
ids, so that writing a million quads never converts a million rdflib terms, and makes the
rdflib quads only when a caller asks for them (``QuadTable.quads``).

What a table holds is what a build of 100,000 records holds longest (3.3 million terms, 13
million quads): an rdflib term kept for every term cost as much as the forms themselves, the
lookups (term to id) as much again, and 64-bit ids twice what they need. So the terms are
made on demand (a literal with a datatype or a language tag, a small share, is kept once
made, until the freeze), the lookups go once the table will not grow again
(``TermTable.freeze``), and ids are 32-bit (a table holds far fewer than 2**31 terms).

Ids are handed out by N-Triples form: two rdflib terms that are the same RDF term
(``"a"@en-US`` and ``"a"@en-us``, a plain literal and one typed ``xsd:string``) share one
id, and the first one stated is the one ``terms`` gives (its lexical form and language tag
as stated). Every IRI, datatype and language tag is checked by pyoxigraph, once per
distinct value: ValueError names the bad one. A blank node is refused (TypeError): the
graph never holds one.
"""

from __future__ import annotations

import json
import sys
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from json.encoder import encode_basestring as quoted
from typing import Any, TypeVar, cast, overload

import numpy as np
import numpy.typing as npt
from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from graph.dataset.form_index import FormIndex
from graph.dataset.oxigraph import literal, named_node
from graph.dataset.quads import Object, Quad
from graph.dataset.terms import iri as known_iri
from graph.dataset.terms import plain

SUBJECT, PREDICATE, OBJECT, GRAPH = range(4)
"""The positions of a quad, as ``QuadTable.column`` takes them."""

_NONE = "None"  # str(None): what a missing datatype is in a literal key (no IRI is "None")
_XSD_STRING = str(XSD.string)
_IRI, _PLAIN, _TYPED, _TAGGED = b"IPTL"
_ID_TYPE = "i"
"""The array type of a row's ids: a 32-bit integer."""
_BLOCK_ROWS = 1 << 20
"""Rows ``QuadTable.keep_where`` moves at a time: four ids a row, a small part of a large
table."""
_Key = TypeVar("_Key")


class _Ids(dict[_Key, int]):
    """A dictionary that makes the id of a key it has not seen yet with ``make``, unless a
    restored table holds it (``kept``, by the N-Triples form ``form`` gives the key, None
    for a key no kept term can be: ``TermTable.restored``)."""

    def __init__(self, make: Callable[[_Key], int],
                 form: Callable[[_Key], str | None] | None = None) -> None:
        super().__init__()
        self._make, self._form = make, form
        self.kept: _Restored | None = None

    def __missing__(self, key: _Key) -> int:
        kept = self.find(key)
        found = self[key] = self._make(key) if kept is None else kept
        return found

    def find(self, key: _Key) -> int | None:
        """The id of ``key`` among the kept terms (None: not one of them)."""
        if self.kept is None or self._form is None:
            return None
        form = self._form(key)
        return None if form is None else self.kept.get(form)


class _Restored:
    """The terms a restored table started with, looked up by N-Triples form (which is one
    function of each kind's key) in a ``FormIndex``: the one its store kept, or, for a table
    restored without one, one made on the first lookup."""

    __slots__ = ("_count", "_forms", "_index")

    def __init__(self, forms: list[str], count: int, index: FormIndex | None) -> None:
        self._forms, self._count, self._index = forms, count, index

    def get(self, form: str) -> int | None:
        index = self._index
        if index is None:  # the restored terms only: those added since are looked up by key
            index = self._index = FormIndex.of(self._forms[:self._count])
        return index.find(form, self._forms)


def _iri_form(iri: object) -> str | None:
    return f"<{iri}>" if isinstance(iri, URIRef) else None


class _Suffixes(dict[tuple[str, str | None], str]):
    """What follows the quoted lexical form in N-Triples, per (datatype, language)."""

    def __missing__(self, key: tuple[str, str | None]) -> str:
        datatype, language = key
        empty = literal("", None if datatype == _NONE else datatype, language)
        found = self[key] = str(empty)[2:]  # pyoxigraph's own form after '""': '@en-us', '^^<…>'
        return found


class _DatatypeSuffixes(dict[URIRef, str]):
    """What follows a typed literal's quoted lexical form in N-Triples, per datatype: ""
    for ``xsd:string``, whose literals are the plain ones."""

    def __init__(self, suffixes: _Suffixes) -> None:
        super().__init__()
        self._suffixes = suffixes

    def __missing__(self, datatype: URIRef) -> str:
        text = str(datatype)
        found = self[datatype] = "" if text == _XSD_STRING else self._suffixes[text, None]
        return found


class _Stored:
    """The terms themselves, by id. Kept apart from the lookups that call into it, so that
    a table holds no reference cycle: dropped, it is freed at once, not by the collector."""

    __slots__ = ("kinds", "ntriples", "tags")

    def __init__(self) -> None:
        self.ntriples: list[str] = []
        self.kinds = bytearray()
        """``_IRI``, ``_PLAIN``, ``_TYPED`` or ``_TAGGED``, a byte an id."""
        self.tags: dict[int, str] = {}
        """The language tag of each tagged literal as stated (its form holds pyoxigraph's
        lower-case one)."""

    def add(self, text: str, kind: int) -> int:
        self.ntriples.append(text)
        self.kinds.append(kind)
        return len(self.ntriples) - 1


def _lexical(form: str) -> str:
    """A literal's lexical form from its N-Triples form: the JSON string up to its last
    quote (what follows, a language tag or a datatype IRI, holds none)."""
    quoted_form = form[: form.rindex('"') + 1]
    if "\\" not in quoted_form:
        return quoted_form[1:-1]
    return cast(str, json.loads(quoted_form))


def _datatype(form: str) -> str:
    """A typed literal's datatype IRI from its N-Triples form (``"…"^^<datatype>``)."""
    return form[form.rindex('"') + 4 : -1]


class _Terms(Sequence[Object]):
    """The rdflib term of each id, made from its form when asked for: an IRI or a plain
    literal anew each time (about as cheap as looking one up, and nothing kept), a literal
    with a datatype or a language tag once (making it parses its value)."""

    def __init__(self, stored: _Stored) -> None:
        self._stored = stored
        self.made: dict[int, Object] = {}
        """The typed and tagged literals made so far, by id."""
        self.keeps = True
        """Whether a literal made is kept in ``made`` (until the table is frozen)."""

    def __len__(self) -> int:
        return len(self._stored.ntriples)

    @overload
    def __getitem__(self, index: int) -> Object: ...

    @overload
    def __getitem__(self, index: slice) -> list[Object]: ...

    def __getitem__(self, index: int | slice) -> Object | list[Object]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        stored = self._stored
        form = stored.ntriples[index]  # an IndexError as a list gives it
        kind = stored.kinds[index]
        if kind == _IRI:
            return known_iri(form[1:-1])
        if kind == _PLAIN:
            return plain(_lexical(form))
        found = self.made.get(index)
        if found is None:
            index = range(len(self))[index]
            if kind == _TYPED:  # the lexical form as stated, its Python value parsed
                found = Literal(_lexical(form), datatype=known_iri(_datatype(form)),
                                normalize=False)
            else:
                found = Literal(_lexical(form), lang=stored.tags[index])
            if self.keeps:
                self.made[index] = found
        return found


@dataclass(frozen=True)
class TermSnapshot:
    """Every term of a ``TermTable`` by id, as plain data: what a store keeps on disk to
    restore the table of its build (``TermTable.snapshot``, ``TermTable.restored``)."""

    kinds: bytes
    """One byte an id: ``I`` an IRI, ``P`` a plain literal, ``T`` a typed one, ``L`` one
    with a language tag."""
    ntriples: list[str]
    """The N-Triples form of each id (a literal's lexical form is in it)."""
    extras: list[str]
    """The datatype of each typed literal and the language tag (as stated) of each tagged
    one, in id order."""

    @classmethod
    def joined(cls, parts: Iterable[TermSnapshot]) -> TermSnapshot:
        """The snapshots of consecutive id ranges as one (``TermTable.snapshot(start)``)."""
        kinds, ntriples, extras = bytearray(), [], []
        for part in parts:
            kinds += part.kinds
            ntriples += part.ntriples
            extras += part.extras
        return cls(bytes(kinds), ntriples, extras)




def _new_iri(stored: _Stored, iri: URIRef) -> int:
    if not isinstance(iri, URIRef):
        raise TypeError(f"expected an IRI, got {type(iri).__name__} {iri!r}")
    return stored.add(str(named_node(str(iri))), _IRI)


def _new_literal(stored: _Stored, form: str) -> int:
    """A literal's kind is in its form: what follows its last quote (nothing, ``^^<…>`` or
    ``@tag``)."""
    after = form[form.rindex('"') + 1:]
    return stored.add(form, _PLAIN if not after else _TYPED if after[0] == "^" else _TAGGED)


def _itself(form: str) -> str:
    return form


def _frozen(*args: object) -> int:
    raise RuntimeError("the term table is frozen (TermTable.freeze): it looks up no term")


class TermTable:
    """Distinct RDF terms, each with an integer id (0, 1, 2, …), its N-Triples form and an
    rdflib term (made when asked for).

    An IRI is looked up by its rdflib term, a literal by its N-Triples form, which is its
    identity: its lexical form, and its datatype or its lower-case language tag. A literal
    typed ``xsd:string`` has the plain literal's form. So one RDF term gets one id however it
    is stated."""

    def __init__(self) -> None:
        stored = self._stored = _Stored()
        self.ntriples: list[str] = stored.ntriples
        """The N-Triples form of each id."""
        self.terms: _Terms = _Terms(stored)
        """The rdflib term of each id (the first one stated), made when asked for."""
        self._suffixes = _Suffixes()
        self._datatypes = _DatatypeSuffixes(self._suffixes)
        self._found: dict[str, int | None] | None = None
        """Once frozen: the IRIs ``find_iri`` was asked for."""
        # The two lookups made for nearly every quad stated: C-level calls when the term is
        # known (``dict.__getitem__``), ``__missing__`` interns a new one.
        self._iri_ids = _Ids(partial(_new_iri, stored), _iri_form)
        self.iri: Callable[[URIRef], int] = self._iri_ids.__getitem__
        """The id of an IRI; TypeError for anything else (a blank node, a literal)."""
        # Literals by their form, which is the key and the stored form at once. By their
        # text, each plain one was held twice until the freeze (the text and its form); a
        # typed or tagged one by (text, datatype or tag), with the literal made of them kept
        # and held by the build to its end (perf/decisions/term-lookups-by-form.md).
        literal_ids = self._literal_ids = _Ids(partial(_new_literal, stored), _itself)

        def plain(text: str) -> int:
            """The id of the plain string literal ``text``."""
            return literal_ids[quoted(text)]

        self.plain: Callable[[str], int] = plain

    def __len__(self) -> int:
        return len(self.ntriples)

    def freeze(self) -> None:
        """Drop the lookups (term to id): the table will not grow again. They hold as much as
        the forms do (at 100,000 records, hundreds of megabytes a store build no longer
        needs); and the typed and tagged literals ``terms`` made are no longer kept.
        Afterwards ``find_iri`` still answers (by a scan of the forms, each IRI once) and the
        forms and terms are all there; looking a term up by its value (``iri``, ``plain``,
        ``typed``, ``object``, ``form``) is a RuntimeError."""
        if self._found is not None:
            return
        self._found = {}
        self.terms.made.clear()
        self.terms.keeps = False
        self._iri_ids, self._literal_ids = _Ids(_frozen), _Ids(_frozen)
        self.iri, self.plain = _frozen, _frozen

    def let_go(self) -> None:
        """Empty the table in place (``QuadTable.let_go``), frozen: it holds no term."""
        self.freeze()
        stored = self._stored
        stored.ntriples.clear()
        stored.kinds.clear()
        stored.tags.clear()
        self._found = {}

    def find_iri(self, iri: URIRef) -> int | None:
        """The id of an IRI the table holds; None (and nothing added) for one it does not."""
        if self._found is not None:
            text = str(iri)
            if text not in self._found:
                try:
                    self._found[text] = self.ntriples.index(f"<{text}>")
                except ValueError:
                    self._found[text] = None
            return self._found[text]
        found = self._iri_ids.get(iri)
        return self._iri_ids.find(iri) if found is None else found

    def typed(self, lexical: str, datatype: URIRef) -> int:
        """The id of a typed literal, from its lexical form (``xsd:string``: the plain
        literal's)."""
        return self._literal_ids[quoted(lexical) + self._datatypes[datatype]]

    def object(self, term: Object) -> int:
        """The id of an object: an IRI or a literal; TypeError for anything else."""
        if not isinstance(term, Literal):
            return self.iri(term)
        lexical = str(term)
        language = term.language
        if language:
            found = self._literal_ids[quoted(lexical) + self._suffixes[_NONE, language]]
            self._stored.tags.setdefault(found, language)  # as first stated, for ``terms``
            return found
        datatype = term.datatype
        if datatype is None:
            return self.plain(lexical)
        return self.typed(lexical, datatype)

    def form(self, term: Object) -> str:
        """The N-Triples form of an IRI or a literal (interned like any other): the one way an
        rdflib term becomes pyoxigraph's text, for a store to load or a query to hold."""
        return self.ntriples[self.object(term)]

    def snapshot(self, start: int = 0) -> TermSnapshot:
        """The table's terms from id ``start`` on as data: ``restored`` gives the same table
        back from the snapshots of all of them (``TermSnapshot.joined``). From id 0 its
        ``ntriples`` is the table's own list, not a copy: write the snapshot out before the
        table grows again. The datatypes are interned: a few datatypes serve tens of
        thousands of typed literals, and a string each would be held while the store build
        writes its state (perf/decisions/term-lookups-by-form.md)."""
        stored = self._stored
        kinds = bytes(stored.kinds[start:])
        forms = self.ntriples if start == 0 else self.ntriples[start:]  # the forms themselves
        codes = np.frombuffer(kinds, dtype=np.uint8)
        extras = [sys.intern(_datatype(forms[i])) if kinds[i] == _TYPED
                  else stored.tags[start + i]
                  for i in np.flatnonzero((codes == _TYPED) | (codes == _TAGGED)).tolist()]
        return TermSnapshot(kinds, forms, extras)

    @classmethod
    def restored(cls, snapshot: TermSnapshot, index: FormIndex | None = None) -> TermTable:
        """The table ``snapshot`` was taken of: the same ids, forms and lookups. Nothing is
        made of it up front but the forms and the tags: a term is looked up by its form,
        once a lookup misses the terms added since (``_Restored``), and an rdflib term is
        made when its id is asked for (``terms[id]``). So an incremental build, which states
        a few records' terms and reads a few thousand others, never makes the few hundred
        thousand a table holds (perf/decisions/kept-terms-form-index.md). ``index`` is the
        snapshot's ``FormIndex``, where the store kept one."""
        table = cls()
        stored = table._stored
        forms = snapshot.ntriples
        stored.ntriples.extend(forms)
        kinds = snapshot.kinds
        stored.kinds.extend(kinds)
        codes = np.frombuffer(kinds, dtype=np.uint8)
        extra_ids = np.flatnonzero((codes == _TYPED) | (codes == _TAGGED)).tolist()
        stored.tags.update((term_id, extra) for term_id, extra
                           in zip(extra_ids, snapshot.extras, strict=True)
                           if kinds[term_id] == _TAGGED)
        kept = _Restored(stored.ntriples, len(forms), index)
        table._iri_ids.kept = table._literal_ids.kept = kept
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
        self._hold(array(_ID_TYPE))

    def _hold(self, rows: array[int]) -> None:
        """Keep ``rows``, four ids a quad one after another, as the table's own."""
        self._rows = rows
        self.add: Callable[[tuple[int, int, int, int]], None] = rows.extend
        """Adds a quad, as the ids ``terms`` gave its (subject, predicate, object, graph);
        a C-level call, as it is made for every quad of a build."""

    @classmethod
    def of_rows(cls, terms: TermTable, rows: npt.NDArray[np.integer[Any]]) -> QuadTable:
        """A table of ``terms`` holding ``rows`` (as ``rows()`` or ``held_rows()`` gives them,
        ids of any integer width): a kept table restored, or part of one (``select``).
        Mapping more records into it adds to ``terms``, which may be shared with another
        table."""
        table = cls(terms)
        table.add_rows(rows)
        return table

    def add_rows(self, rows: npt.NDArray[np.integer[Any]]) -> None:
        """Rows of ids of this table's terms, added at its end in place (a large buffer grows
        by remapping its pages, not by a copy; 32-bit rows are copied once, others twice)."""
        ids = np.ascontiguousarray(rows, dtype=np.int32).reshape(-1)
        self._rows.frombytes(ids.view(np.uint8).data)

    def rows(self) -> npt.NDArray[np.int64]:
        """Every quad as a row of four ids (subject, predicate, object, graph), a copy."""
        return np.frombuffer(self._rows, dtype=np.int32).reshape(-1, 4).astype(np.int64)

    def held_rows(self) -> npt.NDArray[np.int32]:
        """Every quad as a row of four ids, the table's own 32-bit ids, not a copy (read-only:
        ``rows()`` is a copy twice its size: perf/decisions/rows-read-in-place.md). The
        table cannot grow while the view is alive (its buffer is exported): BufferError if
        it tries."""
        view = np.frombuffer(self._rows, dtype=np.int32).reshape(-1, 4)
        view.flags.writeable = False
        return view

    def let_go(self) -> None:
        """Empty the table in place, its terms with it: whoever holds it, its memory goes
        back (a store build done with it before its load starts: ``build_store(let_go=True)``).
        A view ``held_rows`` gave keeps the rows it saw."""
        self._hold(array(_ID_TYPE))
        self.terms.let_go()

    def select(self, keep: npt.NDArray[np.bool_]) -> QuadTable:
        """A table of the same terms holding the quads where ``keep`` is true, copied once,
        straight into its own buffer: ``of_rows(terms, rows[keep])`` holds the selection twice
        for a while."""
        table = QuadTable(self.terms)
        table._hold(array(_ID_TYPE, [0]) * (4 * int(np.count_nonzero(keep))))
        np.compress(keep, self.held_rows(), axis=0,
                    out=np.frombuffer(table._rows, dtype=np.int32).reshape(-1, 4))
        return table

    def keep_where(self, keep: npt.NDArray[np.bool_]) -> None:
        """Keep only the quads where ``keep`` is true, in place: the kept rows are moved to
        the front of the table's own buffer a block at a time, and its end is given back.
        An incremental build makes its table so from the kept one, which nothing else reads
        after: ``select`` would hold both (perf/decisions/rebuild-table-in-place.md). While
        a view ``held_rows`` gave is alive, BufferError, before any row moves."""
        self._rows.append(0)  # a buffer with a view alive cannot change size: BufferError
        self._rows.pop()
        rows = np.frombuffer(self._rows, dtype=np.int32).reshape(-1, 4)
        if keep.shape != (len(rows),):
            raise ValueError(f"{keep.shape} flags for {len(rows)} quads")
        written = 0
        for start in range(0, len(rows), _BLOCK_ROWS):
            block = rows[start:start + _BLOCK_ROWS][keep[start:start + _BLOCK_ROWS]]  # a copy
            rows[written:written + len(block)] = block  # never past the block it came from
            written += len(block)
        del rows
        del self._rows[4 * written:]

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
        flat = array(_ID_TYPE, bytes(4 * 4 * len(rows)))
        for position, column in enumerate(columns):
            flat[position::4] = array(_ID_TYPE, column)
        self._rows.extend(flat)

    def column(self, position: int) -> npt.NDArray[np.int64]:
        """The ids at one position (``SUBJECT``, ``PREDICATE``, ``OBJECT``, ``GRAPH``) of
        every quad, as a numpy array of its own (the table may grow while it is used)."""
        return np.frombuffer(self._rows[position::4], dtype=np.int32).astype(np.int64)

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
