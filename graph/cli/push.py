"""``benchgraph push``: build the graph from record files and load it into a remote engine.

    benchgraph push --store sparql:QUERY_URL --graph-store URL [--validate] [PATH ...]

``benchgraph build --store sparql:QUERY_URL`` does the same (``push_build``), validating
unless told ``--no-validate``, as it does for a store folder.

Credentials come from the environment only (``BENCHGRAPH_REMOTE_USER`` and
``BENCHGRAPH_REMOTE_PASSWORD``, or ``BENCHGRAPH_REMOTE_TOKEN``): never from this line.
"""

import argparse
import sys
import tempfile
from pathlib import Path

from graph.cli.common import (
    add_build_arguments,
    build_from,
    load_exit_code,
    report_changes,
    report_load,
    settings_from,
)
from graph.errors import BenchgraphError, ErrorKind
from graph.settings import Settings
from graph.store.kinds import StoreSpec, build_into
from graph.store.remote.manifest import engine_for
from graph.store.remote.push import PushOutcome, push

GRAPH_STORE_PATHS = ("Oxigraph: .../store, Fuseki: .../DATASET/data, Virtuoso: "
                     ".../sparql-graph-crud, GraphDB: .../repositories/ID/rdf-graphs/service")
"""Where the usual engines take the Graph Store Protocol."""
NO_GRAPH_STORE = ("the engine needs a Graph Store Protocol URL to load graphs into (a query "
                  "URL takes no PUT): give --graph-store URL or set BENCHGRAPH_GRAPH_STORE "
                  f"({GRAPH_STORE_PATHS})")
"""Said before any work: without one, a push would build the graph, then fail at its first PUT
to the query URL."""


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "push",
        help="build the graph and load it into a remote SPARQL engine",
        description="Read record files (default: the bundled catalog), map them to RDF and "
        "load every record's graph, the build graph and the ontology into a SPARQL 1.1 "
        "engine with the Graph Store HTTP Protocol (PUT of each whole graph), with what "
        "`serve --store sparql:URL` needs to serve it. Only graphs whose content changed "
        "since the last push are sent, a removed record's graph is deleted, and it says "
        "which records were added, changed and removed since the last push. Credentials: "
        "BENCHGRAPH_REMOTE_USER and BENCHGRAPH_REMOTE_PASSWORD, or BENCHGRAPH_REMOTE_TOKEN.",
    )
    add_build_arguments(parser)
    parser.add_argument("--store", metavar="sparql:URL", required=True,
                        help="the engine's SPARQL query URL (Oxigraph: .../query, Fuseki: "
                        ".../ds/sparql, Virtuoso: .../sparql)")
    add_graph_store_argument(parser)
    parser.add_argument("--validate", action="store_true",
                        help="validate the graph and keep the report in the engine too, for "
                        "the /validation page and the benchmark pages' findings")
    parser.set_defaults(run=run)


def add_graph_store_argument(parser: argparse.ArgumentParser) -> None:
    """``--graph-store URL``: where a push PUTs each graph."""
    parser.add_argument("--graph-store", metavar="URL",
                        help=f"with a sparql:URL store, its Graph Store Protocol URL, where "
                        f"each graph is PUT ({GRAPH_STORE_PATHS}); default "
                        "$BENCHGRAPH_GRAPH_STORE, and one of the two is needed")


def run(args: argparse.Namespace) -> int:
    settings = settings_from(args)
    spec = StoreSpec.parse(settings.store)
    if spec.kind != "sparql":
        raise BenchgraphError(f"--store {spec}: push loads a sparql:URL store (build writes "
                              "an oxigraph:DIR one)", ErrorKind.USAGE)
    return push_build(args, spec, settings, validate=args.validate)


def push_build(args: argparse.Namespace, spec: StoreSpec, settings: Settings, *,
               validate: bool) -> int:
    """Build the records ``args`` names and push the build into the engine ``spec`` names
    (``benchgraph push``, and ``benchgraph build --store sparql:URL``); with ``validate``, its
    report too. The exit code of the load."""
    engine = engine_for(spec.location, settings)
    try:
        if not settings.graph_store:
            raise BenchgraphError(NO_GRAPH_STORE, ErrorKind.USAGE)
        # built into a local store first, which the push reads each graph from
        with tempfile.TemporaryDirectory(prefix="benchgraph-push-") as folder:
            result, built = build_into(Path(folder), build_from(args, settings), settings,
                                       validate=validate, served=False)
            outcome = push(engine, Path(folder) / built.generation, built)
    finally:
        engine.close()
    print(summary(outcome, spec.location), file=sys.stderr)
    report_changes(args, result, outcome.changes, "push")
    report_load(args, result)
    return load_exit_code(result)


def summary(outcome: PushOutcome, where: str) -> str:
    """One line: what was sent and removed, and what was already there."""
    sent = len(outcome.sent)
    if not sent and not outcome.deleted:
        return f"{where} holds this build already: nothing sent ({outcome.unchanged:,} graphs)"
    deleted = f", {len(outcome.deleted):,} removed" if outcome.deleted else ""
    return (f"pushed to {where}: {sent:,} graph{'s' if sent != 1 else ''} sent{deleted}, "
            f"{outcome.unchanged:,} unchanged")
