"""The protocol every harness reader follows, and what a reading gives back.

One module per harness (``helm``, ``lm_eval``, ``inspect_evals``, ``opencompass``) holds a
reader; ``graph.ingest.harvest.READERS`` lists them. A reader is chosen by the package's name in
its METADATA, never by the file's name, and reads the archive into entries and warnings.
A member it cannot read (malformed YAML, not UTF-8, too large) is one warning naming the
member and the reason; every other member still loads.
"""

from dataclasses import dataclass, field
from typing import Any, Protocol

from graph.ingest.harvest.archive import Archive, MemberError
from graph.ingest.harvest.yaml_loader import YamlError, load_mapping
from graph.ingest.importers.base import Problem
from graph.ingest.records.harness_snapshot import Entry, Harness
from graph.ingest.records.stated_model import StatedModel


@dataclass
class Reading:
    """What a reader made of one archive: its entries, the models it describes, and the
    warnings on the way."""

    entries: list[Entry] = field(default_factory=list)
    models: list[StatedModel] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


class HarnessReader(Protocol):
    """Reads one harness's package into snapshot entries."""

    harness: Harness
    """The harness's catalog key."""
    distribution: str
    """The package's name on PyPI, normalised (``crfm-helm``)."""

    def read(self, archive: Archive) -> Reading:
        """Every benchmark-level entry the package states, and the warnings met."""
        ...


class MemberReader:
    """Reads members of one archive, turning each failure into a warning in ``problems``."""

    def __init__(self, archive: Archive, problems: list[Problem]) -> None:
        self.archive = archive
        self.problems = problems

    def warn(self, name: str, reason: str, field: str | None = None,
             value: str | None = None) -> None:
        self.problems.append(self.archive.problem(name, reason, field, value))

    def text(self, name: str) -> str | None:
        """The member's text, or ``None`` (and a warning) when it cannot be read."""
        try:
            return self.archive.read_text(name)
        except MemberError as error:
            self.warn(name, error.reason, value=error.detail)
            return None

    def mapping(self, name: str, keys: frozenset[str] | None = None) -> dict[str, Any] | None:
        """The member's YAML mapping (only its top-level ``keys``, when given), or ``None``
        and a warning when it cannot be read or is not a mapping."""
        text = self.text(name)
        if text is None:
            return None
        try:
            return load_mapping(text, keys)
        except YamlError as error:
            self.warn(name, error.reason, value=error.detail)
            return None


def text_field(data: dict[str, Any], key: str) -> str | None:
    """``data[key]`` when it is a non-blank string, stripped; ``None`` otherwise."""
    value = data.get(key)
    return value.strip() or None if isinstance(value, str) else None


def names_field(data: dict[str, Any], key: str) -> list[str]:
    """``data[key]`` as names: one string or a list of them (anything else left out)."""
    value = data.get(key)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [item.strip() for item in value if isinstance(item, str) and item.strip()]
