"""The dumps a store writes from its own data (``graph.export.store_dump``): Turtle and TriG in
the layout of ``graph.export.writers``, and every format saying exactly what the store holds,
for any terms (RDF/XML for those it can write, refusing the others).

The quads go into a store folder as a build puts them there (each in its named graph, and
their merge in the default graph), since the writers rely on the on-disk order, which keeps
each subject's statements together. pyoxigraph reads each dump back, keeping every lexical
form as written, so the short forms (prefixed names, bare numbers and booleans, ``a``, long
strings) are held to the very same terms.
"""

import io
import re
import subprocess
import tempfile
from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF

from graph.dataset.quads import Quad
from graph.export import prefixes_for, serialize
from graph.export.formats import (
    JSONLD,
    NQUADS,
    NTRIPLES,
    RDF_FORMATS,
    RDFXML,
    TRIG,
    TURTLE,
    Format,
    FormatError,
)
from graph.export.store_dump import write_dump
from graph.settings import DEFAULT_BASE
from tests.quad_store import store_of
from tests.system_tools import RAPPER, require
from tests.test_turtle_layout import SMALL
from tests.test_turtle_property import QUADS

FORMATS = (TURTLE, TRIG, NTRIPLES, NQUADS, JSONLD)
"""The formats that write any graph."""
ELEMENT_NAME = re.compile(r"[^\W\d][\w.-]*\Z")
XML_CANNOT_CARRY = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def stored(quads: list[Quad], folder: str) -> ox.Store:
    """The quads in a store in ``folder``, on disk as a build keeps them."""
    store = ox.Store(folder)
    store.extend(store_of(quads))
    return store


def dumped(store: ox.Store, fmt: Format) -> bytes:
    out = io.BytesIO()
    write_dump(store, fmt, out, prefixes_for(DEFAULT_BASE))
    return out.getvalue()


def read(data: bytes, fmt: Format) -> set[ox.Quad]:
    return set(ox.parse(data, format=ox.RdfFormat.from_media_type(fmt.media_type)))


def rdfxml_writes(merge: set[ox.Quad]) -> bool:
    """Whether RDF/XML can write these statements: every predicate, and every class of an
    ``rdf:type``, ends in an XML name, and no literal holds a character XML 1.0 cannot
    carry."""
    return all(
        ELEMENT_NAME.search(quad.predicate.value)
        and not (quad.predicate.value == str(RDF.type) and isinstance(quad.object, ox.NamedNode)
                 and not ELEMENT_NAME.search(quad.object.value))
        and not (isinstance(quad.object, ox.Literal)
                 and XML_CANNOT_CARRY.search(quad.object.value))
        for quad in merge)


def test_turtle_and_trig_of_a_store_are_laid_out_as_the_build_writes_them(
        tmp_path: Path) -> None:
    store = stored(SMALL, str(tmp_path))
    for fmt in (TURTLE, TRIG):
        assert dumped(store, fmt) == serialize(SMALL, fmt, base=DEFAULT_BASE).data, fmt.name


@pytest.mark.filterwarnings("ignore:Parsing weird boolean:UserWarning")
@settings(max_examples=40, deadline=None)
@given(QUADS)
def test_every_dump_says_what_the_store_holds(quads: list[Quad]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = stored(quads, folder)
        named = {quad for quad in store if not isinstance(quad.graph_name, ox.DefaultGraph)}
        merge = {ox.Quad(q.subject, q.predicate, q.object)
                 for q in store.quads_for_pattern(None, None, None, ox.DefaultGraph())}
        for fmt in FORMATS:
            assert read(dumped(store, fmt), fmt) == (named if fmt.keeps_graphs else merge), \
                fmt.name
        if rdfxml_writes(merge):
            assert read(dumped(store, RDFXML), RDFXML) == merge
        else:
            with pytest.raises(FormatError):
                dumped(store, RDFXML)
        del store


@pytest.mark.filterwarnings("ignore:Parsing weird boolean:UserWarning")
@settings(max_examples=40, deadline=None)
@given(QUADS)
def test_a_store_in_memory_is_dumped_as_one_on_disk(quads: list[Quad]) -> None:
    """An in-memory store gives its statements in the order they came (a subject's may be
    apart): grouped, its Turtle and TriG are the on-disk store's, a subject in one block."""
    with tempfile.TemporaryDirectory() as folder:
        on_disk = stored(quads, folder)
        in_memory = ox.Store()
        in_memory.extend(reversed(list(store_of(quads))))
        for fmt in (TURTLE, TRIG):
            out = io.BytesIO()
            write_dump(in_memory, fmt, out, prefixes_for(DEFAULT_BASE), grouped=True)
            assert read(out.getvalue(), fmt) == read(dumped(on_disk, fmt), fmt), fmt.name
            blocks = out.getvalue().decode().split("\n\n")
            assert len(blocks) == len(dumped(on_disk, fmt).decode().split("\n\n")), fmt.name
        del on_disk


def test_each_dump_says_how_many_statements_it_wrote(tmp_path: Path) -> None:
    store = stored(SMALL, str(tmp_path))
    merge = len(list(store.quads_for_pattern(None, None, None, ox.DefaultGraph())))
    for fmt in RDF_FORMATS:
        written = write_dump(store, fmt, io.BytesIO(), prefixes_for(DEFAULT_BASE))
        assert written == (len(SMALL) if fmt.keeps_graphs else merge), fmt.name


def test_the_rdfxml_dump_is_the_merge_read_back_by_rdflib_and_rapper(tmp_path: Path) -> None:
    quads = [*SMALL, (URIRef(f"{DEFAULT_BASE}benchmark/x"), URIRef(f"{DEFAULT_BASE}ns#note"),
                      Literal("line one\r\nline two"), URIRef(f"{DEFAULT_BASE}record/one"))]
    store = stored(quads, str(tmp_path / "store"))
    data = dumped(store, RDFXML)
    assert b"&#13;" in data and b"\r" not in data
    merge = {(s, p, o) for s, p, o, _g in quads}
    assert set(Graph().parse(data=data, format="xml")) == merge  # the carriage return kept
    path = tmp_path / "graph.rdf"
    path.write_bytes(data)
    [rapper] = require(RAPPER)
    run = subprocess.run([rapper, "-i", "rdfxml", "-c", str(path)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0 and f"returned {len(merge)} " in run.stderr, run.stderr


@pytest.mark.parametrize(("quad", "words"), [
    ((URIRef("https://example.org/s"), URIRef("https://example.org/p"), Literal("bell \x07"),
      URIRef("https://example.org/g")), "XML 1.0 cannot carry"),
    ((URIRef("https://example.org/s"), URIRef("https://example.org/p/"), Literal("x"),
      URIRef("https://example.org/g")), "RDF/XML cannot write <https://example.org/p/>"),
    ((URIRef("https://example.org/s"), RDF.type, URIRef("https://example.org/1"),
      URIRef("https://example.org/g")), "as a property or a class"),
])
def test_the_rdfxml_dump_refuses_what_it_cannot_write(
        tmp_path: Path, quad: Quad, words: str) -> None:
    store = stored([quad], str(tmp_path))
    with pytest.raises(FormatError, match=re.escape(words)):
        dumped(store, RDFXML)
