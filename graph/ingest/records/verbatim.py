"""Field-level defects: a value of the right JSON type that breaks its field's lexical rule.

Such a value does not cost the record (DESIGN.md, "Defects"): its field's validator returns
it as a ``Verbatim``, the text exactly as written with the reason it failed, instead of
raising. The mapping states a ``Verbatim`` as a plain string (never as a typed literal or a
link), the importer reports each one as a warning (``RecordModel.field_defects``), and a
recommended-level shape flags it in the graph.

Finding them costs a walk over the whole record, so the validators tell whoever validates
that there is something to find: a ``Verbatim`` made through ``keep`` is noted in the
validation context (``new_context``), and the importer walks only a record that has one.

A wrong JSON *type* (a number where text belongs) is still an error that rejects the file.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import GetCoreSchemaHandler, ValidationInfo
from pydantic_core import PydanticKnownError, core_schema

_NOTED = "verbatim values"


class Verbatim(str):
    """A field's value kept as written because it breaks the field's rule.

    A ``str`` (so a name kept verbatim flows wherever a name goes), which the mapping tells
    apart by its class: ``isinstance(value, Verbatim)``."""

    reason: str
    """Why the value breaks its rule, in words that do not change with the value."""

    def __new__(cls, text: str, reason: str) -> "Verbatim":
        kept = super().__new__(cls, text)
        kept.reason = reason
        return kept

    def __repr__(self) -> str:
        return f"Verbatim({str(self)!r}, {self.reason!r})"


def new_context() -> dict[str, Any]:
    """A validation context (``model_validate(data, context=...)``) that notes each value
    kept as written."""
    return {_NOTED: []}


def kept_any(context: dict[str, Any]) -> bool:
    """Whether a validation run with ``context`` kept any value as written."""
    return bool(context[_NOTED])


def keep(text: str, reason: str, info: ValidationInfo) -> Verbatim:
    """``text`` kept as written, noted in the validation context when there is one."""
    kept = Verbatim(text, reason)
    context = info.context
    if isinstance(context, dict) and _NOTED in context:
        context[_NOTED].append(kept)
    return kept


@dataclass(frozen=True)
class Lexical:
    """``Annotated`` metadata: the field is validated by ``check`` alone (one Python call).

    ``check(value, info)`` takes the JSON value and returns the field's value, a
    ``Verbatim`` (made by ``keep``) for a value of the right type that breaks the rule, or
    raises ``PydanticKnownError`` for a wrong type (so the rejection reads as pydantic's
    own: "must be text, not the number 5")."""

    check: Callable[[Any, ValidationInfo], Any]

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.with_info_plain_validator_function(self.check)


def not_text() -> PydanticKnownError:
    """The error of a value that is not a JSON string where text belongs."""
    return PydanticKnownError("string_type")
