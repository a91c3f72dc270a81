"""Field types shared by the record models: each validates one kind of value.

A JSON ``null`` or an empty string means "unknown": optional text, URL and date
fields turn both into ``None`` so that they add no triple.
"""

import re
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator

BENCHMARK_ID = re.compile(r"[a-z0-9_]+")
# New-style arXiv ids (0704.0001, 2211.08584v2) and old-style (hep-th/9901001, math.GT/0309136).
ARXIV_ID = re.compile(r"(\d{4}\.\d{4,5}|[a-z][a-z-]*(\.[A-Z]{2})?/\d{7})(v\d+)?")
# http:// or https:// (any case), a host part, then anything but white space.
HTTP_URL = re.compile(r"(?i:https?)://[^\s/?#]+[^\s]*")
PARTIAL_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")


def _blank_to_none(value: Any) -> Any:
    return None if value == "" else value


def _check_benchmark_id(value: str) -> str:
    if not value:
        raise ValueError("is empty: a benchmark id is required (a-z, 0-9 and _)")
    if not BENCHMARK_ID.fullmatch(value):
        raise ValueError(f"{value!r} is not a benchmark id: use only a-z, 0-9 and _")
    return value


def _check_url(value: str) -> str:
    if not HTTP_URL.fullmatch(value):
        raise ValueError(f"{value!r} is not an http(s) URL")
    return value


def _check_arxiv(value: str) -> str:
    if not ARXIV_ID.fullmatch(value):
        raise ValueError(f"{value!r} is not an arXiv id (like 2211.08584 or hep-th/9901001)")
    return value


def _check_partial_date(value: str) -> str:
    if not PARTIAL_DATE.fullmatch(value):
        raise ValueError(f"{value!r} is not a year, year-month or date (YYYY, YYYY-MM, YYYY-MM-DD)")
    try:
        date.fromisoformat((value + "-01-01")[:10])
    except ValueError:
        raise ValueError(f"{value!r} is not a real year, month or day") from None
    return value


def _parse_date(value: Any) -> Any:
    if isinstance(value, str) and value:
        try:
            if len(value) == 10:
                return date.fromisoformat(value)
        except ValueError:
            pass
        raise ValueError(f"{value!r} is not a date (YYYY-MM-DD)")
    return _blank_to_none(value)


def _parse_datetime(value: Any) -> Any:
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a date and time (ISO 8601)") from None
    return _blank_to_none(value)


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
Url = Annotated[
    str | None,
    BeforeValidator(_blank_to_none),
    AfterValidator(lambda v: None if v is None else _check_url(v)),
]
ArxivId = Annotated[
    str | None,
    BeforeValidator(_blank_to_none),
    AfterValidator(lambda v: None if v is None else _check_arxiv(v)),
]
PartialDate = Annotated[
    str | None,
    BeforeValidator(_blank_to_none),
    AfterValidator(lambda v: None if v is None else _check_partial_date(v)),
]
IsoDate = Annotated[date | None, BeforeValidator(_parse_date)]
IsoDateTime = Annotated[datetime | None, BeforeValidator(_parse_datetime)]
Number = Annotated[Decimal, BeforeValidator(_to_decimal)]
OptionalNumber = Annotated[Decimal | None, BeforeValidator(_to_decimal)]
