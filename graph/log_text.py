"""Text from outside (a query, a request line, a client's header) as a line of the server's
log may hold it.

A log is read line by line, by people and by programs: a line break a client sends inside
its text would start a line that looks like the server's own, and a terminal obeys the
escape sequences it is sent (C1's CSI, ``\\x9b``). So every control character is written as
its escape (``\\x0a``, ``\\x9b``), and so are the two line separators of Unicode, which
``str.splitlines`` and some viewers break lines at: nothing a client sends can end a line.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """``text`` with every control character written as ``\\xNN`` (``\\uNNNN`` beyond
    Latin-1)."""
    return _CONTROL.sub(lambda found: _escape(ord(found.group())), text)


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shortened(text: str, chars: int) -> str:
    """A short form of ``text`` for one log line: its runs of white space (line breaks
    included) one space each, its first ``chars`` characters (``…`` where it is cut), and
    its control characters escaped (``printable``)."""
    words = " ".join(text.split())
    if len(words) > chars:
        words = words[:chars] + "…"
    return printable(words)


__all__ = ["printable", "shortened"]
