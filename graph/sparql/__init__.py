"""SPARQL over the graph: named queries and their parameters (``named``, checked by
``checks``), compiling, binding and running a query read-only on rdflib (``engine``) or
pyoxigraph (``oxigraph``), and the result formats (``results``)."""
