"""What comes into the build: record files read and checked (``loader``, ``importers``, the
record models in ``records``), and the harvest that writes the bundled catalog from the
harnesses' own sources (``harvest``)."""
