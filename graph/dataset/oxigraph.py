"""Single terms between rdflib and pyoxigraph: checked conversions, each way.

Literals keep their lexical form exactly as rdflib holds it (``str(literal)``); a literal
typed ``xsd:string`` is the same RDF term as a plain one. pyoxigraph checks every IRI,
datatype and language tag, and the ValueError names the bad value.
"""

from __future__ import annotations

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import RDF, XSD

from graph.dataset.quads import Object

OxTerm = ox.NamedNode | ox.Literal

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
