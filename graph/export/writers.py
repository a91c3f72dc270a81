"""The writers of the graph formats (``graph.export.formats``): each takes pyoxigraph quads
grouped by graph and then by subject, as a store gives them, and writes them to a binary
stream as it reads them, declaring the prefixes where the format can; it answers how many
statements it wrote.

Nothing is held but the statements of one subject, so a store's whole graph is written
without standing whole in memory. What a writer writes of each quad:

- Turtle, N-Triples and RDF/XML hold one graph: the triples they are given (a store gives
  them its default graph, the merge of the named graphs).
- TriG, N-Quads and JSON-LD keep each quad's graph. JSON-LD is expanded, with no
  ``@context``: one ``{"@id": graph, "@graph": [...]}`` object a named graph.
- N-Triples, N-Quads and JSON-LD are written by pyoxigraph.
- Turtle and TriG (each named graph in its own block, statements of the default graph
  outside any) are laid out as a careful person writes them, which pyoxigraph's writer does
  not do: each subject's statements in one block, ``a`` (``rdf:type``) first and then its
  other predicates in the order of their N-Triples forms, one per line, repeated objects
  after commas, a blank line between subjects. An IRI is a prefixed name where it is a
  declared namespace plus a plain local name (letters, digits, ``_`` and ``-``); booleans,
  integers and decimals whose lexical form Turtle reads as the very same literal are written
  bare; a literal with a line break is a long string, so a markdown body reads as the text it
  is::

      <https://w3id.org/benchgraph/benchmark/mimic_rrs> a bench:Benchmark ;
          dcterms:identifier "mimic_rrs" ;
          rdfs:label "MIMIC-RRS" .

  Subjects follow one another in the order given, not by name: sorting them would hold
  every subject of the graph at once.
- RDF/XML is written by pyoxigraph, which writes some graphs as XML that is not well-formed,
  or that reads back as other data, without a word; the writer refuses the first and mends
  the second. A predicate, or the class of an ``rdf:type`` (which it writes as an element
  name), whose IRI does not end in an XML name (``…/p/``, ``…/1``) would be ``<oxprefix:>``,
  and a character XML 1.0 cannot carry (a control character other than tab, newline and
  carriage return) would be written raw: both are refused (``FormatError``), naming the IRI
  or the formats that can write it. A carriage return would be written raw, which every XML
  reader turns (before a line feed) into nothing: it is written as ``&#13;`` (pyoxigraph's
  own layout never uses one).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from itertools import groupby
from operator import attrgetter
from typing import BinaryIO, cast

import pyoxigraph as ox

from graph.export.turtle_terms import BARE, LOCAL_NAME, has_line_break, long_string
from graph.namespace import RDF
from graph.sparql.results import FormatError

RdfWriter = Callable[[Iterable[ox.Quad], BinaryIO, dict[str, str]], int]
"""Writes quads grouped by graph and then by subject to a binary stream, declaring the
prefixes where the format can; the number of statements written."""

_RDF_TYPE = str(RDF.type)
_INDENT = "    "
_BLOCK = 1 << 16
"""Characters of Turtle gathered before they are written."""
_FORMS = 1 << 16
"""Terms whose Turtle form a writer keeps (an IRI or a literal met again is not formed again)."""
_ENDS_IN_XML_NAME = re.compile(r"[^\W\d][\w.-]*\Z")
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


class _Counted:
    """Quads counted as they are read."""

    def __init__(self, quads: Iterable[ox.Quad]) -> None:
        self.count = 0
        self._quads = quads

    def __iter__(self) -> Iterator[ox.Quad]:
        for quad in self._quads:
            self.count += 1
            yield quad

    def triples(self) -> Iterator[ox.Triple]:
        """The quads' triples."""
        for quad in self._quads:
            self.count += 1
            yield quad.triple


def write_ntriples(quads: Iterable[ox.Quad], out: BinaryIO, prefixes: dict[str, str]) -> int:
    """N-Triples of the quads' triples (no prefixes)."""
    counted = _Counted(quads)
    ox.serialize(counted.triples(), out, ox.RdfFormat.N_TRIPLES)
    return counted.count


def write_nquads(quads: Iterable[ox.Quad], out: BinaryIO, prefixes: dict[str, str]) -> int:
    """N-Quads of the quads (no prefixes)."""
    counted = _Counted(quads)
    ox.serialize(counted, out, ox.RdfFormat.N_QUADS)
    return counted.count


def write_jsonld(quads: Iterable[ox.Quad], out: BinaryIO, prefixes: dict[str, str]) -> int:
    """Expanded JSON-LD of the quads (no ``@context``, so no prefixes): one object a named
    graph, the statements of the default graph at the top."""
    counted = _Counted(quads)
    ox.serialize(counted, out, ox.RdfFormat.JSON_LD)
    return counted.count


def write_turtle(quads: Iterable[ox.Quad], out: BinaryIO, prefixes: dict[str, str]) -> int:
    """Turtle of the quads' triples, in the module's layout, declaring ``prefixes``."""
    counted = _Counted(quads)
    _write_text(out, TurtleWriter(prefixes).turtle(counted))
    return counted.count


def write_trig(quads: Iterable[ox.Quad], out: BinaryIO, prefixes: dict[str, str]) -> int:
    """TriG of the quads, a block a named graph, in the module's layout, declaring
    ``prefixes``."""
    counted = _Counted(quads)
    _write_text(out, TurtleWriter(prefixes).trig(counted))
    return counted.count


def write_rdfxml(quads: Iterable[ox.Quad], out: BinaryIO, prefixes: dict[str, str]) -> int:
    """RDF/XML of the quads' triples, declaring ``prefixes``; FormatError, once part of it may
    be written, for a graph RDF/XML cannot hold (the module's docstring says which)."""
    counted = _Counted(quads)
    escaped = cast(BinaryIO, _CarriageReturns(out))
    ox.serialize(_xml_safe(counted.triples()), escaped, ox.RdfFormat.RDF_XML, prefixes=prefixes)
    return counted.count


def _xml_safe(triples: Iterable[ox.Triple]) -> Iterator[ox.Triple]:
    """The triples, each checked before it is handed on: its IRIs written as element names
    (its predicate, an ``rdf:type``'s class) end in an XML name, its literal holds only
    characters XML 1.0 carries."""
    named: set[str] = set()
    for triple in triples:
        predicate, obj = triple.predicate.value, triple.object
        if predicate not in named:
            _check_element_name(predicate)
            named.add(predicate)
        if isinstance(obj, ox.Literal):
            forbidden = _XML_FORBIDDEN.search(obj.value)
            if forbidden is not None:
                near = obj.value[max(forbidden.start() - 30, 0): forbidden.end() + 10]
                raise FormatError(f"a value holds a character that XML 1.0 cannot carry "
                                  f"(near {near!r}): use turtle or ntriples")
        elif predicate == _RDF_TYPE and isinstance(obj, ox.NamedNode) and obj.value not in named:
            _check_element_name(obj.value)
            named.add(obj.value)
        yield triple


def _check_element_name(iri: str) -> None:
    if not _ENDS_IN_XML_NAME.search(iri):
        raise FormatError(f"RDF/XML cannot write <{iri}>: as a property or a class it must "
                          "end in a name (a letter or _, then letters, digits, . - _); "
                          "use turtle or ntriples")


class _CarriageReturns:
    """A stream that writes each carriage return to ``out`` as ``&#13;``."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out

    def write(self, data: bytes) -> int:
        self._out.write(bytes(data).replace(b"\r", b"&#13;"))
        return len(data)

    def flush(self) -> None:
        self._out.flush()


def _write_text(out: BinaryIO, text: Iterable[str]) -> None:
    held: list[str] = []
    size = 0
    for piece in text:
        held.append(piece)
        size += len(piece)
        if size >= _BLOCK:
            out.write("".join(held).encode())
            held, size = [], 0
    out.write("".join(held).encode())


class TurtleWriter:
    """Turtle and TriG in the layout of the module's docstring, from statements that come a
    subject (and, for TriG, a graph) at a time."""

    def __init__(self, prefixes: dict[str, str]) -> None:
        self._header = "".join(f"@prefix {name}: <{iri}> .\n" for name, iri in prefixes.items())
        self._namespaces = sorted(((iri, name) for name, iri in prefixes.items()),
                                  key=lambda item: -len(item[0]))  # the longest first
        self._iris: dict[str, str] = {}
        self._forms: dict[ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple
                          | ox.DefaultGraph, str] = {}

    def turtle(self, quads: Iterable[ox.Quad]) -> Iterator[str]:
        """A Turtle document of the statements (their graphs are not written)."""
        yield self._header
        yield from self._subjects(quads, "\n", "")

    def trig(self, quads: Iterable[ox.Quad]) -> Iterator[str]:
        """A TriG document of the statements, a block a named graph (those of the default
        graph in none)."""
        yield self._header
        for graph, in_graph in groupby(quads, key=attrgetter("graph_name")):
            if isinstance(graph, ox.DefaultGraph):
                yield from self._subjects(in_graph, "\n", "")
            else:
                yield from self._subjects(in_graph, f"\n{self.term(graph)} {{\n", _INDENT)
                yield "}\n"

    def _subjects(self, quads: Iterable[ox.Quad], opening: str, indent: str) -> Iterator[str]:
        """Each subject's block, the first after ``opening`` and the others after a blank
        line, each ended by `` .``; nothing at all for no statements."""
        first = True
        for subject, statements in groupby(quads, key=attrgetter("subject")):
            yield opening if first else " .\n\n"
            first = False
            yield from self._subject(subject, statements, indent)
        if not first:
            yield " .\n"

    def _subject(self, subject: ox.NamedNode | ox.BlankNode | ox.Triple,
                 statements: Iterable[ox.Quad], indent: str) -> Iterator[str]:
        """One subject's block, without the ``.`` that ends it."""
        term = self.term
        rows = sorted((quad.predicate.value != _RDF_TYPE, str(quad.predicate),
                       str(quad.object), quad.predicate, quad.object) for quad in statements)
        yield indent + term(subject)
        last = None
        for _, iri, _, predicate, written in rows:
            obj = term(written)
            if iri == last:
                yield f" ,\n{indent}{_INDENT}{_INDENT}{obj}"
                continue
            verb = "a" if predicate.value == _RDF_TYPE else term(predicate)
            yield f"{' ' if last is None else f' ;{chr(10)}{indent}{_INDENT}'}{verb} {obj}"
            last = iri

    def term(self, term: ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple | ox.DefaultGraph
             ) -> str:
        """A term's Turtle form."""
        form = self._forms.get(term)
        if form is not None:
            return form
        if isinstance(term, ox.NamedNode):
            form = self._iri(term.value)
        elif isinstance(term, ox.Literal):
            form = self._literal(term)
        else:
            return str(term)
        if len(self._forms) < _FORMS:
            self._forms[term] = form
        return form

    def _iri(self, iri: str) -> str:
        form = self._iris.get(iri)
        if form is None:
            form = f"<{iri}>"
            for namespace, name in self._namespaces:
                if iri.startswith(namespace) and LOCAL_NAME.match(iri, len(namespace)):
                    form = f"{name}:{iri[len(namespace):]}"
                    break
            if len(self._iris) < 1 << 16:
                self._iris[iri] = form
        return form

    def _literal(self, literal: ox.Literal) -> str:
        datatype = literal.datatype.value
        bare = BARE.get(datatype)
        if bare is not None and bare.fullmatch(literal.value):
            return literal.value
        form = str(literal)
        quoted = form[: form.rindex('"') + 1]
        if has_line_break(quoted):
            form = long_string(quoted) + form[len(quoted):]
            quoted = form[: form.rindex('"') + 1]
        if literal.language is None and form.endswith(">"):  # a datatype: shortened
            return quoted + "^^" + self._iri(datatype)
        return form


__all__ = [
    "RdfWriter",
    "TurtleWriter",
    "write_jsonld",
    "write_nquads",
    "write_ntriples",
    "write_rdfxml",
    "write_trig",
    "write_turtle",
]
