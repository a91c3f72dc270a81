"""The independent results readers (``tests/sparql_results.py``) refuse what their formats
forbid, so that the client tests' "parses" means something."""

import pytest

from tests.sparql_results import XSD, Cell, csv_table, json_answer, tsv_table, tsv_term, xml_answer

XML_HEAD = b'<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head><variable name="x"/>'


@pytest.mark.parametrize(("reader", "body"), [
    pytest.param(json_answer, b'{"head": {"vars": ["x"]}, "results": {"bindings": '
                 b'[{"x": {"type": "typed-literal", "value": "1"}}]}}', id="json-2008-type"),
    pytest.param(json_answer, b'{"head": {"vars": ["x"]}, "results": {"bindings": '
                 b'[{"y": {"type": "literal", "value": "1"}}]}}', id="json-unknown-variable"),
    pytest.param(json_answer, b'{"head": {"vars": ["x"]}, "results": {"bindings": '
                 b'[{"x": {"type": "uri", "value": "http://e/", "xml:lang": "en"}}]}}',
                 id="json-tagged-iri"),
    pytest.param(json_answer, b'{"results": {"bindings": []}}', id="json-no-head"),
    pytest.param(xml_answer, XML_HEAD + b"</head><results><result><binding name='x'>"
                 b"<uri>a</uri><uri>b</uri></binding></result></results></sparql>",
                 id="xml-two-terms"),
    pytest.param(xml_answer, XML_HEAD + b"</head><boolean>yes</boolean></sparql>",
                 id="xml-boolean"),
    pytest.param(csv_table, b"x\nhttp://e/\n", id="csv-lf"),
    pytest.param(csv_table, b"?x\r\nhttp://e/\r\n", id="csv-question-mark"),
    pytest.param(csv_table, b"x,y\r\n1\r\n", id="csv-short-row"),
    pytest.param(tsv_table, b"x\n<http://e/>\n", id="tsv-no-question-mark"),
    pytest.param(tsv_table, b"?x\r\n<http://e/>\r\n", id="tsv-crlf"),
    pytest.param(tsv_table, b"?x\nhttp://e/\n", id="tsv-bare-iri"),
    pytest.param(tsv_table, b'?x\n"a\\qb"\n', id="tsv-bad-escape"),
])
def test_a_broken_body_is_refused(reader: object, body: bytes) -> None:
    with pytest.raises(AssertionError):
        reader(body)  # type: ignore[operator]


@pytest.mark.parametrize(("field", "cell"), [
    ("<http://e/a>", Cell("uri", "http://e/a")),
    ("_:b0", Cell("bnode", "b0")),
    ('"tab\\there \\"q\\" \\u00e9"', Cell("literal", 'tab\there "q" é')),
    ('"chat"@fr-CA', Cell("literal", "chat", lang="fr-CA")),
    ('"2023"^^<http://www.w3.org/2001/XMLSchema#gYear>', Cell("literal", "2023", XSD + "gYear")),
    ("-12", Cell("literal", "-12", XSD + "integer")),
    ("1.5", Cell("literal", "1.5", XSD + "decimal")),
    ("1.5E3", Cell("literal", "1.5E3", XSD + "double")),
    ("false", Cell("literal", "false", XSD + "boolean")),
])
def test_tsv_terms_read_as_turtle(field: str, cell: Cell) -> None:
    assert tsv_term(field) == cell
