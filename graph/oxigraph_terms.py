"""rdflib terms to pyoxigraph, fast: each distinct term is converted once.

A build holds a million quads whose terms repeat (predicates, classes, the named graph of a
record, shared organisations and people), so ``TermTable`` gives each distinct RDF term one
small integer id and its N-Triples form, which pyoxigraph reads back in bulk. Whole columns of
terms are looked up with C-level ``map`` calls: a Python-level loop per quad would cost more
than the conversion itself.

IRIs are looked up as the rdflib objects themselves (a ``URIRef`` hashes as its ``str`` and
keeps the hash, and a term met again is most often the very same object). Literals are looked
up by plain-``str`` keys (lexical form, datatype, language): ``Literal.__hash__`` and ``__eq__``
are Python functions, and each literal is most often an object of its own.

Literals keep their lexical form exactly as rdflib holds it (``str(literal)``). Every IRI,
datatype and language tag is checked by pyoxigraph (once per distinct value); a literal typed
``xsd:string`` is the same RDF term as a plain one and is written plain, and language tags are
written in lower case (RDF compares them case-insensitively).
"""

from collections.abc import Callable, Iterable
from itertools import compress, repeat
from json.encoder import encode_basestring as quoted  # type: ignore[attr-defined]
from operator import attrgetter, not_
from typing import TypeVar

import pyoxigraph as ox
from rdflib import Literal, URIRef
from rdflib.namespace import RDF

from graph.quads import Object, Quad

OxTerm = ox.NamedNode | ox.Literal

_LANG_STRING = str(RDF.langString)
_NONE = "None"  # str(None): what a missing datatype is in a literal key (no IRI is "None")
_LiteralKey = tuple[str, str, str | None]  # lexical form, str(datatype), language
_Key = TypeVar("_Key")


class _Ids(dict[_Key, int]):
    """A dictionary that makes the value of a key it has not seen yet with ``make``."""

    def __init__(self, make: Callable[[_Key], int]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: _Key) -> int:
        found = self[key] = self._make(key)
        return found


class _Suffixes(dict[tuple[str, str | None], str]):
    """What follows the quoted lexical form in N-Triples, per (datatype, language)."""

    def __missing__(self, key: tuple[str, str | None]) -> str:
        datatype, language = key
        empty = literal("", None if datatype == _NONE else datatype, language)
        found = self[key] = str(empty)[2:]  # pyoxigraph's own form after '""': '@en-us', '^^<…>'
        return found


def named_node(iri: str) -> ox.NamedNode:
    """The pyoxigraph IRI; ValueError naming the IRI when it is not a valid absolute IRI."""
    try:
        return ox.NamedNode(iri)
    except ValueError as error:
        raise ValueError(f"not a valid IRI: {iri!r} ({error})") from None


def literal(lexical: str, datatype: str | None = None, language: str | None = None) -> ox.Literal:
    """The pyoxigraph literal with this exact lexical form and its language tag or datatype."""
    if language:
        try:
            return ox.Literal(lexical, language=language)
        except ValueError as error:
            raise ValueError(f"not a valid language tag: {language!r} ({error})") from None
    if datatype is None:
        return ox.Literal(lexical)
    if datatype == _LANG_STRING:
        raise ValueError(f"literal {lexical!r} has datatype rdf:langString but no language tag")
    return ox.Literal(lexical, datatype=named_node(datatype))


def to_oxigraph(term: Object) -> OxTerm:
    """One rdflib IRI or literal as a pyoxigraph term (for a few terms: nothing is cached)."""
    if isinstance(term, URIRef):
        return named_node(str(term))
    if isinstance(term, Literal):
        datatype = term.datatype
        return literal(str(term), None if datatype is None else str(datatype), term.language)
    raise TypeError(f"only IRIs and literals can be converted, not {type(term).__name__} {term!r}")


class TermTable:
    """Distinct RDF terms, each with an integer id (0, 1, 2, …) and its N-Triples form.

    Two rdflib terms that are the same RDF term (``"a"@en-US`` and ``"a"@en-us``, a plain
    literal and one typed ``xsd:string``) share one id: ids are handed out by N-Triples form.
    """

    def __init__(self) -> None:
        self.ntriples: list[str] = []
        """The N-Triples form of each id."""
        self._by_ntriples: dict[str, int] = {}
        self._iris: _Ids[URIRef] = _Ids(self._make_iri)
        self._literals: _Ids[_LiteralKey] = _Ids(self._make_literal)
        self._suffixes = _Suffixes()

    def __len__(self) -> int:
        return len(self.ntriples)

    def _add(self, text: str) -> int:
        found = self._by_ntriples.get(text)
        if found is None:
            found = self._by_ntriples[text] = len(self.ntriples)
            self.ntriples.append(text)
        return found

    def _make_iri(self, iri: URIRef) -> int:
        if not isinstance(iri, URIRef):
            raise TypeError(f"expected an IRI, got {type(iri).__name__} {iri!r}")
        return self._add(str(named_node(str(iri))))

    def _make_literal(self, key: _LiteralKey) -> int:
        lexical, datatype, language = key
        return self._add(quoted(lexical) + self._suffixes[datatype, language])

    def iri_ids(self, iris: Iterable[URIRef]) -> list[int]:
        """The id of each IRI (a subject, predicate or graph column); TypeError on anything else."""
        return list(map(self._iris.__getitem__, iris))

    def object_ids(self, objects: Iterable[Object]) -> list[int]:
        """The id of each object (IRI or literal); TypeError on anything else."""
        column = objects if isinstance(objects, (list, tuple)) else list(objects)
        is_literal = list(map(isinstance, column, repeat(Literal)))
        literals = list(compress(column, is_literal))
        keys = zip(
            map(str.__str__, literals),  # a plain str copy of the lexical form
            map(str, map(attrgetter("_datatype"), literals)),
            map(attrgetter("_language"), literals),
        )
        literal_ids = map(self._literals.__getitem__, keys)
        iri_ids = map(self._iris.__getitem__, compress(column, map(not_, is_literal)))
        # Back in column order: each flag picks the iterator to draw the next id from.
        return list(map(next, map((iri_ids, literal_ids).__getitem__, is_literal)))

    def order(self) -> list[int]:
        """Every id, sorted by the N-Triples form of its term."""
        return sorted(range(len(self.ntriples)), key=self.ntriples.__getitem__)

    def encoded(self, ids: Iterable[int]) -> list[bytes]:
        """The UTF-8 N-Triples form of each id; ValueError for a string that is not valid
        Unicode (a lone surrogate)."""
        texts = self.ntriples
        try:
            return [texts[index].encode() for index in ids]
        except UnicodeEncodeError as error:
            bad = next(text for text in texts if not _encodes(text))
            raise ValueError(f"not valid Unicode ({error.reason}): {bad}") from None


def _encodes(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def columns(rows: list[Quad] | tuple[Quad, ...]) -> tuple[tuple[URIRef, ...], ...]:
    """Subjects, predicates, objects and graphs as four columns; TypeError unless each row has 4."""
    try:
        split = tuple(zip(*rows, strict=True))
    except ValueError:
        split = ()
    if len(split) != 4:
        odd = next((row for row in rows if len(row) != 4), rows[0])
        raise TypeError(f"a quad has four terms (subject, predicate, object, graph), not {odd!r}")
    return split  # type: ignore[return-value]


def to_oxigraph_quads(quads: Iterable[Quad]) -> list[ox.Quad]:
    """The quads as pyoxigraph quads, in the same order, each distinct term converted once."""
    cache: dict[Object, OxTerm] = {}

    def convert(term: Object) -> OxTerm:
        found = cache.get(term)
        if found is None:
            found = cache[term] = to_oxigraph(term)
        return found

    return [ox.Quad(convert(s), convert(p), convert(o), convert(g)) for s, p, o, g in quads]
