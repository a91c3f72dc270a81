"""``benchgraph stats``: how many of each thing the graph holds."""

import argparse
import json

from rdflib import URIRef

from graph.cli.common import (
    add_build_arguments,
    build_from,
    load_exit_code,
    report_load,
    settings_from,
)
from graph.cli.report import statements_line
from graph.namespace import curie
from graph.stats import GraphStats, graph_stats


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "stats",
        help="count statements, nodes per class, benchmarks per suite and access level, tasks "
        "per harness",
        description="Build the graph from record files (default: the bundled catalog) and count "
        "what it holds: its triples (what `benchgraph build` writes as Turtle) by where they "
        "come from, then, in the data outside the ontology, nodes per class, benchmarks per "
        "suite and access level, and tasks per harness.",
    )
    add_build_arguments(parser)
    parser.add_argument(
        "--format", choices=("table", "json"), default="table", help="output format"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    result = build_from(args, settings)
    stats = graph_stats(result.table, settings.base)
    sections = {title: {curie(iri, settings.base): n for iri, n in counts.items()}
                for title, counts in _sections(stats).items()}
    if args.format == "json":
        counts = stats.statements
        triples = {"total": counts.total, "records": counts.records, "build graph": counts.build,
                   "ontology": counts.ontology}
        print(json.dumps({"triples": triples, **sections}, indent=2))
    else:
        print(statements_line(stats.statements))
        for title, named in sections.items():
            print(f"\n{title}")
            width = max((len(name) for name in named), default=0)
            for name, count in named.items():
                print(f"  {name:<{width}}  {count:>7,}")
    report_load(args, result)
    return load_exit_code(result)


def _sections(stats: GraphStats) -> dict[str, dict[URIRef, int]]:
    return {
        "per class": stats.per_class,
        "benchmarks per suite": stats.per_suite,
        "benchmarks per access level": stats.per_access_level,
        "tasks per harness": stats.per_harness,
    }
