"""A README's BibTeX citations as papers: read through ``graph.ingest.harvest.bibtex``, each unread
entry a warning, each citation merged into the paper it names.

Both inspect_evals and OpenCompass keep a benchmark's citation in its README, beside papers
the harness states elsewhere (an eval listing's ``arxiv`` link, the README's own arXiv
links). A citation only adds to a stated paper it names (``bibtex.agrees``: the same arXiv
id, DOI or title); what each harness does with one that names none of them is its reader's
choice, since the harnesses state their papers differently.
"""

from graph.ingest.harvest.bibtex import Citation, agrees, check, citations
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.records.harness_snapshot import Paper


def read_citations(reader: MemberReader, name: str, text: str,
                   field: str = "citation") -> list[Citation]:
    """The BibTeX citations in member ``name``'s ``text``, in order; a warning for each entry
    that pybtex cannot read, naming ``field`` (where in the member the text stands)."""
    found, unread = citations(text)
    for entry in unread:
        reader.warn(name, "a BibTeX entry that cannot be read: left out", field=field,
                    value=f"{entry.text} {entry.reason}")
    return found


def merged(papers: list[Paper], citation: Citation) -> list[Paper] | None:
    """``papers`` with the first one ``citation`` names completed by it; ``None`` when it
    names none of them."""
    for index, paper in enumerate(papers):
        if agrees(paper, citation) and (completed := check(paper, citation)) is not None:
            return [*papers[:index], completed, *papers[index + 1:]]
    return None


def with_paper(papers: list[Paper], paper: Paper) -> list[Paper]:
    """``papers`` and ``paper``, unless one of them already is that paper (the same arXiv id,
    DOI or cite key): a README and its translation cite the same paper twice."""
    def same(one: Paper) -> bool:
        return any(mine is not None and mine == theirs for mine, theirs in (
            (one.arxiv, paper.arxiv), (one.doi, paper.doi), (one.cite_key, paper.cite_key)))

    return papers if any(same(one) for one in papers) else [*papers, paper]
