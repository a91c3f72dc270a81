"""A paper as a node people can use: one mapping for every kind of record that cites one.

A paper's IRI is ``{base}paper/{key}`` (``graph.mapping.iris.paper_key``: its arXiv id, else
its DOI, else the slug of its title or link), so a catalog page and four harnesses citing one
paper meet on one node, each stating what it knows in its own graph. What is stated:

- the ids and links: ``bench:arxiv`` (and ``bench:arxivVersion``), ``bench:doi``,
  ``schema:url`` (a link that is neither arXiv's nor doi.org's: ACL Anthology, OpenReview);
- the title (``dcterms:title``, and the label; the id only labels a paper with no title), in
  the case the harness entries that state it agree on (``BenchmarkIndex.title_as``): two
  forms that differ only in case are one title;
- the authors in order: each a ``bench:Person`` that is the paper's ``dcterms:creator``, and an
  ordered ``bench:authorCredit`` (``{paper}/author/{n}``), so that a person's page lists their
  papers and, through them, their benchmarks;
- the year the citation states (``dcterms:issued``), the venue as written (``bench:venue``),
  the BibTeX key (``bench:citeKey``), a short citation as written (``bench:citedAs``);
- the month an arXiv id says it was submitted (``bench:arxivSubmitted``). That is what the id
  states (arXiv numbers papers by the month they arrive), which is not when or where the paper
  was published: it is kept under its own name, never as ``dcterms:issued``.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from rdflib import URIRef

from graph.ingest.records.identifiers import ARXIV_ID
from graph.mapping.context import MappingContext
from graph.mapping.emitter import Statements
from graph.mapping.iris import paper_key
from graph.mapping.papers import valid
from graph.namespace import BENCH, DCTERMS, RDFS, SCHEMA

_OLD_STYLE_FROM = 91
"""arXiv's first year, 1991: an old-style id's ``yy`` from 91 up is in the 1900s."""


@dataclass(frozen=True)
class PaperFacts:
    """What one record states about a paper, whatever the record's kind."""

    arxiv: str | None = None
    """Without a version. An id kept as written (``Verbatim``, a field-level defect) is
    stated as written and identifies nothing; so for ``doi``."""
    arxiv_version: int | None = None
    doi: str | None = None
    url: str | None = None
    title: str | None = None
    authors: Sequence[str] = ()
    year: int | None = None
    venue: str | None = None
    cite_key: str | None = None
    citation: str | None = None
    other_names: Sequence[str | None] = ()
    """What else can name it when it has no id or title."""


def add_paper(facts: PaperFacts, out: Statements, ctx: MappingContext) -> URIRef | None:
    """The paper's node with everything ``facts`` states; None for a paper with nothing to
    name it by."""
    arxiv, doi = valid(facts.arxiv), valid(facts.doi)
    names = (facts.title, facts.url, *facts.other_names, facts.arxiv, facts.doi)
    key = paper_key(arxiv, doi, names)
    if key is None:
        return None
    node = ctx.iris.paper(key)
    out.add_type(node, BENCH.Paper)
    out.add_text(node, BENCH.arxiv, facts.arxiv)
    out.add_integer(node, BENCH.arxivVersion, facts.arxiv_version)
    out.add_partial_date(node, BENCH.arxivSubmitted, arxiv_month(arxiv) if arxiv else None)
    out.add_text(node, BENCH.doi, facts.doi)
    title = ctx.index.title_as(facts.title) if facts.title else None
    out.add_text(node, DCTERMS.title, title)
    out.add_text(node, RDFS.label, title or arxiv or doi or next(filter(None, names)))
    out.add_url(node, SCHEMA.url, facts.url)
    out.add_year(node, DCTERMS.issued, facts.year)
    out.add_text(node, BENCH.venue, facts.venue)
    out.add_text(node, BENCH.citeKey, facts.cite_key)
    out.add_text(node, BENCH.citedAs, facts.citation)
    for position, name in enumerate(facts.authors, start=1):
        person = ctx.named_node(out, ctx.iris.person(name), BENCH.Person, name)
        out.add(node, DCTERMS.creator, person)
        credit = ctx.iris.part(node, "author", str(position))
        out.add(node, BENCH.authorCredit, credit)
        out.add_type(credit, BENCH.Credit)
        out.add(credit, BENCH.agent, person)
        out.add_integer(credit, BENCH.position, position)
    return node


def arxiv_month(arxiv: str) -> str | None:
    """``YYYY-MM``, the month an arXiv id says the paper was submitted: ``2211.08584`` ->
    ``2022-11``, ``hep-th/9901001`` -> ``1999-01``; None for what is no arXiv id."""
    if not ARXIV_ID.fullmatch(arxiv):
        return None
    digits = arxiv.rsplit("/", 1)[-1]
    yy, mm = int(digits[:2]), digits[2:4]
    century = 1900 if "/" in arxiv and yy >= _OLD_STYLE_FROM else 2000
    return f"{century + yy}-{mm}" if "01" <= mm <= "12" else None
