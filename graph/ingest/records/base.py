"""What every record model shares: strict types, unknown keys kept for reporting, and a
snapshot's sets of names kept sorted."""

from functools import cache
from typing import Annotated, Any, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict

from graph.ingest.records.verbatim import Verbatim


class SnapshotModel(BaseModel):
    """A harvested snapshot's model: strict, immutable, and no key it does not declare (a
    snapshot is written by ``benchgraph harvest``, so a key it does not know is a bug)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


def _sorted_unique(values: list[str]) -> list[str]:
    return sorted(set(values))


SortedNames = Annotated[list[str], AfterValidator(_sorted_unique)]
"""A set of names, kept sorted so that the snapshot does not depend on reading order."""


class RecordModel(BaseModel):
    """Strict, immutable; a key no model declares is kept in ``model_extra``, never dropped."""

    model_config = ConfigDict(strict=True, extra="allow", frozen=True)

    def unknown_keys(self, prefix: str = "") -> list[tuple[str, Any]]:
        """Every key, at any depth, that no model declares: (dotted path, value), in the
        order of the fields."""
        extra = self.__pydantic_extra__ or {}
        found = [(f"{prefix}{key}", value) for key, value in extra.items()]
        values = self.__dict__  # the declared fields, without copying
        for name in _nested_fields(type(self)):
            value = values[name]
            if isinstance(value, RecordModel):
                if _may_hold_unknown_keys(value):
                    found += value.unknown_keys(f"{prefix}{name}.")
            elif isinstance(value, list):
                for index, item in enumerate(value):
                    if isinstance(item, RecordModel) and _may_hold_unknown_keys(item):
                        found += item.unknown_keys(f"{prefix}{name}[{index}].")
        return found


    def field_defects(self, prefix: str = "") -> list[tuple[str, Verbatim]]:
        """Every value, at any depth, kept as written because it breaks its field's rule:
        (dotted path, the ``Verbatim``), in the order of the fields."""
        found: list[tuple[str, Verbatim]] = []
        for name, value in self.__dict__.items():
            kind = value.__class__
            if kind is Verbatim:
                found.append((f"{prefix}{name}", value))
            elif kind is list:
                for index, item in enumerate(value):
                    if item.__class__ is Verbatim:
                        found.append((f"{prefix}{name}[{index}]", item))
                    elif isinstance(item, RecordModel):
                        found += item.field_defects(f"{prefix}{name}[{index}].")
            elif isinstance(value, RecordModel):
                found += value.field_defects(f"{prefix}{name}.")
        return found


def _may_hold_unknown_keys(model: RecordModel) -> bool:
    """False for a model with no unknown key of its own and no field that holds a model:
    most of them, and they need no call."""
    return bool(model.__pydantic_extra__) or bool(_nested_fields(type(model)))


@cache
def _nested_fields(model: type[RecordModel]) -> tuple[str, ...]:
    """The fields of ``model`` that can hold a record model (alone, optional or in a list):
    the only ones ``unknown_keys`` looks into."""
    fields = model.model_fields.items()
    return tuple(name for name, info in fields if _mentions_model(info.annotation))


def _mentions_model(annotation: Any) -> bool:
    """Whether a field's type is a record model or is built from one (``X | None``,
    ``list[X]``, ``Annotated[X, ...]``)."""
    if isinstance(annotation, type) and issubclass(annotation, RecordModel):
        return True
    return any(_mentions_model(argument) for argument in get_args(annotation))
