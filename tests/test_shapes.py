"""The shapes files: well-formed SHACL, in step with the ontology, written for curators."""

from pathlib import Path

import pyshacl
import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.namespace import OWL, RDF, RDFS, SH, XSD
from rdflib.term import Node

from graph.build.graphs import GraphInMemory
from graph.namespace import BENCH_IRI
from graph.resources import data_dir
from graph.validation.across import IMPLEMENTED
from graph.validation.shapes import BSH, CHECKED_ACROSS_RECORDS, ShapeSet
from graph.validation.sparql import compile_rule

from .conftest import DATA

SHAPES = data_dir("shapes")
FILES = {"core.ttl": SH.Violation, "recommended.ttl": SH.Warning}
CONSTRAINTS = frozenset(pyshacl.constraints.ALL_CONSTRAINT_PARAMETERS) - {SH.property} | {SH.sparql}


def parse(path: Path) -> Graph:
    return Graph().parse(path, format="turtle")


@pytest.fixture(scope="module")
def shapes() -> Graph:
    graph = Graph()
    for name in FILES:
        graph.parse(SHAPES / name, format="turtle")
    return graph


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return parse(data_dir("ontology") / "bench.ttl")


def shape_nodes(graph: Graph) -> set[Node]:
    nodes: set[Node] = set(graph.subjects(SH.path, None))
    nodes |= set(graph.subjects(RDF.type, SH.NodeShape)) | set(graph.subjects(RDF.type,
                                                                              SH.PropertyShape))
    return nodes


def constrained(graph: Graph, node: Node) -> bool:
    """Whether the shape itself holds a constraint (so it can be the source of a result)."""
    return any(p in CONSTRAINTS for p in graph.predicates(node))


def test_the_shapes_folder_holds_exactly_the_two_files() -> None:
    assert sorted(p.name for p in SHAPES.glob("*.ttl")) == sorted(FILES)


@pytest.mark.parametrize("name", FILES)
def test_each_file_describes_itself(name: str) -> None:
    graph = parse(SHAPES / name)
    headers = list(graph.subjects(RDF.type, OWL.Ontology))
    assert headers == [URIRef(f"https://w3id.org/benchgraph/shapes/{name.removesuffix('.ttl')}")]
    for predicate in (RDFS.label, RDFS.comment, OWL.versionInfo, OWL.versionIRI):
        assert graph.value(headers[0], predicate) is not None, predicate


@pytest.mark.parametrize("name", [*FILES, None])
def test_meta_shacl_passes(name: str | None, shapes: Graph) -> None:
    graph = shapes if name is None else parse(SHAPES / name)
    conforms, _, text = pyshacl.validate(Graph(), shacl_graph=graph, meta_shacl=True)
    assert conforms, text


def undefined_sh_terms(graph: Graph) -> set[URIRef]:
    """The terms in the SHACL namespace that ``graph`` uses and SHACL (pyshacl's bundled
    ``shacl.ttl``, the W3C vocabulary) does not define."""
    vocabulary = parse(Path(pyshacl.__file__).parent / "assets" / "shacl.ttl")
    defined = {s for s in vocabulary.subjects() if str(s).startswith(str(SH))}
    assert len(defined) > 150 and SH.declare in defined  # the list is the real one
    used = {term for triple in graph for term in triple
            if isinstance(term, URIRef) and str(term).startswith(str(SH))}
    return used - defined


def test_no_sh_term_that_shacl_does_not_define(shapes: Graph) -> None:
    assert undefined_sh_terms(shapes) == set()


def test_the_check_catches_an_undefined_term(shapes: Graph) -> None:
    broken = Graph()
    for triple in shapes:
        broken.add(triple)
    typo = URIRef(f"{SH}shape")  # DCAT-AP shipped it; SHACL silently ignores it
    broken.add((BSH.NameShape, typo, BSH.PositionShape))
    assert undefined_sh_terms(broken) == {typo}


@pytest.mark.parametrize(("name", "severity"), FILES.items())
def test_every_shape_has_its_files_severity(name: str, severity: URIRef) -> None:
    graph = parse(SHAPES / name)
    wrong = [node for node in shape_nodes(graph) if constrained(graph, node)
             and graph.value(node, SH.severity) != severity]
    assert wrong == []


def test_every_property_shape_and_rule_has_a_name_and_a_message(shapes: Graph) -> None:
    missing = [node for node in shape_nodes(shapes)
               if (node, SH.path, None) in shapes or constrained(shapes, node)
               for predicate in (SH.name, SH.message)
               if not str(shapes.value(node, predicate) or "").strip()]
    assert missing == []


def test_every_shape_has_an_iri_in_the_shapes_namespace(shapes: Graph) -> None:
    assert all(str(node).startswith(str(BSH)) for node in shape_nodes(shapes))


def test_every_ontology_class_has_a_node_shape(ontology: Graph, shapes: Graph) -> None:
    classes = {c for c in ontology.subjects(RDF.type, OWL.Class) if str(c).startswith(BENCH_IRI)}
    targeted = set(shapes.objects(None, SH.targetClass))
    assert classes, "no classes read from the ontology"
    assert classes - targeted == set()


def bench_terms_used(shapes: Graph) -> dict[str, set[URIRef]]:
    """The bench: terms the shapes use as classes and as properties."""
    classes = set(shapes.objects(None, SH.targetClass)) | set(shapes.objects(None, SH["class"]))
    properties: set[URIRef] = set()
    for predicate in (SH.targetObjectsOf, SH.targetSubjectsOf, SH.lessThanOrEquals, SH.disjoint,
                      SH.lessThan, SH.equals):
        properties |= {p for p in shapes.objects(None, predicate) if isinstance(p, URIRef)}
    for path in shapes.objects(None, SH.path):
        properties |= path_properties(shapes, path)
    for node, constraint in shapes.subject_objects(SH.sparql):
        query = compile_rule(shapes, node, constraint, shapes.value(node, SH.path))
        properties |= set(query.predicates or ())
    keep: dict[str, set[Node]] = {"classes": classes, "properties": set(properties)}
    return {k: {t for t in v if isinstance(t, URIRef) and t.startswith(BENCH_IRI)}
            for k, v in keep.items()}


def path_properties(graph: Graph, path: Node) -> set[URIRef]:
    if isinstance(path, URIRef):
        return {path}
    found: set[URIRef] = set()
    if graph.value(path, RDF.first) is not None:
        for item in Collection(graph, path):
            found |= path_properties(graph, item)
    for predicate in (SH.inversePath, SH.zeroOrMorePath, SH.oneOrMorePath, SH.zeroOrOnePath):
        inner = graph.value(path, predicate)
        if inner is not None:
            found |= path_properties(graph, inner)
    alternatives = graph.value(path, SH.alternativePath)
    if alternatives is not None:
        found |= path_properties(graph, alternatives)
    return found


def test_every_class_and_property_the_shapes_use_is_in_the_ontology(
    ontology: Graph, shapes: Graph
) -> None:
    used = bench_terms_used(shapes)
    classes = set(ontology.subjects(RDF.type, OWL.Class))
    properties = {s for kind in (OWL.ObjectProperty, OWL.DatatypeProperty, RDF.Property)
                  for s in ontology.subjects(RDF.type, kind)}
    assert len(used["classes"]) > 15 and len(used["properties"]) > 40
    assert used["classes"] - classes == set()
    assert used["properties"] - properties == set()


def test_a_shape_for_a_class_the_ontology_lacks_would_fail(ontology: Graph,
                                                           shapes: Graph) -> None:
    broken = Graph()
    for triple in shapes:
        broken.add(triple)
    broken.add((BSH.ExtraShape, SH.targetClass, URIRef(f"{BENCH_IRI}Leaderboard")))
    classes = set(ontology.subjects(RDF.type, OWL.Class))
    assert bench_terms_used(broken)["classes"] - classes == {URIRef(f"{BENCH_IRI}Leaderboard")}


def test_the_build_date_rule_covers_every_date_property(ontology: Graph,
                                                        shapes: Graph) -> None:
    dated = {p for p in ontology.subjects(RDFS.range, None)
             if ontology.value(p, RDFS.range) in (XSD.date, XSD.gYear, XSD.gYearMonth)}
    rule = BSH["RecordShape-datesBeforeBuild"]
    constraint = shapes.value(rule, SH.sparql)
    assert constraint is not None
    compiled = compile_rule(shapes, rule, constraint, shapes.value(rule, SH.path))
    read: frozenset[URIRef] = compiled.predicates or frozenset()
    assert dated and dated | {URIRef(f"{BENCH_IRI}released")} <= read


def test_every_property_holding_web_addresses_is_checked_for_http(
    seed_build: GraphInMemory, shapes: Graph
) -> None:
    with_urls = {p for _, p, o, _ in seed_build.quads
                 if isinstance(o, Literal) and o.datatype == XSD.anyURI}
    checked = {shapes.value(node, SH.path) for node in shape_nodes(shapes)
               if str(shapes.value(node, SH.pattern) or "").startswith("^https?://")}
    assert len(with_urls) >= 4
    assert with_urls - checked == set()


def test_the_cross_record_shapes_are_the_ones_the_code_checks(shapes: Graph) -> None:
    marked = set(shapes.subjects(CHECKED_ACROSS_RECORDS, Literal(True)))
    assert marked == set(IMPLEMENTED)


def test_every_shape_with_a_constraint_has_an_invalid_fixture(shapes: Graph) -> None:
    fixtures = {path.stem for path in (DATA / "shapes" / "invalid").glob("*.trig")}
    shapes_with_rules = {str(node).removeprefix(str(BSH)) for node in shape_nodes(shapes)
                         if constrained(shapes, node)}
    assert shapes_with_rules - fixtures == set()
    assert fixtures - shapes_with_rules == set()


def test_the_compiled_set_runs_every_record_shape_and_rule() -> None:
    compiled = ShapeSet.load(sorted(SHAPES.glob("*.ttl")))
    run: set[Node] = {shape.node for shape in compiled.record_shapes}
    run |= {rule.shape for rule, _ in compiled.sparql_rules}
    expected = {node for node in shape_nodes(compiled.graph) if constrained(compiled.graph, node)
                and not compiled.describe(node).across_records}
    expected -= {BSH["NamedBenchmarkShape-label"]}  # belongs to a cross-record node shape
    assert run == expected
