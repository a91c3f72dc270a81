"""rdflib terms to pyoxigraph, fast: each distinct term is converted once.

A build holds a million quads whose terms repeat (predicates, classes, the named graph of a
record, shared organisations and people), so ``TermTable`` gives each distinct RDF term one
small integer id and its N-Triples form, which pyoxigraph reads back in bulk. Whole columns of
terms are looked up with C-level ``map`` calls: a Python-level loop per quad would cost more
than the conversion itself.

IRIs are looked up as the rdflib objects themselves (a ``URIRef`` hashes as its ``str`` and
keeps the hash, and a term met again is most often the very same object). Literals are looked
up by their N-Triples form, built for every literal with C-level calls (JSON's string escapes,
which are all N-Triples escapes, then ``@lang`` or ``^^<datatype>``): ``Literal.__hash__`` and
``__eq__`` are Python functions, and each literal is most often an object of its own.

Literals keep their lexical form exactly as rdflib holds it (``str(literal)``). Every IRI,
datatype and language tag is checked by pyoxigraph (once per distinct value); a literal typed
``xsd:string`` is the same RDF term as a plain one and is written plain, and language tags are
written in lower case (RDF compares them case-insensitively).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from itertools import chain, compress, repeat
from json.encoder import encode_basestring as quoted
from operator import add, attrgetter, floordiv, mod, mul, not_
from typing import TypeVar

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import RDF, XSD

from graph.quads import Object, Quad

OxTerm = ox.NamedNode | ox.Literal

_LANG_STRING = str(RDF.langString)
_XSD_STRING = str(XSD.string)
_NONE = "None"  # str(None): what a missing datatype is in a literal key (no IRI is "None")
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



def to_rdflib(term: object) -> URIRef | BNode | Literal:
    """A pyoxigraph term (a query answer) as the rdflib term that is the same RDF term."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return Literal(term.value, lang=term.language)
        datatype = term.datatype.value
        return Literal(term.value, datatype=None if datatype == _XSD_STRING else URIRef(datatype))
    raise TypeError(f"no rdflib term for {term!r}")

class _TextIds(dict[str, int]):
    """Ids by N-Triples form, handed out in order of first sight."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__()
        self._texts = texts

    def __missing__(self, text: str) -> int:
        found = self[text] = len(self._texts)
        self._texts.append(text)
        return found


class TermTable:
    """Distinct RDF terms, each with an integer id (0, 1, 2, …) and its N-Triples form.

    Two rdflib terms that are the same RDF term (``"a"@en-US`` and ``"a"@en-us``, a plain
    literal and one typed ``xsd:string``) share one id: ids are handed out by N-Triples form.
    """

    def __init__(self) -> None:
        self.ntriples: list[str] = []
        """The N-Triples form of each id."""
        self._by_text = _TextIds(self.ntriples)
        self._iris: _Ids[URIRef] = _Ids(self._make_iri)
        self._suffixes = _Suffixes()

    def __len__(self) -> int:
        return len(self.ntriples)

    def _make_iri(self, iri: URIRef) -> int:
        if not isinstance(iri, URIRef):
            raise TypeError(f"expected an IRI, got {type(iri).__name__} {iri!r}")
        return self._by_text[str(named_node(str(iri)))]

    def iri_ids(self, iris: Iterable[URIRef]) -> list[int]:
        """The id of each IRI (a subject, predicate or graph column); TypeError on anything else."""
        return list(map(self._iris.__getitem__, iris))

    def object_ids(self, objects: Iterable[Object]) -> list[int]:
        """The id of each object (IRI or literal); TypeError on anything else."""
        column = objects if isinstance(objects, (list, tuple)) else list(objects)
        is_literal = list(map(isinstance, column, repeat(Literal)))
        literals = list(compress(column, is_literal))
        # A literal's N-Triples form: its lexical form quoted and escaped, then the '@lang' or
        # '^^<datatype>' pyoxigraph writes for that language or datatype.
        datatypes = map(str, map(attrgetter("_datatype"), literals))
        kinds = zip(datatypes, map(attrgetter("_language"), literals), strict=True)
        texts = map(add, map(quoted, literals), map(self._suffixes.__getitem__, kinds))
        literal_ids = map(self._by_text.__getitem__, texts)
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
    return split


def sorted_statements(quads: Iterable[Quad], *, keep_graphs: bool) -> tuple[bytes, int]:
    """Canonical N-Quads (``keep_graphs``) or N-Triples of the union, without duplicates, sorted
    by the N-Triples form of (graph,) subject, predicate and object; and the number of lines.

    ValueError for an invalid IRI, language tag or string; TypeError for a blank node or a row
    that is not a quad."""
    rows = quads if isinstance(quads, (list, tuple)) else list(quads)
    if not rows:
        return b"", 0
    table, ids = _term_ids(rows, keep_graphs)
    order = table.order()
    statements = _sorted_keys(ids, order)
    digits = _digits(statements, len(order), len(ids))
    if keep_graphs:
        digits.append(digits.pop(0))  # N-Quads write the graph last
    words = table.encoded(order)
    inner = list(map(bytes.__add__, words, repeat(b" ")))
    final = list(map(bytes.__add__, words, repeat(b" .\n")))
    pieces = [map(inner.__getitem__, column) for column in digits[:-1]]
    pieces.append(map(final.__getitem__, digits[-1]))
    return b"".join(chain.from_iterable(zip(*pieces, strict=True))), len(statements)


def _term_ids(
    rows: list[Quad] | tuple[Quad, ...], keep_graphs: bool
) -> tuple[TermTable, list[array[int]]]:
    """The term table and one column of ids per position: (graph,) subject, predicate, object.
    Arrays, not lists, hold the ids: a million int objects kept alive cost page faults."""
    subjects, predicates, objects, graphs = columns(rows)
    table = TermTable()
    ids = [array("q", table.iri_ids(subjects)), array("q", table.iri_ids(predicates))]
    ids.append(array("q", table.object_ids(objects)))
    if keep_graphs:
        ids.insert(0, array("q", table.iri_ids(graphs)))  # graph first: one block per graph
    elif set(map(type, graphs)) != {URIRef}:  # unused, but a blank graph name is a mistake
        odd = next((name for name in graphs if not isinstance(name, URIRef)), None)
        if odd is not None:
            raise TypeError(f"a graph name must be an IRI, not {type(odd).__name__} {odd!r}")
    return table, ids


def _sorted_keys(ids: list[array[int]], order: list[int]) -> list[int]:
    """One integer per distinct statement, sorted. Its digits in base n (the number of terms)
    are the ranks of its terms in N-Triples order, so sorting the integers sorts the
    statements, and equal ones (duplicates) end up side by side."""
    n = len(order)
    rank = array("q", bytes(8 * n))
    for position, index in enumerate(order):
        rank[index] = position
    weights = [n**power for power in range(len(ids) - 1, 0, -1)]
    weighted = [list(map(mul, rank, repeat(weight))) for weight in weights]  # may pass 2**63
    packed = map(rank.__getitem__, ids[-1])
    for ranks, column in zip(weighted, ids, strict=False):
        packed = map(add, map(ranks.__getitem__, column), packed)
    return list(dict.fromkeys(sorted(packed)))  # sorting first is faster than set-then-sort


def _digits(keys: list[int], n: int, width: int) -> list[array[int]]:
    """The ``width`` base-``n`` digits of each key: one column per digit, most significant first."""
    digits: list[array[int]] = []
    rest = keys
    for _ in range(width - 1):
        digits.append(array("q", map(mod, rest, repeat(n))))
        rest = list(map(floordiv, rest, repeat(n)))
    digits.append(array("q", rest))
    digits.reverse()
    return digits


def to_oxigraph_quads(quads: Iterable[Quad]) -> list[ox.Quad]:
    """The quads as pyoxigraph quads, in the same order, each distinct term converted once."""
    iris: dict[URIRef, ox.NamedNode] = {}
    objects: dict[Object, OxTerm] = {}

    def iri(term: URIRef) -> ox.NamedNode:
        found = iris.get(term)
        if found is None:
            if not isinstance(term, URIRef):
                raise TypeError(f"expected an IRI, got {type(term).__name__} {term!r}")
            found = iris[term] = named_node(str(term))
        return found

    def obj(term: Object) -> OxTerm:
        found = objects.get(term)
        if found is None:
            found = objects[term] = to_oxigraph(term)
        return found

    return [ox.Quad(iri(s), iri(p), obj(o), iri(g)) for s, p, o, g in quads]
