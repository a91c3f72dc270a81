"""benchgraph: a knowledge graph of AI evaluation benchmarks.

The flow is one direction: ``importers`` read files into ``records`` (pydantic),
``mapping`` turns records into triples (one named graph per record), ``build``
assembles the dataset, and the CLI and web app only talk to the result.
"""

__version__ = "0.1.0"
