"""Single terms between rdflib and pyoxigraph.

To pyoxigraph: ``named_node`` and ``literal`` are pyoxigraph's constructors with a
ValueError that names the bad IRI, datatype or language tag. The mapping makes every
N-Triples form with them (``graph.mapping.nquads``): a store loads that text, a query holds
it.

One rdflib term at a time, ``to_oxigraph``: for the few terms a report writes (a validation
result's focus node and value, in the JSON every output of benchgraph shares). Back to rdflib:
``to_rdflib``, for a query's answer where rdflib is the API (a CONSTRUCT result written by the
export writers). A literal typed ``xsd:string`` is the same RDF term as a plain one; lexical
forms are kept exactly, but for what rdflib normalises in a typed literal it makes (a ``Z``
time zone becomes ``+00:00``).

Many terms at a time, ``RdflibTerms``: every statement of a store read back as rdflib quads (a
validation reads the whole catalog so), each the term ``to_rdflib`` gives. ``to_rdflib`` checks
each IRI again and parses each typed literal's value anew; the store's terms are valid already
and repeat (predicates, classes, shared nodes, dates), so ``RdflibTerms`` makes IRIs and plain
literals directly, as ``graph.dataset.terms`` does, leaves a typed or tagged literal to
rdflib's own constructor (its Python value and well-typedness are what pyshacl compares:
``sh:minInclusive``, ``sh:datatype``), and keeps the terms it made lately, so that one met
again costs a lookup and is the same object.
"""

from __future__ import annotations

from collections.abc import Iterable

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import RDF, XSD

from graph.dataset.quads import Quad
from graph.dataset.terms import iri, plain

_LANG_STRING = str(RDF.langString)
_XSD_STRING = str(XSD.string)

OxTerm = ox.NamedNode | ox.BlankNode | ox.Literal
StatedTerm = OxTerm | ox.Triple
"""What a statement's subject or object may be (a triple only in RDF-star data: refused)."""
RdfTerm = URIRef | BNode | Literal
Statement = ox.Triple | ox.Quad
_KEPT = 1 << 16
"""Terms ``RdflibTerms`` keeps at most: enough for every term a run of records shares, few
enough that the IRIs met once (each record's own nodes) are not kept for the whole run."""


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


class RdflibTerms:
    """pyoxigraph terms as rdflib terms, each the term ``to_rdflib`` gives (``made_directly``).
    The terms made lately are kept, up to ``kept`` of them: then all are let go, and the ones
    still in use are made again when next met."""

    __slots__ = ("_kept", "_made")

    def __init__(self, kept: int = _KEPT) -> None:
        self._made: dict[StatedTerm, RdfTerm] = {}
        self._kept = max(1, kept)

    def __call__(self, term: StatedTerm) -> RdfTerm:
        found = self._made.get(term)
        return self._make(term) if found is None else found

    def quads(self, statements: Iterable[Statement], graph: URIRef) -> list[Quad]:
        """The rdflib quads of ``statements`` (pyoxigraph quads or triples), put in ``graph``:
        ``__call__`` written out for the three terms of every statement."""
        get, make = self._made.get, self._make
        quads: list[Quad] = []
        append = quads.append
        for statement in statements:
            s, p, o = statement.subject, statement.predicate, statement.object
            subject, predicate, object_ = get(s), get(p), get(o)
            if subject is None:
                subject = make(s)
            if predicate is None:
                predicate = make(p)
            if object_ is None:
                object_ = make(o)
            # a quad's subject and predicate are IRIs: the data holds no blank node
            append((subject, predicate, object_, graph))  # type: ignore[arg-type]
        return quads

    def _make(self, term: StatedTerm) -> RdfTerm:
        made = self._made
        if len(made) >= self._kept:
            made.clear()
        found = made[term] = made_directly(term)
        return found


def made_directly(term: StatedTerm) -> RdfTerm:
    """The term ``to_rdflib`` gives, without checking again what a store holds valid: an IRI
    or a plain literal made directly, a typed or tagged literal by rdflib as ``to_rdflib``
    makes it."""
    if isinstance(term, ox.NamedNode):
        return iri(term.value)
    if isinstance(term, ox.Literal):
        language = term.language
        if language:
            return Literal(term.value, lang=language)
        datatype = term.datatype.value
        if datatype == _XSD_STRING:
            return plain(term.value)
        return Literal(term.value, datatype=iri(datatype))
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    raise TypeError(f"no rdflib term for {term!r}")
