"""Reading SPARQL results bodies by their W3C specifications, with no SPARQL library.

The endpoint writes results with pyoxigraph; reading them back with pyoxigraph (or rdflib,
which shares the clients' assumptions) would prove little. These readers use only the
standard library (``json``, ``xml.etree``, ``csv``) and the rules of each format:

- JSON (SPARQL 1.1 Query Results JSON Format): ``head.vars``, ``results.bindings`` of
  ``{"type", "value", "xml:lang"?, "datatype"?}``, or ``boolean``;
- XML (SPARQL Query Results XML Format): the ``http://www.w3.org/2005/sparql-results#``
  namespace, ``head/variable``, then ``results/result/binding`` or ``boolean``;
- CSV and TSV (SPARQL 1.1 Query Results CSV and TSV Formats): CSV keeps only the values, with
  a header of bare names and CRLF line ends; TSV writes each term as in Turtle, with a
  header of ``?names`` and LF line ends.

Each reader raises ``AssertionError`` at the first place a body breaks its format.
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

XSD = "http://www.w3.org/2001/XMLSchema#"
RESULTS_NS = "{http://www.w3.org/2005/sparql-results#}"
JSON_TYPES = {"uri", "literal", "bnode"}


@dataclass(frozen=True)
class Cell:
    """One bound value: its kind (``uri``, ``literal``, ``bnode``; None where the format
    does not say, as in CSV), its value, and a literal's datatype or language."""

    kind: str | None
    value: str
    datatype: str | None = None
    lang: str | None = None


@dataclass(frozen=True)
class Table:
    """A SELECT answer: the variables in order, and each row's bound variables."""

    variables: tuple[str, ...]
    rows: tuple[dict[str, Cell], ...]

    def values(self) -> list[dict[str, str]]:
        """The rows as plain values, what every format keeps."""
        return [{name: cell.value for name, cell in row.items()} for row in self.rows]


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


# JSON

def json_answer(body: bytes) -> Table | bool:
    """A JSON results body: a Table, or the boolean of an ASK."""
    document = json.loads(body.decode("utf-8"))
    _check(isinstance(document, dict), "JSON results must be an object")
    head = document.get("head")
    _check(isinstance(head, dict), "JSON results need a 'head' object")
    if "boolean" in document:
        _check(isinstance(document["boolean"], bool), "'boolean' must be true or false")
        _check("results" not in document, "a boolean answer has no 'results'")
        return bool(document["boolean"])
    names = head.get("vars")
    _check(isinstance(names, list) and all(isinstance(n, str) for n in names),
           "'head.vars' must be a list of names")
    bindings = document.get("results", {}).get("bindings")
    _check(isinstance(bindings, list), "'results.bindings' must be a list")
    rows = tuple({name: _json_cell(name, term) for name, term in _items(b, names)}
                 for b in bindings)
    return Table(tuple(names), rows)


def _items(binding: Any, names: list[str]) -> list[tuple[str, Any]]:
    _check(isinstance(binding, dict), "each binding must be an object")
    unknown = set(binding) - set(names)
    _check(not unknown, f"bindings of variables not in 'head.vars': {sorted(unknown)}")
    return list(binding.items())


def _json_cell(name: str, term: Any) -> Cell:
    _check(isinstance(term, dict), f"?{name}: a term must be an object")
    kind, value = term.get("type"), term.get("value")
    _check(kind in JSON_TYPES, f"?{name}: 'type' must be one of {sorted(JSON_TYPES)}, not {kind!r}")
    _check(isinstance(value, str), f"?{name}: 'value' must be a string")
    extra = set(term) - {"type", "value", "xml:lang", "datatype"}
    _check(not extra, f"?{name}: unknown keys {sorted(extra)}")
    if kind != "literal":
        _check(set(term) == {"type", "value"},
               f"?{name}: only a literal has a language or datatype")
    _check(not ("xml:lang" in term and "datatype" in term),
           f"?{name}: a literal has a language or a datatype, not both")
    return Cell(kind, value, term.get("datatype"), term.get("xml:lang"))


# XML

def xml_answer(body: bytes) -> Table | bool:
    """An XML results body: a Table, or the boolean of an ASK."""
    root = ET.fromstring(body)
    _check(root.tag == RESULTS_NS + "sparql",
           f"the root must be sparql in {RESULTS_NS}, not {root.tag}")
    children = list(root)
    _check(len(children) == 2 and children[0].tag == RESULTS_NS + "head",
           "sparql holds a head, then results or boolean")
    names = [v.get("name", "") for v in children[0].findall(RESULTS_NS + "variable")]
    answer = children[1]
    if answer.tag == RESULTS_NS + "boolean":
        _check(answer.text in ("true", "false"),
               f"boolean must be true or false, not {answer.text!r}")
        return answer.text == "true"
    _check(answer.tag == RESULTS_NS + "results", f"expected results, not {answer.tag}")
    rows = []
    for result in answer:
        _check(result.tag == RESULTS_NS + "result",
               f"results holds result elements, not {result.tag}")
        row = {}
        for binding in result:
            name = binding.get("name", "")
            _check(binding.tag == RESULTS_NS + "binding" and name in names,
                   f"a binding of a variable not in head: {name!r}")
            row[name] = _xml_cell(name, binding)
        rows.append(row)
    return Table(tuple(names), tuple(rows))


def _xml_cell(name: str, binding: ET.Element) -> Cell:
    terms = list(binding)
    _check(len(terms) == 1, f"?{name}: a binding holds one term")
    term = terms[0]
    kind = term.tag.removeprefix(RESULTS_NS)
    _check(kind in JSON_TYPES, f"?{name}: the term must be uri, literal or bnode, not {term.tag}")
    lang = term.get("{http://www.w3.org/XML/1998/namespace}lang")
    return Cell(kind, term.text or "", term.get("datatype"), lang)


# CSV and TSV

def csv_table(body: bytes) -> Table:
    """A CSV results body: values only (CSV does not tell an IRI from a literal)."""
    text = body.decode("utf-8")
    _check(text.endswith("\r\n"), "CSV lines end with CRLF")
    records = list(csv.reader(io.StringIO(text, newline="")))
    names = tuple(records[0])
    _check(all(name and not name.startswith("?") for name in names),
           "the CSV header names the variables without '?'")
    rows = []
    for record in records[1:]:
        _check(len(record) == len(names), f"a CSV row of {len(record)} fields under {len(names)}")
        rows.append({n: Cell(None, v) for n, v in zip(names, record, strict=True) if v != ""})
    return Table(names, tuple(rows))


def tsv_table(body: bytes) -> Table:
    """A TSV results body: each term in Turtle's syntax, an empty field for unbound."""
    text = body.decode("utf-8")
    _check(text.endswith("\n") and "\r" not in text, "TSV lines end with LF")
    lines = text[:-1].split("\n")
    header = lines[0].split("\t")
    _check(all(name.startswith("?") for name in header), "the TSV header names ?variables")
    names = tuple(name[1:] for name in header)
    rows = []
    for line in lines[1:]:
        fields = line.split("\t")
        _check(len(fields) == len(names), f"a TSV row of {len(fields)} fields under {len(names)}")
        rows.append({n: tsv_term(f) for n, f in zip(names, fields, strict=True) if f != ""})
    return Table(names, tuple(rows))


_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")
_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"(?:@([A-Za-z]+(?:-[A-Za-z0-9]+)*)|\^\^<([^>]*)>)?')
_NUMBERS = (("integer", r"[+-]?\d+"), ("decimal", r"[+-]?\d*\.\d+"),
            ("double", r"[+-]?(?:\d+\.\d*|\.?\d+)[eE][+-]?\d+"))


def tsv_term(field: str) -> Cell:
    """One TSV field, read as the Turtle term it is."""
    if field.startswith("<") and field.endswith(">"):
        return Cell("uri", field[1:-1])
    if field.startswith("_:"):
        return Cell("bnode", field[2:])
    literal = _LITERAL.fullmatch(field)
    if literal:
        text, lang, datatype = literal.groups()
        return Cell("literal", _unescape(text), datatype, lang)
    for name, pattern in _NUMBERS:
        if re.fullmatch(pattern, field):
            return Cell("literal", field, XSD + name)
    _check(field in ("true", "false"), f"not a term in Turtle's syntax: {field!r}")
    return Cell("literal", field, XSD + "boolean")


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        short, long, char = match.groups()
        if short or long:
            return chr(int(short or long, 16))
        _check(char in _ESCAPES, f"unknown escape \\{char}")
        return _ESCAPES[char]

    return _ESCAPE.sub(one, text)


READERS = {
    "application/sparql-results+json": json_answer,
    "application/sparql-results+xml": xml_answer,
    "text/csv": csv_table,
    "text/tab-separated-values": tsv_table,
}
"""Each results format by its media type."""


__all__ = ["READERS", "Cell", "Table", "csv_table", "json_answer", "tsv_table", "tsv_term",
           "xml_answer"]
