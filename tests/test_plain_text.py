"""``graph.plain_text``: a summary's markdown as the text it reads as."""

import pytest

from graph.plain_text import plain_text


@pytest.mark.parametrize(("markdown", "text"), [
    ("The virology subject in MMLU ([Hendrycks et al. 2021](https://arxiv.org/abs/2009.03300)) "
     "benchmark translated to Igbo.",
     "The virology subject in MMLU (Hendrycks et al. 2021) benchmark translated to Igbo."),
    ("*Measures* **reasoning** with `code` and ![a chart](https://x.org/c.png).",
     "Measures reasoning with code and a chart."),
    ("one line\nanother", "one line another"),
    ("<b>kept as text</b> &amp; an entity", "<b>kept as text</b> & an entity"),
    ("no markdown at all: 5 < 6", "no markdown at all: 5 < 6"),
    ("# not a heading, - not a list", "# not a heading, - not a list"),
    ("", ""),
])
def test_markdown_reads_as_its_text(markdown: str, text: str) -> None:
    assert plain_text(markdown) == text
