"""Mapping: records -> RDF statements, one named graph per record. The only place triples
are made; it knows nothing of file formats. ``record.map_record`` maps one record, by its
kind; the other modules are the kinds and what they share.

This package's ``__init__`` imports nothing: ``graph.build.stats`` and the store need only
``iris`` (the IRI rules), and a command that opens a store without building
(``query --store``) should not import the record models with them.
"""
