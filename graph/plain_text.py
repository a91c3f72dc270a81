"""Markdown as the text it reads as: ``([Hendrycks et al. 2021](https://arxiv.org/abs/…))``
reads ``(Hendrycks et al. 2021)``.

Summaries are data as written, and HELM's are markdown that links their papers. Where a
summary is shown as text (the search hits, the benchmark listing) or searched by its words, its
link targets and markers are not part of it: a search for ``arxiv`` should not find every
summary that cites a paper. The graph keeps the summary as written; its page renders it
(``web.benchmark.markdown``).
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token

MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
"""CommonMark with raw HTML as text: how a summary here, and a description or a README's
links and inline text in the harvest, are read."""
_WORDS = {"text", "code_inline", "image"}
"""Tokens whose content is read: text, code, and an image by its description."""
_SPACES = {"softbreak", "hardbreak"}


def plain_text(markdown: str) -> str:
    """The text of one paragraph of markdown (a summary), its markers and link targets
    dropped, each line break a space. Text without markdown comes back as it was."""
    if not any(marker in markdown for marker in "[]*_`\\<>&!\n"):
        return markdown  # the common case: nothing to read
    return "".join(_text(token) for inline in MARKDOWN.parseInline(markdown)
                   for token in inline.children or ())


def _text(token: Token) -> str:
    if token.type in _WORDS:
        return token.content
    return " " if token.type in _SPACES else ""


__all__ = ["plain_text"]
