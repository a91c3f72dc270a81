"""Dates as people write them ("January 2019") -> ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``."""

import re
from datetime import date

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_ISO = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
_WORDS = re.compile(r"(?:(\d{1,2})\s+)?([A-Za-z]+)\.?\s+(?:(\d{1,2}),\s*)?(\d{4})")


def partial_date(text: str) -> str | None:
    """``2019``, ``2019-01``, ``January 2019``, ``12 Jan 2019`` or ``January 12, 2019`` as ISO
    ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``; None when the text is not such a date."""
    text = text.strip()
    iso = _ISO.fullmatch(text)
    if iso:
        year, month, day = iso.groups()
        return _checked(int(year), _int(month), _int(day))
    words = _WORDS.fullmatch(text)
    if words:
        day_before, month_name, day_after, year = words.groups()
        month = _MONTHS.get(month_name.lower())
        if month is not None:
            return _checked(int(year), month, _int(day_before or day_after))
    return None


def _int(digits: str | None) -> int | None:
    return int(digits) if digits else None


def _checked(year: int, month: int | None, day: int | None) -> str | None:
    try:
        date(year, month or 1, day or 1)
    except ValueError:
        return None
    if month is None:
        return f"{year:04d}"
    if day is None:
        return f"{year:04d}-{month:02d}"
    return f"{year:04d}-{month:02d}-{day:02d}"
