"""Turtle and TriG, written from the canonical order (``graph.dataset.canonical``).

The layout is the one a careful person writes: each subject's statements grouped, ``a``
(``rdf:type``) first and then its other predicates in canonical order, one per line, repeated
objects after commas, and a blank line between subjects. TriG puts each named graph in its
own block, laid out the same inside::

    <https://w3id.org/benchgraph/benchmark/mimic_rrs> a bench:Benchmark ;
        dcterms:identifier "mimic_rrs" ;
        rdfs:label "MIMIC-RRS" ;
        bench:variant <https://w3id.org/benchgraph/benchmark/a> ,
            <https://w3id.org/benchgraph/benchmark/b> .

    <https://w3id.org/benchgraph/benchmark/a> a bench:Benchmark .

An IRI is written as a prefixed name when it is a declared namespace plus a plain local name
(letters, digits, ``_`` and ``-``), and in full otherwise; ``rdf:type`` as a predicate is
``a``. A literal is written as in N-Triples (which Turtle reads unchanged), with its
datatype as a prefixed name where it has one; booleans, integers and decimals whose lexical
form Turtle reads as the very same literal are written bare (``true``, ``42``, ``81.7``). A
literal whose lexical form holds a line break is a long string (three double quotes each
side) with real line breaks, so a markdown body reads as the text it is.

The statements are laid out with numpy over the canonical columns and joined from
per-term pieces made once, as a million statements one Python step each would cost more
than pyoxigraph's own writer.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from itertools import compress, islice, repeat
from operator import contains

import numpy as np
import numpy.typing as npt

from graph.dataset.canonical import Canonical, Ranks, first_of_runs
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT
from graph.export.assemble import Piece, interleave
from graph.export.turtle_terms import long_string
from graph.namespace import RDF, XSD

_LOCAL_NAME = rb"[A-Za-z_][A-Za-z0-9_-]*"
_BARE = {
    f"<{XSD.boolean}>".encode(): re.compile(rb'"(true|false)"'),
    f"<{XSD.integer}>".encode(): re.compile(rb'"([+-]?[0-9]+)"'),
    # not ".5" or "5.": Turtle 1.1 reads them, but not every reader does
    f"<{XSD.decimal}>".encode(): re.compile(rb'"([+-]?[0-9]+\.[0-9]+)"'),
}
"""Datatypes whose literals Turtle can write bare, and the lexical forms it reads back alike."""
_RDF_TYPE = f"<{RDF.type}>".encode()
_INDENT = b"    "
# What ends a statement, by what the next one starts: 0 more objects, 1 another predicate,
# 2 another subject (after a blank line), 3 another graph (or the end of a TriG document's
# last graph), 4 nothing (the end of a Turtle document).
_ENDS = [b" ,\n", b" ;\n", b" .\n\n", b" .\n}\n", b" .\n"]
_NEWLINE = b"\\n"
"""A line break as an N-Triples form escapes it (but an escaped backslash, then ``n``, is
not one)."""
_BACKSLASHES = b"\x00"
"""Stands in for an escaped backslash while a long string is made. N-Triples forms are JSON
strings (``graph.dataset.table``), which escape every control character: no raw NUL."""


def write_turtle(statements: Canonical, prefixes: dict[str, str]) -> Iterator[bytes]:
    """Turtle of the union statements (``keep_graphs=False``), declaring ``prefixes``; in
    chunks, made as they are asked for."""
    return _write(statements, prefixes, graphs=False)


def write_trig(statements: Canonical, prefixes: dict[str, str]) -> Iterator[bytes]:
    """TriG of the statements of each named graph (``keep_graphs=True``); in chunks, made as
    they are asked for."""
    return _write(statements, prefixes, graphs=True)


def _write(statements: Canonical, prefixes: dict[str, str], *, graphs: bool
           ) -> Iterator[bytes]:
    header = "".join(f"@prefix {name}: <{iri}> .\n" for name, iri in prefixes.items())
    if not len(statements):
        return iter([header.encode()])
    forms = _forms(statements, prefixes)
    columns = statements.columns
    new_graph = (
        first_of_runs(columns[GRAPH]) if graphs else np.zeros(len(statements), dtype=np.bool_)
    )
    new_subject = first_of_runs(columns[SUBJECT]) | new_graph
    verbs = list(forms)  # the forms of terms as predicates: rdf:type is "a"
    rdf_type = _rank(statements.words, _RDF_TYPE)
    if rdf_type is not None:
        columns = _types_first(columns, new_subject, rdf_type)
        verbs[rdf_type] = b"a"
    new_predicate = first_of_runs(columns[PREDICATE]) | new_subject
    indent = _INDENT if graphs else b""

    pieces: list[Piece] = []
    if graphs:
        names, which = _used(columns[GRAPH], forms)
        graph_heads = [b"\n" + name + b" {\n" for name in names] + [b""]
        pieces.append((graph_heads, np.where(new_graph, which, len(names))))
    names, which = _used(columns[SUBJECT], forms)
    subject_heads = [indent + name + b" " for name in names] + [b""]
    pieces.append((subject_heads, np.where(new_subject, which, len(names))))
    names, which = _used(columns[PREDICATE], verbs)
    n = len(names)
    predicate_heads = (
        [name + b" " for name in names]
        + [indent + _INDENT + name + b" " for name in names]
        + [indent + _INDENT + _INDENT]
    )
    which = np.where(new_subject, which, np.where(new_predicate, which + n, 2 * n))
    pieces.append((predicate_heads, which))
    pieces.append((forms, columns[OBJECT]))
    pieces.append((_ENDS, _ends(new_graph, new_subject, new_predicate, graphs)))
    return interleave(pieces, len(statements), head=header.encode() + (b"" if graphs else b"\n"))


def _used(ranks: Ranks, forms: list[bytes]) -> tuple[list[bytes], Ranks]:
    """The forms of the terms a column holds, each once, and each row's index into them: the
    heads of subjects, predicates and graphs are made for these terms alone, not for every
    literal (whose forms hold most of the bytes)."""
    seen = np.zeros(len(forms), dtype=np.bool_)
    seen[ranks] = True
    distinct = np.flatnonzero(seen)
    index = np.zeros(len(forms), dtype=np.int64)
    index[distinct] = np.arange(len(distinct), dtype=np.int64)
    return list(map(forms.__getitem__, distinct.tolist())), index[ranks]


def _rank(words: list[bytes], word: bytes) -> int | None:
    """The rank of a term by its N-Triples form (``words`` is sorted); None if absent."""
    rank = bisect_left(words, word)
    return rank if rank < len(words) and words[rank] == word else None


def _types_first(
    columns: dict[int, Ranks], new_subject: npt.NDArray[np.bool_], rdf_type: int
) -> dict[int, Ranks]:
    """The statements with each subject's ``rdf:type`` ones first, the rest of each subject
    in the order they had: a stable sort by (subject run, not a type). The rows are mostly in
    that order already, which numpy's stable sort of integers (timsort) takes in about one
    pass: a few milliseconds for a million statements."""
    other = columns[PREDICATE] != rdf_type
    later = other[:-1] & ~other[1:] & ~new_subject[1:]  # a type after another predicate
    if not later.any():
        return columns
    key = np.cumsum(new_subject, dtype=np.int64) * 2 + other
    order = np.argsort(key, kind="stable")
    return {position: column[order] for position, column in columns.items()}


def _ends(
    new_graph: npt.NDArray[np.bool_],
    new_subject: npt.NDArray[np.bool_],
    new_predicate: npt.NDArray[np.bool_],
    graphs: bool,
) -> npt.NDArray[np.int64]:
    """Which of ``_ENDS`` closes each statement: decided by the statement after it."""
    kind = np.zeros(len(new_graph), dtype=np.int64)
    kind[:-1] += new_predicate[1:]
    kind[:-1] += new_subject[1:]
    kind[:-1] += new_graph[1:]
    kind[-1] = 3 if graphs else 4
    return kind


def _forms(statements: Canonical, prefixes: dict[str, str]) -> list[bytes]:
    """Each term's Turtle form, by rank. Literals (``"…``) sort before IRIs (``<…>``), so each
    kind is looked at apart; C-level passes pick out the few terms that a prefix, a bare form
    or a line break changes, and only those take Python-level work."""
    words = statements.words
    forms = list(words)
    iris = bisect_left(words, b"<")  # the rank of the first IRI: words[:iris] are literals
    names = sorted(prefixes.items(), key=lambda item: -len(item[1]))  # the longest first
    namespaces = b"|".join(re.escape(namespace.encode()) for _name, namespace in names)
    prefixed = re.compile(rb"<(" + namespaces + rb")(" + _LOCAL_NAME + rb")>")
    prefix_of = {namespace.encode(): name.encode() for name, namespace in names}

    def short_iri(match: re.Match[bytes]) -> bytes:
        return prefix_of[match[1]] + b":" + match[2]

    for rank, match in enumerate(map(prefixed.fullmatch, islice(words, iris, None)), iris):
        if match is not None:
            forms[rank] = short_iri(match)
    # Typed literals, the only ones that end with '>': '"lexical"^^<datatype>', the datatype
    # shortened once per datatype.
    datatypes: dict[bytes, bytes] = {}
    for rank in compress(range(iris), map(bytes.endswith, words, repeat(b">"))):
        lexical, caret, datatype = words[rank].rpartition(b"^^")
        bare = _BARE.get(datatype)
        match = None if bare is None else bare.fullmatch(lexical)
        if match is not None:
            forms[rank] = match[1]
            continue
        short = datatypes.get(datatype)
        if short is None:
            found = prefixed.fullmatch(datatype)
            short = datatypes[datatype] = datatype if found is None else short_iri(found)
        forms[rank] = lexical + caret + short
    # Literals with a line break, which is escaped, so among those with a backslash: the
    # quoted string (up to its last quote: no language tag or datatype IRI holds one) becomes
    # a long string; its tag or datatype stays as it is.
    for rank in compress(range(iris), map(contains, words, repeat(ord("\\")))):
        word = words[rank]
        quoted = word[: word.rindex(b'"') + 1]
        if _NEWLINE in quoted.replace(b"\\\\", _BACKSLASHES):
            forms[rank] = long_string(quoted.decode()).encode() + forms[rank][len(quoted) :]
    return forms
