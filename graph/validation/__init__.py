"""Validation with the SHACL shapes in ``shapes/``: record by record, batched for pyshacl,
with the rules that span records checked once over the whole catalog.

The entry point is ``graph.validation.validate``; the parts are ``shapes`` (loading and compiling),
``batch`` (a batch of records through pyshacl), ``sparql`` (SPARQL-based constraints on
pyoxigraph), ``across`` (cross-record shapes), ``session`` (full and incremental runs)
and ``report`` (the typed report).
"""
