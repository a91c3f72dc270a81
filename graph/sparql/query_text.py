"""Reading a SPARQL query's text by its tokens, where no decision rests on it: how deep its
brackets nest (``brackets``, a limit checked before any parser recurses into the text), and
where to bind values (``with_values``).

What a query may do is decided on its parse tree, never here (``graph.sparql.admission``).

**Where to bind values** (``with_values``). pyoxigraph substitutes only variables a SELECT
projects, so parameters go in as a ``VALUES`` block opening the WHERE clause (join
semantics). The named queries keep the binding rule of ``graph.sparql.checks``, under which
that gives the rows substitution would. Each value is written in its N-Triples form by
pyoxigraph, from a checked RDF term: never the user's text.

Tokens: comments, strings and IRIs are skipped whole, and a keyword is a bare word (not part
of a prefixed name such as ``ex:service``, a variable ``?service`` or a blank node label).
"""

import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from itertools import accumulate, product
from typing import Literal

import pyoxigraph as ox

from graph.sparql.errors import QueryError, QuerySyntaxError

QueryForm = Literal["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"]

_TOKEN = re.compile(
    r"""
      (?P<skip>
          \#[^\n\r]*                                   # a comment
        | '''(?:[^'\\]|\\.|'(?!''))*'''                # long strings
        | \"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
        | '(?:[^'\\\n\r]|\\.)*'                        # short strings
        | "(?:[^"\\\n\r]|\\.)*"
        | <[^<>"{}|^`\\\x00-\x20]*>                    # an IRI
      )
    | (?P<word>[?$_:\w\u00b7][\w.:\-\u00b7]*)
    | (?P<brace>[{}])
    | (?P<bracket>[()\[\]])
    """,
    re.VERBOSE | re.DOTALL,
)
_KEYWORD = re.compile(r"[A-Za-z]+")

BindingTerm = ox.NamedNode | ox.Literal
BindingValue = BindingTerm | tuple[BindingTerm, ...]
"""What a variable is bound to: one term, or a tuple of terms the variable takes each in
turn (a ``VALUES`` list: the labels of a page's nodes, say), so that the query's text, and
its parse, stays the same whatever the values."""


def _keywords(text: str) -> Iterator[tuple[str, re.Match[str]]]:
    """Each bare keyword of ``text`` (upper case) with its match, and each brace."""
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "brace":
            yield match.group(), match
        elif match.lastgroup == "word":
            keyword = match.group().rstrip(".")
            if _KEYWORD.fullmatch(keyword):
                yield keyword.upper(), match


def brackets(text: str) -> int:
    """How deep the brackets of ``text`` nest (``{``, ``(`` and ``[`` alike), outside its
    comments, strings and IRIs."""
    depth = deepest = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if match.lastgroup in ("brace", "bracket"):
            if token in "{([":
                depth += 1
                deepest = max(deepest, depth)
            else:
                depth = max(depth - 1, 0)
    return deepest


_OX_ERROR = re.compile(r"error at (\d+):(\d+): (.*)", re.DOTALL)
_EXPECTED_ITEM = re.compile(r'"(?:[^"\\]|\\.)*"|\[[^\]]*\]|[^,\["]+')
_EXPECTED_SHOWN = 6
_GENERIC = "not valid SPARQL here (a variable bound twice, say, or a misplaced keyword)"


def syntax_error(source: str, message: str) -> QueryError:
    """pyoxigraph's ``error at LINE:COLUMN: ...`` as an error naming line, column and reason.
    The reason is the parser's: a sentence it gives (``Prefix not found``), else the tokens it
    expected (the first few, without its character classes), else a plain word of warning."""
    match = _OX_ERROR.match(message)
    if match is None:
        return QueryError(f"{source}: not a valid query: {message}")
    line, column = int(match.group(1)), int(match.group(2))
    return QuerySyntaxError(source, line, column, _reason(match.group(3).strip()))


def _reason(detail: str) -> str:
    for lead in ("expected one of ", "expected "):
        if detail.startswith(lead):
            items: list[str] = [item.strip()
                                for item in _EXPECTED_ITEM.findall(detail[len(lead):])]
            break
    else:
        return detail
    sentences = [item for item in items if " " in item and item[:1].isupper()]
    if sentences:
        return sentences[0][:1].lower() + sentences[0][1:]
    tokens = [item for item in items if item and not item.startswith("[")]
    if not tokens:
        return _GENERIC
    more = len(tokens) - _EXPECTED_SHOWN
    shown = ", ".join(tokens[:_EXPECTED_SHOWN]) + (f" (or {more} more)" if more > 0 else "")
    return f"expected {shown}" if len(tokens) == 1 else f"expected one of {shown}"


def without_notes(text: str) -> str:
    """``text`` without its maintainer notes: every line that holds nothing but a ``##``
    comment goes, and so does the blank line after a block of them when a blank line (or the
    start of the text) comes before it, so no gap is left doubled. A ``##`` inside a string or
    an IRI, or after a pattern on its line, is the query's and stays."""
    lines = text.splitlines(keepends=True)
    starts = list(accumulate((len(line) for line in lines), initial=0))
    notes: set[int] = set()
    for match in _TOKEN.finditer(text):
        number = bisect_right(starts, match.start()) - 1
        if match.group().startswith("##") and not text[starts[number]:match.start()].strip():
            notes.add(number)
    kept: list[str] = []
    for number, line in enumerate(lines):
        after_notes = number - 1 in notes and not line.strip()
        if number in notes or (after_notes and (not kept or not kept[-1].strip())):
            continue
        kept.append(line)
    return "".join(kept)


def where_clause_start(text: str, form: QueryForm) -> int | None:
    """The index just after the ``{`` that opens the query's WHERE group: the first top-level
    ``{``, or the second when a CONSTRUCT template comes first (``CONSTRUCT WHERE { ... }``
    has none). None when there is no such brace."""
    depth = opened = 0
    wanted = 1
    previous = ""
    for keyword, match in _keywords(text):
        if keyword == "{":
            if depth == 0:
                if previous == "CONSTRUCT" and form == "CONSTRUCT":
                    wanted = 2
                opened += 1
                if opened == wanted:
                    return match.end()
            depth += 1
        elif keyword == "}":
            depth = max(depth - 1, 0)
        previous = keyword
    return None


def with_values(text: str, form: QueryForm,
                bindings: Mapping[str, BindingValue]) -> str | None:
    """``text`` with ``VALUES (?a ?b) { (A B) ... }`` opening its WHERE clause, a row for each
    combination of the values (one row where every variable has one term); None when the
    query has no WHERE clause to bind in."""
    if not bindings:
        return text
    at = where_clause_start(text, form)
    if at is None:
        return None
    names = " ".join(f"?{name}" for name in bindings)
    choices = [value if isinstance(value, tuple) else (value,) for value in bindings.values()]
    rows = " ".join(f"({' '.join(map(str, row))})" for row in product(*choices))
    return f"{text[:at]} VALUES ({names}) {{ {rows} }} {text[at:]}"


__all__ = [
    "BindingTerm",
    "BindingValue",
    "QueryForm",
    "brackets",
    "syntax_error",
    "where_clause_start",
    "with_values",
    "without_notes",
]
