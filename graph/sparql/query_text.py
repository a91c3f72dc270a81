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

QueryForm = Literal["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"]

QUERY_FORMS: frozenset[str] = frozenset({"SELECT", "ASK", "CONSTRUCT", "DESCRIBE"})
UPDATE_KEYWORDS: frozenset[str] = frozenset(
    {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH"}
)
_PROLOGUE = frozenset({"PREFIX", "BASE"})

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
    service = False
    for keyword, _match in _keywords(text):
        if first is None and keyword not in _PROLOGUE and keyword not in "{}":
            first = keyword
        service = service or keyword == "SERVICE"
    form: QueryForm | None = first if first in QUERY_FORMS else None  # type: ignore[assignment]
    return RequestShape(form=form, update=first in UPDATE_KEYWORDS, service=service)


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
    "shape_of",
    "where_clause_start",
    "with_values",
]
