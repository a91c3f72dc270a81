"""``benchgraph queries`` lists the named queries; ``benchgraph query`` runs one, or any query.

    benchgraph queries [NAME]
    benchgraph query (NAME | FILE.rq | -e SPARQL) [PATH ...] [--param NAME=VALUE ...]
                     [--format table|csv|tsv|json|xml|ttl|jsonld|nt] [--base IRI]

Everything the user can get wrong (an unknown query, a syntax error, SPARQL Update, a
missing, unknown or ill-typed parameter, a format that does not fit the query) is found
before the graph is built and is one line on stderr, exit 2.
"""

import argparse
import difflib
import sys
from pathlib import Path

from graph.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    add_base_argument,
    build_from,
    settings_from,
)
from graph.cli.report import print_load_report
from graph.export import to_dataset
from graph.settings import Settings
from graph.sparql.engine import (
    Bindings,
    CompiledQuery,
    QueryError,
    ad_hoc_query,
    bind_parameters,
    compile_query,
    run_query,
)
from graph.sparql.named import (
    NamedQuery,
    Parameter,
    QueryFileError,
    find_named_query,
    load_named_queries,
    load_query_file,
)
from graph.sparql.results import FORMAT_NAMES, FormatError, render, result_format

_GRAPH_FORMS = ("CONSTRUCT", "DESCRIBE")


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
        "[--format F] [--base IRI]",
        description="Build the graph from record files (default: the bundled catalog) and run a "
        "query on it. SELECT and ASK results print as a table by default; CONSTRUCT and "
        "DESCRIBE results as Turtle. The graph is read-only: SPARQL Update is refused.",
    )
    parser.add_argument(
        "words",
        nargs="*",
        metavar="NAME|FILE.rq PATH",
        help="the named query or .rq file (not with -e), then record files or folders",
    )
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
        choices=FORMAT_NAMES,
        metavar="F",
        help=f"one of {', '.join(FORMAT_NAMES)} (default: table, or ttl for "
        "CONSTRUCT and DESCRIBE)",
    )
    add_base_argument(parser)
    parser.set_defaults(run=run_query_command)


# -- benchgraph queries ------------------------------------------------------------------------


def run_queries(args: argparse.Namespace) -> int:
    try:
        if args.name is not None:
            query = _named(args.name)
            print(_describe(query) + "\n\n" + query.text.rstrip())
            return EXIT_OK
        queries = load_named_queries()
    except QueryFileError as error:
        raise CliError(str(error)) from None
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
    query, paths = _query_and_paths(args)
    values = _parameter_values(args.param)
    settings = settings_from(args)
    try:
        compiled = compile_query(query, base=settings.base)
        bindings = bind_parameters(query, values, settings.base)
    except QueryError as error:
        raise CliError(str(error)) from None
    fmt = args.format or ("ttl" if compiled.form in _GRAPH_FORMS else "table")
    if result_format(fmt).for_graphs != (compiled.form in _GRAPH_FORMS):
        suited = [
            f
            for f in FORMAT_NAMES
            if result_format(f).for_graphs == (compiled.form in _GRAPH_FORMS)
        ]
        raise CliError(
            f"--format {fmt} does not fit a {compiled.form} query (use {', '.join(suited)})"
        )
    return _run(compiled, bindings, paths, fmt, settings)


def _run(
    compiled: CompiledQuery, bindings: Bindings, paths: list[Path], fmt: str, settings: Settings
) -> int:
    built = build_from(paths, settings)
    report = built.report
    if report.rejected or report.warnings:
        print_load_report(report)
    try:
        result = run_query(compiled, to_dataset(built.quads), bindings)
        output = render(result, fmt)
    except (QueryError, FormatError) as error:
        raise CliError(str(error)) from None
    sys.stdout.buffer.write(output)
    sys.stdout.flush()
    return EXIT_USAGE if report.rejected else EXIT_OK


def _query_and_paths(args: argparse.Namespace) -> tuple[NamedQuery, list[Path]]:
    words: list[str] = list(args.words)
    try:
        if args.expression is not None:
            return ad_hoc_query(args.expression), [Path(word) for word in words]
        if not words:
            raise CliError(
                "give a query: a NAME (see `benchgraph queries`), a FILE.rq, or -e 'SPARQL'"
            )
        target, rest = words[0], [Path(word) for word in words[1:]]
        if target.endswith(".rq") or "/" in target:
            return load_query_file(Path(target)), rest
        return _named(target), rest
    except QueryFileError as error:
        raise CliError(str(error)) from None


def _named(name: str) -> NamedQuery:
    query = find_named_query(name)
    if query is not None:
        return query
    known = list(load_named_queries())
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise CliError(f"unknown query {name!r}{hint} (`benchgraph queries` lists them)")


def _parameter_values(pairs: list[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise CliError(f"--param {pair!r}: write NAME=VALUE")
        if name in values:
            raise CliError(f"--param {name} given twice")
        values[name] = value
    return values
