"""Query results as text: an aligned table for people, the W3C result formats for programs.

SELECT and ASK results: ``to_table``; ``to_csv`` and ``to_tsv`` (SPARQL 1.1 Query Results CSV
and TSV Formats); ``to_json`` (SPARQL 1.1 Query Results JSON Format); ``to_xml`` (SPARQL
Query Results XML Format). Which format is which, by name, extension or media type, is the
one format registry's business (``graph.export.formats``); CONSTRUCT and DESCRIBE results are
graphs, written by the same writers as the exports (``graph.export.query_results``).

The writers take the store's ``QueryResult``, whose terms are pyoxigraph's. pyoxigraph has
writers of its own for the four W3C formats: its JSON writer is used as it is (fast, and
exact); its XML writer writes control characters and carriage returns raw (the result then is
not XML, or reads back changed) and its CSV and TSV writers an ASK answer as a bare ``true``,
so those three are written here.

The W3C CSV/TSV formats define no ASK result: an ASK answer is written as a one-column
table, header ``boolean`` (``?boolean`` in TSV), and one row ``true`` or ``false``.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

import pyoxigraph as ox

from graph.errors import BenchgraphError, ErrorKind
from graph.namespace import curie

if TYPE_CHECKING:
    from graph.sparql.result import QueryResult

Term = ox.NamedNode | ox.BlankNode | ox.Literal

_XSD = "http://www.w3.org/2001/XMLSchema#"
_XSD_STRING = _XSD + "string"


class FormatError(BenchgraphError):
    """A format that cannot be used as asked: unknown, or unable to hold this result (a graph
    as a table, a SELECT result as Turtle, a control character in XML)."""

    kind = ErrorKind.QUERY


@dataclass(frozen=True)
class TableLayout:
    """How a result is laid out for a reader. Only the table reads it: the W3C formats are for
    programs and always hold every value in full."""

    base: str | None = None
    """The data's base IRI, shown as the prefix ``base:``."""
    width: int | None = None
    """The widest line a table may take (a terminal's width); None: never cut a value."""


_NUMERIC = {
    _XSD + "integer": re.compile(r"[+-]?[0-9]+"),
    _XSD + "decimal": re.compile(r"[+-]?[0-9]*\.[0-9]+"),
    _XSD + "double": re.compile(r"[+-]?([0-9]+\.[0-9]*|\.?[0-9]+)[eE][+-]?[0-9]+"),
}
_TURTLE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
SPARQL_RESULTS_NS = "http://www.w3.org/2005/sparql-results#"
COLUMN_FLOOR = 8
"""A table column is cut to no fewer characters than this (or its header, if wider), unless
its values are all shorter."""


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
    return f"_:{term.value}" if isinstance(term, ox.BlankNode) else term.value


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
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    if isinstance(term, ox.NamedNode):
        return f"<{_escape_iri(term.value)}>"
    lexical = term.value
    datatype = term.datatype.value
    pattern = _NUMERIC.get(datatype)
    if pattern is not None and pattern.fullmatch(lexical):
        return lexical
    quoted = '"' + "".join(_TURTLE_ESCAPES.get(ch, ch) for ch in lexical) + '"'
    if term.language:
        return f"{quoted}@{term.language}"
    if datatype != _XSD_STRING:
        return f"{quoted}^^<{_escape_iri(datatype)}>"
    return quoted


def _escape_iri(iri: str) -> str:
    """IRIs cannot hold these characters; a stray one is written as a \\u escape, not lost."""
    return "".join(f"\\u{ord(ch):04X}" if ch in '<>"{}|^`\\' or ord(ch) <= 0x20 else ch
                   for ch in iri)


def to_json(result: QueryResult) -> str:
    """SPARQL 1.1 Query Results JSON Format, written by pyoxigraph (in Rust: faster than
    Python, perf/decisions/pyoxigraph-parses-and-writes.md; and JSON escapes every
    character, so nothing needs guarding)."""
    written = result.solutions().serialize(format=ox.QueryResultsFormat.JSON)
    assert written is not None  # with no output given, pyoxigraph returns the bytes
    return written.decode("utf-8")


def json_term(term: Term) -> dict[str, str]:
    """One RDF term as the SPARQL 1.1 JSON Results Format writes it: ``{"type": "uri" |
    "literal" | "bnode", "value": ...}``, a literal with its ``xml:lang`` or its ``datatype``
    (none for a plain ``xsd:string``). Every JSON output of benchgraph writes terms this way."""
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if not isinstance(term, ox.Literal):
        raise TypeError(f"not an RDF term: {term!r}")
    value = {"type": "literal", "value": term.value}
    if term.language:
        value["xml:lang"] = term.language
    elif term.datatype.value != _XSD_STRING:
        value["datatype"] = term.datatype.value
    return value


def term_from_json(data: dict[str, str]) -> Term:
    """The term ``json_term`` wrote."""
    kind, value = data["type"], data["value"]
    if kind == "uri":
        return ox.NamedNode(value)
    if kind == "bnode":
        return ox.BlankNode(value)
    if "xml:lang" in data:
        return ox.Literal(value, language=data["xml:lang"])
    return ox.Literal(value, datatype=ox.NamedNode(data.get("datatype", _XSD_STRING)))


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
    text = term.value
    if _XML_FORBIDDEN.search(text):
        raise FormatError(f"the value {text[:40]!r}... holds a control character that XML 1.0 "
                          "cannot carry: use --format json or tsv")
    escaped = escape(text, {"\r": "&#13;"})
    if isinstance(term, ox.BlankNode):
        return f"<bnode>{escaped}</bnode>"
    if isinstance(term, ox.NamedNode):
        return f"<uri>{escaped}</uri>"
    if term.language:
        return f"<literal xml:lang={quoteattr(term.language)}>{escaped}</literal>"
    if term.datatype.value != _XSD_STRING:
        return f"<literal datatype={quoteattr(term.datatype.value)}>{escaped}</literal>"
    return f"<literal>{escaped}</literal>"


# -- the table ----------------------------------------------------------------------------------

def to_table(result: QueryResult, layout: TableLayout | None = None) -> str:
    """An aligned plain-text table, then the row count. IRIs are CURIEs where a prefix fits
    (``bench:Gated``, ``base:benchmark/x``), else ``<iri>``; line breaks in literals show as
    ``\\n``. With ``layout.width``, long values are cut with ``…`` so that every line fits,
    each column keeping as much as a fair share allows (``fit_widths``)."""
    layout = layout or TableLayout()
    if result.boolean is not None:
        return ("true" if result.boolean else "false") + "\n"
    header = list(result.variables)
    cells = [[_table_cell(term, layout.base) for term in row] for row in result.rows]
    natural = [max([text_width(h), *(text_width(row[i]) for row in cells)])
               for i, h in enumerate(header)]
    widths = natural if layout.width is None else fit_widths(
        natural, [text_width(h) for h in header], layout.width)
    lines = [_table_line(header, widths), "  ".join("-" * w for w in widths)]
    lines += [_table_line(row, widths) for row in cells]
    count = len(result.rows)
    lines.append(f"({count} row{'' if count == 1 else 's'})")
    return "\n".join(lines) + "\n"


def fit_widths(natural: list[int], headers: list[int], width: int) -> list[int]:
    """Column widths whose line (two spaces between columns) fits ``width``: every column
    whole when they all fit; else the narrow ones whole and the wide ones cut to one common
    cap, the largest that fits (max-min fairness), the characters left over going to the
    first cut columns. No column is cut below its floor (``COLUMN_FLOOR`` or its header);
    when the floors alone do not fit, the line is as narrow as they allow."""
    budget = width - 2 * (len(natural) - 1)
    if sum(natural) <= budget:
        return list(natural)
    floors = [min(n, max(COLUMN_FLOOR, h)) for n, h in zip(natural, headers, strict=True)]

    def used(cap: int) -> int:
        return sum(max(f, min(n, cap)) for n, f in zip(natural, floors, strict=True))

    low, high = 0, max(natural)  # used(low) fits when the floors do; used(high) does not
    if used(low) > budget:
        return floors
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if used(middle) <= budget else (low, middle)
    widths = [max(f, min(n, low)) for n, f in zip(natural, floors, strict=True)]
    spare = budget - sum(widths)
    for i, n in enumerate(natural):
        if spare and widths[i] < n:
            widths[i] += 1
            spare -= 1
    return widths


def _table_cell(term: Term | None, base: str | None) -> str:
    if term is None:
        return ""
    if isinstance(term, ox.NamedNode):
        text = curie(term.value, base)
    elif isinstance(term, ox.BlankNode):
        text = f"_:{term.value}"
    else:
        text = term.value
    if text.isprintable():  # no control or format character: the common case, in C
        return text
    return "".join(_TURTLE_ESCAPES.get(ch, ch) if ch in "\n\r\t" else
                   ("?" if unicodedata.category(ch) in ("Cc", "Cf") else ch) for ch in text)


def text_width(text: str) -> int:
    """Terminal columns the text takes: two for a wide (East Asian) character."""
    if text.isascii():  # one column a character: the common case, in C
        return len(text)
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def cut(text: str, width: int) -> str:
    """The text in at most ``width`` columns: whole if it fits, else cut and ended by ``…``."""
    if text_width(text) <= width:
        return text
    out, used = [], 0
    for ch in text:
        used += text_width(ch)
        if used > width - 1:
            break
        out.append(ch)
    return "".join(out) + "…"


def _table_line(cells: list[str], widths: list[int]) -> str:
    shown = [cut(cell, width) for cell, width in zip(cells, widths, strict=True)]
    return "  ".join(cell + " " * (width - text_width(cell))
                     for cell, width in zip(shown, widths, strict=True)).rstrip()


__all__ = [
    "COLUMN_FLOOR",
    "FormatError",
    "TableLayout",
    "cut",
    "fit_widths",
    "json_term",
    "term_from_json",
    "text_width",
    "to_csv",
    "to_json",
    "to_table",
    "to_tsv",
    "to_xml",
    "turtle_term",
]
