"""What every record model shares: strict types, and unknown keys kept for reporting."""

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict


class RecordModel(BaseModel):
    """Strict, immutable; a key no model declares is kept in ``model_extra``, never dropped."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True)

    def unknown_keys(self, prefix: str = "") -> Iterator[tuple[str, Any]]:
        """Every key, at any depth, that no model declares: (dotted path, value)."""
        for key, value in (self.__pydantic_extra__ or {}).items():
            yield f"{prefix}{key}", value
        for name, value in self.__dict__.items():  # the declared fields, without copying
            if isinstance(value, RecordModel):
                yield from value.unknown_keys(f"{prefix}{name}.")
            elif isinstance(value, list) and value and isinstance(value[0], RecordModel):
                for index, item in enumerate(value):
                    yield from item.unknown_keys(f"{prefix}{name}[{index}].")
