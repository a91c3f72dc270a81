"""benchgraph's performance suite and its synthetic catalog generator.

``python -m perf.generate_catalog N OUT_DIR`` writes a synthetic catalog;
``python -m perf.run build|all`` measures benchgraph against pyoxigraph on it.
"""
