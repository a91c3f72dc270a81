"""The SHACL shapes as documentation: each shape with its name, message, severity, target and
constraints, read from ``shapes/*.ttl`` file by file (one file per severity) in the files' own
order, each at an anchor of its local name (``/shapes#BenchmarkShape-identifier``), which the
validation report links to.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.namespace import OWL, RDF, RDFS, SH
from rdflib.term import Node

from graph.namespace import BENCH_IRI, curie
from graph.resources import data_dir
from graph.validation.paths import render_path
from graph.validation.report import Severity
from graph.validation.shapes import BSH, CHECKED_ACROSS_RECORDS, TARGETS

_NOT_CONSTRAINTS = frozenset({SH.path, SH.name, SH.message, SH.severity, SH.property,
                              SH.description, SH.order, SH.group, SH.deactivated, *TARGETS})


@dataclass(frozen=True)
class Link:
    """A term a shape names, linked where the app documents it: the anchor ``anchor`` of the
    page of the view ``endpoint`` (the ontology's, for a ``bench:`` term; this page, for a
    shape)."""

    text: str
    endpoint: str | None = None
    anchor: str = ""


@dataclass(frozen=True)
class Constraint:
    """One constraint parameter of a shape (``minCount 1``, ``class bench:Paper``)."""

    name: str
    values: tuple[Link, ...]
    sparql: str = ""
    """The query of a SPARQL-based constraint."""


@dataclass(frozen=True)
class ShapeDoc:
    """One shape, as the shapes page shows it."""

    anchor: str
    iri: str
    label: str
    comment: str
    name: str
    message: str
    severity: Severity
    path: str | None
    targets: tuple[tuple[str, tuple[Link, ...]], ...]
    constraints: tuple[Constraint, ...]
    across_records: bool
    properties: tuple[ShapeDoc, ...] = ()


@dataclass(frozen=True)
class TermNote:
    """A term the shapes files define besides shapes (``bsh:checkedAcrossRecords``)."""

    anchor: str
    label: str
    comment: str


@dataclass(frozen=True)
class ShapesFile:
    """One shapes file: its header and its node shapes; shared property shapes apart."""

    name: str
    anchor: str
    """The file's section on the page: its stem (``core``), the last part of its IRI."""
    iris: tuple[str, ...]
    """The file's own IRI and its version's (``…/shapes/core``, ``…/shapes/core/0.1.0``)."""
    label: str
    comment: str
    node_shapes: tuple[ShapeDoc, ...]
    shared: tuple[ShapeDoc, ...]
    """Property shapes that several node shapes (or none) list."""
    terms: tuple[TermNote, ...] = ()


def shape_anchor(iri: str) -> str:
    """The anchor of a shape on the shapes page: its local name."""
    return iri.removeprefix(str(BSH)).rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def shapes_files() -> tuple[Path, ...]:
    return tuple(sorted(data_dir("shapes").glob("*.ttl")))


@cache
def shapes_doc() -> tuple[ShapesFile, ...]:
    """Every shapes file, documented (read once per process)."""
    return tuple(_file_doc(path) for path in shapes_files())


def shapes_turtle() -> bytes:
    """The shapes files as they are in ``shapes/``, one after another under a comment each."""
    return b"\n".join(f"# ---- shapes/{path.name} ----\n".encode() + path.read_bytes()
                      for path in shapes_files())


def _file_doc(path: Path) -> ShapesFile:
    graph = Graph()
    graph.parse(path, format="turtle")
    order = _definition_order(path)
    header = next(iter(graph.subjects(RDF.type, OWL.Ontology)), None)
    listed: dict[Node, list[Node]] = {}
    for node_shape, prop in graph.subject_objects(SH.property):
        listed.setdefault(prop, []).append(node_shape)
    own = {prop: owners[0] for prop, owners in listed.items() if len(owners) == 1}
    node_shapes = [node for node in set(graph.subjects(RDF.type, SH.NodeShape))
                   | set(graph.subjects(SH.property, None))]
    properties = set(graph.subjects(RDF.type, SH.PropertyShape)) | set(listed)

    def doc(node: Node) -> ShapeDoc:
        children = sorted((p for p in graph.objects(node, SH.property) if own.get(p) == node),
                          key=lambda p: order.get(str(p), len(order)))
        return _shape(graph, node, tuple(doc(child) for child in children))

    iris = () if header is None else (str(header), *map(str, graph.objects(header, OWL.versionIRI)))
    terms = tuple(TermNote(shape_anchor(str(term)), _text(graph, term, RDFS.label),
                           _text(graph, term, RDFS.comment))
                  for term in sorted(set(graph.subjects(RDFS.isDefinedBy, None)), key=str)
                  if str(term).startswith(str(BSH)) and term not in listed
                  and (term, RDF.type, SH.NodeShape) not in graph)
    return ShapesFile(
        name=path.name,
        anchor=path.stem,
        iris=iris,
        terms=terms,
        label=_text(graph, header, RDFS.label) or path.stem,
        comment=_text(graph, header, RDFS.comment),
        node_shapes=tuple(doc(node) for node in
                          sorted(node_shapes, key=lambda n: order.get(str(n), len(order)))),
        shared=tuple(doc(node) for node in
                     sorted(properties - set(own), key=lambda n: order.get(str(n), len(order)))
                     if node not in node_shapes),
    )


def _shape(graph: Graph, node: Node, properties: tuple[ShapeDoc, ...]) -> ShapeDoc:
    severity = graph.value(node, SH.severity)
    path = graph.value(node, SH.path)
    return ShapeDoc(
        anchor=shape_anchor(str(node)), iri=str(node),
        label=_text(graph, node, RDFS.label), comment=_text(graph, node, RDFS.comment),
        name=_text(graph, node, SH.name), message=_text(graph, node, SH.message),
        severity=Severity.from_iri(severity) if severity is not None else Severity.VIOLATION,
        path=None if path is None else render_path(graph, path),
        targets=tuple((str(p).removeprefix(str(SH)), _links(graph, graph.objects(node, p)))
                      for p in TARGETS if graph.value(node, p) is not None),
        constraints=tuple(_constraint(graph, p, node)
                          for p in sorted(set(graph.predicates(node)), key=str)
                          if str(p).startswith(str(SH)) and p not in _NOT_CONSTRAINTS),
        across_records=graph.value(node, CHECKED_ACROSS_RECORDS) == Literal(True),
        properties=properties,
    )


def _constraint(graph: Graph, parameter: Node, node: Node) -> Constraint:
    name = str(parameter).removeprefix(str(SH))
    values = list(graph.objects(node, parameter))
    if parameter == SH.sparql:
        queries = [_text(graph, value, SH.select) or _text(graph, value, SH.ask)
                   for value in values]
        return Constraint(name, (), "\n\n".join(query.strip() for query in queries))
    flat: list[Node] = []
    for value in values:
        is_list = isinstance(value, BNode) and graph.value(value, RDF.first) is not None
        flat.extend(Collection(graph, value) if is_list else [value])
    return Constraint(name, _links(graph, flat))


def _links(graph: Graph, nodes: Iterable[Node]) -> tuple[Link, ...]:
    out = []
    for node in sorted(nodes, key=str):
        if isinstance(node, URIRef):
            iri = str(node)
            if iri.startswith(BENCH_IRI):
                out.append(Link(curie(iri), "docs.ontology", iri[len(BENCH_IRI):]))
            elif iri.startswith(str(BSH)):
                out.append(Link(curie(iri), "docs.shapes", shape_anchor(iri)))
            else:
                out.append(Link(curie(iri)))
        elif isinstance(node, Literal):
            out.append(Link(str(node)))
        else:
            out.append(Link(_text(graph, node, RDFS.label) or "a nested shape"))
    return tuple(out)


def _definition_order(path: Path) -> dict[str, int]:
    order: dict[str, int] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("bsh:"):
            order.setdefault(f"{BSH}{line.split()[0].removeprefix('bsh:')}", len(order))
    return order


def _text(graph: Graph, subject: Node | None, predicate: URIRef) -> str:
    value = None if subject is None else graph.value(subject, predicate)
    return "" if value is None else str(value)


def documents() -> dict[str, str]:
    """The anchor on the shapes page of each shapes file's IRI (and its version's)."""
    return {iri: file.anchor for file in shapes_doc() for iri in file.iris}


__all__ = ["Constraint", "Link", "ShapeDoc", "ShapesFile", "TermNote", "documents",
           "shape_anchor", "shapes_doc", "shapes_turtle"]
