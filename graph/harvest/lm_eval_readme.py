"""The paper an lm-eval task folder's README names: its title and arXiv id, and nothing else.

lm-eval's READMEs follow one template: a ``# Name`` heading, a ``### Paper`` section that
gives the title (``Title: `...` ``, or the title on the line above the paper's link), the
link, often a copy of the abstract, then a BibTeX citation. Only the title and the arXiv id
are harvested; the abstract is the paper's text, not the harness's, and is never read out.

Where the Paper section gives no title, the first BibTeX entry's ``title`` is the title;
where it links no arXiv paper, the citation's ``eprint`` (or an arXiv link in it) is the id.
"""

import re

from graph.harvest.text import arxiv_id, arxiv_ids
from graph.records.harness_snapshot import Paper

_PAPER_HEADING = re.compile(r"^#+[ \t]+[^\n]*\bpapers?\b[^\n]*$", re.MULTILINE | re.IGNORECASE)
_ANY_HEADING = re.compile(r"^#", re.MULTILINE)
_TITLE_LINE = re.compile(r"^[\W_]*title[\W_]*?[:：][*_\s]*(?P<title>.+?)\s*$",
                         re.MULTILINE | re.IGNORECASE)
_URL_LINE = re.compile(r"^[<\[(]*https?://", re.IGNORECASE)
_NOT_A_TITLE = re.compile(r"^[\W_]*(https?://|paper|title|homepage|link|abstract|pdf)",
                          re.IGNORECASE)
_CITATION = re.compile(r"@\w+\s*\{(?P<body>.*?)\n\s*\}", re.DOTALL)
_BIB_TITLE = re.compile(r"^\s*title\s*=\s*(?P<value>[{\"].*?)\s*,?\s*$",
                        re.MULTILINE | re.IGNORECASE)
_BIB_EPRINT = re.compile(r"^\s*eprint\s*=\s*[{\"]?(?P<value>[^}\",\s]+)",
                         re.MULTILINE | re.IGNORECASE)
_QUOTES = "`*_\"'“”‘’ "
_LINK = re.compile(r"^\[(?P<text>[^\]]+)\]\([^)]*\)$")


def readme_paper(markdown: str) -> Paper | None:
    """The paper the README names, or ``None`` when it names none."""
    section = _paper_section(markdown)
    citation = _first_citation(markdown)
    title = _section_title(section) or _bib_title(citation)
    ids = arxiv_ids(section) or arxiv_ids(citation) or _eprint(citation)
    if title is None and not ids:
        return None
    return Paper(arxiv=ids[0] if ids else None, title=title)


def _paper_section(markdown: str) -> str:
    """The text below the first heading that says "Paper", up to the next heading."""
    heading = _PAPER_HEADING.search(markdown)
    if heading is None:
        return ""
    rest = markdown[heading.end():]
    following = _ANY_HEADING.search(rest)
    return rest[: following.start()] if following else rest


def _section_title(section: str) -> str | None:
    stated = _TITLE_LINE.search(section)
    if stated:
        return _clean(stated.group("title"))
    lines = [line.strip() for line in section.splitlines() if line.strip()]
    if len(lines) >= 2 and _URL_LINE.match(lines[1]) and not _NOT_A_TITLE.match(lines[0]):
        return _clean(lines[0])
    return None


def _first_citation(markdown: str) -> str:
    found = _CITATION.search(markdown)
    return found.group("body") if found else ""


def _bib_title(citation: str) -> str | None:
    found = _BIB_TITLE.search(citation)
    if found is None:
        return None
    return _clean(found.group("value").replace("{", "").replace("}", ""))


def _eprint(citation: str) -> list[str]:
    found = _BIB_EPRINT.search(citation)
    value = arxiv_id(found.group("value")) if found else None
    return [value] if value else []


def _clean(title: str) -> str | None:
    """The title without the quotes, emphasis or Markdown link written around it."""
    title = title.strip(_QUOTES)
    link = _LINK.match(title)
    if link:
        title = link.group("text").strip(_QUOTES)
    return " ".join(title.split()) or None
