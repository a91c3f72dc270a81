"""The Markdown blocks the readers of stated results share
(``graph/ingest/harvest/markdown_blocks.py``):
headings with their level, paragraphs and table cells as plain text, code blocks with their
info string, tables with their caption, stacked tables split."""

from graph.ingest.harvest.markdown_blocks import (
    Code,
    Heading,
    Prose,
    Table,
    blocks,
    delimiter_row,
    unstacked,
)


def test_a_heading_keeps_its_level_and_reads_as_plain_text() -> None:
    assert blocks("# Toy\n\n### **Evaluation** `Report` [here](https://example.org)\n") == [
        Heading(1, "Toy"), Heading(3, "Evaluation Report here")]


def test_a_tables_cells_are_plain_text_without_inline_markup() -> None:
    markdown = ("| **Model** | [Accuracy](https://example.org) |\n|---|:-:|\n"
                "| `gpt-4o` *(OpenAI)* | 0.81<br>±0.02 |\n")
    (table,) = blocks(markdown)
    assert table == Table(("Model", "Accuracy"), (("gpt-4o (OpenAI)", "0.81±0.02"),))


def test_a_short_row_is_padded_and_a_long_one_cut() -> None:
    (table,) = blocks("| a | b |\n|---|---|\n| 1 |\n| 2 | 3 | 4 |\n")
    assert isinstance(table, Table)
    assert table.rows == (("1", ""), ("2", "3"))


def test_a_table_without_rows_is_its_header() -> None:
    assert blocks("| Model | Score |\n| --- | --- |\n") == [Table(("Model", "Score"), ())]


def test_a_code_block_keeps_its_text_and_info() -> None:
    markdown = "```bash title\ninspect eval toy --model m\n```\n\n    indented\n"
    assert blocks(markdown) == [Code("inspect eval toy --model m\n", "bash title"),
                                Code("indented\n", "")]


def test_paragraphs_of_lists_and_quotes_are_prose_with_line_breaks_as_spaces() -> None:
    assert blocks("- one\n  two\n\n> three  \n> four\n") == [Prose("one two"),
                                                             Prose("three four")]


def test_an_html_block_is_none_of_the_blocks_and_hides_what_it_holds() -> None:
    assert blocks("<div>\n| a |\n|---|\n| 1 |\n</div>\n\nAfter.\n") == [Prose("After.")]


def test_a_table_has_the_paragraph_just_before_it_as_caption() -> None:
    found = blocks("Leaderboard:\n\n| a |\n|---|\n| 1 |\n\nText.\n\n<details>\n\n"
                   "| b |\n|---|\n| 2 |\n\n</details>\n\n- Item\n\n| c |\n|---|\n")
    assert [b.caption for b in found if isinstance(b, Table)] == ["Leaderboard:", None, None]


def test_stacked_tables_are_split_at_the_delimiter_row() -> None:
    caption, table = blocks("Caption\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| c |\n|:-:|\n| 3 |\n")
    assert caption == Prose("Caption") and isinstance(table, Table)
    assert unstacked(table) == [Table(("a", "b"), (("1", "2"),), "Caption"),
                                Table(("c",), (("3",),))]
    assert unstacked(Table(("a",), (("1",),))) == [Table(("a",), (("1",),))]


def test_a_delimiter_row_is_dashes_and_colons_in_some_cells() -> None:
    assert delimiter_row(("---", ":-:", ""))
    assert not delimiter_row(("", ""))
    assert not delimiter_row(("---", "1"))
