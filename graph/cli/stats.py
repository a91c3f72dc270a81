"""``benchgraph stats``: how many of each thing the graph holds."""

import argparse
import json

from rdflib import URIRef

from graph.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    add_base_argument,
    add_paths_argument,
    build_from,
    settings_from,
)
from graph.cli.report import print_load_report
from graph.namespace import curie
from graph.stats import GraphStats, graph_stats


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "stats",
        help="count nodes per class, benchmarks per suite and access level, tasks per harness",
        description="Build the graph from record files (default: the bundled catalog) and count "
        "what it holds.",
    )
    add_paths_argument(parser)
    parser.add_argument(
        "--format", choices=("table", "json"), default="table", help="output format"
    )
    add_base_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    result = build_from(args.paths, settings_from(args))
    stats = graph_stats(result.table)
    sections = _sections(stats)
    if args.format == "json":
        print(json.dumps({"triples": stats.triples, **sections}, indent=2))
    else:
        print(f"triples  {stats.triples}")
        for title, counts in sections.items():
            print(f"\n{title}")
            width = max((len(name) for name in counts), default=0)
            for name, count in counts.items():
                print(f"  {name:<{width}}  {count:>7}")
    print_load_report(result.report)
    return EXIT_USAGE if result.report.rejected else EXIT_OK


def _sections(stats: GraphStats) -> dict[str, dict[str, int]]:
    return {
        "per class": _named(stats.per_class),
        "benchmarks per suite": _named(stats.per_suite),
        "benchmarks per access level": _named(stats.per_access_level),
        "tasks per harness": _named(stats.per_harness),
    }


def _named(counts: dict[URIRef, int]) -> dict[str, int]:
    return {curie(iri): count for iri, count in counts.items()}
