"""Running SPARQL queries, named or ad hoc, with typed parameters bound as RDF terms.

A query is compiled once (``compile_query``): parsed by rdflib, our engine, then checked by
pyoxigraph's stricter parser, so a query both engines accept is the only kind that runs.
It must be a query (SELECT, ASK, CONSTRUCT, DESCRIBE): SPARQL Update is refused, and so
are ``SERVICE`` and ``FROM``/``FROM NAMED``, which would make the engine fetch from the web.

Parameters (``bind_parameters``) are validated by type and become RDF terms, bound to the
query's variables by the engine (rdflib ``initBindings``; pyoxigraph a ``VALUES`` block of
serialised terms): the user's text is never pasted into the query, so quotes, braces or
``#`` in a value are data. An ``id`` becomes the benchmark's IRI, ``{base}benchmark/{id}``
(the base of the data, so ``--param benchmark=mimic_rrs`` names the node itself).

Both engines run over the union of the named graphs (rdflib ``Dataset(default_union=True)``,
pyoxigraph ``use_default_graph_as_union=True``) and answer with one ``QueryResult``.

Running on pyoxigraph (the floor now, the served engine later) is in ``graph.sparql.oxigraph``.
"""

import os
import re
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal as TypingLiteral
from typing import cast

import pyoxigraph as ox
import rdflib.plugins.sparql
from pyparsing import ParseBaseException, ParseResults
from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.namespace import XSD
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery, parseUpdate
from rdflib.plugins.sparql.parserutils import CompValue
from rdflib.plugins.sparql.sparql import Query, SPARQLError

from graph.errors import BenchgraphError, ErrorKind
from graph.mapping.iris import Iris
from graph.namespace import BASE_PREFIX, PREFIXES
from graph.records.fields import BENCHMARK_ID
from graph.sparql.named import NamedQuery, Parameter, parse_named_query

QueryForm = TypingLiteral["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"]
Term = URIRef | Literal | BNode
Bindings = dict[str, URIRef | Literal]

_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_CURIE = re.compile(r"(?P<prefix>[A-Za-z][A-Za-z0-9_.-]*|):(?P<local>.*)")
_IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\]')
MAX_STRING_CHARS = 10_000
MAX_ID_CHARS = 200
"""The longest ``id`` a parameter takes: a bound on what a user types. What an id is, is
``graph.records.fields.BENCHMARK_ID`` (which sets no length)."""

_FORMS: dict[str, QueryForm] = {
    "SelectQuery": "SELECT", "AskQuery": "ASK",
    "ConstructQuery": "CONSTRUCT", "DescribeQuery": "DESCRIBE",
}
_OX_ERROR = re.compile(r"error at (\d+):(\d+): (.*)", re.DOTALL)


class QueryError(BenchgraphError):
    """A query that cannot run as given: its message is one line for the user."""

    kind = ErrorKind.QUERY


class QuerySyntaxError(QueryError):
    """The text is not a SPARQL query: where (1-based line and column) and why."""

    def __init__(self, source: str, line: int, column: int, reason: str) -> None:
        super().__init__(f"{source}: syntax error at line {line}, column {column}: {reason}")
        self.line = line
        self.column = column


class ReadOnlyError(QueryError):
    """The text asks for something a read-only graph does not do (SPARQL Update, SERVICE...)."""


class ParameterError(QueryError):
    """A parameter that is unknown, missing, or whose value is not of its type."""

    kind = ErrorKind.USAGE


@dataclass(frozen=True)
class CompiledQuery:
    """A named query parsed once, ready to run on either engine any number of times."""

    query: NamedQuery
    prepared: Query
    form: QueryForm
    base: str | None


@dataclass(frozen=True)
class QueryResult:
    """What a query answered, whichever engine ran it.

    SELECT: ``variables`` and ``rows`` (one term or None per variable); ASK: ``boolean``;
    CONSTRUCT and DESCRIBE: ``graph``."""

    form: QueryForm
    variables: tuple[str, ...] = ()
    rows: tuple[tuple[Term | None, ...], ...] = ()
    boolean: bool | None = None
    graph: Graph | None = None


def ad_hoc_query(text: str, source: str = "-e") -> NamedQuery:
    """A query typed by a user; a ``#+`` header in it declares parameters as in a file."""
    return parse_named_query(text, "query", source)


def compile_query(query: NamedQuery, base: str | None = None) -> CompiledQuery:
    """Parse and check the query; ``base`` resolves relative IRIs (``<benchmark/x>``)."""
    prepared, form = _compile(query.text, query.source, base)
    return CompiledQuery(query, prepared, form, base)


@lru_cache(maxsize=256)
def _compile(text: str, source: str, base: str | None) -> tuple[Query, QueryForm]:
    _check_encodable(text, source)
    try:
        parsed = parseQuery(text)
    except ParseBaseException as error:
        if _is_update(text):
            raise ReadOnlyError(
                f"{source}: SPARQL Update is not allowed here: the graph is read-only "
                "(use SELECT, ASK, CONSTRUCT or DESCRIBE)"
            ) from None
        found = getattr(error, "found", "") or ""
        reason = f"unexpected {found}" if found else _lower_first(error.msg)
        raise QuerySyntaxError(source, error.lineno, error.col, reason) from None
    _refuse_remote(parsed[1], source)  # first: pyoxigraph would call a SERVICE while checking
    _check_with_oxigraph(text, source, base)  # before rdflib resolves prefixes: it raises bare
    prepared = translateQuery(parsed, base, PREFIXES)  # Exceptions, pyoxigraph a SyntaxError
    return prepared, _FORMS[prepared.algebra.name]


def _check_encodable(text: str, source: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise QueryError(f"{source}: the query is not valid UTF-8 text") from None


def _is_update(text: str) -> bool:
    try:
        parseUpdate(text)
    except ParseBaseException:
        return False
    return True


def _check_with_oxigraph(text: str, source: str, base: str | None) -> None:
    """pyoxigraph's parser checks what rdflib lets through (a variable bound twice, an
    aggregate without GROUP BY, an unknown prefix). Results are lazy: nothing runs here."""
    try:
        ox.Store().query(text, prefixes=PREFIXES, base_iri=base)
    except SyntaxError as error:
        match = _OX_ERROR.match(str(error))
        if match is None:
            raise QueryError(f"{source}: not a valid query: {error}") from None
        line, column, detail = int(match.group(1)), int(match.group(2)), match.group(3)
        raise QuerySyntaxError(source, line, column, _oxigraph_reason(detail)) from None


def _oxigraph_reason(detail: str) -> str:
    """The plain-words part of pyoxigraph's message, without its list of expected tokens."""
    if detail.startswith("expected one of "):
        words = [item for item in detail.removeprefix("expected one of ").split(", ")
                 if " " in item and item[:1].isupper() and not item.startswith("[")]
        if words:
            return _lower_first(words[0])
    return "not valid SPARQL here (a variable bound twice, say, or a misplaced keyword)"


def _refuse_remote(query: CompValue, source: str) -> None:
    """Refuse what would fetch from the web, on the parse tree, before anything evaluates."""
    if dict.get(query, "datasetClause"):  # CompValue.get answers a missing key with its name
        raise ReadOnlyError(f"{source}: FROM and FROM NAMED are not allowed: queries run on "
                            "the loaded graph and nothing is fetched")
    if _contains(query, "ServiceGraphPattern"):
        raise ReadOnlyError(f"{source}: SERVICE is not allowed: queries run on the loaded "
                            "graph and nothing is fetched")


def _contains(node: object, name: str) -> bool:
    if isinstance(node, CompValue):
        return node.name == name or any(_contains(value, name) for value in dict.values(node))
    if isinstance(node, (list, tuple, ParseResults)):
        return any(_contains(item, name) for item in node)
    return False


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


# -- parameters ---------------------------------------------------------------------------------

def bind_parameters(query: NamedQuery, values: Mapping[str, str], base: str) -> Bindings:
    """The query's parameters as RDF terms: each given value checked against its type, each
    missing one from its default. ParameterError for an unknown, missing or bad parameter."""
    for name in values:
        if query.parameter(name) is None:
            known = ", ".join(p.name for p in query.parameters) or "none"
            raise ParameterError(f"unknown parameter {name!r} for {query.name} "
                                 f"(its parameters: {known})")
    bindings: Bindings = {}
    for parameter in query.parameters:
        value = values.get(parameter.name, parameter.default)
        if value is None:
            raise ParameterError(
                f"missing parameter {parameter.name!r} for {query.name}: {parameter.description} "
                f"(give --param {parameter.name}=VALUE, "
                f"{_article(parameter.type)} {parameter.type})"
            )
        bindings[parameter.name] = coerce(parameter, value, base)
    return bindings


def coerce(parameter: Parameter, value: str, base: str) -> URIRef | Literal:
    """``value`` as the RDF term its parameter's type makes of it; ParameterError if it is not
    a value of that type."""
    def bad(reason: str) -> ParameterError:
        return ParameterError(f"parameter {parameter.name!r} ({parameter.type}): {reason}")

    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise bad("the value is not valid UTF-8 text") from None
    match parameter.type:
        case "id":
            if len(value) > MAX_ID_CHARS or not BENCHMARK_ID.fullmatch(value):
                raise bad(f"{_shown(value)} is not a benchmark id (a-z, 0-9 and _ only)")
            return Iris(base).benchmark(value)
        case "iri":
            return _iri(value, base, bad)
        case "string":
            if len(value) > MAX_STRING_CHARS:
                raise bad(f"longer than {MAX_STRING_CHARS:,} characters")
            return Literal(value)
        case "integer":
            if not _INTEGER.fullmatch(value.strip()):
                raise bad(f"{_shown(value)} is not a whole number")
            return Literal(int(value.strip()))
        case "date":
            if not _DATE.fullmatch(value.strip()):
                raise bad(f"{_shown(value)} is not a date (YYYY-MM-DD)")
            try:
                date.fromisoformat(value.strip())
            except ValueError:
                raise bad(f"{_shown(value)} is not a real date") from None
            return Literal(value.strip(), datatype=XSD.date)
    raise AssertionError(f"unhandled parameter type {parameter.type}")


def _iri(value: str, base: str, make: Callable[[str], ParameterError]) -> URIRef:
    text = value.strip()
    if text.startswith("<") and text.endswith(">"):
        iri = text[1:-1]
    else:
        curie = _CURIE.fullmatch(text)
        prefixes = {**PREFIXES, BASE_PREFIX: base}  # base:benchmark/x is {base}benchmark/x
        if curie is not None and curie.group("prefix") in prefixes:
            iri = prefixes[curie.group("prefix")] + curie.group("local")
        elif "://" in text or text.startswith("urn:"):
            iri = text
        else:
            known = ", ".join(sorted(prefixes))
            raise make(f"{_shown(value)} is neither a known CURIE (prefixes: {known}) nor an "
                       "absolute IRI; write a full IRI as <...>")
    if _IRI_FORBIDDEN.search(iri):
        raise make(f"{_shown(value)} is not an IRI: it holds spaces, quotes, braces or <>")
    try:
        ox.NamedNode(iri)
    except ValueError:
        raise make(f"{_shown(value)} is not an absolute IRI") from None
    return URIRef(iri)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _shown(value: str) -> str:
    return repr(value if len(value) <= 60 else value[:57] + "...")


# -- running ------------------------------------------------------------------------------------

ENGINE_ERRORS: tuple[type[Exception], ...] = (SPARQLError, re.error)
"""What rdflib's evaluator raises, by design, on a valid query it cannot run: its own
``SPARQLError`` (a ``SUM`` over text, say) and ``re.error`` for a ``REGEX`` or ``REPLACE``
pattern Python cannot compile. Both are the query's fault and reach the user as one line."""

EVALUATOR_FAULTS: tuple[type[Exception], ...] = (TypeError, AttributeError)
"""What rdflib's evaluator raises, by accident, on some valid queries (tried on rdflib 7.6):
``MIN``/``MAX`` or ``ORDER BY`` over unbound and bound values compare ``None`` with a term
(TypeError), and ``SUM`` over a value that failed to cast reads ``.datatype`` of an error
(AttributeError). They are the user's only when raised inside rdflib's SPARQL package: the
same types raised by benchgraph's own code are bugs and stay tracebacks."""

_RDFLIB_SPARQL = os.path.join(Path(rdflib.plugins.sparql.__file__).parent, "")


def run_query(compiled: CompiledQuery, dataset: Dataset, bindings: Bindings) -> QueryResult:
    """Run on rdflib, over the union of the dataset's named graphs."""
    source = compiled.query.source
    try:
        return _run_rdflib(compiled, dataset, bindings)
    except re.error as error:
        raise QueryError(f"{source}: not a valid regular expression: {error}") from error
    except ENGINE_ERRORS as error:
        raise QueryError(f"{source}: rdflib cannot evaluate this query ({error})") from error
    except EVALUATOR_FAULTS as error:
        if not _raised_in_rdflib_sparql(error):
            raise
        raise QueryError(f"{source}: rdflib cannot evaluate this query "
                         f"({type(error).__name__}: {error})") from error


def _raised_in_rdflib_sparql(error: BaseException) -> bool:
    """Whether the innermost frame of the error's traceback is rdflib's SPARQL code."""
    frames = traceback.extract_tb(error.__traceback__)
    return bool(frames) and frames[-1].filename.startswith(_RDFLIB_SPARQL)


def _run_rdflib(compiled: CompiledQuery, dataset: Dataset, bindings: Bindings) -> QueryResult:
    result = dataset.query(compiled.prepared, initBindings=bindings)
    form = compiled.form
    if form == "ASK":
        return QueryResult(form, boolean=bool(result.askAnswer))
    if form in ("CONSTRUCT", "DESCRIBE"):
        graph = Graph()
        for triple in result.graph or Graph():
            graph.add(triple)
        return QueryResult(form, graph=graph)
    variables = tuple(str(v) for v in result.vars or ())
    rows = tuple(tuple(cast("Term | None", row[i]) for i in range(len(variables)))  # type: ignore[index]
                 for row in result)
    return QueryResult(form, variables, rows)


__all__ = [
    "ENGINE_ERRORS",
    "EVALUATOR_FAULTS",
    "Bindings",
    "CompiledQuery",
    "ParameterError",
    "QueryError",
    "QueryForm",
    "QueryResult",
    "QuerySyntaxError",
    "ReadOnlyError",
    "ad_hoc_query",
    "bind_parameters",
    "coerce",
    "compile_query",
    "run_query",
]
