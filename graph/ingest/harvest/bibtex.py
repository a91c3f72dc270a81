"""BibTeX citations in a harness's text, read with pybtex, and the check that one names the
paper the harness states elsewhere.

A harness writes its citations inside README code blocks, docstrings and YAML strings, among
other text. ``citations`` finds where each ``@type{…}`` entry starts and ends (its braces
balanced) and hands each to pybtex alone, so that one malformed entry (a missing comma after
its key, as lm-eval's ETHICS README has) is one reason and the others still read. pybtex
parses the fields and splits the author list into people; LaTeX (``M{\\"u}ller``) is decoded by
pybtex's own LaTeX reader. Nothing else of BibTeX is parsed here.

What a citation adds to a paper is accepted only when it names the paper the harness states
by other means (``check``): the same arXiv id, the same DOI, or the same title (compared as
words, so case, accents, braces and punctuation do not count; a title cut where a line wrapped
agrees with the whole). Where the harness states nothing else, the citation is its statement.
A venue that only points at arXiv (``arXiv preprint arXiv:2009.03300``, ``CoRR``) is no venue,
and arXiv's own DOI (``10.48550/arXiv.2305.01234``) is no other paper's: each gives the arXiv id.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass

from pybtex.backends.plaintext import Backend as PlainTextBackend
from pybtex.database import Person, parse_string
from pybtex.richtext import Text
from pybtex.scanner import PybtexError

from graph.ingest.harvest.text import arxiv_id, arxiv_ids
from graph.ingest.records.harness_snapshot import Paper
from graph.ingest.records.identifiers import doi as bare_doi
from graph.titles import same_title, title_words

_ENTRY_START = re.compile(r"@(?P<type>[A-Za-z]+)\s*\{")
_NOT_ENTRIES = frozenset({"comment", "string", "preamble"})
_YEAR = re.compile(r"^\d{4}$")
_ARXIV_VENUE = re.compile(r"^\W*(arxiv|corr)\b", re.IGNORECASE)
_PLAIN_TEXT = PlainTextBackend()
"""pybtex's plain-text writer, made once (``render_as`` looks its plugin up on every call)."""
_ARXIV_DOI = re.compile(r"10\.48550/arxiv\.(?P<id>.+)", re.IGNORECASE)


@dataclass(frozen=True)
class Citation:
    """One BibTeX entry, with its text decoded to plain Unicode."""

    key: str
    title: str | None
    authors: tuple[str, ...]
    year: int | None
    venue: str | None
    doi: str | None
    arxiv: str | None
    url: str | None

    def describe(self) -> str:
        return _describe(self.title, self.arxiv, self.doi, self.url, f"BibTeX entry {self.key}")


@dataclass(frozen=True)
class Unread:
    """A BibTeX entry pybtex could not read, and why."""

    text: str
    reason: str


def citations(text: str) -> tuple[list[Citation], list[Unread]]:
    """Every BibTeX entry in ``text`` in order, and each one that could not be read."""
    found: list[Citation] = []
    unread: list[Unread] = []
    for block in _entry_blocks(text):
        try:
            entries = parse_string(block, "bibtex").entries
        except (PybtexError, ValueError) as error:
            unread.append(Unread(_first_line(block), str(error).strip() or type(error).__name__))
            continue
        for key, entry in entries.items():
            found.append(_citation(key, dict(entry.fields), entry.persons.get("author", [])))
    return found, unread


def check(stated: Paper | None, citation: Citation) -> Paper | None:
    """The paper ``stated`` with what ``citation`` adds, or ``None`` when the citation names
    another paper. With nothing stated, the citation's own paper (``None`` if it names no
    paper by id, link or title)."""
    if stated is not None and not agrees(stated, citation):
        return None
    base = stated or Paper.model_construct()
    title = base.title
    if citation.title and (title is None
                           or len(title_words(citation.title)) > len(title_words(title))):
        title = citation.title  # the whole of a title the harness cut short
    arxiv, doi = base.arxiv or citation.arxiv, base.doi or citation.doi
    url = base.url or citation.url
    if not (arxiv or doi or url or title):
        return None
    return Paper(arxiv=arxiv, doi=doi, url=url, title=title,
                 authors=list(citation.authors) or list(base.authors),
                 year=citation.year if citation.year is not None else base.year,
                 venue=citation.venue or base.venue, cite_key=citation.key,
                 citation=base.citation)


def agrees(stated: Paper, citation: Citation) -> bool:
    """Whether the citation names the paper stated: by arXiv id or DOI where both give one,
    else by title; a paper known only by a link, by the same link."""
    if stated.arxiv and citation.arxiv:
        return stated.arxiv == citation.arxiv
    if stated.doi and citation.doi:
        return stated.doi.lower() == citation.doi.lower()
    if stated.title and citation.title:
        return same_title(stated.title, citation.title)
    if stated.url and not (stated.arxiv or stated.doi or stated.title):
        return citation.url is not None and citation.url.rstrip("/") == stated.url.rstrip("/")
    return not (stated.arxiv or stated.doi or stated.title)


def describe(paper: Paper, where: str) -> str:
    """The paper in a warning: its title and ids, and who states it."""
    return _describe(paper.title, paper.arxiv, paper.doi, paper.url, where)


def _describe(title: str | None, arxiv: str | None, doi: str | None, url: str | None,
              where: str) -> str:
    parts = [f"'{title}'" if title else None, f"arXiv {arxiv}" if arxiv else None,
             f"DOI {doi}" if doi else None, url]
    return f"{where}: {', '.join(p for p in parts if p) or 'no title or id'}"


def _entry_blocks(text: str) -> Iterator[str]:
    """Each ``@type{…}`` entry of ``text`` up to its balancing brace (to the end of the text
    when the braces never balance, which pybtex then reports)."""
    position = 0
    while (start := _ENTRY_START.search(text, position)) is not None:
        depth, end = 0, len(text)
        for index in range(start.end() - 1, len(text)):
            if text[index] == "{":
                depth += 1
            elif text[index] == "}":
                depth -= 1
                if depth == 0:
                    end = index + 1
                    break
        if start.group("type").lower() not in _NOT_ENTRIES:
            yield text[start.start():end]
        position = end


def _citation(key: str, fields: dict[str, str], people: list[Person]) -> Citation:
    plain = {name.lower(): _plain(value) for name, value in fields.items()}
    venue = plain.get("journal") or plain.get("booktitle") or plain.get("publisher")
    arxiv = _arxiv(plain)
    if venue and _ARXIV_VENUE.match(venue):
        venue = None
    url = plain.get("url")
    if url and (arxiv_ids(url) or bare_doi(url)):
        url = None
    year = plain.get("year", "")
    doi = bare_doi(plain.get("doi", "")) or bare_doi(fields.get("url", ""))
    if doi and (registered := _ARXIV_DOI.fullmatch(doi)):  # arXiv's own DOI names its id
        arxiv, doi = arxiv or arxiv_id(registered.group("id")), None
    return Citation(
        key=key,
        title=plain.get("title"),
        authors=tuple(name for name in map(_person, people) if name),
        year=int(year) if _YEAR.match(year) else None,
        venue=venue,
        doi=doi,
        arxiv=arxiv,
        url=url if url and url.startswith(("http://", "https://")) else None,
    )


def _arxiv(fields: dict[str, str]) -> str | None:
    eprint = fields.get("eprint")
    if eprint and (found := arxiv_id(eprint)):
        return found
    for name in ("journal", "url", "booktitle", "note", "howpublished"):
        if (value := fields.get(name)) and (ids := arxiv_ids(value)):
            return ids[0]
    return None


def _person(person: Person) -> str | None:
    """The person as ``Given Middle von Family Jr``; ``None`` for BibTeX's ``others``."""
    parts = [*person.first_names, *person.middle_names, *person.prelast_names,
             *person.last_names, *person.lineage_names]
    name = _plain(" ".join(parts))
    return None if name.lower() in ("", "others") else name


def _plain(latex: str) -> str:
    """LaTeX text as plain Unicode, braces dropped and white space runs made one space."""
    try:
        text = Text.from_latex(latex).render(_PLAIN_TEXT)
    except (PybtexError, ValueError):
        text = latex.replace("{", "").replace("}", "")
    return " ".join(text.split())


def _first_line(block: str) -> str:
    return block.splitlines()[0].strip()
