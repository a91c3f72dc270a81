"""Where the bundled data live: the folders ``ontology/``, ``shapes/``, ``queries/``,
``catalog/``, and the TOML rules shipped inside the packages (``graph/mapping/*.toml``,
``graph/ingest/harvest/*.toml``), each read as the pydantic model of its format.

In a checkout (editable install or plain ``PYTHONPATH``) the folders sit beside the ``graph``
package; an installed wheel carries them as ``graph/_data/NAME`` (see pyproject.toml).
"""

import tomllib
from importlib import resources
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel

DataFolder = Literal["ontology", "shapes", "queries", "catalog"]

_PACKAGE = Path(__file__).resolve().parent
Data = TypeVar("Data", bound=BaseModel)


def data_dir(name: DataFolder) -> Path:
    """The folder of bundled data called ``name``, wherever this installation keeps it."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"benchgraph's bundled {name}/ folder is missing from this installation"
    )


def read_toml(model: type[Data], text: str) -> Data:
    """A TOML text as ``model``; raises ``tomllib.TOMLDecodeError`` or pydantic's
    ``ValidationError`` for a text that breaks the format (in shipped data, a bug)."""
    return model.model_validate(tomllib.loads(text))


def bundled_toml(model: type[Data], package: str, name: str) -> Data:
    """The TOML file ``name`` shipped in ``package``, read as ``model``."""
    return read_toml(model, resources.files(package).joinpath(name).read_text("utf-8"))
