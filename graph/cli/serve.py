"""``benchgraph serve``: the web app over a store, served by gunicorn.

    benchgraph serve [PATH ...] [--store S] [--host 127.0.0.1] [--port 5000] [--workers N]

With no PATH and no ``--store``, the bundled catalog is built into a memory store. The
address is printed once the server listens; Ctrl-C stops it and removes what the store made
for itself.
"""

import argparse
import sys

from graph.cli.common import (
    EXIT_OK,
    add_build_arguments,
    add_store_arguments,
    build_from,
    report_load,
    settings_from,
)
from graph.store.kinds import StoreSpec, open_store


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the graph: SPARQL endpoint, query editor, named queries",
        description="Serve the graph over HTTP with gunicorn: a SPARQL 1.1 endpoint at /sparql "
        "(read-only), the query editor, and the named queries at /queries. With no PATH and "
        "no --store, the bundled catalog is served.",
    )
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to listen on (default 5000; 0: any free)")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="web server processes (default 2)")
    parser.add_argument("--access-log", action="store_true",
                        help="log every request on stderr")
    add_build_arguments(parser)
    add_store_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from web import create_app
    from web.server import ServerOptions, print_address, serve

    settings = settings_from(args)
    spec = StoreSpec.parse(settings.store)
    built = None
    if spec.kind == "memory":
        built = build_from(args, settings)
        report_load(args, built)
    store = open_store(spec, settings, args.paths, processes=settings.threads, built=built,
                       validate=True)
    try:
        options = ServerOptions(settings.host, settings.port, settings.workers, settings.threads,
                                access_log=args.access_log)
        serve(create_app(settings, store), options, print_address(sys.stderr), store.prepare)
    finally:
        store.close()
    return EXIT_OK
