"""Field types shared by the record models: each validates one kind of value.

A JSON ``null`` or an empty string means "unknown": optional text, URL, identifier and
date fields turn both into ``None`` so that they add no triple.

The lexical fields (URLs, arXiv ids, DOIs, dates, names) are validated by one function
each (``Lexical``): a value of the right JSON type that breaks the field's rule comes back
as a ``Verbatim`` (kept as written, reported as a warning; see ``graph.ingest.records.verbatim``),
a value of the wrong type is an error that rejects the file. Identifiers in another form
that can only mean one thing are normalised (``graph.ingest.records.identifiers``).
"""

import re
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, ValidationInfo
from pydantic_core import PydanticKnownError

from graph.ingest.records.identifiers import arxiv_id, doi
from graph.ingest.records.verbatim import Lexical, Verbatim, keep, not_text

BENCHMARK_ID = re.compile(r"[a-z0-9_]+")
# http:// or https:// (any case), a host part, then anything but white space.
HTTP_URL = re.compile(r"(?i:https?)://[^\s/?#]+[^\s]*")
PARTIAL_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")

# Why a value is kept as written: the same words whatever the value, so that a load report
# can group the same defect over many files.
NOT_A_URL = "not an http(s) URL; kept as written, as text"
NOT_AN_ARXIV_ID = "not an arXiv id (like 2211.08584 or hep-th/9901001); kept as written, as text"
NOT_A_DOI = "not a DOI (like 10.18653/v1/2023.acl-short.41); kept as written, as text"
NOT_A_PARTIAL_DATE = (
    "not a year, year-month or date (YYYY, YYYY-MM or YYYY-MM-DD); kept as written, as text"
)
NOT_A_DATE = "not a date (YYYY-MM-DD); kept as written, as text"
NOT_A_DATE_TIME = "not a date and time (ISO 8601); kept as written, as text"
EMPTY_NAME = "the name is empty or only white space; kept as written"


def _blank_to_none(value: Any) -> Any:
    return None if value == "" else value


def _check_benchmark_id(value: str) -> str:
    if not value:
        raise ValueError("is empty: a benchmark id is required (a-z, 0-9 and _)")
    if not BENCHMARK_ID.fullmatch(value):
        raise ValueError(f"{value!r} is not a benchmark id: use only a-z, 0-9 and _")
    return value


def _optional_text(
    read: Callable[[str], str | None], reason: str
) -> Callable[[Any, ValidationInfo], str | None]:
    """The check of an optional text field with a rule: ``""`` and ``null`` are unknown;
    ``read`` gives the value in its one form, or None when the text breaks the rule (then
    kept as written, for ``reason``)."""

    def check(value: Any, info: ValidationInfo) -> str | None:
        if isinstance(value, str):
            if not value:
                return None
            found = read(value)
            return keep(value, reason, info) if found is None else found
        if value is None:
            return None
        raise not_text()

    return check


def _read_url(text: str) -> str | None:
    if HTTP_URL.fullmatch(text):
        return text
    stripped = text.strip()  # white space around an address is no part of it
    return stripped if HTTP_URL.fullmatch(stripped) else None


def _read_partial_date(text: str) -> str | None:
    if not PARTIAL_DATE.fullmatch(text):
        return None
    try:  # a real year, month and day: 2023-13 is not one
        date.fromisoformat((text + "-01-01")[:10])
    except ValueError:
        return None
    return text


def _date(value: Any, info: ValidationInfo) -> date | Verbatim | None:
    if isinstance(value, str):
        if len(value) == 10 and value[4] == value[7] == "-":
            try:
                return date.fromisoformat(value)
            except ValueError:
                pass
        return None if not value else keep(value, NOT_A_DATE, info)
    if value is None or type(value) is date:
        return value
    raise PydanticKnownError("date_type")


def _datetime(value: Any, info: ValidationInfo) -> datetime | Verbatim | None:
    if isinstance(value, str):
        if value:
            try:
                return datetime.fromisoformat(value)
            except ValueError:
                return keep(value, NOT_A_DATE_TIME, info)
        return None
    if value is None or isinstance(value, datetime):
        return value
    raise PydanticKnownError("datetime_type")


def _name(value: Any, info: ValidationInfo) -> str:
    if isinstance(value, str):
        return value if value and not value.isspace() else keep(value, EMPTY_NAME, info)
    raise not_text()


def _names(values: list[str], info: ValidationInfo) -> list[str]:
    # A list of names is checked whole, at C speed, and copied only when one is blank.
    if "" not in values and not any(map(str.isspace, values)):
        return values
    return [_name(value, info) for value in values]


def _to_decimal(value: Any) -> Any:
    # bool is an int in Python: a JSON true is not a number.
    if isinstance(value, int) and not isinstance(value, bool):
        return Decimal(value)
    if isinstance(value, float):  # only when a caller parsed JSON without Decimal floats
        return Decimal(repr(value))
    return value


Text = Annotated[str | None, BeforeValidator(_blank_to_none)]
BenchmarkId = Annotated[str, AfterValidator(_check_benchmark_id)]
OptionalBenchmarkId = Annotated[BenchmarkId | None, BeforeValidator(_blank_to_none)]
Number = Annotated[Decimal, BeforeValidator(_to_decimal)]
OptionalNumber = Annotated[Decimal | None, BeforeValidator(_to_decimal)]

# The lexical fields. Those typed ``str`` may hold a ``Verbatim`` (a ``str``) too.
Url = Annotated[str | None, Lexical(_optional_text(_read_url, NOT_A_URL))]
ArxivId = Annotated[str | None, Lexical(_optional_text(arxiv_id, NOT_AN_ARXIV_ID))]
Doi = Annotated[str | None, Lexical(_optional_text(doi, NOT_A_DOI))]
PartialDate = Annotated[str | None, Lexical(_optional_text(_read_partial_date, NOT_A_PARTIAL_DATE))]
IsoDate = Annotated[date | Verbatim | None, Lexical(_date)]
IsoDateTime = Annotated[datetime | Verbatim | None, Lexical(_datetime)]
Name = Annotated[str, Lexical(_name)]
"""A name: an empty or blank one is kept (as a ``Verbatim``) and reported."""
Names = Annotated[list[str], AfterValidator(_names)]
"""A list of names, each a ``Name``."""
