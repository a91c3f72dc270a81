"""The served graph: one ``Store`` protocol (``graph.store.base``) and its kinds
(``graph.store.kinds``: ``open_store``). ``graph.store.disk`` builds and reads store folders;
``graph.store.process.pool`` and ``graph.store.process.executor`` run each query in a process its
time limit
can stop. (Nothing is imported here, so that a query process loads only what it needs.)
"""
