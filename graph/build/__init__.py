"""The build: record files read and mapped into N-Quads (``graphs``), the build graph derived
from the record graphs in the store (``derived``), and the graph counted (``stats``)."""
