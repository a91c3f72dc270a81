"""The build: record files mapped into the dataset (``graphs``), made in a child
process for a store (``apart``), and counted (``stats``)."""
