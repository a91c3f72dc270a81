"""Figures as a README or a leaderboard prints them: numbers, shares, pairs, errors, dates.

The readers of stated results keep a value as printed, so what they need of a cell is its
number's text, whether ``%`` follows it, and what stands beside it: a standard error
(``83.3%±3.8%``), an interval (``17.5 [12.0, 23.0]``), a word naming the metric (``60.0%
accuracy``), a second figure (``15.2/14.4``). Each form is written once here, so that the
readers agree on what a number is: the digits 0-9 with a point (``12``, ``-0.5``), and in
README tables with thousands separators too (``1,234.5``, kept as ``1234.5``).

Dates are read as the inspect_evals READMEs write them in a sentence or a Date cell
(an ISO date, "Month D, YYYY", "Month YYYY") to ``YYYY-MM-DD``, ``YYYY-MM`` or
``YYYY``, as precise as the text is.
"""

import re
from dataclasses import dataclass

DECIMAL = r"-?[0-9]+(?:\.[0-9]+)?"
"""A number in digits and a point."""
NUMBER = rf"-?[0-9]{{1,3}}(?:,[0-9]{{3}})+(?:\.[0-9]+)?|{DECIMAL}"
"""A number in a README table: digits with a point, thousands separators allowed."""

_DECIMAL = re.compile(DECIMAL)
_PLAIN = re.compile(rf"({DECIMAL})\s*(%?)")
_INTERVAL = rf"\[\s*(?P<low>{NUMBER})\s*,\s*(?P<high>{NUMBER})\s*\]"
_CELL = re.compile(
    rf"(?P<value>{NUMBER})\s*(?P<pct>%)?"
    rf"(?:\s*±\s*(?P<pm>{NUMBER})\s*(?P<pmpct>%)?)?"
    r"(?:\s*\((?P<paren>[^()]*)\))?"
    rf"(?:\s*{_INTERVAL})?"
    r"(?:\s+(?P<word>[A-Za-z][\w-]*))?"
)
_PAIR = re.compile(rf"(?P<a>{NUMBER})\s*(?P<apct>%)?\s*/\s*(?P<b>{NUMBER})\s*(?P<bpct>%)?")
_LONE = re.compile(rf"±?\s*(?P<value>{NUMBER})\s*(?P<pct>%)?")
_INTERVAL_CELL = re.compile(_INTERVAL)
_COUNT = re.compile(r"(?P<n>[0-9][0-9,]*)(?:\s*/\s*[0-9][0-9,]*)?")


def decimal(cell: str) -> bool:
    """Whether ``cell`` is a number in digits and a point, and nothing else."""
    return _DECIMAL.fullmatch(cell) is not None


def plain_number(cell: str) -> tuple[str, bool] | None:
    """A number in digits and a point, as printed, and whether ``%`` follows it (``68.5``,
    ``68.5 %``); ``None`` for any other cell."""
    found = _PLAIN.fullmatch(cell)
    return (found.group(1), found.group(2) == "%") if found else None


def bare(number: str) -> str:
    """A number without its thousands separators."""
    return number.replace(",", "")


@dataclass(frozen=True)
class Figure:
    """One figure of a cell, as printed."""

    value: str
    percent: bool
    stderr: str | None = None
    ci: tuple[str, str] | None = None
    word: str | None = None
    """A word after the figure that names its metric (``60.0% accuracy``)."""


def figure(cell: str, parenthesis: str | None) -> Figure | None:
    """The figure of a cell: ``0.766``, ``68.5%``, ``83.3%±3.8%``, ``17.5 [12.0, 23.0]``,
    ``60.0% accuracy``, ``0.60 (0.014)`` (a standard error where ``parenthesis`` says so; any
    other bracketed note, ``(+0.3%)``, ``(1/19)``, is not a figure); ``None`` otherwise."""
    found = _CELL.fullmatch(cell)
    if found is None:
        return None
    stderr = found["pm"]
    bracketed = _LONE.fullmatch(found["paren"] or "")
    if parenthesis == "stderr" and bracketed and stderr is None:
        stderr = bracketed["value"]
    return Figure(
        value=bare(found["value"]), percent=bool(found["pct"] or found["pmpct"]),
        stderr=bare(stderr) if stderr else None,
        ci=(bare(found["low"]), bare(found["high"])) if found["low"] else None,
        word=found["word"],
    )


def pair(cell: str) -> tuple[Figure, Figure] | None:
    """The two figures of a ``15.2/14.4`` or ``64 / 29`` cell."""
    found = _PAIR.fullmatch(cell)
    if found is None:
        return None
    return (Figure(bare(found["a"]), bool(found["apct"])),
            Figure(bare(found["b"]), bool(found["bpct"])))


def lone(cell: str) -> tuple[str, bool] | None:
    """A standard error cell's figure (``0.03``, ``± 1.2%``) and whether it is printed with
    ``%``."""
    found = _LONE.fullmatch(cell)
    return (bare(found["value"]), bool(found["pct"])) if found else None


def interval(cell: str) -> tuple[str, str] | None:
    """The bounds of a ``[low, high]`` cell."""
    found = _INTERVAL_CELL.fullmatch(cell)
    return (bare(found["low"]), bare(found["high"])) if found else None


def count(cell: str) -> str | None:
    """The count of a cell that holds one (``1,000``), or one of a total (``276/300``)."""
    found = _COUNT.fullmatch(cell)
    return bare(found["n"]) if found else None


# -- dates -------------------------------------------------------------------------------

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_MONTH = "(?:" + "|".join(_MONTHS) + ")"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
DATE = (rf"\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH}\s+{_DAY},?\s+\d{{4}}"
        rf"|{_DAY}\s+(?:of\s+)?{_MONTH},?\s+\d{{4}}|{_MONTH}\s*[–-]\s*{_MONTH}\s+\d{{4}}"
        rf"|{_MONTH}\s+\d{{4}}")
"""A date as the READMEs write one, to be matched ignoring case."""


def parse_date(text: str) -> str | None:
    """``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY`` (a range of months) of a date as the READMEs
    write one: ``YYYY-MM-DD``, "Month D, YYYY", "Dth of Month YYYY", "Month YYYY",
    "Month–Month YYYY"; ``None`` for anything else."""
    text = text.strip().lower()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return text if 1 <= int(text[5:7]) <= 12 and 1 <= int(text[8:]) <= 31 else None
    months = [m for m in re.findall(r"[a-z]+", text) if m in _MONTHS]
    year = re.search(r"\d{4}", text)
    if year is None or not months:
        return None
    if len(months) > 1:
        return year.group(0)
    day = re.match(r"(\d{1,2})(?:st|nd|rd|th)?\b", text) or re.search(
        r"\b(\d{1,2})(?:st|nd|rd|th)?(?:,|\s)", text[text.index(months[0]):])
    month = f"{year.group(0)}-{_MONTHS.index(months[0]) + 1:02d}"
    if day is None:
        return month
    return f"{month}-{int(day.group(1)):02d}" if 1 <= int(day.group(1)) <= 31 else None
