"""Single terms between rdflib and pyoxigraph.

To pyoxigraph: ``named_node`` and ``literal`` are pyoxigraph's constructors with a
ValueError that names the bad IRI, datatype or language tag. The term table
(``graph.dataset.table``) makes every N-Triples form with them, and is the one way an rdflib
term becomes pyoxigraph's (``TermTable.form``): a store loads that text, a query holds it.

One rdflib term at a time, ``to_oxigraph``: for the few terms a report writes (a validation
result's focus node and value, in the JSON every output of benchgraph shares). Back to rdflib:
``to_rdflib``, for a query's answer where rdflib is the API (a CONSTRUCT result written by the
export writers). A literal typed ``xsd:string`` is the same RDF term as a plain one; lexical
forms are kept exactly.
"""

from __future__ import annotations

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import RDF, XSD

_LANG_STRING = str(RDF.langString)
_XSD_STRING = str(XSD.string)


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


def to_oxigraph(term: object) -> ox.NamedNode | ox.BlankNode | ox.Literal:
    """An rdflib term as the pyoxigraph term that is the same RDF term."""
    if isinstance(term, URIRef):
        return named_node(str(term))
    if isinstance(term, BNode):
        return ox.BlankNode(str(term))
    if isinstance(term, Literal):
        datatype = None if term.datatype is None else str(term.datatype)
        return literal(str(term), datatype, term.language)
    raise TypeError(f"no pyoxigraph term for {term!r}")


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
