"""The served graph: one ``Store`` protocol (``graph.store.base``) and its kinds
(``graph.store.kinds``: ``open_store``), and what a build made besides the graph, one object
for every kind (``graph.store.artefacts``). ``graph.store.disk`` builds and reads store
folders, whose Oxigraph data and search index one process writes (``graph.store.writing``);
the query runtime (``graph.store.process``) runs each query in a process its time limit can
stop. (Nothing is imported here, so that a query process loads only what it needs.)
"""
