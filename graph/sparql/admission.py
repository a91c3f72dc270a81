"""What a query may do, decided on its parse tree before anything runs it.

The graph is read-only and closed (DESIGN.md, "The served graph"): SPARQL Update is refused,
and so is ``SERVICE`` anywhere in a query, since pyoxigraph fetches a SERVICE endpoint while
it evaluates the pattern and has no switch to stop it (a remote engine may fetch it too).
``admit`` makes that decision on the query as a SPARQL 1.1 parser reads it, rdflib's, which
follows the recommendation's grammar: a ``ServiceGraphPattern`` anywhere in the tree (an
OPTIONAL, a UNION branch, a sub-SELECT, an EXISTS, a MINUS) refuses the query, whatever the
spelling around it. No scan of tokens decides it. The query processes cannot open a network
connection either (``graph.store.process.confinement``), a second wall for what a parser could miss.

Before any parser sees the text, two limits that a parser cannot be trusted with:

- **size**: at most ``max_query_bytes`` of UTF-8;
- **nesting**: at most ``MAX_NESTING`` brackets deep (``{``, ``(``, ``[``, counted outside
  strings, IRIs and comments). Both parsers recurse once per level: a query nested ten
  thousand groups deep overflowed pyoxigraph's stack and killed the process parsing it, and
  rdflib needs about forty Python frames a level. A deeper text is a 400, never a crash.

Codepoint escapes (``\\u0053``) are expanded first, as SPARQL 1.1 (section 19.2) says they
are, before parsing: the text that runs is that expanded text, so the engine parses the
characters that were checked. (pyoxigraph leaves them unexpanded outside strings, where
``\\u0053ERVICE`` would be a syntax error to it and a keyword to the recommendation.)

rdflib's parser is exact but slow (perf/decisions/admission-cache.md), so the outcome is kept
per text (``_Kept``): the named queries and the pages' own queries are parsed once a process.
A long query takes seconds to parse, and a query's time limit runs from the moment it is asked:
``within`` bounds the wait for its judgement (``TimeoutError`` past it). A parse cannot be
stopped, so it finishes in its thread while the caller has its answer, and its outcome is kept
for the next to ask; parses run one at a time, and one that has waited past its caller's bound
for its turn does not start.
What rdflib reads as a query and pyoxigraph still refuses (an unknown prefix, a variable
bound twice) is a syntax error from the engine, as before.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, replace

from pyparsing import ParseBaseException, ParseResults
from rdflib.plugins.sparql.parser import expandUnicodeEscapes, parseQuery, parseUpdate
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.term import Variable

from graph.sparql.errors import QueryError, QuerySyntaxError, ReadOnlyError
from graph.sparql.query_text import BindingValue, QueryForm, brackets, with_values

MAX_NESTING = 20
"""Deepest nesting of brackets a query may have. The named queries nest at most 11 deep;
rdflib parses 21 levels of nested function calls in a thread of its own, its deepest form."""

_FORMS: dict[str, QueryForm] = {"SelectQuery": "SELECT", "AskQuery": "ASK",
                                "ConstructQuery": "CONSTRUCT", "DescribeQuery": "DESCRIBE"}
_CACHED = 512
"""Texts whose outcome a process keeps: more than the named queries and pages ever use."""


@dataclass(frozen=True)
class Admitted:
    """A query that may run here, as its parse tree says."""

    text: str
    """The text to run: the query's, its codepoint escapes expanded."""
    form: QueryForm
    names_graphs: bool
    """It names graphs (``GRAPH``, ``FROM``, ``FROM NAMED``): it may read more than the
    default graph."""
    star: tuple[str, ...] = ()
    """A ``SELECT *``: its variables in the order the query first names them, the order of its
    columns (SPARQL leaves it open; Oxigraph sorts the names, and ``?s ?p ?o`` came back as
    o, p, s). Empty for any other query, whose columns are the ones it lists."""


def admit(text: str, source: str, max_bytes: int, within: float | None = None) -> Admitted:
    """``text`` as a query that may run; otherwise QueryError (too large, too deep, not
    UTF-8, not SPARQL), QuerySyntaxError or ReadOnlyError (an update, a SERVICE), whose
    message names ``source``; TimeoutError when its parse takes more than ``within``
    seconds (None: no bound)."""
    outcome = _judged(text, max_bytes, within)
    if isinstance(outcome, Admitted):
        return outcome
    kind, reason, place = outcome
    if kind is QuerySyntaxError:
        line, column = place
        raise QuerySyntaxError(source, line, column, reason)
    raise kind(f"{source}: {reason}")


def admit_bound(text: str, bindings: Mapping[str, BindingValue], source: str,
                max_bytes: int, within: float | None = None) -> Admitted:
    """``admit``, then ``bindings`` bound by a ``VALUES`` block opening the WHERE clause
    (``graph.sparql.query_text.with_values``): the query as it runs, what every store sends
    its engine. The bound values are RDF terms written by pyoxigraph, so the text judged is
    the template's, kept per text. QueryError when there is no WHERE clause to bind in."""
    admitted = admit(text, source, max_bytes, within)
    if not bindings:
        return admitted
    bound = with_values(admitted.text, admitted.form, bindings)
    if bound is None:
        raise QueryError(f"{source}: parameters need a WHERE clause to bind in")
    return replace(admitted, text=bound)


_Refusal = tuple[type[QueryError], str, tuple[int, int]]


class _Kept:
    """The outcome of each text judged lately, the most recent ``_CACHED``: a hand-made
    ``lru_cache``, since the outcome a parse thread finds after its caller stopped waiting is
    kept too (that caller's retry finds it), and the caller's bound is no part of the key."""

    def __init__(self) -> None:
        self._outcomes: OrderedDict[tuple[str, int], Admitted | _Refusal] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> Admitted | _Refusal | None:
        with self._lock:
            found = self._outcomes.get(key)
            if found is not None:
                self._outcomes.move_to_end(key)
            return found

    def keep(self, key: tuple[str, int], outcome: Admitted | _Refusal) -> None:
        with self._lock:
            self._outcomes[key] = outcome
            if len(self._outcomes) > _CACHED:
                self._outcomes.popitem(last=False)


_KEPT = _Kept()
_PARSING = threading.Lock()
"""rdflib's parser is not safe in two threads at once: its grammar objects set themselves up
on first use, and parses racing there failed, and went on failing, in a server's threads.
One parse at a time costs nothing here: a parse holds the interpreter's lock throughout."""


def _judged(text: str, max_bytes: int, within: float | None) -> Admitted | _Refusal:
    """The outcome for ``text``: kept, or judged in a thread of its own, whose whole
    recursion budget the parser may use (a request's thread has spent part of it), waited
    for at most ``within`` seconds (TimeoutError past them)."""
    key = (text, max_bytes)
    kept = _KEPT.get(key)
    if kept is not None:
        return kept
    deadline = None if within is None else time.monotonic() + within
    judged: Future[Admitted | _Refusal | None] = Future()

    def judge() -> None:
        try:
            found = _judge(text, max_bytes, deadline)
        except Exception as error:  # a bug: raised again in the caller's thread
            judged.set_exception(error)
            return
        if found is not None:
            _KEPT.keep(key, found)
        judged.set_result(found)

    threading.Thread(target=judge, name="sparql-parse", daemon=True).start()
    outcome = judged.result(timeout=within)  # TimeoutError past it
    if outcome is None:
        raise TimeoutError("the query was not judged in time")
    return outcome


def _judge(text: str, max_bytes: int, deadline: float | None) -> Admitted | _Refusal | None:
    """The outcome for ``text``; None when its turn to be parsed has not come by
    ``deadline`` (a ``time.monotonic()``; None: no bound)."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return QueryError, "the query is not valid UTF-8 text", (0, 0)
    if size > max_bytes:
        return (QueryError, f"the query is {size:,} bytes long, over the limit of "
                f"{max_bytes:,}", (0, 0))
    depth = brackets(text)
    if depth > MAX_NESTING:
        return (QueryError, f"the query nests brackets {depth} deep, deeper than the limit "
                f"of {MAX_NESTING}", (0, 0))
    try:
        expanded = expandUnicodeEscapes(text)
    except ValueError as error:  # an escape past U+10FFFF
        return QueryError, f"not a valid query: {error}", (0, 0)
    wait = -1 if deadline is None else max(deadline - time.monotonic(), 0.0)
    if not _PARSING.acquire(timeout=wait):
        return None  # its caller has given up waiting
    try:  # the parse it waited for may have been of the same text
        return _KEPT.get((text, max_bytes)) or _judge_parsed(expanded)
    finally:
        _PARSING.release()


def _judge_parsed(text: str) -> Admitted | _Refusal:
    """The outcome for ``text``, as rdflib's parser reads it (its turn to parse held)."""
    try:
        tree: CompValue = parseQuery(text)[1]  # after the prologue
    except RecursionError:
        return QueryError, "the query nests too deeply to be read", (0, 0)
    except ParseBaseException as error:
        return _refusal(text, error)
    if _finds(tree, "ServiceGraphPattern"):
        return (ReadOnlyError, "SERVICE is not allowed: queries run on this graph alone, and "
                "nothing is fetched from elsewhere", (0, 0))
    names_graphs = "datasetClause" in tree or _finds(tree, "GraphGraphPattern")
    star = () if tree.name != "SelectQuery" or "projection" in tree else _variables(tree)
    return Admitted(text, _FORMS[tree.name], names_graphs, star)


def _refusal(text: str, error: ParseBaseException) -> _Refusal:
    """Why a text that is not a query is refused: an update, or where it stops being
    SPARQL."""
    try:
        parseUpdate(text)
    except (ParseBaseException, RecursionError):
        pass
    else:
        return (ReadOnlyError, "SPARQL Update is not allowed: the graph is read-only (use "
                "SELECT, ASK, CONSTRUCT or DESCRIBE)", (0, 0))
    found = _shown(error)
    reason = f"not valid SPARQL here (at {found})" if found else "the query ends too soon"
    return QuerySyntaxError, reason, (error.lineno, error.col)


def _shown(error: ParseBaseException) -> str:
    """What the parser stopped at, quoted, or '' at the end of the text."""
    rest = error.line[error.col - 1:].strip() if error.line else ""
    word = re.match(r"\S{1,30}", rest)
    return repr(word.group()) if word else ""


def _finds(node: object, name: str) -> bool:
    """Whether the parse tree below ``node`` holds a node called ``name``."""
    if isinstance(node, CompValue):
        if node.name == name:
            return True
        return any(_finds(value, name) for key, value in dict.items(node)
                   if not key.startswith("_"))
    if isinstance(node, (list, tuple, ParseResults)):
        return any(_finds(item, name) for item in node)
    return False


def _variables(node: object, found: dict[str, None] | None = None) -> tuple[str, ...]:
    """The variables below ``node``, each once, in the order the parse tree holds them."""
    found = {} if found is None else found
    if isinstance(node, Variable):
        found.setdefault(str(node))
    elif isinstance(node, CompValue):
        for key, value in dict.items(node):
            if not key.startswith("_"):
                _variables(value, found)
    elif isinstance(node, (list, tuple, ParseResults)):
        for item in node:
            _variables(item, found)
    return tuple(found)


__all__ = ["MAX_NESTING", "Admitted", "admit", "admit_bound"]
