"""Reading a SPARQL query's text by its tokens, where no decision rests on it: how deep its
brackets nest (``brackets``, a limit checked before any parser recurses into the text), and
where to bind values (``with_values``).

What a query may do is decided on its parse tree, never here (``graph.sparql.admission``).

**Where to bind values** (``with_values``). pyoxigraph substitutes only variables a SELECT
projects, so parameters go in as a ``VALUES`` block opening the WHERE clause (join
semantics). The named queries keep the binding rule of ``graph.sparql.checks``, under which
that gives the rows substitution would. Each value is written in its N-Triples form by
pyoxigraph, from a checked RDF term: never the user's text.

The same block also opens the WHERE clause of each sub-SELECT of the outermost query (not
one inside another sub-SELECT) that projects a bound variable as it is (not ``AS``) and has
no LIMIT or OFFSET. An engine evaluates a sub-SELECT on its own, before any join, so without
it the sub-SELECT reads the whole store however few rows the parameter leaves (the
leaderboard's ranking of every result of every benchmark, for one benchmark's page:
``perf/decisions/values-in-sub-selects.md``). The rows are the same: the outer block already
keeps only rows whose variable holds a bound value, and a sub-SELECT's row with another
value joins none of them (the binding rule forbids the query assigning the variable
anywhere); a LIMIT or OFFSET would pick other rows from fewer, hence none there.

Tokens: comments, strings and IRIs are skipped whole, and a keyword is a bare word (not part
of a prefixed name such as ``ex:service``, a variable ``?service`` or a blank node label).
"""

import re
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
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
    combination of the values (one row where every variable has one term), and the same for
    the variables each qualifying sub-SELECT projects (the module's docstring says which);
    None when the query has no WHERE clause to bind in."""
    if not bindings:
        return text
    places = _binding_places(text, form, tuple(bindings))
    if places is None:
        return None
    bound = text
    for place, names in reversed(places):  # from the end: the places before stay put
        bound = f"{bound[:place]} {_values_block(names, bindings)} {bound[place:]}"
    return bound


def _values_block(names: Sequence[str], bindings: Mapping[str, BindingValue]) -> str:
    choices = [value if isinstance(value, tuple) else (value,)
               for value in (bindings[name] for name in names)]
    rows = " ".join(f"({' '.join(map(str, row))})" for row in product(*choices))
    return f"VALUES ({' '.join(f'?{name}' for name in names)}) {{ {rows} }}"


@lru_cache(maxsize=256)
def _binding_places(text: str, form: QueryForm, names: tuple[str, ...]
                    ) -> tuple[tuple[int, tuple[str, ...]], ...] | None:
    """Where ``with_values`` opens a block, in the order of the text, and for which of
    ``names``: the WHERE clause (all of them), then each qualifying sub-SELECT's (those it
    projects); None when there is no WHERE clause. Kept per text: a query asked with other
    values (a page's labels, a named query's parameters) keeps its text, so its tokens are
    read once."""
    start = where_clause_start(text, form)
    if start is None:
        return None
    wanted = frozenset(names)
    tokens = [(match.lastgroup, match.group(), match) for match in _TOKEN.finditer(text, start)]
    places = [(start, names)]
    index = 0
    while index < len(tokens):
        kind, token, _ = tokens[index]
        if kind == "word" and token.upper() == "SELECT":  # past its group: none nested in it
            found, index = _sub_select(tokens, index, wanted)
            if found is not None:
                places.append(found)
            continue
        index += 1
    return tuple(places)


_Token = tuple[str | None, str, re.Match[str]]


def _sub_select(tokens: list[_Token], index: int, names: frozenset[str]
                ) -> tuple[tuple[int, tuple[str, ...]] | None, int]:
    """The sub-SELECT whose keyword is ``tokens[index]``: where its WHERE group opens and the
    ``names`` it projects as they are (None when none, or when it has a LIMIT or OFFSET), and
    the index of the token after it."""
    projected: list[str] = []
    nested = 0  # brackets of the projection: ``(expr AS ?x)`` projects ?x assigned
    index += 1
    while index < len(tokens) and tokens[index][1] != "{":
        kind, token, _ = tokens[index]
        if kind == "bracket":
            nested += 1 if token in "([" else -1
        elif kind == "word" and nested == 0 and token[:1] in "?$" and token[1:] in names:
            projected.append(token[1:])
        index += 1
    if index == len(tokens):
        return None, index
    opens = tokens[index][2].end()
    level = 0  # the sub-SELECT's WHERE group, then its modifiers, until its enclosing brace
    cut = False
    while index < len(tokens):
        kind, token, _ = tokens[index]
        if kind == "brace":
            level += 1 if token == "{" else -1
            if level < 0:
                break
        elif kind == "word" and level == 0:
            cut = cut or token.upper() in ("LIMIT", "OFFSET")
        index += 1
    if not projected or cut:
        return None, index
    return (opens, tuple(dict.fromkeys(projected))), index


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
