"""Paper titles a README states as the text of its link to the paper.

Some READMEs name a paper by its title and link it: ``- Paper: [AgentDojo: A Dynamic
Environment to Evaluate Prompt Injection Attacks and Defenses for LLM Agents](arxiv link)``,
``introduced in the paper [Language Models are Multilingual Chain-of-Thought
Reasoners](arxiv link)``. A link's text is as often the benchmark's short name
(``[MGSM](…)``), its name spelled out (``[Situational Awareness Dataset (SAD)](…)``) or a
word (``[paper](…)``), so a link's text is read as a title only where the README's own words
say it is the paper's: the words just before the link, on its line, end with ``Paper:``,
``published in``, ``introduced in`` (``the paper``) or ``presented in``. A title has at least
``TITLE_WORDS`` words, so a name introduced so (``introduced in [GSM8K](…)``) is not one, and
is not the benchmark's name the README is headed with (BOLD's README, headed ``Bias in
Open-ended Language Generation Dataset (BOLD)``, calls that name its ``original paper``;
the paper's title is another). The README's Markdown is read with markdown-it, so emphasis
around ``Paper`` and a link's own markup do not count.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass

from graph.ingest.harvest.text import arxiv_id, first_heading
from graph.plain_text import MARKDOWN

TITLE_WORDS = 4
"""The fewest words a link's text has to be a paper's title rather than a name."""
_STATED_AS_PAPER = re.compile(
    r"(?:\bpaper\s*:|\b(?:published|introduced|presented)\s+in(?:\s+the\s+paper)?)\W*$",
    re.IGNORECASE)
"""The words before a link by which a README says the link's text is the paper's title."""
_ABBREVIATION = re.compile(r"\s*\([^()]*\)\s*$")
"""A bracketed abbreviation at the end of a name: ``Bias in … Dataset (BOLD)``."""
_WORD = re.compile(r"\w+")
_BREAKS = frozenset({"softbreak", "hardbreak"})


@dataclass(frozen=True)
class LinkTitle:
    """A link to an arXiv paper whose text the README states as the paper's title."""

    arxiv: str
    title: str


def link_titles(markdown: str) -> list[LinkTitle]:
    """Each arXiv link of ``markdown`` whose text its line states as the paper's title, in
    order."""
    heading = first_heading(markdown)
    name = _words(_ABBREVIATION.sub("", heading)) if heading else None
    return [found for found in _link_titles(markdown) if _words(found.title) != name]


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def _link_titles(markdown: str) -> Iterator[LinkTitle]:
    for block in MARKDOWN.parse(markdown):
        before: list[str] = []
        inside: list[str] | None = None
        href = ""
        for token in block.children or ():
            if token.type == "link_open":
                href, inside = str(token.attrGet("href") or ""), []
            elif token.type == "link_close" and inside is not None:
                text = " ".join("".join(inside).split())
                found = _title(href, "".join(before), text)
                yield from [found] if found else []
                before, inside = [text], None
            elif token.type in _BREAKS:
                before = []
            elif token.type in ("text", "code_inline"):
                (before if inside is None else inside).append(token.content)


def _title(href: str, before: str, text: str) -> LinkTitle | None:
    """The title a link states: its text, when the words before it say so and it is long
    enough to be a title; the quotes some READMEs write around a title are not its own."""
    arxiv = arxiv_id(href)
    title = text.strip().strip("\"“”").strip()
    if arxiv is None or not _STATED_AS_PAPER.search(before):
        return None
    return LinkTitle(arxiv, title) if len(title.split()) >= TITLE_WORDS else None
