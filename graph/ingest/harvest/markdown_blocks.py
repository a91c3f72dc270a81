"""A Markdown document as the blocks the harvest's README readers decide on.

The readers of stated results (``inspect_results``, ``opencompass_results``, ``alpaca_eval``)
read README tables and the text around them. They read them here, from markdown-it's tokens
(CommonMark and GitHub's table extension), never by scanning lines: a heading with its level,
a paragraph (a list item's or a quote's too), a code block with its info string, and a table
as its header and rows. Every text is plain: as the README reads rendered, its markers, link
targets, images and inline HTML dropped, line breaks and runs of white space one space.

Raw HTML is HTML, as GitHub renders a README: an HTML block (``<details>``, ``<div>``) is one
block and none of these, and a table written inside it is no table.

A table keeps its caption: the paragraph just before it, with nothing between them in the
same container (``AlpacaEval minimal leaderboard:``), which some READMEs title tables with.
Markdown reads two tables written without a blank line between them as one, the second's
delimiter row a body row: ``unstacked`` splits them again.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.token import Token

_PARSER = MarkdownIt("commonmark", {"html": True}).enable("table")
_DELIMITER = re.compile(r":?-+:?")
"""A cell of a table's delimiter row (``---``, ``:-:``), read as a body row's cell."""

Row = tuple[str, ...]


@dataclass(frozen=True)
class Heading:
    """A heading: its level (``#`` is 1) and its text."""

    level: int
    text: str


@dataclass(frozen=True)
class Prose:
    """A paragraph."""

    text: str


@dataclass(frozen=True)
class Code:
    """A fenced or indented code block: its text as written, and the fence's info string."""

    text: str
    info: str


@dataclass(frozen=True)
class Table:
    """A table: its header's cells and its rows', each as plain text."""

    header: Row
    rows: tuple[Row, ...]
    """The body rows; the parser pads a short row with empty cells and cuts a long one."""
    caption: str | None = None
    """The paragraph just before the table, where nothing stands between them."""


Block = Heading | Prose | Code | Table


def blocks(markdown: str) -> list[Block]:
    """The document's headings, paragraphs, code blocks and tables, in order."""
    tokens = _PARSER.parse(markdown)
    found: list[Block] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type == "heading_open":
            found.append(Heading(int(token.tag[1:]), _plain(tokens[index + 1])))
        elif token.type == "paragraph_open":
            found.append(Prose(_plain(tokens[index + 1])))
        elif token.type in ("fence", "code_block"):
            found.append(Code(token.content, token.info.strip()))
        elif token.type == "table_open":
            table, index = _table(tokens, index)
            found.append(table)
        index += 1
    return found


def _plain(inline: Token) -> str:
    """The text of an inline token as it reads (the module's docstring)."""
    parts: list[str] = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return " ".join("".join(parts).split())


def _table(tokens: list[Token], start: int) -> tuple[Table, int]:
    """The table that opens at ``start``, and the index of its closing token."""
    rows: list[Row] = []
    cells: list[str] = []
    index = start
    while tokens[index].type != "table_close":
        token = tokens[index]
        if token.type == "inline":
            cells.append(_plain(token))
        elif token.type == "tr_close":
            rows.append(tuple(cells))
            cells = []
        index += 1
    header, *body = rows or [()]
    return Table(header, tuple(body), _caption(tokens, start)), index


def _caption(tokens: list[Token], start: int) -> str | None:
    """The text of the paragraph whose closing token comes just before ``start``."""
    if start == 0 or tokens[start - 1].type != "paragraph_close":
        return None
    return _plain(tokens[start - 2])


def unstacked(table: Table) -> list[Table]:
    """The tables stacked in one: a body row of delimiters makes the row before it the next
    table's header. A narrower table's padding (its header's empty cells at the end) is
    dropped again; the caption stays with the first."""
    found: list[Table] = []
    caption = table.caption
    for header, rows in _stacked(table.header, table.rows):
        found.append(_trimmed(Table(header, rows, caption)))
        caption = None
    return found


def _stacked(header: Row, rows: tuple[Row, ...]) -> Iterator[tuple[Row, tuple[Row, ...]]]:
    """Each stacked table's header and body rows."""
    body: list[Row] = []
    for row in rows:
        if delimiter_row(row) and body:
            yield header, tuple(body[:-1])
            header, body = body[-1], []
        else:
            body.append(row)
    yield header, tuple(body)


def delimiter_row(row: Row) -> bool:
    """Whether a body row is a stacked table's delimiter row: some cells, and each that is
    not empty a run of dashes, colons at its ends (``---``, ``:--:``)."""
    cells = [cell for cell in row if cell]
    return bool(cells) and all(_DELIMITER.fullmatch(cell) for cell in cells)


def _trimmed(table: Table) -> Table:
    """Without the empty cells at the end of its header, and the rows' cells below them."""
    width = len(table.header)
    while width and not table.header[width - 1]:
        width -= 1
    return Table(table.header[:width], tuple(row[:width] for row in table.rows),
                 table.caption)
