"""Named queries: ``queries/NAME.rq`` files, each a comment header and one SPARQL query.

The header is the file's leading ``#+ KEY: VALUE`` lines (see DESIGN.md, "Named queries")::

    #+ title: All gated MedHELM benchmarks
    #+ description: Benchmarks in the MedHELM suite whose data needs credentialed access.
    #+ param: benchmark id — a benchmark's catalog id
    #+ param: level iri = bench:Gated — an access level

``title`` is required and appears once; ``description`` may span several lines (joined with
spaces); each ``param`` line declares one parameter as ``NAME TYPE [= DEFAULT] — what it is``
(``--`` may stand for the dash). A parameter without a default is required. Two more keys say
how a page shows the answer: ``links`` names the columns that hold a list of IRIs, and each
``link`` line (``#+ link: id to benchmark``) a column whose value names the node in another
column, so the page links the name and leaves the IRI column out (the data keep both).

Lines that begin ``##`` are notes for maintainers (why a query is shaped for an engine): the
query people see and run, ``NamedQuery.text``, is the file without them.

``NAME.unjudged.rq`` beside ``NAME.rq`` counts the nodes a query could not judge, where its
answer rests on a property most nodes lack (DESIGN.md, "Stated facts"): a SELECT of one row,
``?unjudged`` and ``?total``, whose title says what the unjudged ones are ("MedHELM benchmarks
state no access level"), so a page can say "36 of 37 MedHELM benchmarks state no access
level". Its parameters, if it declares any, are its query's, bound to the same values.

The binding rule (``graph.sparql.checks``; ``tests/test_queries.py`` holds every bundled query
to it): a parameter ``NAME`` binds the variable ``?NAME`` to an RDF term before the query
runs (a ``VALUES`` block opening the WHERE clause, and that of each sub-SELECT projecting
``?NAME``: ``graph.sparql.query_text``), so

- ``?NAME`` occurs in the query's outermost scope (not only inside a sub-SELECT that does not
  project it), and the query never assigns it itself (``BIND``, ``VALUES``, ``AS``);
- an expression reads ``?NAME`` only at the top level of the WHERE clause (its FILTERs and
  BINDs, an OPTIONAL's FILTER, SELECT and HAVING), never inside a nested group, UNION branch
  or sub-SELECT, where a joined value is not yet visible;
- conversely, a variable some expression reads that nothing in the query binds is an input,
  and must be declared as a parameter.

A parameter of type ``id`` is bound as the benchmark's IRI, ``{base}benchmark/{id}``.

What the text of a query says is checked by ``graph.sparql.query_text`` (and the engine's
parser); this module only reads files and headers (its one use of the text's tokens is to drop
the notes), so listing the queries stays cheap.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal, get_args

from graph.errors import BenchgraphError, ErrorKind
from graph.resources import data_dir
from graph.sparql.query_text import without_notes

ParamType = Literal["id", "iri", "string", "integer", "date"]
PARAM_TYPES: tuple[str, ...] = get_args(ParamType)
"""What a parameter's value may be: a benchmark id (``[a-z0-9_]+``, bound as the benchmark's
IRI), an IRI (``bench:Gated``, ``<...>`` or absolute), any string (bound as an
``xsd:string`` literal), an integer (``xsd:integer``) or a date (``YYYY-MM-DD``, ``xsd:date``)."""

QUERY_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
PARAM_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER_LINE = re.compile(r"#\+\s*(?P<key>[A-Za-z_-]*)\s*:\s?(?P<value>.*)")
_PARAM_LINE = re.compile(
    r"(?P<name>\S+)\s+(?P<type>\S+)(?:\s*=\s*(?P<default>.*?))?\s+(?:—|--)\s+(?P<about>.*\S)"
)
_LINK_LINE = re.compile(r"(?P<column>\S+)\s+to\s+(?P<node>\S+)")
HEADER_KEYS = ("title", "description", "param", "links", "link")
UNJUDGED_SUFFIX = ".unjudged.rq"
"""How the count of a query's unjudged nodes is called: ``NAME.unjudged.rq``."""


class QueryFileError(BenchgraphError):
    """A named query file that cannot be used: names the file, the line and what is wrong."""

    kind = ErrorKind.INPUT

    def __init__(self, source: str, message: str, line: int | None = None) -> None:
        where = source if line is None else f"{source}, line {line}"
        super().__init__(f"{where}: {message}")
        self.source = source
        self.line = line


@dataclass(frozen=True)
class Parameter:
    """One declared parameter of a named query."""

    name: str
    type: ParamType
    description: str
    default: str | None = None
    """The default as written in the header (``bench:Gated``), converted like a user's value."""

    @property
    def required(self) -> bool:
        return self.default is None


@dataclass(frozen=True)
class NodeLink:
    """A column whose value names a node (a benchmark's ``id``, a model's name) and the column
    that holds the node's IRI (``#+ link: id to benchmark``)."""

    column: str
    node: str


@dataclass(frozen=True)
class NamedQuery:
    """A query and what its header says about it."""

    name: str
    title: str
    description: str
    parameters: tuple[Parameter, ...]
    text: str
    """The query as it is shown and run: the file, header included, without its maintainer
    notes (``##`` lines). Line numbers in errors count the lines of this text."""
    source: str
    """Where the query came from: a file path, or ``-e`` for a query given on the command line."""
    links: tuple[str, ...] = ()
    """The SELECT variables whose value is a list of IRIs separated by spaces (a
    ``GROUP_CONCAT`` of them), which a page shows as one link each (``#+ links:``)."""
    node_links: tuple[NodeLink, ...] = ()
    """The columns that name a node of another column (``#+ link:``)."""
    unjudged: "NamedQuery | None" = None
    """The count of the nodes this query could not judge (``NAME.unjudged.rq``), if any."""

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)


def parse_named_query(text: str, name: str, source: str | None = None) -> NamedQuery:
    """A named query from the text of a ``.rq`` file; ``QueryFileError`` if its header is bad.

    A query with no header at all (an ad hoc query given with ``-e`` or as a file) gets its
    name as title and no parameters; a header without a title is an error."""
    where = source or name
    title: str | None = None
    descriptions: list[str] = []
    parameters: list[Parameter] = []
    links: list[str] = []
    node_links: list[NodeLink] = []
    header_seen = False
    shown = without_notes(text)
    for number, line in _header_lines(text):
        match = _HEADER_LINE.fullmatch(line.strip())
        if match is None:
            raise QueryFileError(where, "a header line must read '#+ KEY: VALUE'", number)
        header_seen = True
        key, value = match.group("key").lower(), match.group("value").strip()
        if key not in HEADER_KEYS:
            raise QueryFileError(
                where, f"unknown header key {key!r} (use {', '.join(HEADER_KEYS)})", number
            )
        if not value:
            raise QueryFileError(where, f"'{key}' is empty", number)
        if key == "title":
            if title is not None:
                raise QueryFileError(where, "a second 'title' line", number)
            title = value
        elif key == "description":
            descriptions.append(value)
        elif key == "links":
            links += _parse_links(value, shown, where, number)
        elif key == "link":
            node_links.append(_parse_link(value, shown, where, number))
        else:
            parameter = _parse_param(value, where, number)
            if any(p.name == parameter.name for p in parameters):
                raise QueryFileError(where, f"parameter {parameter.name!r} declared twice", number)
            parameters.append(parameter)
    if title is None:
        if header_seen:
            raise QueryFileError(where, "the header has no '#+ title:' line")
        title = name
    return NamedQuery(name, title, " ".join(descriptions), tuple(parameters), shown, where,
                      tuple(links), tuple(node_links))


def _parse_links(value: str, text: str, where: str, number: int) -> list[str]:
    """The variable names of a ``links`` line (``records sources``), each one the query
    binds (``AS ?records``)."""
    names = value.split()
    for name in names:
        if re.search(rf"\bAS\s+\?{re.escape(name)}\b", text, re.IGNORECASE) is None:
            raise QueryFileError(
                where, f"'links' names {name!r}, which the query does not bind (AS ?{name})",
                number)
    return names


def _parse_link(value: str, text: str, where: str, number: int) -> NodeLink:
    """A ``link`` line, ``COLUMN to NODE``: two different variables that the query names."""
    match = _LINK_LINE.fullmatch(value)
    if match is None:
        raise QueryFileError(where, "a link reads 'COLUMN to NODE' (id to benchmark)", number)
    link = NodeLink(match.group("column"), match.group("node"))
    for name in (link.column, link.node):
        if re.search(rf"\?{re.escape(name)}\b", text) is None:
            raise QueryFileError(where, f"'link' names {name!r}, which the query does not name "
                                 f"(?{name})", number)
    if link.column == link.node:
        raise QueryFileError(where, f"'link' names {link.column!r} as its own node", number)
    return link


def ad_hoc_query(text: str, source: str = "-e") -> NamedQuery:
    """A query typed by a user; a ``#+`` header in it declares parameters as in a file."""
    return parse_named_query(text, "query", source)


def _header_lines(text: str) -> Iterator[tuple[int, str]]:
    """The leading ``#+`` lines and their numbers (1-based); blank lines and ordinary
    comments may sit among them, and the header ends at the first other line."""
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("#+"):
            yield number, stripped
        elif stripped and not stripped.startswith("#"):
            return


def _parse_param(value: str, where: str, number: int) -> Parameter:
    match = _PARAM_LINE.fullmatch(value)
    if match is None:
        raise QueryFileError(
            where, "a parameter reads 'NAME TYPE [= DEFAULT] — what it is'", number
        )
    name, kind, default = match.group("name"), match.group("type"), match.group("default")
    if not PARAM_NAME.fullmatch(name):
        raise QueryFileError(where, f"{name!r} is not a variable name (letters, digits, _)", number)
    if kind not in PARAM_TYPES:
        raise QueryFileError(
            where, f"parameter {name!r} has unknown type {kind!r} (use {', '.join(PARAM_TYPES)})",
            number,
        )
    if default is not None and not default:
        raise QueryFileError(where, f"parameter {name!r} has '=' but no default", number)
    return Parameter(name, kind, match.group("about"), default)  # type: ignore[arg-type]


def load_query_file(path: Path) -> NamedQuery:
    """A named query from a ``.rq`` file (its name is the file's stem), with the count of its
    unjudged nodes when ``NAME.unjudged.rq`` lies beside it."""
    query = parse_named_query(_read(path), path.stem, str(path))
    counted = path.with_name(path.stem + UNJUDGED_SUFFIX)
    if not counted.is_file():
        return query
    unjudged = parse_named_query(_read(counted), counted.name.removesuffix(".rq"), str(counted))
    return replace(query, unjudged=unjudged)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise QueryFileError(str(path), "not UTF-8 text") from None
    except OSError as error:
        raise QueryFileError(str(path), f"cannot read: {error.strerror or error}") from None


def load_named_queries(folder: Path | None = None) -> dict[str, NamedQuery]:
    """Every ``NAME.rq`` in ``folder`` (default: the bundled ``queries/``), by name, sorted; a
    ``NAME.unjudged.rq`` belongs to its ``NAME.rq`` and is no query of its own."""
    folder = folder or data_dir("queries")
    queries: dict[str, NamedQuery] = {}
    for path in sorted(folder.glob("*.rq")):
        if path.name.endswith(UNJUDGED_SUFFIX):
            if not path.with_name(path.name.removesuffix(UNJUDGED_SUFFIX) + ".rq").is_file():
                raise QueryFileError(str(path), "counts what a query could not judge, but "
                                     "there is no such query beside it")
            continue
        if not QUERY_NAME.fullmatch(path.stem):
            raise QueryFileError(str(path), "a query's name is lower case letters, digits and -")
        queries[path.stem] = load_query_file(path)
    return queries


def find_named_query(name: str, folder: Path | None = None) -> NamedQuery | None:
    """The named query called ``name``, or None when there is none."""
    if not QUERY_NAME.fullmatch(name):
        return None
    path = (folder or data_dir("queries")) / f"{name}.rq"
    return load_query_file(path) if path.is_file() else None


__all__ = [
    "PARAM_TYPES",
    "UNJUDGED_SUFFIX",
    "NamedQuery",
    "NodeLink",
    "ParamType",
    "Parameter",
    "QueryFileError",
    "ad_hoc_query",
    "find_named_query",
    "load_named_queries",
    "load_query_file",
    "parse_named_query",
]
