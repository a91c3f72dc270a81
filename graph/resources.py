"""Where the bundled data folders live: ``ontology/``, ``shapes/``, ``queries/``, ``catalog/``.

In a checkout (editable install or plain ``PYTHONPATH``) they sit beside the ``graph``
package; an installed wheel carries them as ``graph/_data/NAME`` (see pyproject.toml).
"""

from pathlib import Path
from typing import Literal

DataFolder = Literal["ontology", "shapes", "queries", "catalog"]

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: DataFolder) -> Path:
    """The folder of bundled data called ``name``, wherever this installation keeps it."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"benchgraph's bundled {name}/ folder is missing from this installation"
    )
