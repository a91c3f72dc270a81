"""The two seed records of the bundled catalog, without its harness snapshots.

The bundled catalog (``catalog/``) is the seeds plus ``catalog/harnesses/``, a thousand harness
registry entries. Most tests are about what the seeds say, and name them here; a test of the
whole catalog names ``data_dir("catalog")``.
"""

from pathlib import Path

from graph.resources import data_dir

SEED_PAGE = data_dir("catalog") / "000_501ccd0cd0e2608f.txt"
"""The catalog page record of ``mimic_rrs``."""
SEED_DIRECTORY = data_dir("catalog") / "002_e36a0be437d5fce5.txt"
"""The directory page of MIMIC-CXR (classification)."""
SEEDS: tuple[Path, ...] = (SEED_PAGE, SEED_DIRECTORY)
