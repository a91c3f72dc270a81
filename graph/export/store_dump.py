"""A store's graph written out whole, streamed from the store's own indexes: the dumps a store
serves (``graph.store.files``).

Nothing is held but the statements of one subject: the writers read the store in its index
order, which on disk groups each graph's statements by subject, and write as they read.

- N-Triples is the default graph (the merge of the named graphs), as pyoxigraph writes it.
- N-Quads and JSON-LD keep each named graph, one after another in the order of their IRIs,
  each as pyoxigraph writes it; the default graph (the merge again) is left out. JSON-LD is
  expanded, with no ``@context``: one ``{"@id": graph, "@graph": [...]}`` object a graph.
- Turtle (the merge) and TriG (each named graph in its own block) are laid out as a careful
  person writes them, which pyoxigraph's writer does not do: each subject's statements in one
  block, ``a`` (``rdf:type``) first and then its other predicates in the order of their
  N-Triples forms, one per line, repeated objects after commas, a blank line between
  subjects. An IRI is a prefixed name where it is a declared namespace plus a plain local
  name (letters, digits, ``_`` and ``-``); booleans, integers and decimals whose lexical form
  Turtle reads as the very same literal are written bare; a literal with a line break is a
  long string, so a markdown body reads as the text it is::

      <https://w3id.org/benchgraph/benchmark/mimic_rrs> a bench:Benchmark ;
          dcterms:identifier "mimic_rrs" ;
          rdfs:label "MIMIC-RRS" .

Subjects follow one another in the store's order, not by name: sorting them would hold
every subject of the graph at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain, groupby
from operator import attrgetter
from typing import BinaryIO

import pyoxigraph as ox

from graph.export.formats import JSONLD, NQUADS, NTRIPLES, TRIG, TURTLE, Format, FormatError
from graph.export.turtle_terms import BARE, LOCAL_NAME, has_line_break, long_string
from graph.namespace import RDF

_RDF_TYPE = str(RDF.type)
_INDENT = "    "
_BLOCK = 1 << 16
"""Characters of Turtle gathered before they are written."""


def write_dump(store: ox.Store, fmt: Format, out: BinaryIO, prefixes: dict[str, str]) -> None:
    """The whole graph of ``store`` in ``fmt``, written to ``out`` as it is read; Turtle and
    TriG declare ``prefixes``. FormatError for a format that is not a dump's."""
    if fmt == NTRIPLES:
        store.dump(out, ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
    elif fmt in (NQUADS, JSONLD):
        form = ox.RdfFormat.N_QUADS if fmt == NQUADS else ox.RdfFormat.JSON_LD
        ox.serialize(_named_quads(store), out, form)
    elif fmt in (TURTLE, TRIG):
        writer = TurtleWriter(prefixes)
        text = (writer.trig(_named_quads(store)) if fmt == TRIG
                else writer.turtle(store.quads_for_pattern(None, None, None, ox.DefaultGraph())))
        _write_text(out, text)
    else:
        raise FormatError(f"{fmt.name} is not a format the store's dumps are written in")


def _named_quads(store: ox.Store) -> Iterator[ox.Quad]:
    """Every named graph's statements, a graph after another in the order of their IRIs."""
    graphs = sorted(store.named_graphs(), key=str)
    return chain.from_iterable(store.quads_for_pattern(None, None, None, graph)
                               for graph in graphs)


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

    def turtle(self, quads: Iterable[ox.Quad]) -> Iterator[str]:
        """A Turtle document of the statements (their graphs are not written)."""
        yield self._header
        first = True
        for subject, statements in groupby(quads, key=attrgetter("subject")):
            yield "\n" if first else " .\n\n"
            first = False
            yield from self._subject(subject, statements, "")
        if not first:
            yield " .\n"

    def trig(self, quads: Iterable[ox.Quad]) -> Iterator[str]:
        """A TriG document of the statements, a block a graph."""
        yield self._header
        for graph, in_graph in groupby(quads, key=attrgetter("graph_name")):
            yield f"\n{self.term(graph)} {{\n"
            first = True
            for subject, statements in groupby(in_graph, key=attrgetter("subject")):
                if not first:
                    yield " .\n\n"
                first = False
                yield from self._subject(subject, statements, _INDENT)
            yield " .\n}\n"

    def _subject(self, subject: ox.NamedNode | ox.BlankNode | ox.Triple,
                 statements: Iterable[ox.Quad], indent: str) -> Iterator[str]:
        """One subject's block, without the ``.`` that ends it."""
        rows = sorted((str(quad.predicate), str(quad.object), quad) for quad in statements)
        rows.sort(key=lambda row: row[0] != f"<{_RDF_TYPE}>")  # stable: types first
        yield indent + self.term(subject)
        predicate = None
        for form, _, quad in rows:
            if form == predicate:
                yield f" ,\n{indent}{_INDENT}{_INDENT}"
            else:
                verb = "a" if quad.predicate.value == _RDF_TYPE else self.term(quad.predicate)
                yield (" " if predicate is None else f" ;\n{indent}{_INDENT}") + verb + " "
                predicate = form
            yield self.term(quad.object)

    def term(self, term: ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple | ox.DefaultGraph
             ) -> str:
        """A term's Turtle form."""
        if isinstance(term, ox.NamedNode):
            return self._iri(term.value)
        if isinstance(term, ox.Literal):
            return self._literal(term)
        return str(term)

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


__all__ = ["TurtleWriter", "write_dump"]
