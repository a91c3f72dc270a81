"""Query results as text: an aligned table for people, the W3C result formats for programs.

SELECT and ASK results: ``table``; ``csv`` and ``tsv`` (SPARQL 1.1 Query Results CSV and TSV
Formats); ``json`` (SPARQL 1.1 Query Results JSON Format); ``xml`` (SPARQL Query Results XML
Format). CONSTRUCT and DESCRIBE results: ``ttl``, ``jsonld``, ``nt``.

The W3C CSV/TSV formats define no ASK result: an ASK answer is written as a one-column
table, header ``boolean`` (``?boolean`` in TSV), and one row ``true`` or ``false``.
"""

import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from rdflib import BNode, URIRef
from rdflib.namespace import XSD

from graph.namespace import PREFIXES
from graph.sparql.engine import QueryResult, Term


class FormatError(ValueError):
    """A result that the chosen format cannot hold (a graph as a table, or the reverse)."""


@dataclass(frozen=True)
class ResultFormat:
    name: str
    media_type: str
    for_graphs: bool
    """True for CONSTRUCT and DESCRIBE results, False for SELECT and ASK."""


FORMATS: tuple[ResultFormat, ...] = (
    ResultFormat("table", "text/plain; charset=utf-8", False),
    ResultFormat("csv", "text/csv; charset=utf-8", False),
    ResultFormat("tsv", "text/tab-separated-values; charset=utf-8", False),
    ResultFormat("json", "application/sparql-results+json", False),
    ResultFormat("xml", "application/sparql-results+xml", False),
    ResultFormat("ttl", "text/turtle; charset=utf-8", True),
    ResultFormat("jsonld", "application/ld+json", True),
    ResultFormat("nt", "application/n-triples", True),
)
FORMAT_NAMES: tuple[str, ...] = tuple(f.name for f in FORMATS)
_BY_NAME = {f.name: f for f in FORMATS}
_RDFLIB_FORMATS = {"ttl": "turtle", "jsonld": "json-ld", "nt": "nt"}
_NUMERIC = {
    XSD.integer: re.compile(r"[+-]?[0-9]+"),
    XSD.decimal: re.compile(r"[+-]?[0-9]*\.[0-9]+"),
    XSD.double: re.compile(r"[+-]?([0-9]+\.[0-9]*|\.?[0-9]+)[eE][+-]?[0-9]+"),
}
_TURTLE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
SPARQL_RESULTS_NS = "http://www.w3.org/2005/sparql-results#"
TABLE_CELL_CHARS = 60


def result_format(name: str) -> ResultFormat:
    found = _BY_NAME.get(name)
    if found is None:
        raise FormatError(f"unknown format {name!r} (use {', '.join(FORMAT_NAMES)})")
    return found


def default_format(result: QueryResult) -> str:
    return "ttl" if result.graph is not None else "table"


def render(result: QueryResult, name: str, prefixes: Mapping[str, str] | None = None) -> bytes:
    """The result in the format called ``name``; FormatError when it cannot hold it."""
    fmt = result_format(name)
    if fmt.for_graphs != (result.graph is not None):
        kinds = ("CONSTRUCT and DESCRIBE", "SELECT and ASK")
        others = ", ".join(f.name for f in FORMATS if f.for_graphs != fmt.for_graphs)
        raise FormatError(f"format {name!r} is for {kinds[0] if fmt.for_graphs else kinds[1]} "
                          f"results, and this is a {result.form} query (use {others})")
    if fmt.for_graphs:
        return to_rdf(result, name, prefixes or PREFIXES)
    writers: dict[str, Callable[[QueryResult], str]] = {
        "table": lambda r: to_table(r, prefixes or PREFIXES),
        "csv": to_csv, "tsv": to_tsv, "json": to_json, "xml": to_xml,
    }
    return writers[name](result).encode("utf-8")


# -- the W3C formats ----------------------------------------------------------------------------

def to_csv(result: QueryResult) -> str:
    """SPARQL 1.1 CSV: header of variable names, RFC 4180 quoting, CRLF line ends; each term
    as its plain string (IRI, lexical form, ``_:label``), an unbound one as an empty field."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    if result.boolean is not None:
        writer.writerows([["boolean"], ["true" if result.boolean else "false"]])
        return out.getvalue()
    writer.writerow(result.variables)
    for row in result.rows:
        writer.writerow(["" if term is None else _csv_term(term) for term in row])
    return out.getvalue()


def _csv_term(term: Term) -> str:
    return f"_:{term}" if isinstance(term, BNode) else str(term)


def to_tsv(result: QueryResult) -> str:
    """SPARQL 1.1 TSV: header ``?var``, each term in Turtle/SPARQL syntax (``<iri>``,
    ``"text"@en``, ``"x"^^<dt>``, numbers abbreviated, ``_:label``), unbound empty, each line
    ended by LF. Tabs, newlines and carriage returns in literals are written ``\\t \\n \\r``."""
    if result.boolean is not None:
        return f"?boolean\n{'true' if result.boolean else 'false'}\n"
    lines = ["\t".join(f"?{name}" for name in result.variables)]
    for row in result.rows:
        lines.append("\t".join("" if term is None else turtle_term(term) for term in row))
    return "\n".join(lines) + "\n"


def turtle_term(term: Term) -> str:
    """One RDF term in the syntax Turtle and SPARQL share."""
    if isinstance(term, BNode):
        return f"_:{term}"
    if isinstance(term, URIRef):
        return f"<{_escape_iri(str(term))}>"
    lexical = str(term)
    if term.datatype in _NUMERIC and _NUMERIC[term.datatype].fullmatch(lexical):
        return lexical
    quoted = '"' + "".join(_TURTLE_ESCAPES.get(ch, ch) for ch in lexical) + '"'
    if term.language:
        return f"{quoted}@{term.language}"
    if term.datatype is not None and term.datatype != XSD.string:
        return f"{quoted}^^<{_escape_iri(str(term.datatype))}>"
    return quoted


def _escape_iri(iri: str) -> str:
    """IRIs cannot hold these characters; a stray one is written as a \\u escape, not lost."""
    return "".join(f"\\u{ord(ch):04X}" if ch in '<>"{}|^`\\' or ord(ch) <= 0x20 else ch
                   for ch in iri)


def to_json(result: QueryResult) -> str:
    """SPARQL 1.1 Query Results JSON Format."""
    if result.boolean is not None:
        return json.dumps({"head": {}, "boolean": result.boolean}, ensure_ascii=False) + "\n"
    bindings = [
        {name: _json_term(term) for name, term in zip(result.variables, row, strict=True)
         if term is not None}
        for row in result.rows
    ]
    document = {"head": {"vars": list(result.variables)}, "results": {"bindings": bindings}}
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def _json_term(term: Term) -> dict[str, Any]:
    if isinstance(term, BNode):
        return {"type": "bnode", "value": str(term)}
    if isinstance(term, URIRef):
        return {"type": "uri", "value": str(term)}
    value: dict[str, Any] = {"type": "literal", "value": str(term)}
    if term.language:
        value["xml:lang"] = term.language
    elif term.datatype is not None and term.datatype != XSD.string:
        value["datatype"] = str(term.datatype)
    return value


def to_xml(result: QueryResult) -> str:
    """SPARQL Query Results XML Format. FormatError for text XML 1.0 cannot carry (control
    characters other than tab, newline and carriage return)."""
    parts = ['<?xml version="1.0" encoding="utf-8"?>\n',
             f'<sparql xmlns="{SPARQL_RESULTS_NS}">\n']
    if result.boolean is not None:
        parts += ["  <head/>\n", f"  <boolean>{'true' if result.boolean else 'false'}</boolean>\n"]
    else:
        parts.append("  <head>\n")
        parts += [f"    <variable name={quoteattr(name)}/>\n" for name in result.variables]
        parts += ["  </head>\n", "  <results>\n"]
        for row in result.rows:
            parts.append("    <result>\n")
            for name, term in zip(result.variables, row, strict=True):
                if term is not None:
                    parts.append(f"      <binding name={quoteattr(name)}>{_xml_term(term)}"
                                 "</binding>\n")
            parts.append("    </result>\n")
        parts.append("  </results>\n")
    parts.append("</sparql>\n")
    return "".join(parts)


def _xml_term(term: Term) -> str:
    text = str(term)
    if _XML_FORBIDDEN.search(text):
        raise FormatError(f"the value {text[:40]!r}... holds a control character that XML 1.0 "
                          "cannot carry: use --format json or tsv")
    escaped = escape(text, {"\r": "&#13;"})
    if isinstance(term, BNode):
        return f"<bnode>{escaped}</bnode>"
    if isinstance(term, URIRef):
        return f"<uri>{escaped}</uri>"
    if term.language:
        return f"<literal xml:lang={quoteattr(term.language)}>{escaped}</literal>"
    if term.datatype is not None and term.datatype != XSD.string:
        return f"<literal datatype={quoteattr(str(term.datatype))}>{escaped}</literal>"
    return f"<literal>{escaped}</literal>"


def to_rdf(result: QueryResult, name: str, prefixes: Mapping[str, str]) -> bytes:
    """A CONSTRUCT or DESCRIBE result as Turtle, JSON-LD or N-Triples."""
    if result.graph is None:
        raise FormatError(f"a {result.form} result is not a graph")
    graph = result.graph
    for prefix, namespace in prefixes.items():
        graph.bind(prefix, namespace, override=True)
    return graph.serialize(format=_RDFLIB_FORMATS[name], encoding="utf-8")


# -- the table ----------------------------------------------------------------------------------

def to_table(result: QueryResult, prefixes: Mapping[str, str] | None = None) -> str:
    """An aligned plain-text table: IRIs shortened with the known prefixes, literals as their
    text (line breaks shown as ``\\n``, long values cut with ``…``), then the row count."""
    if result.boolean is not None:
        return ("true" if result.boolean else "false") + "\n"
    known = sorted((prefixes or PREFIXES).items(), key=lambda item: -len(item[1]))
    header = list(result.variables)
    cells = [[_table_cell(term, known) for term in row] for row in result.rows]
    widths = [max([_width(h), *(_width(row[i]) for row in cells)]) for i, h in enumerate(header)]
    lines = [_table_line(header, widths), "  ".join("-" * w for w in widths)]
    lines += [_table_line(row, widths) for row in cells]
    count = len(result.rows)
    lines.append(f"({count} row{'' if count == 1 else 's'})")
    return "\n".join(lines) + "\n"


def _table_cell(term: Term | None, prefixes: list[tuple[str, str]]) -> str:
    if term is None:
        return ""
    if isinstance(term, URIRef):
        text = str(term)
        for prefix, namespace in prefixes:
            if text.startswith(namespace) and len(text) > len(namespace):
                text = f"{prefix}:{text[len(namespace):]}"
                break
    elif isinstance(term, BNode):
        text = f"_:{term}"
    else:
        text = str(term)
    text = "".join(_TURTLE_ESCAPES.get(ch, ch) if ch in "\n\r\t" else
                   ("?" if unicodedata.category(ch) in ("Cc", "Cf") else ch) for ch in text)
    return text if _width(text) <= TABLE_CELL_CHARS else _cut(text, TABLE_CELL_CHARS)


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _cut(text: str, width: int) -> str:
    out, used = [], 0
    for ch in text:
        used += _width(ch)
        if used > width - 1:
            break
        out.append(ch)
    return "".join(out) + "…"


def _table_line(cells: list[str], widths: list[int]) -> str:
    return "  ".join(cell + " " * (width - _width(cell))
                     for cell, width in zip(cells, widths, strict=True)).rstrip()


__all__ = [
    "FORMATS",
    "FORMAT_NAMES",
    "FormatError",
    "ResultFormat",
    "default_format",
    "render",
    "result_format",
    "to_csv",
    "to_json",
    "to_rdf",
    "to_table",
    "to_tsv",
    "to_xml",
    "turtle_term",
]
