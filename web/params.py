"""Reading a request's parameters: every one UTF-8 text, every number within its bounds.

werkzeug reads a query string leniently: a percent-escape that is not UTF-8 stays escaped in
the text (``?query=%FF`` reads as the three characters ``%FF``, and runs as such), while a
raw byte that is not UTF-8 makes ``request.args`` raise a ``UnicodeDecodeError`` (a 500).
So the app decides on the raw bytes, once, before any view reads a parameter
(``check_query_string``, a ``before_request`` hook): a name or a value that is not UTF-8
once percent-decoded is a 400 naming it. Past that check werkzeug's text is exactly the
decoded bytes. A form body is read by the same function (``form_pairs``), so a ``GET``, a
form ``POST`` and a ``POST`` of the query itself refuse the same bytes in the same words.

A number (a page, a page size) is ASCII digits within bounds that a view states; anything
else, a ``0``, a ``-1``, a ``²`` or five thousand digits, is a 400 naming the parameter, never
a page that quietly shows something else, and never a ``ValueError`` from ``int()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from urllib.parse import parse_qsl

from flask import Flask, request

from graph.errors import BenchgraphError, ErrorKind

MAX_PAGE = 1_000_000
"""The highest page number a paged list takes: past any catalog's last page, which a list
shows instead (``MAX_PAGE`` pages of 25 are 25 million rows)."""
_SHOWN = 40
"""Characters of a bad value a message quotes."""


def init_app(app: Flask) -> None:
    """Refuse, before any view runs, a request whose query string is not UTF-8."""
    app.before_request(check_query_string)


def check_query_string() -> None:
    """BenchgraphError (400) naming the first parameter of the URL that is not UTF-8."""
    form_pairs(request.query_string)


def form_pairs(raw: bytes) -> list[tuple[str, str]]:
    """The ``name=value`` pairs of ``raw`` (``application/x-www-form-urlencoded``), in order,
    as UTF-8 text; BenchgraphError (400) naming the first that is not UTF-8. The standard
    library splits and percent-decodes them (``parse_qsl``); told that every byte is a
    Latin-1 character, it hands each pair back as the very bytes sent, which are judged here,
    one by one, as UTF-8."""
    pairs = []
    for raw_name, raw_value in parse_qsl(raw.decode("latin-1"), keep_blank_values=True,
                                         encoding="latin-1"):
        name = _text(raw_name)
        if name is None:
            raise BenchgraphError("a parameter's name is not UTF-8 once percent-decoded",
                                  ErrorKind.USAGE)
        value = _text(raw_value)
        if value is None:
            raise BenchgraphError(f"parameter {_shown(name)} is not UTF-8 once "
                                  "percent-decoded: send its text percent-encoded as UTF-8",
                                  ErrorKind.USAGE)
        pairs.append((name, value))
    return pairs


def whole_number(name: str, highest: int, default: int = 1,
                 args: Mapping[str, str] | None = None) -> int:
    """The number the parameter ``name`` gives (``default`` when it is absent or empty), of
    the request's URL or of ``args``; BenchgraphError (400) for anything but a whole number
    from 1 to ``highest``."""
    text = (request.args if args is None else args).get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(highest))
            and 1 <= int(text) <= highest):
        raise BenchgraphError(f"{name} must be a whole number from 1 to {highest}, not "
                              f"{_shown(text)}", ErrorKind.USAGE)
    return int(text)


def one_of(name: str, allowed: Iterable[str], default: str) -> str:
    """The parameter ``name`` (``default`` when it is absent or empty); BenchgraphError (400)
    when it is none of ``allowed``."""
    text = request.args.get(name) or default
    choices = tuple(allowed)
    if text not in choices:
        raise BenchgraphError(f"{name} must be one of {', '.join(choices)}, not {_shown(text)}",
                              ErrorKind.USAGE)
    return text


def _text(decoded: str) -> str | None:
    """The UTF-8 text of what ``parse_qsl`` decoded as Latin-1; None when it is not UTF-8."""
    try:
        return decoded.encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        return None


def _shown(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "…")


__all__ = ["MAX_PAGE", "check_query_string", "form_pairs", "init_app", "one_of",
           "whole_number"]
