"""``benchgraph serve``: the web app over a store, served by waitress (``web.server``).

    benchgraph serve [PATH ...] [--store S] [--host 127.0.0.1] [--port 5000] [--access-log]
                     [--log-level info]

With no PATH and no ``--store``, the bundled catalog is built into a memory store. The
address is printed once the server listens; Ctrl-C (or SIGTERM) stops it, and the store is
closed: its query processes stopped, what it made for itself removed.

The server's log goes to stderr from the moment the store is open (``web.server.log_to``):
at ``--log-level info``, the default, a line for every query (``graph.store.query_log``); at
``warning``, only the queries a limit stopped and what went wrong. The other commands
configure no log: their stderr is their user's.
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
        description="Serve the graph over HTTP with waitress: a SPARQL 1.1 endpoint at /sparql "
        "(read-only), the query editor, and the named queries at /queries. With no PATH and "
        "no --store, the bundled catalog is served.",
    )
    parser.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", help="port to listen on (default 5000; 0: any free)")
    parser.add_argument("--access-log", action="store_true",
                        help="log every request on stderr")
    parser.add_argument("--log-level", metavar="LEVEL",
                        help="what the log on stderr shows: error, warning (queries stopped by "
                        "a limit), info (every query; the default) or debug")
    add_build_arguments(parser)
    add_store_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The port is taken first, before the store is built or opened: a port in use is one
    line and exit 2 before any work, any report or any log line (``web.server.listen``)."""
    from web import create_app
    from web.server import ServerOptions, listen, log_to, print_address, serve

    settings = settings_from(args)
    spec = StoreSpec.parse(settings.store)
    with listen(settings.host, settings.port) as listener:
        built = None
        if spec.kind == "memory":
            built = build_from(args, settings)
            report_load(args, built)
        store = open_store(spec, settings, args.paths, processes=settings.query_processes,
                           built=built, validate=True)
        try:
            options = ServerOptions(settings.host, settings.port, settings.threads,
                                    settings.max_request_bytes, settings.max_query_bytes,
                                    access_log=args.access_log)
            log_to(sys.stderr, settings.log_level, access_log=args.access_log)
            serve(create_app(settings, store), options, print_address(sys.stderr),
                  store.prepare, listener)
        finally:
            store.close()
    return EXIT_OK
