"""``benchgraph stats``: how many of each thing the graph holds.

The counts of benchmarks by what they state (suite, access level, harness, year ...) are the
benchmark list's facets, read from the build's search index, the same counts ``/benchmarks``
shows, each with its "not stated" bucket (DESIGN.md, "Stated facts")."""

import argparse
import json
import sys
from typing import Any

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
from graph.search.facets import FACETS
from graph.search.results import BrowseRequest, FacetCounts

TABLE_VALUES = 10
"""Values a table shows of one facet, the most frequent; the JSON has them all."""


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "stats",
        help="count statements, nodes per class, and benchmarks per facet (suite, access "
        "level, harness, year ...)",
        description="Count what the graph holds (a memory store built from record files, "
        "default the bundled catalog, or a store built once: --store oxigraph:DIR): its "
        "triples (what `benchgraph build` writes as Turtle) by where they come from, the "
        "nodes of each class in the data outside the ontology, and the benchmarks per value "
        "of each facet of the benchmark list (suite, access level, harness, year, venue ...), "
        "with how many state no value of it.",
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
        listed = store.artefacts().browse(BrowseRequest(
            limit=1, expanded=frozenset(facet.name for facet in FACETS)))
    per_class = {curie(iri, settings.base): n for iri, n in stats.per_class.items()}
    with output_to(STDOUT):
        if args.format == "json":
            counts = stats.statements
            triples = {"total": counts.total, "records": counts.records,
                       "build graph": counts.build, "ontology": counts.ontology}
            print(json.dumps({"triples": triples, "per class": per_class,
                              "benchmarks": listed.total,
                              "benchmarks per facet": {facet.name: _facet_json(facet)
                                                       for facet in listed.facets}}, indent=2))
        else:
            print(statements_line(stats.statements))
            print("\nper class")
            _print_table(per_class)
            print(f"\nbenchmarks per facet value, of {listed.total:,}")
            for facet in listed.facets:
                print(f"  {facet.title}")
                _print_table(_facet_table(facet), indent="    ")
        sys.stdout.flush()
    if built is not None:
        report_load(args, built)
    return load_exit_code(built)


def _facet_json(facet: FacetCounts) -> dict[str, Any]:
    """A facet's counts for tools: each value's key (what ``/benchmarks?NAME=KEY`` takes), its
    label and its benchmarks, most first; then the benchmarks that state none."""
    return {"title": facet.title,
            "values": [{"key": count.value.key, "label": count.value.label,
                        "benchmarks": count.count} for count in facet.values],
            "not stated": facet.not_stated.count}


def _facet_table(facet: FacetCounts) -> dict[str, int | None]:
    """A facet's rows for people: its most frequent values by label, how many more values
    there are (their benchmarks may overlap, so they are not summed), and the benchmarks that
    state none."""
    rows: dict[str, int | None] = {
        _cut(count.value.label): count.count for count in facet.values[:TABLE_VALUES]}
    if (more := len(facet.values) - TABLE_VALUES) > 0:
        rows[f"… {more:,} more values (--format json lists them)"] = None
    rows["not stated"] = facet.not_stated.count
    return rows


def _cut(label: str, most: int = 60) -> str:
    return label if len(label) <= most else label[:most - 1] + "…"


def _print_table(rows: dict[str, int] | dict[str, int | None], indent: str = "  ") -> None:
    width = max((len(name) for name, count in rows.items() if count is not None), default=0)
    for name, count in rows.items():
        print(f"{indent}{name:<{width}}  {count:>7,}" if count is not None else f"{indent}{name}")
