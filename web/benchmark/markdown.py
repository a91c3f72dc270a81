"""A record's markdown body as safe HTML: rendered by markdown-it-py, then sanitised by nh3.

The body is data from a record file, never trusted. Two gates, each enough on its own for the
usual attacks, so a mistake in one is caught by the other:

- markdown-it-py renders CommonMark (and tables) with raw HTML off, so ``<script>`` or
  ``<img onerror=…>`` in the text comes out as text; its link check already refuses
  ``javascript:``, ``vbscript:``, ``file:`` and ``data:`` targets. Here every link is then
  rewritten or unlinked: the catalog's own page links ``[text](other_id.md)`` go to that
  benchmark's page, ``http(s)`` links get ``rel="nofollow noopener"``, and any other target
  keeps its text only: a relative path would be a dead link here, and an in-page ``#anchor``
  would too, as no element of the body keeps an ``id``. Images become links to the image,
  so a page never loads anything from elsewhere. Headings move one level down, below the
  page's own section headings.
- nh3 (ammonia) then keeps only a small set of tags and attributes, ``http``/``https`` and
  relative URLs, and ``rel`` only with the one value this module sets.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import nh3
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markupsafe import Markup

BenchmarkHref = Callable[[str], str]
"""The page address of a benchmark, from its catalog id."""

EXTERNAL_REL = "nofollow noopener"

# The target of a catalog page link, as the mapping reads it (graph.mapping.references): the
# benchmarks it finds there are the page's bench:mentions, and the same links go to their pages.
_PAGE_LINK = re.compile(r"[a-z0-9_]{1,200}\.md")
_EXTERNAL = re.compile(r"https?://", re.IGNORECASE)

_TAGS = {
    "a", "blockquote", "br", "code", "em", "h2", "h3", "h4", "h5", "h6", "hr", "li", "ol",
    "p", "pre", "s", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul",
}
_CLEANER = nh3.Cleaner(
    tags=_TAGS,
    clean_content_tags={"script", "style"},
    attributes={"a": {"href"}, "ol": {"start"}, "td": {"style"}, "th": {"style"}},
    tag_attribute_values={"a": {"rel": {EXTERNAL_REL}}},
    filter_style_properties={"text-align"},
    url_schemes={"http", "https"},
    link_rel=None,
    strip_comments=True,
)


def _rewrite_links(state: StateCore) -> None:
    """Each link: to a benchmark's page, external with ``rel``, or text."""
    benchmark_href: BenchmarkHref = state.env["benchmark_href"]
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        dropping = False
        for token in block.children:
            if token.type == "link_open":
                href = str(token.attrGet("href") or "")
                target = _target(href, benchmark_href)
                if target is None:
                    dropping = True
                    token.type, token.tag, token.attrs = "text", "", {}
                    continue
                token.attrs = {"href": target}
                if _EXTERNAL.match(target):
                    token.attrSet("rel", EXTERNAL_REL)
            elif token.type == "link_close" and dropping:
                dropping = False
                token.type, token.tag = "text", ""


def _target(href: str, benchmark_href: BenchmarkHref) -> str | None:
    if _PAGE_LINK.fullmatch(href):
        return benchmark_href(href.removesuffix(".md"))
    if _EXTERNAL.match(href):
        return href
    return None


def _shift_headings(state: StateCore) -> None:
    """``#`` becomes ``<h2>``, ``##`` ``<h3>``…: the body sits under the page's headings."""
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1:]) + 1)}"


def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    parser.enable(["table", "strikethrough"]).disable("image")
    parser.core.ruler.push("benchgraph_links", _rewrite_links)
    parser.core.ruler.push("benchgraph_headings", _shift_headings)
    return parser


_PARSER = _parser()


def render_markdown(text: str, benchmark_href: BenchmarkHref) -> Markup:
    """``text`` (CommonMark, with tables) as sanitised HTML, safe to put on a page as is."""
    env: dict[str, Any] = {"benchmark_href": benchmark_href}
    return Markup(_CLEANER.clean(_PARSER.render(text, env)))


def render_inline(text: str, benchmark_href: BenchmarkHref) -> Markup:
    """One line of markdown (a summary: its links, emphasis and code) as sanitised HTML for
    inside a paragraph; a block marker (``#``, ``-``, ``>``) stays text."""
    env: dict[str, Any] = {"benchmark_href": benchmark_href}
    return Markup(_CLEANER.clean(_PARSER.renderInline(text, env)))


__all__ = ["EXTERNAL_REL", "BenchmarkHref", "render_inline", "render_markdown"]
