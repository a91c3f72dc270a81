"""Query results written out: the table, and the W3C CSV, TSV, JSON and XML result formats.

Each writer is read back by an independent reader (rdflib's result parsers, Python's csv,
ElementTree) to hold it to its format, on hand-made results with awkward terms."""

import csv
import io
import json
import xml.etree.ElementTree as ET

import pyoxigraph as ox
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.compare import isomorphic
from rdflib.namespace import XSD
from rdflib.query import Result

from graph.dataset.oxigraph import to_oxigraph
from graph.export.formats import FORMATS, Format, format_named
from graph.export.query_results import serialize_result
from graph.sparql.result import QueryResult
from graph.sparql.results import (
    SPARQL_RESULTS_NS,
    FormatError,
    TableLayout,
    fit_widths,
    json_term,
    to_csv,
    to_json,
    to_table,
    to_tsv,
    to_xml,
    turtle_term,
)


def render(result: QueryResult, name: str) -> bytes:
    return serialize_result(result, format_named(name))


def select(variables: tuple[str, ...], rows: tuple[tuple[object, ...], ...]) -> QueryResult:
    """A SELECT answer of rows written with rdflib's terms (the readers below give them back)."""
    return QueryResult.select(variables, [
        tuple(None if term is None else to_oxigraph(term) for term in row) for row in rows])


def construct(graph: Graph) -> QueryResult:
    return QueryResult.graph("CONSTRUCT", [
        ox.Triple(to_oxigraph(s), to_oxigraph(p), to_oxigraph(o)) for s, p, o in graph])

BENCH = "https://w3id.org/benchgraph/ontology#"
AWKWARD = Literal('tab\there, "quoted", back\\slash,\nnew line\r\n, comma')
ROW_TERMS = (
    URIRef("https://w3id.org/benchgraph/benchmark/mimic_rrs"),
    AWKWARD,
    Literal("radiologie", lang="fr"),
    Literal("5.0", datatype=XSD.decimal),
    Literal("42", datatype=XSD.integer),
    Literal("2026-09-08", datatype=XSD.date),
    BNode("b0"),
    None,
)
VARIABLES = ("iri", "text", "lang", "decimal", "integer", "date", "blank", "unbound")
SELECT = select(VARIABLES, (ROW_TERMS, (URIRef(f"{BENCH}Gated"),) + (None,) * 7))
ASK_TRUE = QueryResult.ask(True)


def parsed(text: str, fmt: str) -> list[tuple[object, ...]]:
    result = Result.parse(io.StringIO(text), format=fmt)
    return [tuple(row) for row in result]  # type: ignore[arg-type]


# -- TSV ------------------------------------------------------------------------------------------

def test_tsv_header_terms_and_line_ends_follow_the_w3c_format() -> None:
    lines = to_tsv(SELECT).split("\n")
    assert lines[0] == "\t".join(f"?{v}" for v in VARIABLES)
    assert lines[1].split("\t") == [
        "<https://w3id.org/benchgraph/benchmark/mimic_rrs>",
        r'"tab\there, \"quoted\", back\\slash,\nnew line\r\n, comma"',
        '"radiologie"@fr',
        "5.0",
        "42",
        '"2026-09-08"^^<http://www.w3.org/2001/XMLSchema#date>',
        "_:b0",
        "",
    ]
    assert lines[2].split("\t")[0] == f"<{BENCH}Gated>"
    assert lines[3] == ""  # every line, the last included, ends with LF
    assert "\r" not in to_tsv(SELECT)


def test_tsv_reads_back_as_the_same_terms_with_rdflibs_parser() -> None:
    rows = parsed(to_tsv(SELECT), "tsv")
    assert rows[0][:6] == ROW_TERMS[:6]
    assert isinstance(rows[0][6], BNode) and rows[0][7] is None
    assert rows[1][0] == URIRef(f"{BENCH}Gated")


def test_tsv_writes_a_number_in_full_when_its_lexical_form_is_not_turtle_syntax() -> None:
    # "1000" abbreviated would read back as an xsd:integer: a decimal without a point is typed.
    assert turtle_term(to_oxigraph(Literal("1000", datatype=XSD.decimal))) == \
        '"1000"^^<http://www.w3.org/2001/XMLSchema#decimal>'
    double = Literal("1.5E3", datatype=XSD.double, normalize=False)
    assert turtle_term(to_oxigraph(double)) == "1.5E3"
    assert turtle_term(to_oxigraph(Literal("1500.0", datatype=XSD.double, normalize=False))) == \
        '"1500.0"^^<http://www.w3.org/2001/XMLSchema#double>'
    assert turtle_term(to_oxigraph(Literal("-7", datatype=XSD.integer))) == "-7"


def test_tsv_ask_is_one_column_one_row() -> None:
    assert to_tsv(ASK_TRUE) == "?boolean\ntrue\n"


@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=60))
def test_any_string_survives_tsv_and_json(text: str) -> None:
    result = select(("x",), ((Literal(text),),))
    assert parsed(to_tsv(result), "tsv")[0][0] == Literal(text)
    assert parsed(to_json(result), "json")[0][0] == Literal(text)


# -- CSV ------------------------------------------------------------------------------------------

def test_csv_is_rfc4180_with_crlf_and_plain_values() -> None:
    text = to_csv(SELECT)
    assert text.startswith(",".join(VARIABLES) + "\r\n")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == list(VARIABLES)
    assert rows[1] == [
        "https://w3id.org/benchgraph/benchmark/mimic_rrs", str(AWKWARD), "radiologie", "5.0",
        "42", "2026-09-08", "_:b0", "",
    ]
    assert text.endswith("\r\n")


def test_csv_ask() -> None:
    assert to_csv(QueryResult.ask(False)) == "boolean\r\nfalse\r\n"


# -- JSON -----------------------------------------------------------------------------------------

def test_json_results_format() -> None:
    document = json.loads(to_json(SELECT))
    assert document["head"] == {"vars": list(VARIABLES)}
    first = document["results"]["bindings"][0]
    assert first["iri"] == {"type": "uri", "value": str(ROW_TERMS[0])}
    assert first["text"] == {"type": "literal", "value": str(AWKWARD)}
    assert first["lang"] == {"type": "literal", "value": "radiologie", "xml:lang": "fr"}
    assert first["decimal"] == {"type": "literal", "value": "5.0", "datatype": str(XSD.decimal)}
    assert first["blank"] == {"type": "bnode", "value": "b0"}
    assert "unbound" not in first
    assert parsed(to_json(SELECT), "json")[0][:6] == ROW_TERMS[:6]


def test_json_ask() -> None:
    assert json.loads(to_json(ASK_TRUE)) == {"head": {}, "boolean": True}


# -- XML ------------------------------------------------------------------------------------------

def test_xml_results_format() -> None:
    text = to_xml(SELECT)
    root = ET.fromstring(text)
    ns = {"r": SPARQL_RESULTS_NS}
    assert [v.get("name") for v in root.findall("r:head/r:variable", ns)] == list(VARIABLES)
    first = root.findall("r:results/r:result", ns)[0]
    bindings = {b.get("name"): b[0] for b in first.findall("r:binding", ns)}
    assert "unbound" not in bindings
    assert bindings["text"].text == str(AWKWARD)
    assert bindings["lang"].get("{http://www.w3.org/XML/1998/namespace}lang") == "fr"
    assert bindings["decimal"].get("datatype") == str(XSD.decimal)
    assert parsed(text, "xml")[0][:6] == ROW_TERMS[:6]


def test_xml_ask_and_a_character_xml_cannot_carry() -> None:
    root = ET.fromstring(to_xml(ASK_TRUE))
    assert root.find(f"{{{SPARQL_RESULTS_NS}}}boolean").text == "true"  # type: ignore[union-attr]
    with pytest.raises(FormatError, match=r"XML 1\.0"):
        to_xml(select(("x",), ((Literal("bell\x07"),),)))


# -- graphs, and formats that do not fit ----------------------------------------------------------

def test_construct_results_as_rdf_read_back_to_the_same_graph() -> None:
    graph = Graph()
    score = Literal("5.0", datatype=XSD.decimal)
    graph.add((URIRef("https://x/a"), URIRef(f"{BENCH}score"), score))
    graph.add((URIRef("https://x/a"), URIRef(f"{BENCH}note"), AWKWARD))
    result = construct(graph)
    for name, rdflib_format in (("ttl", "turtle"), ("nt", "nt"), ("jsonld", "json-ld")):
        assert isomorphic(Graph().parse(data=render(result, name), format=rdflib_format), graph)
    assert b"@prefix bench:" in render(result, "ttl")


@pytest.mark.parametrize("fmt", FORMATS, ids=str)
def test_a_format_refuses_the_other_kind_of_result(fmt: Format) -> None:
    wrong = SELECT if fmt.holds_graph else construct(Graph())
    with pytest.raises(FormatError, match="cannot hold the result of a"):
        serialize_result(wrong, fmt)


def test_unknown_format() -> None:
    with pytest.raises(FormatError, match="unknown format"):
        render(SELECT, "yaml")


# -- the table ------------------------------------------------------------------------------------

def test_table_is_aligned_shortens_iris_and_escapes_line_breaks() -> None:
    result = select(("level", "text", "n"), (
        (URIRef(f"{BENCH}Gated"), Literal("two\nlines"), Literal("5.0", datatype=XSD.decimal)),
        (URIRef("https://example.org/x"), Literal("中文名字"), None),
    ))
    lines = to_table(result).splitlines()
    assert lines[0].split() == ["level", "text", "n"]
    assert lines[2].split() == ["bench:Gated", "two\\nlines", "5.0"]
    assert lines[3].split() == ["<https://example.org/x>", "中文名字"]  # an IRI, not a string
    assert lines[-1] == "(2 rows)"
    start = lines[0].index("text")
    assert lines[2].index("two") == start  # columns line up
    assert lines[3].index("中文") == start


def test_table_cuts_long_values_to_the_width_and_counts_one_row() -> None:
    result = select(("body",), ((Literal("x" * 500),),))
    lines = to_table(result, TableLayout(width=60)).splitlines()
    assert lines[2].endswith("…") and len(lines[2]) == 60
    assert lines[-1] == "(1 row)"
    assert to_table(result).splitlines()[2] == "x" * 500  # no width: nothing is cut


def test_table_shows_the_data_base_iri_as_base() -> None:
    base = "https://example.org/kg/"
    result = select(("b", "c"), (
        (URIRef(f"{base}benchmark/mimic_rrs"), URIRef(f"{BENCH}Gated")),))
    assert to_table(result, TableLayout(base=base)).splitlines()[2].split() == [
        "base:benchmark/mimic_rrs", "bench:Gated"]


@pytest.mark.parametrize(("natural", "headers", "width", "expected"), [
    ([10, 20, 30], [2, 2, 2], 100, [10, 20, 30]),  # all fit: nothing cut
    ([10, 50, 90], [2, 2, 2], 84, [10, 35, 35]),  # the narrow column whole, the wide ones even
    ([10, 50, 90], [2, 2, 2], 85, [10, 36, 35]),  # a character left over goes to the first
    ([5, 100], [12, 4], 40, [5, 33]),
    ([100, 100, 100], [2, 2, 20], 30, [8, 8, 20]),  # floors (8, or the header) even when too wide
])
def test_columns_are_cut_fairly(natural: list[int], headers: list[int], width: int,
                                expected: list[int]) -> None:
    widths = fit_widths(natural, headers, width)
    assert widths == expected
    if sum(expected) + 2 * (len(expected) - 1) <= width:
        assert sum(widths) + 2 * (len(widths) - 1) <= width


def test_a_cut_table_line_fits_and_keeps_its_columns_aligned() -> None:
    row = (Literal("a" * 80), URIRef("https://example.org/" + "p" * 80), Literal("short"))
    result = select(("one", "two", "three"), (row, row))
    lines = to_table(result, TableLayout(width=70)).splitlines()
    assert all(len(line) <= 70 for line in lines)
    assert lines[2].split()[2] == "short" and lines[2] == lines[3]
    assert lines[2].split()[1].startswith("<https://example.org/p") and "…" in lines[2]


def test_table_of_an_ask_result_and_of_no_rows() -> None:
    assert to_table(ASK_TRUE) == "true\n"
    assert to_table(select(("id",), ())).splitlines() == ["id", "--", "(0 rows)"]


# -- one JSON form of a term ----------------------------------------------------------------------

def test_json_term_is_the_sparql_results_form() -> None:
    assert json_term(to_oxigraph(URIRef("https://x/a"))) == {"type": "uri", "value": "https://x/a"}
    assert json_term(to_oxigraph(Literal("x", lang="en"))) == \
        {"type": "literal", "value": "x", "xml:lang": "en"}
    assert json_term(to_oxigraph(Literal("x"))) == {"type": "literal", "value": "x"}
    integer = to_oxigraph(Literal("1", datatype=XSD.integer))
    assert json_term(integer)["datatype"] == str(XSD.integer)
    assert json_term(to_oxigraph(BNode("b"))) == {"type": "bnode", "value": "b"}


# -- graph results: the writers of the exports ----------------------------------------------------

def test_a_result_graph_is_written_exactly_as_an_export_of_the_same_triples() -> None:
    from graph.export import serialize
    from graph.export.formats import RDF_FORMATS, TURTLE

    graph = Graph()
    score = Literal("5.0", datatype=XSD.decimal)
    graph.add((URIRef("https://x/a"), URIRef(f"{BENCH}score"), score))
    graph.add((URIRef("https://x/a"), URIRef(f"{BENCH}note"), Literal("n")))
    result = construct(graph)
    quads = [(s, p, o, URIRef("https://x/g")) for s, p, o in graph]
    assert serialize_result(result, TURTLE) == serialize(quads, TURTLE).data  # type: ignore[arg-type]
    for fmt in RDF_FORMATS:  # a dataset format writes it as its default graph
        written = serialize_result(result, fmt)
        parsed = Dataset()
        parsed.parse(data=written, format=fmt.rdflib_name)
        assert set(parsed.triples((None, None, None))) == set(graph), fmt.name
        default = parsed.default_graph.identifier
        assert not [g for g in parsed.graphs() if len(g) and g.identifier != default], fmt.name


def test_a_result_graph_writes_each_term_as_the_store_holds_it() -> None:
    """A lexical form rdflib would make canonical (``+007`` to ``7``) is written as it is."""
    seven = ox.Literal("+007", datatype=ox.NamedNode(str(XSD.integer)))
    result = QueryResult.graph("CONSTRUCT", [
        ox.Triple(ox.NamedNode("https://x/a"), ox.NamedNode(f"{BENCH}score"), seven)])
    assert render(result, "ntriples") == f'<https://x/a> <{BENCH}score> {seven} .\n'.encode()
    assert b" +007 .\n" in render(result, "turtle")


def test_a_result_graph_with_blank_nodes_is_written_all_the_same() -> None:
    from graph.export.formats import RDF_FORMATS

    graph = Graph()
    node = BNode()
    graph.add((URIRef("https://x/a"), URIRef(f"{BENCH}metric"), node))
    graph.add((node, URIRef(f"{BENCH}unit"), Literal("points")))
    result = construct(graph)
    for fmt in RDF_FORMATS:
        parsed = Dataset()
        parsed.parse(data=serialize_result(result, fmt), format=fmt.rdflib_name)
        back = Graph()
        for triple in parsed.triples((None, None, None)):
            back.add(triple)
        assert isomorphic(back, graph), fmt.name


def solutions_of(rows: int) -> ox.QuerySolutions:
    """``rows`` solutions of ?n and an awkward literal (tab, quotes, line breaks)."""
    store = ox.Store()
    awkward = to_oxigraph(AWKWARD)
    for n in range(rows):
        store.add(ox.Quad(ox.NamedNode(f"{BENCH}n{n}"), ox.NamedNode(f"{BENCH}says"), awkward))
    answer = store.query(f"SELECT ?n ?text WHERE {{ ?n <{BENCH}says> ?text }} ORDER BY ?n")
    assert isinstance(answer, ox.QuerySolutions)
    return answer


@pytest.mark.parametrize(("rows", "limit", "kept", "truncated"), [
    (5, None, 5, False), (5, 5, 5, False), (5, 4, 4, True), (5, 0, 0, True), (0, 3, 0, False),
    (3000, 2500, 2500, True),  # more than one of pyoxigraph's writes
])
def test_solutions_written_by_the_engine_are_cut_at_the_limit(
        rows: int, limit: int | None, kept: int, truncated: bool) -> None:
    result = QueryResult.of_solutions(solutions_of(rows), limit)
    assert (result.count, len(result.rows), result.truncated) == (kept, kept, truncated)
    assert result.variables == ("n", "text")
    assert all(row[1] == to_oxigraph(AWKWARD) for row in result.rows)
    assert [row[0] for row in result.rows] == [
        ox.NamedNode(f"{BENCH}n{n}") for n in sorted(range(rows), key=str)][:kept]
