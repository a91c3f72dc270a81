"""The layout of Turtle and TriG, as a careful person would write them: ``a`` first for every
subject, a blank line between subjects, a text with line breaks as a long string.

Exact text for a small graph; for any quads, the statements in document order (as pyoxigraph
reads them one after another) are the canonical order with each subject's types moved first;
``rapper`` reads any output as the same statements; the seeds' bodies read as text in the
Turtle dump of their store.
"""

import io
import re
import subprocess
from collections.abc import Callable

import pyoxigraph as ox
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rdflib import Literal, URIRef
from rdflib.namespace import DCTERMS, RDF, RDFS, SKOS

from graph.build.graphs import BuildResult
from graph.dataset.quads import Quad
from graph.export import prefixes_for, serialize
from graph.export.formats import NQUADS, NTRIPLES, TRIG, TURTLE, Format
from graph.export.store_dump import write_dump
from graph.namespace import BENCH
from graph.settings import DEFAULT_BASE
from tests.quad_store import store_of
from tests.system_tools import RAPPER, needs, require
from tests.test_turtle_property import QUADS, iris, quads_of

X = URIRef(DEFAULT_BASE + "benchmark/x")
Y = URIRef(DEFAULT_BASE + "benchmark/y")
ONE = URIRef(DEFAULT_BASE + "record/one")
TWO = URIRef(DEFAULT_BASE + "record/two")
SMALL: list[Quad] = [
    (Y, RDFS.label, Literal("Y"), TWO),
    (X, BENCH.body, Literal('# X\n\nSays "hi"', lang="en"), ONE),
    (X, RDF.type, BENCH.Benchmark, ONE),
    (X, DCTERMS.identifier, Literal("x"), ONE),  # before rdf:type in N-Triples order
    (X, RDF.type, SKOS.Concept, ONE),
    (X, RDFS.label, Literal("X"), TWO),
]
RDF_TYPE = f"<{RDF.type}>"


def body(data: bytes) -> str:
    """The text after the prefixes (which end at the first blank line)."""
    return data.decode().split("\n\n", 1)[1]


def test_turtle_layout() -> None:
    assert body(serialize(SMALL, TURTLE, base=DEFAULT_BASE).data) == (
        f"<{X}> a skos:Concept ,\n"
        "        bench:Benchmark ;\n"
        '    dcterms:identifier "x" ;\n'
        '    rdfs:label "X" ;\n'
        '    bench:body """# X\n'
        "\n"
        'Says "hi\\""""@en .\n'
        "\n"
        f'<{Y}> rdfs:label "Y" .\n'
    )


def test_trig_layout() -> None:
    assert body(serialize(SMALL, TRIG, base=DEFAULT_BASE).data) == (
        f"<{ONE}> {{\n"
        f"    <{X}> a skos:Concept ,\n"
        "            bench:Benchmark ;\n"
        '        dcterms:identifier "x" ;\n'
        '        bench:body """# X\n'
        "\n"
        'Says "hi\\""""@en .\n'
        "}\n"
        "\n"
        f"<{TWO}> {{\n"
        f'    <{X}> rdfs:label "X" .\n'
        "\n"
        f'    <{Y}> rdfs:label "Y" .\n'
        "}\n"
    )


def test_only_a_line_break_makes_a_long_string() -> None:
    texts = ['say "hi"', "back\\slash \\n not a line break", "\r alone", "\u2028 neither"]
    quads: list[Quad] = [(X, RDFS.label, Literal(text), ONE) for text in texts]
    written = body(serialize(quads, TURTLE).data)
    assert '"""' not in written
    assert '"back\\\\slash \\\\n not a line break"' in written


def types_first(canonical: list[ox.Quad], run_of: Callable[[ox.Quad], object]) -> list[str]:
    """The statements in canonical order, each run of one subject (of one graph, for TriG)
    with its rdf:type statements moved first, the rest in the order they had."""
    runs: dict[object, tuple[list[str], list[str]]] = {}
    for quad in canonical:
        types, others = runs.setdefault(run_of(quad), ([], []))
        (types if str(quad.predicate) == RDF_TYPE else others).append(str(quad))
    return [statement for types, others in runs.values() for statement in types + others]


@pytest.mark.filterwarnings("ignore:Parsing weird boolean:UserWarning")
@settings(max_examples=200, deadline=None)
@given(QUADS)
def test_each_subject_has_its_types_first_then_the_canonical_order(quads: list[Quad]) -> None:
    for layout, canonical, run_of in (
        (TURTLE, NTRIPLES, subject),
        (TRIG, NQUADS, graph_and_subject),
    ):
        written = ox.parse(serialize(quads, layout).data, format=oxigraph_format(layout))
        in_order = ox.parse(serialize(quads, canonical).data, format=oxigraph_format(canonical))
        assert list(map(str, written)) == types_first(list(in_order), run_of), layout.name


def subject(quad: ox.Quad) -> str:
    return str(quad.subject)


def graph_and_subject(quad: ox.Quad) -> tuple[str, str]:
    return str(quad.graph_name), str(quad.subject)


def oxigraph_format(fmt: Format) -> ox.RdfFormat:
    found = ox.RdfFormat.from_media_type(fmt.media_type)
    assert found is not None
    return found


# rapper resolves dot segments even in an absolute IRI (<http://x/a/.> is read as <http://x/a/>)
# and ends a string at a NUL (as C does), whatever the layout: so here the IRIs have plain
# local names and no text holds a NUL; the literals are as odd as ever otherwise.
@needs(RAPPER)  # before hypothesis starts
@pytest.mark.filterwarnings("ignore:Parsing weird boolean:UserWarning")
@settings(max_examples=60, deadline=None)
@given(quads_of(iris(st.from_regex(r"[A-Za-z0-9_]{0,6}", fullmatch=True))))
def test_rapper_reads_any_output_as_the_same_statements(quads: list[Quad]) -> None:
    [rapper] = require(RAPPER)
    assume(not any("\x00" in term for quad in quads for term in quad))
    assume(not any(_raptor_refuses(term) for quad in quads for term in quad))
    for layout, plain, name in ((TURTLE, NTRIPLES, "turtle"), (TRIG, NQUADS, "trig")):
        run = subprocess.run(
            [rapper, "-q", "-i", name, "-o", plain.name, "-", "urn:x:base"],
            input=serialize(quads, layout).data, capture_output=True, check=False,
        )
        assert run.returncode == 0, run.stderr.decode()
        expected = ox.parse(serialize(quads, plain).data, format=oxigraph_format(plain))
        read = ox.parse(run.stdout, format=oxigraph_format(plain))
        assert set(map(str, read)) == set(map(str, expected)), layout.name


def _raptor_refuses(term: object) -> bool:
    """Whether rapper refuses ``term`` whatever the document: it reads every ``rdf:_…`` IRI as
    a container membership property and stops at one that is not ``rdf:_`` and a positive
    number (``rdf:_``, ``rdf:_0``, ``rdf:_a``: "Illegal ordinal value"), where RDF makes
    them IRIs like any other (found by this test in CI, 2026-12-02)."""
    text = str(term)
    if not (isinstance(term, URIRef) and text.startswith(f"{RDF}_")):
        return False
    number = text[len(f"{RDF}_"):]
    return not (number.isascii() and number.isdigit() and int(number) > 0)


# --- the seeds -------------------------------------------------------------------------------

LONG_STRING = re.compile(r'"""(?:[^"\\]|\\.|"(?!""))*"""')
"""A Turtle long string, which may hold blank lines of its own."""


@pytest.fixture(scope="module")
def seed_turtle(seed_build: BuildResult, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Turtle dump of the seeds' store, on disk as a build keeps it (the order of an
    in-memory store does not keep a subject's statements together)."""
    store = ox.Store(str(tmp_path_factory.mktemp("seed_store")))
    store.extend(store_of(seed_build.quads))
    out = io.BytesIO()
    write_dump(store, TURTLE, out, prefixes_for(DEFAULT_BASE))
    return out.getvalue().decode()


def test_a_seed_body_reads_as_the_text_it_is(seed_build: BuildResult, seed_turtle: str) -> None:
    mimic = URIRef(DEFAULT_BASE + "benchmark/mimic_rrs")
    (text,) = (str(o) for s, p, o, _g in seed_build.quads if s == mimic and p == BENCH.body)
    # nothing in it to escape, so each of its lines is a line of the Turtle as it stands
    assert "\n" in text and "\\" not in text and '"""' not in text and not text.endswith('"')
    assert f'\n    bench:body """{text}""" ;\n' in seed_turtle


def test_the_seed_subjects_are_blocks_apart_each_with_a_first(
    seed_build: BuildResult, seed_turtle: str
) -> None:
    blocks = LONG_STRING.sub('""', body(seed_turtle.encode())).split("\n\n")
    subjects = {s for s, _p, _o, _g in seed_build.quads}
    assert len(blocks) == len(subjects)
    typed = {s for s, p, _o, _g in seed_build.quads if p == RDF.type}
    assert sum(re.match(r"\S+ a ", block) is not None for block in blocks) == len(typed)
    assert "\n    a " not in seed_turtle
