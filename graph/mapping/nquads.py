"""The build's statements as N-Quads lines: the one form in which they leave Python for the
engine, which interns, indexes, checks and keeps them.

``Statements`` (``graph.mapping.emitter``) states every quad of a build through an ``NQuads``:
``iri``, ``plain``, ``typed`` and ``object`` give a term's N-Triples form, ``add`` writes the
line of one quad, and, with ``merge``, the line of its triple in the default graph, which
holds the RDF merge of the named graphs (the store's loader keeps a repeated statement once).
Lines are handed to ``write`` a block at a time, so that a build never holds more than a
block of its output: at 100,000 records the graph is gigabytes.

Every IRI is checked by pyoxigraph once while it is remembered (ValueError names a bad one);
a blank node is refused (TypeError): the graph never holds one. A literal's form is its
quoted lexical form and what pyoxigraph writes after it: nothing for a plain string (an
``xsd:string`` is one), its language tag in lower case, or its datatype. The N-Triples form of
a term is what the engine loads and what a query holds of it, so two rdflib terms that are
the same RDF term (``"a"@en-US`` and ``"a"@en-us``) are written the same.
"""

from __future__ import annotations

from collections.abc import Callable
from json.encoder import encode_basestring as quoted

from rdflib import Literal, URIRef
from rdflib.namespace import XSD

from graph.dataset.oxigraph import literal, named_node
from graph.dataset.quads import Object, Quad

_XSD_STRING = str(XSD.string)
BLOCK_BYTES = 1 << 20
"""Characters of lines gathered before they are written."""
REMEMBERED_IRIS = 1 << 18
"""IRIs whose form is remembered; then the memory is emptied and starts again."""


class _Suffixes(dict[tuple[str | None, str | None], str]):
    """What follows the quoted lexical form in N-Triples, per (datatype, language tag)."""

    def __missing__(self, key: tuple[str | None, str | None]) -> str:
        datatype, language = key
        if datatype == _XSD_STRING and not language:
            found = ""
        else:  # pyoxigraph's own form after '""': '@en-us', '^^<…>'
            found = str(literal("", datatype, language))[2:]
        self[key] = found
        return found


class NQuads:
    """N-Triples forms of terms, and N-Quads lines of quads given as forms, written out a block
    at a time to ``write``; with ``merge``, each quad's triple in the default graph too."""

    def __init__(self, write: Callable[[bytes], object], *, merge: bool) -> None:
        self._write = write
        self._merge = merge
        self._lines: list[str] = []
        self._held = 0
        self._iris: dict[str, str] = {}
        self._suffixes = _Suffixes()
        self.count = 0
        """Quads added so far (a repeat counts again)."""

    def iri(self, iri: URIRef) -> str:
        """The form of an IRI; TypeError for anything else (a blank node, a literal)."""
        found = self._iris.get(iri)
        if found is None:
            if not isinstance(iri, URIRef):
                raise TypeError(f"expected an IRI, got {type(iri).__name__} {iri!r}")
            if len(self._iris) >= REMEMBERED_IRIS:
                self._iris.clear()
            found = self._iris[iri] = str(named_node(str(iri)))
        return found

    def plain(self, text: str) -> str:
        """The form of the plain string literal ``text``."""
        return quoted(text)

    def typed(self, lexical: str, datatype: URIRef) -> str:
        """The form of a typed literal from its lexical form (``xsd:string``: a plain one)."""
        return quoted(lexical) + self._suffixes[str(datatype), None]

    def object(self, term: Object) -> str:
        """The form of an object: an IRI or a literal; TypeError for anything else."""
        if not isinstance(term, Literal):
            return self.iri(term)
        language = term.language
        datatype = None if term.datatype is None else str(term.datatype)
        if not language and datatype is None:
            return quoted(str(term))
        return quoted(str(term)) + self._suffixes[datatype, language or None]

    def add(self, quad: tuple[str, str, str, str]) -> None:
        """The line of one quad of forms (subject, predicate, object, graph)."""
        subject, predicate, obj, graph = quad
        line = f"{subject} {predicate} {obj} {graph} .\n"
        self._lines.append(line)
        self._held += len(line)
        if self._merge:
            self._lines.append(f"{subject} {predicate} {obj} .\n")
            self._held += len(line)
        self.count += 1
        if self._held >= BLOCK_BYTES:
            self.flush()

    def add_quads(self, quads: list[Quad]) -> None:
        """rdflib quads (the ontology's), each term formed as ``object`` forms it."""
        iri, form = self.iri, self.object
        for subject, predicate, obj, graph in quads:
            self.add((iri(subject), iri(predicate), form(obj), iri(graph)))

    def flush(self) -> None:
        """Write out the lines gathered."""
        if self._lines:
            self._write("".join(self._lines).encode())
            self._lines.clear()
            self._held = 0


__all__ = ["NQuads"]
