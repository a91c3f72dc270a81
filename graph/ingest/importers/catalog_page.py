"""The catalog page importer: a benchmark page exported by the catalog as one JSON object.

Chosen by content: a file whose text starts with ``{`` or ``[`` (the seed is JSON in a
``.txt`` file). The JSON is parsed strictly (``strict_json``), then validated by the
strict pydantic model ``CatalogPage``. What is wrong with a file is one of two things
(DESIGN.md, "Defects"):

- a validation failure (a value of the wrong JSON type, a missing or invalid id) rejects
  the file, with one line naming the field in dotted form (``page.paper.year: must be a
  whole number, not the text '2023'``);
- a field-level defect (a value of the right type that breaks its field's rule: a date
  like ``c. 2018``, an ``ftp:`` URL, an empty name, the page's own id among its variants)
  keeps the record: the value stays as written (``graph.ingest.records.verbatim``) and is a
  warning naming the field, with the value in ``Problem.value``.

A key the model does not declare is kept and reported as a warning too.
"""

import re
from decimal import Decimal
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from graph.ingest.importers.base import Imported, Problem, RecordRejected, SourceFile
from graph.ingest.importers.strict_json import format_path, parse_json
from graph.ingest.records import CatalogPage
from graph.ingest.records.verbatim import kept_any, new_context
from graph.settings import Settings

_JSON_SCALAR = re.compile(
    r'-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null|"(?:[^"\\\n]|\\.)*"'
)


class CatalogPageImporter:
    """Reads catalog page records (JSON objects)."""

    name = "catalog-page"

    def can_read(self, source: SourceFile) -> bool:
        """JSON: text opening with ``{`` or ``[``, or nothing but one JSON scalar (``42``).

        The scalar case claims a file that is JSON but not a record, so that it is rejected
        as such ("must be a JSON object") rather than read as a one-line directory page.
        """
        text = source.text.strip()
        return text[:1] in ("{", "[") or _JSON_SCALAR.fullmatch(text) is not None

    def load(self, source: SourceFile, settings: Settings) -> Imported:
        value = parse_json(source.text, settings)
        if not isinstance(value, dict):
            raise RecordRejected(f"the record must be a JSON object, not {_kind(value)}")
        context = new_context()
        try:
            record = CatalogPage.model_validate(value, context=context)
        except ValidationError as error:
            raise rejection(error) from None
        defects = record.field_defects() if kept_any(context) else []
        warnings = [Problem(source.path, key, kept.reason, str(kept)) for key, kept in defects]
        warnings += [
            Problem(source.path, key, "unknown key, kept as data")
            for key, _value in record.unknown_keys()
        ]
        return Imported.one(record, warnings)


def rejection(error: ValidationError) -> RecordRejected:
    """One ``RecordRejected`` for a pydantic error: its first problem names the field, and each
    other problem follows in the reason with its own field (``…; also page.tags[0]: …``)."""
    details = error.errors()
    first = details[0]
    others = [f"{format_path(detail['loc'])}: {_reason(detail)}" for detail in details[1:]]
    reason = "; also ".join([_reason(first), *others])
    return RecordRejected(reason, field=format_path(first["loc"]))


def _reason(detail: ErrorDetails) -> str:
    kind = detail["type"]
    ctx = detail.get("ctx") or {}
    given = detail.get("input")
    if kind in ("value_error", "assertion_error") and "error" in ctx:
        return str(ctx["error"])
    if kind == "missing":
        return "is missing"
    if kind in _EXPECTED:
        return f"must be {_EXPECTED[kind]}, not {_kind(given)}"
    if kind == "is_instance_of" and ctx.get("class") == "Decimal":
        return f"must be a number, not {_kind(given)}"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"must be an object, not {_kind(given)}"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}, not {_kind(given)}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}, not {_kind(given)}"
    message = detail["msg"]
    return message[:1].lower() + message[1:]


_EXPECTED = {
    "string_type": "text",
    "int_type": "a whole number",
    "bool_type": "true or false",
    "list_type": "a list",
    "date_type": "a date (YYYY-MM-DD)",
    "datetime_type": "a date and time (ISO 8601)",
}


def _kind(value: Any) -> str:
    """How a JSON value reads in a message: its kind, and the value itself when short."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, (int, Decimal)):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text {shown!r}"
    return type(value).__name__  # not reached for JSON input
