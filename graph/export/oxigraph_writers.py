"""JSON-LD and RDF/XML, written by pyoxigraph from the canonical N-Triples or N-Quads.

JSON-LD is written expanded, with no ``@context``: one ``{"@id": graph, "@graph": [...]}``
object per named graph when the statements keep their graphs, the default graph otherwise.

RDF/XML holds one graph (a dataset written in it is the union). pyoxigraph 0.5 writes some
graphs as XML that is not well-formed, or that reads back as other data, without a word; this
module refuses the first and mends the second:

- a predicate, or the class of an ``rdf:type`` (which it writes as an element name), whose
  IRI does not end in an XML name (``…/p/``, ``…/1``) becomes ``<oxprefix:>``: refused, with
  the IRI named (``FormatError``);
- a character XML 1.0 cannot carry (a control character other than tab, newline and carriage
  return) is written raw: refused, naming the format that can carry it;
- a carriage return is written raw, and every XML reader turns ``\\r\\n`` into ``\\n``: it is
  written as ``&#13;`` instead (pyoxigraph's own layout never uses one).
"""

import re
from collections.abc import Iterable, Iterator
from typing import cast

import numpy as np
import pyoxigraph as ox

from graph.dataset.canonical import Canonical, first_of_runs
from graph.dataset.table import GRAPH, OBJECT, PREDICATE
from graph.export import assemble
from graph.export.ntriples import write_ntriples
from graph.namespace import RDF
from graph.sparql.results import FormatError

_ENDS_IN_XML_NAME = re.compile(r"[^\W\d][\w.-]*\Z")
_XML_FORBIDDEN = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]|\xef\xbf[\xbe\xbf]")
_RDF_TYPE = f"<{RDF.type}>".encode()


def write_jsonld(statements: Canonical, prefixes: dict[str, str]) -> Iterator[bytes]:
    """Expanded JSON-LD of the statements (``prefixes`` unused: no ``@context`` is written);
    in chunks, made as they are asked for. A dataset's document is a JSON array of one object
    per named graph, so it is written a run of whole graphs (about ``assemble.CHUNK``
    statements) at a time, each run by pyoxigraph from its own N-Quads, and the runs' arrays
    joined into one: the very bytes pyoxigraph writes of the whole, without the whole
    document, or the whole N-Quads it is written from, in memory."""
    columns = statements.columns
    if GRAPH not in columns or not len(statements):
        yield _jsonld(statements)
        return
    starts = np.flatnonzero(first_of_runs(columns[GRAPH]))  # where each graph's run begins
    wanted = np.arange(0, len(statements), assemble.CHUNK)
    cuts = np.unique(starts[np.minimum(np.searchsorted(starts, wanted), len(starts) - 1)])
    ends = [*cuts[1:].tolist(), len(statements)]
    for number, (start, end) in enumerate(zip(cuts.tolist(), ends, strict=True)):
        run = Canonical({p: column[start:end] for p, column in columns.items()},
                        statements.words)
        document = _jsonld(run)
        if not (document.startswith(b"[") and document.endswith(b"]")):
            raise AssertionError("pyoxigraph's JSON-LD of a dataset is not one array")
        yield b"," if number else b"["
        inside = document[1:-1]
        del document  # one graph may be a large run: held twice at most, not three times
        yield inside
    yield b"]"


def _jsonld(statements: Canonical) -> bytes:
    nquads = b"".join(write_ntriples(statements))
    parsed = ox.parse(nquads, format=ox.RdfFormat.N_QUADS, lenient=True)
    return cast(bytes, ox.serialize(parsed, format=ox.RdfFormat.JSON_LD))


def write_rdfxml(statements: Canonical, prefixes: dict[str, str]) -> list[bytes]:
    """RDF/XML of the union statements, declaring ``prefixes``; FormatError for a graph that
    RDF/XML cannot hold."""
    words = statements.words
    predicates = statements.columns[PREDICATE]
    named = set(np.unique(predicates).tolist())
    if _RDF_TYPE in words:
        typed = predicates == words.index(_RDF_TYPE)
        named.update(np.unique(statements.columns[OBJECT][typed]).tolist())
    iris = (words[rank][1:-1].decode() for rank in named if words[rank].startswith(b"<"))
    ntriples = b"".join(write_ntriples(statements))
    return [rdfxml(ox.parse(ntriples, format=ox.RdfFormat.N_TRIPLES, lenient=True), iris, prefixes)]


def rdfxml(triples: Iterable[ox.Triple], element_iris: Iterable[str],
           prefixes: dict[str, str]) -> bytes:
    """``triples`` as RDF/XML; ``element_iris`` are the IRIs written as element names (the
    predicates and the classes of ``rdf:type``), each checked to end in an XML name."""
    for iri in element_iris:
        if not _ENDS_IN_XML_NAME.search(iri):
            raise FormatError(f"RDF/XML cannot write <{iri}>: as a property or a class it must "
                              "end in a name (a letter or _, then letters, digits, . - _); "
                              "use turtle or ntriples")
    data = cast(bytes, ox.serialize(triples, format=ox.RdfFormat.RDF_XML, prefixes=prefixes))
    forbidden = _XML_FORBIDDEN.search(data)
    if forbidden is not None:
        context = data[max(forbidden.start() - 30, 0) : forbidden.end() + 10]
        raise FormatError(f"a value holds a character that XML 1.0 cannot carry "
                          f"(near {context.decode(errors='replace')!r}): use turtle or ntriples")
    return data.replace(b"\r", b"&#13;")


__all__ = ["rdfxml", "write_jsonld", "write_rdfxml"]
