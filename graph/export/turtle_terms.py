"""The forms of single terms in Turtle, as the Turtle and TriG writer
(``graph.export.writers``) writes them: which IRIs are prefixed names, which literals are
bare, and a literal with a line break as a long string."""

import re

from graph.namespace import XSD

LOCAL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
BARE = {
    str(XSD.boolean): re.compile(r"true|false"),
    str(XSD.integer): re.compile(r"[+-]?[0-9]+"),
    # not ".5" or "5.": Turtle 1.1 reads them, but not every reader does
    str(XSD.decimal): re.compile(r"[+-]?[0-9]+\.[0-9]+"),
}
"""Datatypes whose literals Turtle can write bare, and the lexical forms it reads back alike."""
_BACKSLASHES = "\x00"
"""Stands in for an escaped backslash while a long string is made (an N-Triples form escapes
every control character: it holds no raw NUL)."""


def has_line_break(quoted: str) -> bool:
    """Whether a quoted N-Triples string holds an (escaped) line break: an escaped backslash
    then ``n`` is not one."""
    return "\\n" in quoted.replace("\\\\", _BACKSLASHES)


def long_string(quoted: str) -> str:
    """A quoted N-Triples string as a Turtle long string: line breaks and quotes as they are,
    a quote escaped only where it would close the string (the third of three in a row, or
    the last character); backslashes, carriage returns and other control characters stay
    escaped as in N-Triples."""
    text = (
        quoted[1:-1]
        .replace("\\\\", _BACKSLASHES)  # first, so that "\\n" is never read as a line break
        .replace("\\n", "\n")
        .replace('\\"', '"')
        .replace('"""', '""\\"')
    )
    # The only escaped quotes left are those just made, so a backslash before the last
    # quote says it is escaped already.
    if text.endswith('"') and not text.endswith('\\"'):
        text = text[:-1] + '\\"'
    return '"""' + text.replace(_BACKSLASHES, "\\\\") + '"""'


__all__ = ["BARE", "LOCAL_NAME", "has_line_break", "long_string"]
