"""What an lm-eval task folder's README states of its benchmark: its paper and its home page.

lm-eval's READMEs follow one template: a ``# Name`` heading, a ``### Paper`` section, then a
BibTeX citation. The README is read as Markdown (markdown-it: headings, paragraphs, links,
code spans; tables and code blocks are not lines of text), each paragraph as its lines.

The Paper section states the paper by lines ``Label: value``: a title (``Title:``, ``Original
Title:``), a link (``Abstract:``, ``Paper:``, ``Paper Link:``, ``Link:``, ``Pdf:``: the link
the value opens with; an ``Abstract:`` that goes on with the abstract's text links none), or a
title on a line of its own followed by the link (``Title\\nhttps://…``, ``Title https://…``,
``[Title](https://…)``). A title whose line wraps (the next line has no label and no link,
with no blank line between) is read whole. The first paper the section states is the
benchmark's: a second title line ends it (some sections go on to a translation's paper or a
paper that uses the benchmark). Its link is an arXiv id, a DOI (doi.org) or, for any other
http(s) link (ACL Anthology, OpenReview, proceedings), ``Paper.url``. The copy of the
abstract is the paper's text, not the harness's, and is never read out.

Every BibTeX entry of the README is read with pybtex (``graph.ingest.harvest.bibtex``,
``graph.ingest.harvest.citing``); one that pybtex cannot read is a warning with pybtex's reason. A
citation adds authors, year, venue, DOI and key only to the paper the section states, and
only when ``bibtex.check`` finds it names that paper (the same arXiv id or DOI, else the same
title or the section's title cut short, whose whole it then gives). READMEs cite other papers
too (the model evaluated, a translation, the paper whose implementation lm-eval follows): the
first citation that agrees is the paper's, and the others are not harvested. Where the
section states no paper, the first citation stands for it. Where the section states one and
every citation the README holds names another, the README contradicts itself: that is a
warning naming both statements, and neither is harvested. ``paper_overrides.toml`` mends the
known cases as data (``graph.ingest.harvest.paper_overrides``: trust the citation, the section, or
read both as one paper).

A caller may read one more statement of the paper by its own rules: a ``Paper:`` line
outside any Paper section (lmms-eval's READMEs write one under the title). That line is
checked against the citations as the section is, and stands for it where the README has no
Paper section stating a paper. Where both state one, they must name one paper (by the first
of arXiv id, DOI, link and title that both give), the line completing the section's; where
they name two, the README contradicts itself: a warning naming both, and neither is
harvested.

A ``Homepage:`` line (anywhere in the README, also ``**Homepage:**``, ``Github Homepage:``,
a ``[Homepage](…)`` link, or the line below an empty ``Homepage:``) gives the home page, the
first that the README writes; only an http(s) URL is one, and any other value is a warning.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token

from graph.ingest.harvest import bibtex
from graph.ingest.harvest.citing import read_citations
from graph.ingest.harvest.paper_overrides import ReadmeOverride
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.harvest.text import arxiv_ids, first_heading
from graph.ingest.records.harness_snapshot import Paper
from graph.ingest.records.identifiers import arxiv_id, doi, split_version
from graph.titles import same_title

_PARSER = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_PAPER_HEADING = re.compile(r"\bpapers?\b", re.IGNORECASE)
_LABEL = re.compile(r"^(?P<label>[^:：/]{1,30}?)\s*[:：]+\s*(?P<value>.*)$")
_URL = re.compile(r"https?://[^\s<>`\[\]()\"']+")
_TRAILING = ".,;:!?)]}>'\""
_TITLE_LABELS = frozenset({"title", "original title", "paper title"})
_LINK_LABELS = frozenset({"abstract", "paper", "paper link", "link", "pdf", "arxiv", "url",
                          "original paper"})
_HOMEPAGE_LABELS = frozenset({"homepage", "home page", "github homepage"})
_LABELS = _TITLE_LABELS | _LINK_LABELS | _HOMEPAGE_LABELS | frozenset({
    "author", "authors", "blog", "code", "data", "dataset", "github", "huggingface dataset",
    "language", "languages", "language(s)", "license", "note", "task", "tasks", "venue", "year",
})
"""The labels the READMEs write before a paper's facts (``Title:``, ``Abstract:``...): a line
that starts with any other word and a colon is text (a title such as ``C-Eval: A ...``)."""
_QUOTES = {'"': '"', "'": "'", "“": "”", "‘": "’"}


_TEMPLATE_HEADING = "task-name"
"""The heading of lm-eval's README template (``# Task-name``): a README that keeps it names no
benchmark (13 folders of lm-eval 0.4.13 do), so the folder's name stands for it instead."""


@dataclass(frozen=True)
class Readme:
    """The facts one README states: its benchmark's name (the first heading), paper and home
    page."""

    name: str | None = None
    paper: Paper | None = None
    homepage: str | None = None


@dataclass
class _Line:
    """One line of a paragraph: its text as read (markers dropped, code spans and link
    texts kept), its label, and the http(s) links it holds (a link's target, or a URL
    written out in text or code)."""

    text: str = ""
    links: list[tuple[str, str | None]] = field(default_factory=list)
    """Each link's target and, for a Markdown link, its text."""
    first: bool = False
    """It opens its paragraph."""
    label: str | None = None
    value: str = ""

    def close(self) -> "_Line":
        self.text = " ".join(self.text.split())
        found = _LABEL.match(self.text)
        label = " ".join(found.group("label").strip(" *-•").split()).casefold() if found \
            else None
        if found and label in _LABELS:
            self.label, self.value = label, found.group("value").strip()
        else:
            self.value = self.text
        return self

    @property
    def link(self) -> str | None:
        return self.links[0][0] if self.links else None

    @property
    def leading_link(self) -> str | None:
        """The link the value opens with (``Abstract: https://…``), not one in its text."""
        if not self.links:
            return None
        target, text = self.links[0]
        value = self.value.lstrip("[(<")
        return target if value.startswith(target) or (text and value.startswith(text)) \
            else None

    @property
    def only_link(self) -> bool:
        """The line is one link and nothing else (a trailing full stop aside)."""
        if len(self.links) != 1:
            return False
        target, text = self.links[0]
        return self.text.rstrip(_TRAILING) in (target.rstrip(_TRAILING), text)


@dataclass
class _Stated:
    """The paper a Paper section states, as it is read."""

    title: str | None = None
    link: str | None = None

    def paper(self) -> Paper | None:
        if self.title is None and self.link is None:
            return None
        found = _arxiv(self.link) if self.link else None
        found_doi = doi(self.link) if self.link and not found else None
        url = self.link if not (found or found_doi) else None
        return Paper(arxiv=found, doi=found_doi, url=url, title=self.title)


def read_readme(reader: MemberReader, name: str, markdown: str,
                override: ReadmeOverride | None = None,
                paper_line: Paper | None = None) -> tuple[Readme, bool]:
    """The README's facts, and whether ``override`` was needed. ``paper_line``: the paper a
    ``Paper:`` line outside the Paper section states, as the caller read it."""
    sections = list(_sections(markdown))
    section = next((_stated(lines).paper() for heading, lines in sections
                    if _PAPER_HEADING.search(heading)), None)
    statement = _statement(reader, name, section, paper_line)
    paper, needed = _paper(reader, name, markdown, statement, override)
    homepage = _homepage(reader, name, [line for _, lines in sections for line in lines])
    heading = first_heading(markdown)
    if heading is not None and heading.casefold() == _TEMPLATE_HEADING:
        heading = None
    return Readme(name=heading, paper=paper, homepage=homepage), needed


@dataclass(frozen=True)
class _Statement:
    """The paper the README states besides its citations (``None``: it states none), and
    where: its Paper section, or a Paper line."""

    paper: Paper | None
    where: str


_IDENTIFIERS = ("arxiv", "doi", "url", "title")


def _statement(reader: MemberReader, name: str, section: Paper | None,
               line: Paper | None) -> _Statement | None:
    """The section's paper, completed by the Paper line's where the two name one paper, or
    the one of them that is stated; ``None`` and a warning where they name two."""
    if line is None:
        return _Statement(section, "Paper section")
    if section is None:
        return _Statement(line, "Paper line")
    if not _one_paper(section, line):
        reader.warn(name, "the Paper section and the Paper line name different papers: "
                    "neither is harvested", field="paper",
                    value=f"{bibtex.describe(section, 'Paper section')}; "
                          f"{bibtex.describe(line, 'Paper line')}")
        return None
    return _Statement(section.model_copy(update={
        key: getattr(line, key) for key in _IDENTIFIERS if getattr(section, key) is None
    }), "Paper section")


def _one_paper(one: Paper, other: Paper) -> bool:
    """Whether two statements name one paper: by the first of arXiv id, DOI, link and title
    that both give; two that share none of them do not contradict each other."""
    for key in _IDENTIFIERS:
        mine, theirs = getattr(one, key), getattr(other, key)
        if mine is not None and theirs is not None:
            return bool(same_title(mine, theirs) if key == "title" else mine == theirs)
    return True


def _paper(reader: MemberReader, name: str, markdown: str, statement: _Statement | None,
           override: ReadmeOverride | None) -> tuple[Paper | None, bool]:
    """The README's paper, and whether ``override`` was needed: a section to trust that a
    citation contradicts, or a citation that makes another paper than the reading alone. An
    override that is not needed is not applied. With no ``statement`` (the section and the
    Paper line contradict each other), no paper, the citations read for their warnings."""
    found = read_citations(reader, name, markdown)
    if statement is None:
        return None, False
    stated = statement.paper
    paper = _checked(stated, found)
    if override is not None:
        chosen = _overridden(reader, name, stated, found, override)
        needed = (paper is None and stated is not None) if override.trust == "section" \
            else chosen != paper
        return (chosen, True) if needed else (paper, False)
    if paper is None and stated is not None:
        reader.warn(name, f"the {statement.where} and the citation name different papers: "
                    "neither is harvested", field="paper",
                    value=f"{bibtex.describe(stated, statement.where)}; "
                          f"{found[0].describe()}")
    return paper, False


def _checked(stated: Paper | None, found: list[bibtex.Citation]) -> Paper | None:
    """The stated paper with what the first citation that names it adds; the first
    citation's paper when none is stated; ``None`` when every citation names another
    paper."""
    if stated is not None and not found:
        return stated
    return next(filter(None, (bibtex.check(stated, c) for c in found)), None)


def _overridden(reader: MemberReader, name: str, stated: Paper | None,
                found: list[bibtex.Citation], override: ReadmeOverride) -> Paper | None:
    """The paper ``override`` says the README states (``graph.ingest.harvest.paper_overrides``)."""
    if override.trust == "section":
        return stated
    chosen = next((c for c in found if override.cite_key in (None, c.key)), None)
    if chosen is None:
        reader.warn(name, "paper_overrides.toml names a citation the README does not hold",
                    field="cite_key", value=override.cite_key)
        return None
    if override.trust == "citation" or stated is None:
        return bibtex.check(None, chosen)
    same = bibtex.check(stated.model_copy(update={"title": chosen.title or stated.title}),
                        chosen)
    if same is None:
        reader.warn(name, "paper_overrides.toml says the Paper section and the citation name "
                    "one paper, but their ids differ", field="paper",
                    value=f"{bibtex.describe(stated, 'Paper section')}; {chosen.describe()}")
    return same


def _stated(lines: list[_Line]) -> _Stated:
    """The first paper a Paper section states (see the module's docstring)."""
    stated = _Stated()
    for index, line in enumerate(lines):
        if line.label in _TITLE_LABELS and line.value:
            if stated.title is not None:
                break  # a second paper's title
            stated.title = _title(line, lines[index + 1:])
            stated.link = stated.link or _titled_link(line)
        elif line.label in _LINK_LABELS and line.leading_link:
            stated.link = stated.link or line.leading_link
        elif line.label is None and stated.title is None and stated.link is None:
            stated.title, stated.link = _unlabelled(line, lines[index + 1:])
        if stated.title is not None and stated.link is not None:
            break
    return stated


def _title(line: _Line, after: list[_Line]) -> str | None:
    """The title a ``Title:`` line writes, with the lines it wraps onto."""
    parts = [line.value]
    for following in after:
        if following.first or following.label or following.links:
            break
        parts.append(following.text)
    return _clean(" ".join(parts))


def _titled_link(line: _Line) -> str | None:
    """The link of a title written as ``Title: [the title](link)``."""
    return line.link if len(line.links) == 1 and line.links[0][1] == line.value else None


def _unlabelled(line: _Line, after: list[_Line]) -> tuple[str | None, str | None]:
    """A paper stated without labels: ``[Title](link)``; ``Title link``; or a title opening
    a paragraph (its wrapped lines too) with the link alone on the next line."""
    if line.only_link:
        target, text = line.links[0]
        return (_clean(text) if text and not _URL.fullmatch(text) else None), target
    if not line.first:
        return None, None
    last = line.links[-1][0] if line.links else None
    if last and line.links[-1][1] is None and line.text.rstrip(_TRAILING).endswith(last):
        return _clean(line.text[: line.text.rfind(last)].rstrip(" [(<")), last
    parts = [line.text]
    for following in after:
        if following.first or following.label:
            break
        if following.only_link:
            target, text = following.links[0]
            if text and not _URL.fullmatch(text):
                break  # a paper of its own: [Title](link)
            return _clean(" ".join(parts)), target
        if following.links:
            break
        parts.append(following.text)
    return None, None


def _homepage(reader: MemberReader, name: str, lines: list[_Line]) -> str | None:
    """The first home page the README writes; a value that is no http(s) URL is a warning."""
    for index, line in enumerate(lines):
        value: _Line | None = None
        if line.label in _HOMEPAGE_LABELS:
            value = line
            if not line.value and index + 1 < len(lines) and not lines[index + 1].first:
                value = lines[index + 1]
        elif line.only_link and (line.links[0][1] or "").casefold() == "homepage":
            value = line
        if value is None:
            continue
        if value.link:
            return value.link
        reader.warn(name, "the homepage is not an http(s) URL", field="Homepage",
                    value=value.value or None)
        return None
    return None


def _sections(markdown: str) -> Iterator[tuple[str, list[_Line]]]:
    """Each heading's text and the lines of the paragraphs below it, up to the next heading
    (under ``""``: the text above the first heading, and below a level-1 heading, which
    names the benchmark, "# Two Papers" too, and is no Paper section)."""
    heading, lines = "", list[_Line]()
    tokens = _PARSER.parse(markdown)
    for previous, token in zip([None, *tokens], tokens, strict=False):
        if token.type != "inline" or previous is None:
            continue
        if previous.type == "heading_open":
            yield heading, lines
            heading, lines = ("" if previous.tag == "h1" else _plain(token)), []
        elif previous.type == "paragraph_open":
            lines += _lines(token)
    yield heading, lines


def _lines(inline: Token) -> list[_Line]:
    lines: list[_Line] = []
    line, link = _Line(first=True), None
    for child in inline.children or []:
        if child.type in ("softbreak", "hardbreak"):
            lines.append(line.close())
            line = _Line()
            link = (link[0], 0) if link else None  # a link's text that wraps
        elif child.type == "link_open":
            link = (str(child.attrGet("href") or ""), len(line.text))
        elif child.type == "link_close" and link is not None:
            target, start = link
            if target.startswith(("http://", "https://")):
                line.links.append((target, " ".join(line.text[start:].split())))
            link = None
        elif child.type in ("text", "code_inline"):
            if link is None:
                line.links += [(url.rstrip(_TRAILING), None) for url in _URL.findall(child.content)]
            line.text += child.content
    lines.append(line.close())
    return lines


def _plain(inline: Token) -> str:
    return "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))


def _clean(title: str) -> str | None:
    """The title without quotes written around the whole of it."""
    title = " ".join(title.split()).strip(" -–—:")
    if len(title) > 1 and _QUOTES.get(title[0]) == title[-1] and title[0] not in title[1:-1]:
        title = title[1:-1].strip()
    return title or None


def _arxiv(link: str) -> str | None:
    found = arxiv_id(link)
    if found is not None:
        return split_version(found)[0]
    ids = arxiv_ids(link)
    return ids[0] if ids else None
