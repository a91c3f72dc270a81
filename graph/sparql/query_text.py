"""Reading a SPARQL request's text by its tokens: what it asks for, and where to bind values.

**What it asks for** (``shape_of``). A read-only, closed endpoint must refuse two things
before a query runs:

- **SPARQL Update** (``INSERT``, ``DELETE``, ``LOAD``, ``CLEAR`` ...): the store is read-only;
- **SERVICE**, anywhere in the query (nested in ``OPTIONAL``, a ``UNION`` or a sub-SELECT
  too): pyoxigraph 0.5 calls the remote endpoint while it evaluates the pattern, and has no
  switch to stop it. (``FROM``/``FROM NAMED`` name graphs of the store and fetch nothing,
  measured with a listening socket; ``LOAD`` is an update.)

Both answers come from the tokens: comments, strings and IRIs are skipped whole, and a
keyword is a bare word (not part of a prefixed name such as ``ex:service``, a variable
``?service`` or a blank node label). That is exact for both questions: SPARQL's grammar
puts the operation's keyword first after the prologue (``PREFIX``, ``BASE``), and a SERVICE
pattern can only be written with the bare keyword ``SERVICE``. rdflib's parser would give
the whole algebra, but takes 20-250 ms for each of the named queries (measured on this
machine); the scan takes microseconds, so it runs on every request. Syntax is left to
pyoxigraph's parser, which runs the query.

**Where to bind values** (``with_values``). pyoxigraph substitutes only variables a SELECT
projects, so parameters go in as a ``VALUES`` block opening the WHERE clause (join
semantics). The named queries keep the binding rule of ``graph.sparql.checks``, under which
that gives the rows substitution would. Each value is written in its N-Triples form by
pyoxigraph, from a checked RDF term: never the user's text.
"""

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

import pyoxigraph as ox

from graph.namespace import PREFIXES
from graph.sparql.errors import QueryError, QuerySyntaxError, ReadOnlyError

QueryForm = Literal["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"]

QUERY_FORMS: frozenset[str] = frozenset({"SELECT", "ASK", "CONSTRUCT", "DESCRIBE"})
UPDATE_KEYWORDS: frozenset[str] = frozenset(
    {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH"}
)
_PROLOGUE = frozenset({"PREFIX", "BASE"})
_NAMING_GRAPHS = frozenset({"GRAPH", "FROM"})

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
    """,
    re.VERBOSE | re.DOTALL,
)
_KEYWORD = re.compile(r"[A-Za-z]+")

BindingTerm = ox.NamedNode | ox.Literal


@dataclass(frozen=True)
class RequestShape:
    """What the text of a request is, as far as refusing it goes."""

    form: QueryForm | None
    """The query form of its operation; None when it is not a query (an update, or text that
    is not SPARQL at all: the parser then says why)."""
    update: bool
    """Its first operation is a SPARQL Update operation."""
    service: bool
    """It uses ``SERVICE`` somewhere."""
    names_graphs: bool = False
    """It names graphs (``GRAPH``, ``FROM``, ``FROM NAMED``): it may read more than the
    default graph."""


def _keywords(text: str) -> Iterator[tuple[str, re.Match[str]]]:
    """Each bare keyword of ``text`` (upper case) with its match, and each brace."""
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "brace":
            yield match.group(), match
        elif match.lastgroup == "word":
            keyword = match.group().rstrip(".")
            if _KEYWORD.fullmatch(keyword):
                yield keyword.upper(), match


def shape_of(text: str) -> RequestShape:
    """The shape of a request's text, from its keywords."""
    first: str | None = None
    service = graphs = False
    for keyword, _match in _keywords(text):
        if first is None and keyword not in _PROLOGUE and keyword not in "{}":
            first = keyword
        service = service or keyword == "SERVICE"
        graphs = graphs or keyword in _NAMING_GRAPHS
    form: QueryForm | None = first if first in QUERY_FORMS else None  # type: ignore[assignment]
    return RequestShape(form=form, update=first in UPDATE_KEYWORDS, service=service,
                        names_graphs=graphs)


def refuse_what_is_not_read(text: str, source: str) -> RequestShape:
    """The request's shape; ReadOnlyError for an update or a SERVICE, QueryError for text that
    is not Unicode. Nothing is parsed or run: the engine's parser judges the syntax."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise QueryError(f"{source}: the query is not valid UTF-8 text") from None
    shape = shape_of(text)
    if shape.update:
        raise ReadOnlyError(f"{source}: SPARQL Update is not allowed: the graph is read-only "
                            "(use SELECT, ASK, CONSTRUCT or DESCRIBE)")
    if shape.service:
        raise ReadOnlyError(f"{source}: SERVICE is not allowed: queries run on this graph "
                            "alone, and nothing is fetched from elsewhere")
    return shape


def check_query(text: str, source: str, base: str | None = None) -> QueryForm:
    """The query's form, once it is known to be a query that may run here and that parses
    (pyoxigraph's parser, on an empty store: nothing is evaluated but an ASK of nothing).
    ReadOnlyError, QueryError or QuerySyntaxError otherwise; so a command can refuse a query
    before it builds a graph to run it on."""
    shape = refuse_what_is_not_read(text, source)
    try:
        ox.Store().query(text, prefixes=PREFIXES, base_iri=base)
    except SyntaxError as error:
        raise syntax_error(source, str(error)) from None
    assert shape.form is not None, text  # pyoxigraph parsed it as a query
    return shape.form


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


def with_values(text: str, form: QueryForm, bindings: Mapping[str, BindingTerm]) -> str | None:
    """``text`` with ``VALUES (?a ?b) { (A B) }`` opening its WHERE clause; None when the query
    has no WHERE clause to bind in."""
    if not bindings:
        return text
    at = where_clause_start(text, form)
    if at is None:
        return None
    names = " ".join(f"?{name}" for name in bindings)
    terms = " ".join(str(term) for term in bindings.values())
    return f"{text[:at]} VALUES ({names}) {{ ({terms}) }} {text[at:]}"


__all__ = [
    "QUERY_FORMS",
    "UPDATE_KEYWORDS",
    "BindingTerm",
    "QueryForm",
    "RequestShape",
    "check_query",
    "refuse_what_is_not_read",
    "shape_of",
    "syntax_error",
    "where_clause_start",
    "with_values",
]
