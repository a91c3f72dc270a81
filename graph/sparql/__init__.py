"""SPARQL over the graph: named queries (``named``), their parameters (``parameters``) and
the binding rule they keep (``checks``); reading a request's text by its tokens to refuse what
a read-only graph never runs and to bind values (``query_text``); what can be wrong with a
query (``errors``); and the result formats (``results``). Queries run on the store
(``graph.store``)."""
