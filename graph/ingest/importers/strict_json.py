"""Strict JSON within limits: one value, no NaN, no duplicate keys, bounded depth and strings.

``parse_json`` lets the C parser of the standard library do the work (linear time)
and only looks closer when a cheap check, run at the regex engine's speed, says
something may be wrong:

- the nesting is deeper than ``max_nesting_depth`` (strings removed, the innermost
  ``[]``/``{}`` pairs are stripped, one level per pass);
- a string's raw text is longer than ``max_string_chars``;
- an object repeats a key (seen by the parser's ``object_pairs_hook``);
- a ``\\uD800``-style escape: a string may hold half a surrogate pair, which is no
  character and cannot be written out as UTF-8;
- the parser's hooks refused ``NaN``/``Infinity`` or a number out of range (see
  ``MAX_NUMBER_DIGITS``), or the parser could not follow the nesting (its
  ``RecursionError``, caught for that alone).

Looking closer means one pass of a small tokenizer (``_Scanner``) that stops at the first
problem and says where it is: the field path (``page.sources[2].url``), line and column.
It never recurses, so 100,000 levels of ``[`` cost no more than any other text.

Floats are parsed as ``decimal.Decimal``, so a score reads back exactly as written.
"""

import json
import re
from collections.abc import Sequence
from decimal import Decimal
from functools import cache
from typing import Any

from graph.ingest.importers.base import RecordRejected
from graph.settings import Settings

MAX_NUMBER_DIGITS = 100
"""A number's digits (and point) may take at most this many characters, and its exponent
must lie from -99 to 99. Written out in full, as RDF writes an ``xsd:decimal``,
``1e999999999`` would be a billion characters."""

_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_ALL_BUT_BRACKETS = re.compile(rf'{_STRING}|[^\[\]{{}}"]+', re.DOTALL)
_INNERMOST_PAIR = re.compile(r"\[\]|\{\}")
_TOKEN = re.compile(rf'{_STRING}|[\[\]{{}}:,]|[^\s\[\]{{}}:,"]+', re.DOTALL)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
_NUMBER_OUT_OF_RANGE = re.compile(
    rf"[0-9.]{{{MAX_NUMBER_DIGITS + 1},}}|[eE][+-]?0*[1-9][0-9]{{2,}}"
)
_NON_FINITE = ("NaN", "Infinity", "-Infinity")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_MAX_PATH_PARTS = 8


def format_path(parts: Sequence[str | int]) -> str:
    """A field path in dotted form: ``("page", "sources", 2, "url")`` -> ``page.sources[2].url``.

    A key that is not a plain name is quoted (``page["a.b"]``) so the path stays unambiguous.
    A path of more than eight parts (only absurd nesting makes one) has its middle elided.
    """
    if len(parts) > _MAX_PATH_PARTS:
        head, tail = parts[:_MAX_PATH_PARTS - 2], parts[-2:]
        return f"{format_path(head)}…{_format_parts(tail, first=False)}"
    return _format_parts(parts, first=True) or "(the whole record)"


def _format_parts(parts: Sequence[str | int], first: bool) -> str:
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN_KEY.fullmatch(part):
            out += part if first and not out else f".{part}"
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
    return out


class _Refused(Exception):
    """Raised by the parser's hooks: NaN, Infinity or a number out of range."""


def _refuse_constant(token: str) -> Any:
    raise _Refused(token)


def _parse_int(token: str) -> int:
    if len(token) > MAX_NUMBER_DIGITS and _NUMBER_OUT_OF_RANGE.search(token):
        raise _Refused(token)
    return int(token)


def _parse_float(token: str) -> Decimal:
    if _NUMBER_OUT_OF_RANGE.search(token):
        raise _Refused(token)
    return Decimal(token)


def parse_json(text: str, settings: Settings) -> Any:
    """The JSON value in ``text``; raises ``RecordRejected`` naming the field or the position."""
    repeated_key = False

    def object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal repeated_key
        obj = dict(pairs)
        repeated_key = repeated_key or len(obj) != len(pairs)
        return obj

    try:
        value = json.loads(
            text,
            parse_float=_parse_float,
            parse_int=_parse_int,
            parse_constant=_refuse_constant,
            object_pairs_hook=object_pairs,
        )
    except json.JSONDecodeError as error:
        raise RecordRejected(_syntax_message(text, error)) from None
    except _Refused:
        _Scanner(text, settings).check()
        raise  # the scanner finds whatever the hooks refuse: reaching here is a bug
    except RecursionError:
        _Scanner(text, settings).check()
        raise RecordRejected(  # only when max_nesting_depth is above what the parser can do
            "nested deeper than the JSON parser can follow"
        ) from None
    suspicious = (
        repeated_key
        or _SURROGATE_ESCAPE.search(text) is not None
        or _too_deep(text, settings.max_nesting_depth)
        or _has_long_string(text, settings.max_string_chars)
    )
    if suspicious:
        _Scanner(text, settings).check()
    return value


def _too_deep(text: str, limit: int) -> bool:
    """Whether valid JSON ``text`` may nest deeper than ``limit``."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _ALL_BUT_BRACKETS.sub("", text)  # e.g. "{[{}{}]}"
    for _level in range(limit):
        if not brackets:
            return False
        brackets = _INNERMOST_PAIR.sub("", brackets)  # one level of nesting less
    return bool(brackets)


def _has_long_string(text: str, limit: int) -> bool:
    """Whether valid JSON ``text`` may hold a string over ``limit`` characters."""
    return len(text) > limit and _long_string(limit).search(text) is not None


@cache
def _long_string(limit: int) -> re.Pattern[str]:
    # A quote and more than ``limit`` characters or escapes before the next quote. An escape
    # decodes to one character or fewer, so this never misses a long string; when it matches
    # something else (the text between two strings), the scanner has the last word.
    return re.compile(rf'"(?:[^"\\]|\\.){{{limit + 1}}}', re.DOTALL)


def _syntax_message(text: str, error: json.JSONDecodeError) -> str:
    where = f"line {error.lineno} column {error.colno}"
    if error.msg == "Extra data":
        return f"extra data after the JSON value at {where}"
    reason = error.msg[:1].lower() + error.msg[1:].removesuffix(" at")
    if error.msg.startswith("Unterminated string") or error.pos >= len(text.rstrip()):
        return f"the JSON ends too soon (truncated?): {reason} at {where}"
    return f"not valid JSON: {reason} at {where}"


def _line_column(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line} column {column}"


def _decode(token: str) -> str:
    try:
        decoded = json.loads(token)
    except json.JSONDecodeError:
        return token[1:-1]
    return decoded if isinstance(decoded, str) else token[1:-1]


class _Frame:
    """One open array or object while scanning: where in it the scanner is."""

    __slots__ = ("index", "is_object", "key", "keys", "last_string")

    def __init__(self, is_object: bool) -> None:
        self.is_object = is_object
        self.key: str | None = None
        self.index = 0
        self.keys: set[str] = set()
        self.last_string: str | None = None

    def position(self) -> list[str | int]:
        if self.is_object:
            return [] if self.key is None else [self.key]
        return [self.index]


class _Scanner:
    """Walks the tokens of a JSON text without recursion and rejects the first problem.

    It checks what the fast path cannot see cheaply, in document order: nesting depth,
    repeated keys, string length, lone surrogates, NaN/Infinity, numbers out of range.
    Syntax is the parser's business: the scanner only runs on text the parser read, or
    stopped in for one of the reasons above.
    """

    def __init__(self, text: str, settings: Settings) -> None:
        self.text = text
        self.settings = settings
        self.stack: list[_Frame] = []

    def reject(self, reason: str, offset: int, extra: Sequence[str | int] = ()) -> RecordRejected:
        parts: list[str | int] = []
        for frame in self.stack:
            parts.extend(frame.position())
        where = _line_column(self.text, offset)
        return RecordRejected(f"{reason} (at {where})", field=format_path([*parts, *extra]))

    def check(self) -> None:
        limit = self.settings.max_nesting_depth
        for match in _TOKEN.finditer(self.text):
            token, offset = match.group(), match.start()
            first = token[0]
            top = self.stack[-1] if self.stack else None
            if first in "[{":
                if len(self.stack) >= limit:
                    raise self.reject(f"nested deeper than max_nesting_depth = {limit}", offset)
                self.stack.append(_Frame(first == "{"))
            elif first in "]}":
                if self.stack:
                    self.stack.pop()
            elif first == ":":
                if top is not None and top.is_object and top.last_string is not None:
                    self.check_key(top, top.last_string, offset)
            elif first == ",":
                if top is not None:
                    top.index += 1
                    top.key = top.last_string = None
            elif first == '"':
                is_key = top is not None and top.is_object and top.key is None
                self.check_string(token, offset, "key" if is_key else "string")
                if top is not None:
                    top.last_string = token
            else:
                self.check_word(token, offset)

    def check_key(self, frame: _Frame, token: str, offset: int) -> None:
        key = _decode(token)
        if key in frame.keys:
            raise self.reject(
                f"duplicate key {key!r}: an object gives each key once", offset, [key]
            )
        frame.keys.add(key)
        frame.key = key

    def check_string(self, token: str, offset: int, kind: str) -> None:
        limit = self.settings.max_string_chars
        if len(token) - 2 > limit or "\\u" in token:
            text = _decode(token)
            if len(text) > limit:
                raise self.reject(
                    f"a {kind} of {len(text)} characters, more than max_string_chars = {limit}",
                    offset,
                )
            if _LONE_SURROGATE.search(text):
                raise self.reject(
                    "a \\u escape gives half a surrogate pair, which is not a character", offset
                )

    def check_word(self, token: str, offset: int) -> None:
        if token in _NON_FINITE:
            raise self.reject(f"{token} is not a number JSON allows", offset)
        if token[0] in "-0123456789" and _NUMBER_OUT_OF_RANGE.search(token):
            shown = token if len(token) <= 20 else token[:17] + "..."
            raise self.reject(
                f"the number {shown} is out of range: at most {MAX_NUMBER_DIGITS} digits "
                "and an exponent from -99 to 99 are accepted",
                offset,
            )
