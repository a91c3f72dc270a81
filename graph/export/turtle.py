"""Turtle and TriG, written from the canonical order (``graph.dataset.canonical``).

The layout groups each subject's statements, its predicates one per line and repeated
objects after commas; TriG puts each named graph in its own block::

    <https://w3id.org/benchgraph/benchmark/mimic_rrs> a bench:Benchmark ;
        rdfs:label "MIMIC-RRS" ;
        bench:variant <https://w3id.org/benchgraph/benchmark/a> ,
            <https://w3id.org/benchgraph/benchmark/b> .

An IRI is written as a prefixed name when it is a declared namespace plus a plain local name
(letters, digits, ``_`` and ``-``), and in full otherwise; ``rdf:type`` as a predicate is
``a``. A literal is written as in N-Triples (which Turtle reads unchanged), with its
datatype as a prefixed name where it has one; booleans, integers and decimals whose lexical
form Turtle reads as the very same literal are written bare (``true``, ``42``, ``81.7``).

The statements are laid out with numpy over the canonical columns and joined from
per-term pieces made once, as a million statements one Python step each would cost more
than pyoxigraph's own writer.
"""

from __future__ import annotations

import re
from itertools import repeat

import numpy as np
import numpy.typing as npt

from graph.dataset.canonical import Canonical, Ranks, first_of_runs
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT
from graph.export.assemble import interleave
from graph.namespace import RDF, XSD

_LOCAL_NAME = rb"[A-Za-z_][A-Za-z0-9_-]*"
_BARE = {
    f"<{XSD.boolean}>".encode(): re.compile(rb'"(true|false)"'),
    f"<{XSD.integer}>".encode(): re.compile(rb'"([+-]?[0-9]+)"'),
    # not ".5" or "5.": Turtle 1.1 reads them, but not every reader does
    f"<{XSD.decimal}>".encode(): re.compile(rb'"([+-]?[0-9]+\.[0-9]+)"'),
}
"""Datatypes whose literals Turtle can write bare, and the lexical forms it reads back alike."""
_INDENT = b"    "
# What ends a statement, by what the next one starts: 0 more objects, 1 another predicate,
# 2 another subject, 3 another graph (or the end of a TriG document's last graph).
_ENDS = [b" ,\n", b" ;\n", b" .\n", b" .\n}\n"]


def write_turtle(statements: Canonical, prefixes: dict[str, str]) -> list[bytes]:
    """Turtle of the union statements (``keep_graphs=False``), declaring ``prefixes``; in
    chunks."""
    return _write(statements, prefixes, graphs=False)


def write_trig(statements: Canonical, prefixes: dict[str, str]) -> list[bytes]:
    """TriG of the statements of each named graph (``keep_graphs=True``); in chunks."""
    return _write(statements, prefixes, graphs=True)


def _write(statements: Canonical, prefixes: dict[str, str], *, graphs: bool) -> list[bytes]:
    header = "".join(f"@prefix {name}: <{iri}> .\n" for name, iri in prefixes.items())
    if not len(statements):
        return [header.encode()]
    forms = _forms(statements, prefixes)
    columns = statements.columns
    subjects, predicates = columns[SUBJECT], columns[PREDICATE]
    new_graph = first_of_runs(columns[GRAPH]) if graphs else np.zeros(len(subjects), np.bool_)
    new_subject = first_of_runs(subjects) | new_graph
    new_predicate = first_of_runs(predicates) | new_subject
    indent = _INDENT if graphs else b""

    pieces: list[tuple[list[bytes], npt.NDArray[np.int64]]] = []
    if graphs:
        names, which = _used(columns[GRAPH], forms)
        graph_heads = [b"\n" + name + b" {\n" for name in names] + [b""]
        pieces.append((graph_heads, np.where(new_graph, which, len(names))))
    names, which = _used(subjects, forms)
    subject_heads = [indent + name + b" " for name in names] + [b""]
    pieces.append((subject_heads, np.where(new_subject, which, len(names))))
    names, which = _used(predicates, _verbs(statements, forms))
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
    return interleave(pieces, head=header.encode() + (b"" if graphs else b"\n"))


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
    kind[-1] = 3 if graphs else 2
    return kind


def _verbs(statements: Canonical, forms: list[bytes]) -> list[bytes]:
    """The forms of terms as predicates: ``rdf:type`` is ``a``."""
    verbs = list(forms)
    try:
        verbs[statements.words.index(f"<{RDF.type}>".encode())] = b"a"
    except ValueError:
        pass  # no term is rdf:type
    return verbs


def _forms(statements: Canonical, prefixes: dict[str, str]) -> list[bytes]:
    """Each term's Turtle form, by rank. Found with C-level passes over all the terms; the
    Python-level work is done only for the few a prefix or a bare form shortens."""
    words = statements.words
    forms = list(words)
    names = sorted(prefixes.items(), key=lambda item: -len(item[1]))  # the longest first
    namespaces = b"|".join(re.escape(namespace.encode()) for _name, namespace in names)
    prefixed = re.compile(rb"<(" + namespaces + rb")(" + _LOCAL_NAME + rb")>")
    prefix_of = {namespace.encode(): name.encode() for name, namespace in names}

    def short_iri(match: re.Match[bytes]) -> bytes:
        return prefix_of[match[1]] + b":" + match[2]

    for rank, match in enumerate(map(prefixed.fullmatch, words)):
        if match is not None:
            forms[rank] = short_iri(match)
    # Typed literals: '"lexical"^^<datatype>', the datatype shortened once per datatype.
    datatypes: dict[bytes, bytes] = {}
    for rank, (lexical, caret, datatype) in enumerate(map(bytes.rpartition, words, repeat(b"^^"))):
        if caret and datatype.endswith(b">"):
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
    return forms
