"""Writing the graph out: every format round-trips, is read by independent parsers, is
deterministic, a store's dump is streamed, and a file is replaced atomically or not at all."""

import json
import os
import random
import re
import stat
import subprocess
from io import BytesIO
from pathlib import Path
from typing import BinaryIO

import pyoxigraph as ox
import pytest
from pyld import jsonld
from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import RDF, RDFS, XSD

from graph.dataset.quads import Quad
from graph.export import (
    Serialized,
    prefixes_for,
    serialize,
    to_dataset,
    write_atomically,
)
from graph.export.formats import (
    JSONLD,
    NQUADS,
    NTRIPLES,
    RDF_FORMATS,
    RDFXML,
    TABLE,
    TRIG,
    TURTLE,
    Format,
    FormatError,
    format_for,
    format_for_media_type,
    format_for_query,
    media_types,
)
from graph.export.store_dump import write_dump
from tests.memory import traced
from tests.quad_store import store_of
from tests.system_tools import RAPPER, require

BASE = "https://w3id.org/benchgraph/"
BENCH = "https://w3id.org/benchgraph/ontology#"
G1 = URIRef(BASE + "record/one_json")
G2 = URIRef(BASE + "record/sub_two_txt")
MIMIC = URIRef(BASE + "benchmark/mimic_rrs")
OTHER = URIRef(BASE + "benchmark/x-y.z")
NOTE = URIRef(BENCH + "note")
VALUE = URIRef(BENCH + "value")

ANY_TEXT = tuple(fmt for fmt in RDF_FORMATS if fmt is not RDFXML)
"""The formats that carry any string: XML 1.0 cannot carry most control characters."""

ODD_STRINGS = [
    "",
    'say "hi"',
    'triple """ quotes and \'\'\' too',
    "ends with a quote\"",
    "ends with a backslash\\",
    "back\\slash \\n not a newline",
    "line one\nline two\r\nline three",
    "tab\there",
    "<script>alert('x')</script>",
    "# not a comment . ;",
    "{braces} [brackets] (parens) @prefix x: <y> .",
    "naïve café — 日本語 Ελληνικά",
    "emoji 😀🎉 and a zero-width joiner 👩\u200d🔬",
    "NUL \x00 and unit separator \x1f and DEL \x7f",
    "line\u2028separator and paragraph\u2029separator",
    "  leading and trailing spaces  ",
    '"""\nthree quotes on the first and last lines\n"""',
    "a backslash before a line break\\\nand \\n after it",
    '"quoted" on one line,\n"quoted" on the next"',
]

TYPED = [
    Literal("1.50", datatype=XSD.decimal),
    Literal("-0.5", datatype=XSD.decimal),
    Literal("42", datatype=XSD.integer),
    Literal("true", datatype=XSD.boolean),
    Literal("false", datatype=XSD.boolean),
    Literal("2023", datatype=XSD.gYear),
    Literal("2019-01", datatype=XSD.gYearMonth),
    Literal("2023-05-17", datatype=XSD.date),
    Literal("2023-05-17T10:00:00+00:00", datatype=XSD.dateTime),
    Literal("https://aclanthology.org/2023.bionlp-1.1/?a=1&b=2#x", datatype=XSD.anyURI),
    Literal('{"a": [1, 2.5, "x"]}', datatype=RDF.JSON),
    Literal("<p>Hi &amp; bye</p>", datatype=RDF.HTML),
    Literal("5 points", datatype=URIRef(BENCH + "points")),
    Literal("Hallo Welt", lang="de"),
    Literal("colour", lang="en-gb"),
]

ODD_IRIS = [
    URIRef(BASE + "paper/2211.08584"),
    URIRef(BASE + "benchmark/mimic_rrs/source/1"),
    URIRef(BASE + "org/the_chinese_university_of_hong_kong_shenzhen"),
    URIRef(BASE + "tag/a%20b"),
    URIRef(BASE + "model/gpt-4o_(2024)~x"),
    URIRef(BASE + "person/josé"),
    URIRef("https://example.org/a?b=c&d=e#f"),
]


def sample_quads() -> list[Quad]:
    """Every literal kind and odd string, in two named graphs; one triple in both graphs and
    one quad twice."""
    quads: list[Quad] = []
    for index, text in enumerate(ODD_STRINGS):
        quads.append((MIMIC, NOTE, Literal(text), G1 if index % 2 else G2))
    for index, value in enumerate(TYPED):
        quads.append((OTHER, VALUE, value, G2 if index % 2 else G1))
    for iri in ODD_IRIS:
        quads.append((MIMIC, RDFS.seeAlso, iri, G1))
        quads.append((iri, RDF.type, URIRef(BENCH + "Thing"), G2))
    shared = (MIMIC, RDFS.label, Literal("MIMIC-RRS"))
    quads.append((*shared, G1))
    quads.append((*shared, G2))
    quads.append((*shared, G2))
    return quads


QUADS = sample_quads()
UNION = {(s, p, o) for s, p, o, _ in QUADS}
DISTINCT_QUADS = set(QUADS)


def expected_graph(name: URIRef | None = None) -> Graph:
    graph = Graph()
    for s, p, o, g in QUADS:
        if name is None or g == name:
            graph.add((s, p, o))
    return graph


def parse_back(data: bytes, fmt: Format) -> Dataset:
    dataset = Dataset()
    dataset.parse(data=data, format=fmt.rdflib_name)
    return dataset


def named_graphs(dataset: Dataset) -> dict[URIRef, set[tuple[object, object, object]]]:
    return {
        graph.identifier: set(graph)
        for graph in dataset.graphs()
        if isinstance(graph.identifier, URIRef) and len(graph)
    }


@pytest.fixture(scope="module")
def written() -> dict[str, Serialized]:
    return {fmt.name: serialize(QUADS, fmt, base=BASE) for fmt in ANY_TEXT}


# --- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", [TURTLE, NTRIPLES], ids=str)
def test_union_formats_round_trip(written: dict[str, Serialized], fmt: Format) -> None:
    result = written[fmt.name]
    parsed = Graph().parse(data=result.data, format=fmt.rdflib_name)
    assert set(parsed) == UNION  # exact terms: lexical forms, datatypes, language tags
    assert isomorphic(parsed, expected_graph())
    assert result.statements == len(UNION) == len(parsed)


@pytest.mark.parametrize("fmt", [TRIG, NQUADS, JSONLD], ids=str)
def test_dataset_formats_keep_named_graphs(written: dict[str, Serialized], fmt: Format) -> None:
    result = written[fmt.name]
    graphs = named_graphs(parse_back(result.data, fmt))
    assert set(graphs) == {G1, G2}
    for name, triples in graphs.items():
        assert triples == set(expected_graph(name))
        parsed = Graph()
        for triple in triples:
            parsed.add(triple)  # type: ignore[arg-type]
        assert isomorphic(parsed, expected_graph(name))
    assert result.statements == len(DISTINCT_QUADS) == sum(map(len, graphs.values()))


def test_a_triple_in_two_graphs_is_once_in_the_union_and_twice_in_quads(
    written: dict[str, Serialized],
) -> None:
    label = b'"MIMIC-RRS"'
    assert written["ntriples"].data.count(label) == 1
    assert written["nquads"].data.count(label) == 2


def test_lexical_forms_are_kept_exactly(written: dict[str, Serialized]) -> None:
    for fmt in ANY_TEXT:
        parsed = parse_back(written[fmt.name].data, fmt)
        lexical = {str(o) for _, _, o, _ in parsed.quads((None, None, None, None))}
        assert {"1.50", "-0.5", "2019-01", *ODD_STRINGS} <= lexical, fmt.name


def test_language_tags_come_back_lower_case_and_equal() -> None:
    quads: list[Quad] = [(MIMIC, NOTE, Literal("color", lang="en-US"), G1)]
    data = serialize(quads, NTRIPLES).data
    assert data.endswith(b'"color"@en-us .\n')
    (triple,) = Graph().parse(data=data, format="nt")
    assert triple[2] == Literal("color", lang="en-US")  # RDF compares tags case-insensitively


def test_an_explicit_xsd_string_is_the_plain_literal() -> None:
    quads: list[Quad] = [
        (MIMIC, NOTE, Literal("x", datatype=XSD.string), G1),
        (MIMIC, NOTE, Literal("x"), G1),
    ]
    result = serialize(quads, NTRIPLES)
    assert result.statements == 1  # one RDF term, written once
    assert result.data.endswith(b'"x" .\n')


def test_ntriples_output_is_what_pyoxigraph_writes_for_it(written: dict[str, Serialized]) -> None:
    for name, fmt in (("ntriples", ox.RdfFormat.N_TRIPLES), ("nquads", ox.RdfFormat.N_QUADS)):
        ours = written[name].data
        again = ox.serialize(ox.parse(ours, format=fmt), format=fmt)
        assert ox.Dataset(ox.parse(again, format=fmt)) == ox.Dataset(ox.parse(ours, format=fmt))


def test_empty_input_gives_empty_graphs() -> None:
    for fmt in ANY_TEXT:
        result = serialize([], fmt, base=BASE)
        assert result.statements == 0
        assert len(parse_back(result.data, fmt)) == 0, fmt.name


# --- independent parsers ---------------------------------------------------------------------


RAPPER_NAMES = {TURTLE: "turtle", NTRIPLES: "ntriples", TRIG: "trig", NQUADS: "nquads"}


@pytest.mark.parametrize("fmt", list(RAPPER_NAMES), ids=str)
def test_rapper_reads_the_output(
    written: dict[str, Serialized], fmt: Format, tmp_path: Path
) -> None:
    [rapper] = require(RAPPER)
    path = tmp_path / f"out{fmt.extension}"
    path.write_bytes(written[fmt.name].data)
    run = subprocess.run(
        [rapper, "-i", RAPPER_NAMES[fmt], "-c", str(path)],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert f"returned {written[fmt.name].statements} " in run.stderr, run.stderr


def test_pyld_reads_the_json_ld(written: dict[str, Serialized]) -> None:
    document = json.loads(written["jsonld"].data)
    nquads = jsonld.to_rdf(document, {"format": "application/n-quads"})
    lines = [line for line in nquads.split("\n") if line.strip()]  # not splitlines: U+2028
    assert len(lines) == len(DISTINCT_QUADS)
    graphs = named_graphs(parse_back(nquads.encode(), NQUADS))
    assert graphs == {name: set(expected_graph(name)) for name in (G1, G2)}


def test_json_ld_has_one_object_per_named_graph(written: dict[str, Serialized]) -> None:
    document = json.loads(written["jsonld"].data)
    assert sorted(node["@id"] for node in document) == sorted([str(G1), str(G2)])
    assert all("@graph" in node for node in document)


# --- determinism and prefixes ----------------------------------------------------------------


@pytest.mark.parametrize("fmt", ANY_TEXT, ids=str)
def test_same_quads_in_any_order_give_the_same_bytes(
    written: dict[str, Serialized], fmt: Format
) -> None:
    for seed in range(3):
        shuffled = QUADS + QUADS[: seed * 5]  # some duplicates too
        random.Random(seed).shuffle(shuffled)
        # fresh objects, as a new build would make: equal terms, not the same objects
        copies = [tuple(type(t)(t) if isinstance(t, URIRef) else t for t in q) for q in shuffled]
        assert serialize(copies, fmt, base=BASE).data == written[fmt.name].data  # type: ignore[arg-type]


def test_turtle_and_trig_use_the_prefixes(written: dict[str, Serialized]) -> None:
    for name in ("turtle", "trig"):
        text = written[name].data.decode()
        assert "@prefix bench: <https://w3id.org/benchgraph/ontology#> ." in text
        assert f"@prefix base: <{BASE}> ." in text
        assert "bench:note" in text and "base:record" not in text  # a local name with "/"
        assert f"<{MIMIC}> " in text and f"<{OTHER}> " in text
    without_base = serialize(QUADS, TURTLE).data.decode()
    assert "@prefix base:" not in without_base
    assert f"<{MIMIC}>" in without_base


UNUSUAL_LEXICAL_FORMS = [
    ("+007", XSD.integer, "+007"),
    (".5", XSD.decimal, '".5"^^xsd:decimal'),  # bare, some parsers would not read it
    ("1e5", XSD.decimal, '"1e5"^^xsd:decimal'),  # not a decimal's lexical form
    ("True", XSD.boolean, '"True"^^xsd:boolean'),  # ditto
    ("7.", XSD.decimal, '"7."^^xsd:decimal'),
]


def test_turtle_writes_the_short_forms_that_read_back_the_same(
    written: dict[str, Serialized],
) -> None:
    text = written["turtle"].data.decode()

    def written_as(form: str, text: str = text) -> bool:
        return re.search(rf"\s{re.escape(form)} [,;.]\n", text) is not None

    for form in (
        "42", "-0.5", "1.50", "true", "false",
        '"2023-05-17"^^xsd:date', '"{\\"a\\": [1, 2.5, \\"x\\"]}"^^rdf:JSON',
        '"5 points"^^bench:points', '"Hallo Welt"@de', "bench:Thing",
    ):
        assert written_as(form), form
    assert f"<{ODD_IRIS[0]}> a bench:Thing .\n" in text
    # Lexical forms rdflib would normalise: pyoxigraph reads them back exactly as stated.
    quads = [
        (MIMIC, VALUE, Literal(lexical, datatype=datatype, normalize=False), G1)
        for lexical, datatype, _form in UNUSUAL_LEXICAL_FORMS
    ]
    unusual = serialize(quads, TURTLE).data
    for _lexical, _datatype, form in UNUSUAL_LEXICAL_FORMS:
        assert written_as(form, unusual.decode()), form
    back = {t.object.value for t in ox.parse(unusual, format=ox.RdfFormat.TURTLE)}
    assert back == {lexical for lexical, _datatype, _form in UNUSUAL_LEXICAL_FORMS}


def test_turtle_groups_each_subject_and_trig_each_graph(written: dict[str, Serialized]) -> None:
    turtle = written["turtle"].data.decode()
    assert turtle.count(f"\n<{MIMIC}> ") == 1
    assert f'<{MIMIC}> rdfs:label "MIMIC-RRS" ;\n    rdfs:seeAlso <' in turtle
    assert '\n    bench:note "  leading and trailing spaces  " ,\n        "" ,\n' in turtle
    trig = written["trig"].data.decode()
    assert "base:record" not in trig
    assert trig.count(f"<{G1}> {{\n    ") == 1 and trig.count(f"<{G2}> {{\n    ") == 1
    assert trig.endswith(" .\n}\n")


def test_prefixes_for() -> None:
    assert prefixes_for(None)["xsd"] == str(XSD)
    assert prefixes_for(BASE)["base"] == BASE
    assert list(prefixes_for(BASE))[:-1] == sorted(prefixes_for(None))


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quad", "error", "words"),
    [
        ((BNode("b1"), NOTE, Literal("x"), G1), TypeError, "BNode"),
        ((MIMIC, NOTE, BNode("b1"), G1), TypeError, "BNode"),
        ((MIMIC, NOTE, Literal("x"), BNode("g")), TypeError, "BNode"),
        ((MIMIC, NOTE, Literal("x")), TypeError, "four terms"),
        ((URIRef("not an iri"), NOTE, Literal("x"), G1), ValueError, "not an iri"),
        ((MIMIC, NOTE, URIRef("https://ex.org/a b"), G1), ValueError, "a b"),
        ((MIMIC, NOTE, Literal("x", lang="abcdefghij"), G1), ValueError, "abcdefghij"),
        ((MIMIC, NOTE, Literal("x", datatype=RDF.langString), G1), ValueError, "langString"),
        ((MIMIC, NOTE, Literal("lone \ud800 surrogate"), G1), ValueError, "Unicode"),
    ],
)
def test_bad_terms_are_refused_with_a_clear_error(
    quad: tuple[object, ...], error: type[Exception], words: str
) -> None:
    for fmt in (NQUADS, TURTLE):
        with pytest.raises(error, match=words):
            serialize([*QUADS[:3], quad], fmt)  # type: ignore[list-item]


# --- atomic files ---------------------------------------------------------------------------


def write_file(path: Path, quads: list[Quad], fmt: Format | None = None) -> int:
    """The quads' dump written to ``path`` as ``benchgraph build -o`` writes a file: a store's
    dump, atomically; the statements written."""
    store = store_of(quads)
    chosen = fmt or format_for(None, path)
    return write_atomically(path, lambda out: write_dump(store, chosen, out, prefixes_for(BASE)))


@pytest.fixture
def old_file(tmp_path: Path) -> Path:
    path = tmp_path / "graph.ttl"
    path.write_bytes(b"old content\n")
    return path


def test_a_file_holds_the_dump(tmp_path: Path) -> None:
    path = tmp_path / "graph.nq"
    assert write_file(path, QUADS) == len(DISTINCT_QUADS)  # format from the extension
    named = {quad for quad in store_of(QUADS) if isinstance(quad.graph_name, ox.NamedNode)}
    assert set(ox.parse(path.read_bytes(), format=ox.RdfFormat.N_QUADS)) == named
    assert os.listdir(tmp_path) == ["graph.nq"]


def test_a_new_file_gets_the_umask_mode_and_a_replaced_one_keeps_its_mode(
    tmp_path: Path, old_file: Path
) -> None:
    umask = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.ttl"
        write_file(fresh, QUADS)
        assert stat.S_IMODE(fresh.stat().st_mode) == 0o644
        old_file.chmod(0o600)
        write_file(old_file, QUADS)
        assert stat.S_IMODE(old_file.stat().st_mode) == 0o600
        assert old_file.read_bytes() == fresh.read_bytes()
    finally:
        os.umask(umask)


@pytest.mark.parametrize(
    "error", [RuntimeError("boom"), KeyboardInterrupt()], ids=["exception", "interrupt"]
)
def test_a_failure_midway_leaves_the_old_file_and_no_temporary(
    old_file: Path, error: BaseException
) -> None:
    def write_then_fail(out: BinaryIO) -> None:
        out.write(serialize(QUADS, TURTLE).data[:100])
        raise error

    with pytest.raises(type(error)):
        write_atomically(old_file, write_then_fail)
    assert old_file.read_bytes() == b"old content\n"
    assert os.listdir(old_file.parent) == [old_file.name]


def test_a_refused_graph_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "graph.rdf"
    path.write_bytes(b"old content\n")
    with pytest.raises(FormatError, match=re.escape("XML 1.0 cannot carry")):
        write_file(path, QUADS)  # RDF/XML, and a value holds a control character
    assert path.read_bytes() == b"old content\n"
    assert os.listdir(tmp_path) == ["graph.rdf"]


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_failure_after_writing_leaves_the_old_file_and_no_temporary(
    old_file: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    seen: list[str] = []

    def broken(*args: object) -> None:
        seen.append(step)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, step, broken)
    with pytest.raises(OSError, match="No space"):
        write_file(old_file, QUADS, TURTLE)
    assert seen == [step]
    assert old_file.read_bytes() == b"old content\n"
    assert os.listdir(old_file.parent) == [old_file.name]


def test_a_missing_folder_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_file(tmp_path / "nowhere" / "graph.ttl", QUADS)
    assert os.listdir(tmp_path) == []


# --- formats ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "path", "expected"),
    [
        ("turtle", None, TURTLE),
        ("TTL", None, TURTLE),
        ("nt", None, NTRIPLES),
        ("n-triples", None, NTRIPLES),
        ("trig", None, TRIG),
        ("N-Quads", None, NQUADS),
        ("json-ld", None, JSONLD),
        (None, Path("out/graph.ttl"), TURTLE),
        (None, Path("graph.NT"), NTRIPLES),
        (None, Path("graph.trig"), TRIG),
        (None, Path("graph.nq"), NQUADS),
        (None, Path("graph.jsonld"), JSONLD),
        (None, Path("graph.json"), JSONLD),
        ("nquads", Path("graph.ttl"), NQUADS),  # the name wins over the extension
        (None, None, TURTLE),
    ],
)
def test_format_for(name: str | None, path: Path | None, expected: Format) -> None:
    assert format_for(name, path) is expected


@pytest.mark.parametrize(
    ("name", "path", "words"),
    [
        ("yaml", None, "unknown format 'yaml'; choose one of turtle, ntriples, rdfxml, trig"),
        ("csv", None, "csv is a format of SELECT and ASK results, not of a graph"),
        (None, Path("graph.srj"), "json is a format of SELECT and ASK results"),
        (None, Path("graph.xml"), "extension '.xml'"),
        (None, Path("graph"), "no extension"),
    ],
)
def test_format_for_unknown(name: str | None, path: Path | None, words: str) -> None:
    with pytest.raises(FormatError, match=words) as raised:
        format_for(name, path)
    assert "jsonld" in str(raised.value)


def test_media_types() -> None:
    assert format_for_media_type("text/turtle; charset=utf-8") is TURTLE
    assert format_for_media_type("APPLICATION/LD+JSON") is JSONLD
    assert format_for_media_type("application/n-quads") is NQUADS
    assert format_for_media_type("text/html") is None
    assert media_types()[0] == "text/turtle"
    for fmt in RDF_FORMATS:
        assert format_for_media_type(fmt.media_type) is fmt
        # pyoxigraph agrees on the registered media type and extension
        known = ox.RdfFormat.from_media_type(fmt.media_type)
        assert known is not None and known.file_extension == fmt.extension.lstrip(".")


def test_format_for_query_defaults_and_aliases() -> None:
    assert format_for_query(None, "SELECT") is TABLE
    assert format_for_query(None, "DESCRIBE") is TURTLE
    assert format_for_query("ttl", "CONSTRUCT") is TURTLE
    with pytest.raises(FormatError, match="does not fit a SELECT query"):
        format_for_query("ttl", "SELECT")
    assert TURTLE.content_type == "text/turtle; charset=utf-8"
    assert JSONLD.content_type == "application/ld+json"


def test_the_table_says_which_formats_keep_named_graphs() -> None:
    assert [fmt.name for fmt in RDF_FORMATS if fmt.keeps_graphs] == ["trig", "nquads", "jsonld"]
    for fmt in RDF_FORMATS:
        known = ox.RdfFormat.from_media_type(fmt.media_type)
        assert known is not None and known.supports_datasets == fmt.keeps_graphs


# --- in-memory stores ------------------------------------------------------------------------


def test_to_dataset() -> None:
    dataset = to_dataset(QUADS)
    assert named_graphs(dataset) == {name: set(expected_graph(name)) for name in (G1, G2)}
    assert set(dataset.triples((None, None, None))) == UNION  # the default graph is the union


# --- RDF/XML ---------------------------------------------------------------------------------

XML_SAFE = [q for q in QUADS if not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f]", str(q[2]))]
"""The sample quads whose strings XML 1.0 can carry (a carriage return among them)."""


def test_rdfxml_holds_the_union_and_reads_back_as_the_same_triples(tmp_path: Path) -> None:
    result = serialize(XML_SAFE, RDFXML, base=BASE)
    union = {(s, p, o) for s, p, o, _ in XML_SAFE}
    parsed = Graph().parse(data=result.data, format="xml")
    assert set(parsed) == union and result.statements == len(union)
    assert Literal("line one\nline two\r\nline three") in set(parsed.objects())  # \r kept
    back = {t.object.value for t in ox.parse(result.data, format=ox.RdfFormat.RDF_XML)}
    assert "line one\nline two\r\nline three" in back  # pyoxigraph too
    path = tmp_path / "out.rdf"
    path.write_bytes(result.data)
    [rapper] = require(RAPPER)
    run = subprocess.run([rapper, "-i", "rdfxml", "-c", str(path)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0 and f"returned {len(union)} " in run.stderr, run.stderr


@pytest.mark.parametrize(("quad", "words"), [
    ((MIMIC, NOTE, Literal("bell \x07"), G1), "XML 1.0 cannot carry"),
    ((MIMIC, URIRef("https://example.org/p/"), Literal("x"), G1), "RDF/XML cannot write"),
    ((MIMIC, URIRef("https://example.org/1"), Literal("x"), G1), "<https://example.org/1>"),
    ((MIMIC, RDF.type, URIRef("https://example.org/Class/"), G1), "as a property or a class"),
])
def test_rdfxml_refuses_what_it_cannot_write_rather_than_writing_bad_xml(
    quad: Quad, words: str
) -> None:
    with pytest.raises(FormatError, match=re.escape(words)):
        serialize([quad], RDFXML)




@pytest.mark.parametrize("fmt", RDF_FORMATS, ids=str)
def test_a_dump_is_written_as_it_is_read_never_whole_in_memory(
    tmp_path: Path, fmt: Format
) -> None:
    """``write_dump`` writes each subject as it reads it (a dump of 100,000 records is
    gigabytes): 40,000 quads of long IRIs over few distinct terms make a file of megabytes,
    and writing it allocates less than a tenth of that at its peak, with the very bytes it
    writes into memory."""
    iri = "https://example.org/" + "a-long-namespace-to-make-each-line-long/" * 5
    quads = [(URIRef(f"{iri}subject-{s}"), URIRef(f"{iri}predicate"), URIRef(f"{iri}object-{o}"),
              URIRef(f"{iri}graph-{s % 100}")) for s in range(200) for o in range(200)]
    store = ox.Store(str(tmp_path / "store"))
    store.extend(store_of(quads))
    whole = BytesIO()
    assert write_dump(store, fmt, whole, prefixes_for(None)) == len(quads)
    path = tmp_path / f"graph{fmt.extension}"

    def write(out: BinaryIO) -> int:
        return write_dump(store, fmt, out, prefixes_for(None))

    _, _, peak = traced(lambda: write_atomically(path, write))
    assert path.read_bytes() == whole.getvalue()
    assert peak < len(whole.getvalue()) / 10, (peak, len(whole.getvalue()))
