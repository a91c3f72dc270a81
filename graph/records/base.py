"""What every record model shares: strict types, and unknown keys kept for reporting."""

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict


class RecordModel(BaseModel):
    """Strict, immutable; a key no model declares is kept in ``model_extra``, never dropped."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True)

    def unknown_keys(self, prefix: str = "") -> Iterator[tuple[str, Any]]:
        """Every key, at any depth, that no model declares: (dotted path, value)."""
        for key, value in (self.model_extra or {}).items():
            yield f"{prefix}{key}", value
        for name, value in self:
            yield from _unknown_in(value, f"{prefix}{name}")


def _unknown_in(value: object, path: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, RecordModel):
        yield from value.unknown_keys(f"{path}.")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _unknown_in(item, f"{path}[{index}]")
