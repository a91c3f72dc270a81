"""The dumps a store writes from its own data (``graph.export.store_dump``): Turtle and TriG in
the layout of ``graph.export.turtle``, and every format saying exactly what the store holds,
for any terms.

The quads go into a store folder as a build puts them there (each in its named graph, and
their merge in the default graph), since the writers rely on the on-disk order, which keeps
each subject's statements together. pyoxigraph reads each dump back, keeping every lexical
form as written, so the short forms (prefixed names, bare numbers and booleans, ``a``, long
strings) are held to the very same terms.
"""

import io
import tempfile
from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import given, settings

from graph.dataset.oxigraph import to_oxigraph
from graph.dataset.quads import Quad
from graph.export import prefixes_for, serialize
from graph.export.formats import JSONLD, NQUADS, NTRIPLES, TRIG, TURTLE, Format
from graph.export.store_dump import write_dump
from graph.settings import DEFAULT_BASE
from tests.test_turtle_layout import SMALL
from tests.test_turtle_property import QUADS

FORMATS = (TURTLE, TRIG, NTRIPLES, NQUADS, JSONLD)


def stored(quads: list[Quad], folder: str) -> ox.Store:
    store = ox.Store(folder)
    for quad in quads:
        named = ox.Quad(*map(to_oxigraph, quad))
        store.add(named)
        store.add(ox.Quad(named.subject, named.predicate, named.object, ox.DefaultGraph()))
    return store


def dumped(store: ox.Store, fmt: Format) -> bytes:
    out = io.BytesIO()
    write_dump(store, fmt, out, prefixes_for(DEFAULT_BASE))
    return out.getvalue()


def read(data: bytes, fmt: Format) -> set[ox.Quad]:
    return set(ox.parse(data, format=ox.RdfFormat.from_media_type(fmt.media_type)))


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
        del store
