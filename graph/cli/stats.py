"""``benchgraph stats``: how many of each thing the graph holds."""

import argparse
import json
import sys

from rdflib import URIRef

from graph.build.stats import GraphStats
from graph.cli.common import (
    STDOUT,
    add_build_arguments,
    add_store_arguments,
    load_exit_code,
    opened_store,
    output_to,
    report_load,
    settings_from,
)
from graph.cli.report import statements_line
from graph.namespace import curie


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "stats",
        help="count statements, nodes per class, benchmarks per suite and access level, tasks "
        "per harness",
        description="Count what the graph holds (a memory store built from record files, "
        "default the bundled catalog, or a store built once: --store oxigraph:DIR): its "
        "triples (what `benchgraph build` writes as Turtle) by where they come from, then, in "
        "the data outside the ontology, nodes per class, benchmarks per suite and access "
        "level, and tasks per harness.",
    )
    add_build_arguments(parser)
    add_store_arguments(parser, limits=False)
    parser.add_argument(
        "--format", choices=("table", "json"), default="table", help="output format"
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    with opened_store(args, settings) as (store, built):
        stats = store.counts()
    sections = {title: {curie(iri, settings.base): n for iri, n in counts.items()}
                for title, counts in _sections(stats).items()}
    with output_to(STDOUT):
        if args.format == "json":
            counts = stats.statements
            triples = {"total": counts.total, "records": counts.records,
                       "build graph": counts.build, "ontology": counts.ontology}
            print(json.dumps({"triples": triples, **sections}, indent=2))
        else:
            print(statements_line(stats.statements))
            for title, named in sections.items():
                print(f"\n{title}")
                width = max((len(name) for name in named), default=0)
                for name, count in named.items():
                    print(f"  {name:<{width}}  {count:>7,}")
        sys.stdout.flush()
    if built is not None:
        report_load(args, built)
    return load_exit_code(built)


def _sections(stats: GraphStats) -> dict[str, dict[URIRef, int]]:
    return {
        "per class": stats.per_class,
        "benchmarks per suite": stats.per_suite,
        "benchmarks per access level": stats.per_access_level,
        "tasks per harness": stats.per_harness,
    }
