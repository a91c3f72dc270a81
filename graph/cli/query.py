"""``benchgraph queries`` lists the named queries; ``benchgraph query`` runs one, or any query.

    benchgraph queries [NAME]
    benchgraph query (NAME | FILE.rq | -e SPARQL) [PATH ...] [--param NAME=VALUE ...]
                     [--format F] [--wide] [--store S] [--query-timeout S] [--row-limit N]
                     [--base IRI] [--verbose] [--report FILE.json]

NAME or FILE.rq is the first word; options and PATHs follow in any order. With ``-e`` every
word is a PATH, and a word that reads as a query NAME but names no file is refused.

Everything the user can get wrong (an unknown query, a syntax error, SPARQL Update, a
missing, unknown or ill-typed parameter, a format that does not fit the query) is found
before the graph is built or opened and is one line on stderr, exit 2. The query runs on the
store (``graph.store``), as every query of benchgraph does.
"""

import argparse
import difflib
import io
import shutil
import sys
from pathlib import Path

from graph.cli.common import (
    EXIT_OK,
    EXTRA_WORDS,
    STDOUT,
    add_build_arguments,
    add_store_arguments,
    load_exit_code,
    opened_store,
    output_to,
    report_load,
    settings_from,
)
from graph.errors import BenchgraphError, ErrorKind
from graph.export.formats import FORMATS, format_for_query, names
from graph.export.query_results import serialize_result
from graph.regular_file import NotRegular, TooLarge, read_regular
from graph.sparql.admission import admit
from graph.sparql.named import (
    QUERY_NAME,
    NamedQuery,
    Parameter,
    QueryFileError,
    ad_hoc_query,
    find_named_query,
    load_named_queries,
    parse_named_query,
)
from graph.sparql.parameters import bind_parameters
from graph.sparql.unjudged import count_unjudged
from graph.store.kinds import limits_from


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    listing = subparsers.add_parser(
        "queries",
        help="list the named queries, with their titles and parameters",
        description="List the named queries. With NAME, show that one in full: its "
        "description, parameters and SPARQL text.",
    )
    listing.add_argument("name", nargs="?", metavar="NAME", help="a named query to show in full")
    listing.set_defaults(run=run_queries)

    parser = subparsers.add_parser(
        "query",
        help="run a named query, a .rq file or a SPARQL query on the graph",
        usage="benchgraph query (NAME | FILE.rq | -e SPARQL) [PATH ...] [--param NAME=VALUE ...] "
        "[--format F] [--wide] [--store S] [--query-timeout S] [--row-limit N] [--base IRI] "
        "[--verbose] [--report FILE.json]",
        description="Run a query on the graph: a memory store built now from record files "
        "(default: the bundled catalog), or a store built once (--store oxigraph:DIR). SELECT "
        "and ASK results print as a table that fits the terminal by default (IRIs as CURIEs, "
        "long values cut with …); CONSTRUCT and DESCRIBE results as Turtle. The graph is "
        "read-only (SPARQL Update and SERVICE are refused), and a query is stopped after "
        "--query-timeout seconds. NAME or FILE.rq comes first; options and PATHs follow in any "
        "order. With -e, every word is a PATH.",
    )
    parser.add_argument(
        "words",
        nargs="*",
        metavar="NAME|FILE.rq PATH",
        help="the named query or .rq file (not with -e), then record files or folders",
    )
    parser.set_defaults(**{EXTRA_WORDS: "words"})
    parser.add_argument("-e", "--expression", metavar="SPARQL", help="run this query text")
    parser.add_argument(
        "-p",
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a parameter of the query (repeat for several)",
    )
    parser.add_argument(
        "--format",
        metavar="F",
        help=f"one of {names(FORMATS)}, as fits the query (default: table, or turtle for "
        "CONSTRUCT and DESCRIBE)",
    )
    parser.add_argument(
        "--wide", action="store_true", help="never cut a value in the table to fit the terminal"
    )
    add_build_arguments(parser, words=None)
    add_store_arguments(parser)
    parser.set_defaults(run=run_query_command)


# -- benchgraph queries ------------------------------------------------------------------------


def run_queries(args: argparse.Namespace) -> int:
    if args.name is not None:
        query = _named(args.name)
        print(_describe(query) + "\n\n" + query.text.rstrip())
        return EXIT_OK
    queries = load_named_queries()
    width = max((len(name) for name in queries), default=0)
    for name, query in queries.items():
        print(f"{name.ljust(width)}  {query.title}")
        for parameter in query.parameters:
            print(f"{'':{width}}    {_parameter_line(parameter)}")
    return EXIT_OK


def _describe(query: NamedQuery) -> str:
    lines = [f"{query.name}: {query.title}"]
    if query.description:
        lines.append(query.description)
    for parameter in query.parameters:
        lines.append(f"  {_parameter_line(parameter)}")
    if not query.parameters:
        lines.append("  (no parameters)")
    return "\n".join(lines)


def _parameter_line(parameter: Parameter) -> str:
    """``benchmark (id, required) — ...`` or ``level (iri, default bench:Gated) — ...``."""
    default = "required" if parameter.default is None else f"default {parameter.default}"
    return f"{parameter.name} ({parameter.type}, {default}) — {parameter.description}"


# -- benchgraph query --------------------------------------------------------------------------


def run_query_command(args: argparse.Namespace) -> int:
    """Everything the user can get wrong is found before the graph is built or opened."""
    settings = settings_from(args)
    query, paths = _query_and_paths(args, settings.max_query_bytes)
    values = _parameter_values(args.param)
    form = admit(query.text, query.source, settings.max_query_bytes).form
    bindings = bind_parameters(query, values, settings.base)
    fmt = format_for_query(args.format, form)
    with opened_store(args, settings, paths) as (store, built):
        if built is not None and (built.report.rejected or built.report.warnings):
            report_load(args, built)
        result = store.query(query.text, bindings=bindings, limits=limits_from(settings))
        unjudged = count_unjudged(query, values, store, limits_from(settings))
    width = None if args.wide else shutil.get_terminal_size().columns
    with output_to(STDOUT):
        sys.stdout.buffer.write(serialize_result(result, fmt, base=settings.base, width=width))
        sys.stdout.flush()
    if result.truncated:
        unit = "triples" if result.is_graph else "rows"
        print(f"benchgraph query: cut at the row limit of {settings.row_limit:,} {unit}; "
              "--row-limit 0 for all", file=sys.stderr)
    if unjudged is not None:
        print(f"benchgraph query: not judged: {unjudged}", file=sys.stderr)
    return load_exit_code(built)


def _query_and_paths(args: argparse.Namespace, max_bytes: int) -> tuple[NamedQuery, list[str]]:
    """The query, and the words that are PATHs: all of them with -e, else all but the first
    (a FILE.rq is read up to ``max_bytes``: ``_query_file``)."""
    words: list[str] = list(args.words)
    if args.expression is not None:
        for word in words:
            _refuse_a_query_beside_e(word)
        return ad_hoc_query(args.expression), words
    if not words:
        raise BenchgraphError(
            "give a query: a NAME (see `benchgraph queries`), a FILE.rq, or -e 'SPARQL'"
        )
    target, rest = words[0], words[1:]
    if target.endswith(".rq") or "/" in target:
        return _query_file(Path(target), max_bytes), rest
    return _named(target), rest


def _query_file(path: Path, max_bytes: int) -> NamedQuery:
    """The query in the file ``path``, read as given (a link is followed), or a
    ``QueryFileError`` in one line: only a regular file is read, and no more than
    ``max_bytes`` (``max_query_bytes``) of it (``graph.regular_file``)."""
    try:
        data = read_regular(path, max_bytes)
    except NotRegular as other:
        raise QueryFileError(str(path), f"{other.kind}, not a file: give a query file") from None
    except TooLarge:
        raise QueryFileError(str(path), f"more than max_query_bytes = {max_bytes:,} bytes "
                             "(read no further)") from None
    except OSError as error:
        raise QueryFileError(str(path), f"cannot read: {error.strerror or error}") from None
    try:  # as a text file is read: universal newlines, as ``Path.read_text`` reads the others
        text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()
    except UnicodeDecodeError:
        raise QueryFileError(str(path), "not UTF-8 text") from None
    return parse_named_query(text, path.stem, str(path))


def _refuse_a_query_beside_e(word: str) -> None:
    """With -e every word is a PATH: a word that names no file or folder but reads as a query
    NAME or a FILE.rq is refused here, saying why, rather than reported as a missing PATH."""
    if Path(word).exists():
        return
    if word.endswith(".rq"):
        raise BenchgraphError(f"-e gives the query, so {word!r} would be a PATH, and there is no "
                              "such file: give either -e SPARQL or a FILE.rq, not both")
    if QUERY_NAME.fullmatch(word):
        named = find_named_query(word) is not None
        what = "is a named query" if named else "is no file or folder"
        raise BenchgraphError(f"-e gives the query, so every word is a PATH, and {word!r} {what}: "
                              "give either a query NAME or -e SPARQL, not both")


def _named(name: str) -> NamedQuery:
    query = find_named_query(name)
    if query is not None:
        return query
    known = list(load_named_queries())
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise BenchgraphError(f"unknown query {name!r}{hint} (`benchgraph queries` lists them)",
                          ErrorKind.NOT_FOUND)


def _parameter_values(pairs: list[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise BenchgraphError(f"--param {pair!r}: write NAME=VALUE")
        if name in values:
            raise BenchgraphError(f"--param {name} given twice")
        values[name] = value
    return values
