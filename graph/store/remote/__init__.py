"""The ``sparql:URL`` store: a remote SPARQL 1.1 engine that ``benchgraph push`` loaded,
read and written by the standards alone (the SPARQL 1.1 Protocol, the Graph Store HTTP
Protocol), so that Oxigraph's server, Virtuoso, Fuseki and the rest work unchanged.

- ``client``: HTTP to the engine, with credentials from the settings, timeouts and retries;
- ``engine``: one engine, queries in and results out, graphs put and deleted;
- ``layout``: which graphs a push writes there (the data graphs, their merge, the manifest);
- ``manifest``: reaching an engine from the settings and reading what the last push left;
- ``push``: ``benchgraph push``, only the graphs whose content changed, resumable;
- ``store``: ``RemoteStore``, pages, named queries and ``/sparql`` answered from the engine.
"""
