"""Which paper a catalog page's paper is: its arXiv id and DOI, however the record gives them.

A record may give the arXiv id as such, or only as the paper's URL (``arxiv.org/abs/…``) or as
arXiv's DOI; the DOI as such or as a doi.org URL. Both the mapping (the paper's IRI) and the
matching of records (an entry's arXiv id confirming a name) read them here, the same way.
An id kept as written (a field-level defect) identifies nothing.
"""

from dataclasses import dataclass

from graph.ingest.records.catalog_page import Paper
from graph.ingest.records.identifiers import arxiv_in, doi_in_url, split_version
from graph.ingest.records.verbatim import Verbatim


@dataclass(frozen=True)
class PaperIds:
    arxiv: str | None
    """The arXiv id without its version (every version is one paper)."""
    version: int | None
    doi: str | None


def paper_ids(paper: Paper) -> PaperIds:
    """The arXiv id (and version) and DOI ``paper`` gives, in their one form."""
    url = valid(paper.url)
    doi = valid(paper.doi)
    if paper.doi is None and url is not None:
        doi = doi_in_url(url)
    arxiv = valid(paper.arxiv)
    if paper.arxiv is None:
        arxiv = (url and arxiv_in(url)) or (doi and arxiv_in(doi)) or None
    if arxiv is None:
        return PaperIds(None, None, doi)
    bare, version = split_version(arxiv)
    return PaperIds(bare, version, doi)


def valid(value: str | None) -> str | None:
    """``value``, unless it is missing or kept as written."""
    return None if value is None or isinstance(value, Verbatim) else value
