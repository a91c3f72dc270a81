"""What an OpenCompass dataset folder's Markdown states: the README's lead paragraph, and the
papers its BibTeX citations name.

Most folders have no README; a few have ``README.md`` (any case), a few only one other
Markdown file that stands for it (``s3eval/s3eval.md``), and some more than one (a README and
its translation, ``IFEval.md`` beside ``README.md``). The README gives the entry's name (its
``#`` heading) and description; every top-level Markdown file of the folder is read for
citations.

The description is the README's lead paragraph, as OpenCompass wrote it, read from the
Markdown's block structure (markdown-it): the first top-level paragraph, skipping ones made
only of links and images (badges, a bare ``[GitHub](...)``). Many READMEs open with a results
table, and tables are no paragraph. A lead paragraph that does not end a sentence (a
``English | 简体中文`` switcher, an attribution like "The following introduction comes from the
abstract in [paper](...)") gives no description, and neither does one followed at once by a
code block or a quote: it introduces text quoted from elsewhere (a paper's abstract), which is
never the harness's description.

A citation names the benchmark's paper as the README cites it. Where the README links arXiv
papers, a citation of an arXiv id it does not link is a warning and left out; a citation
without an arXiv id stands as written. A citation of OpenCompass itself (the one the
package's METADATA gives, by key or title) is the harness's, not the benchmark's, and is left
out.
"""

import re

from markdown_it import MarkdownIt
from markdown_it.token import Token

from graph.ingest.harvest.bibtex import Citation, check
from graph.ingest.harvest.citing import read_citations, with_paper
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.harvest.text import arxiv_ids, short_description
from graph.ingest.records.harness_snapshot import Paper
from graph.plain_text import plain_text
from graph.titles import same_title

_BLOCKS = MarkdownIt("commonmark", {"html": True}).enable("table")
_QUOTING = frozenset({"fence", "code_block", "blockquote_open"})
_SENTENCE_END = re.compile(r"[.!?:。！？：][\"'”’)\]*_]*$")


def lead_paragraph(markdown: str) -> str | None:
    """The README's description (the module's docstring says which paragraph); ``None`` when
    it has none."""
    tokens = _BLOCKS.parse(markdown)
    for index, token in enumerate(tokens):
        if token.type != "paragraph_open" or token.level != 0:
            continue
        inline = tokens[index + 1]
        if not _has_words(inline):
            continue
        text = plain_text(inline.content).strip()
        after = tokens[index + 3] if index + 3 < len(tokens) else None
        if (after is not None and after.type in _QUOTING) or not _SENTENCE_END.search(text):
            return None
        return short_description(text)
    return None


def _has_words(inline: Token) -> bool:
    """Whether the paragraph has text outside its links and images."""
    depth = 0
    for child in inline.children or ():
        depth += {"link_open": 1, "link_close": -1}.get(child.type, 0)
        if depth == 0 and child.type == "text" and any(c.isalnum() for c in child.content):
            return True
    return False


def own_citations(reader: MemberReader, name: str) -> list[Citation]:
    """The citations the package's METADATA gives: the harness's own."""
    text = reader.text(name)
    return read_citations(reader, name, text) if text else []


def cited_papers(reader: MemberReader, name: str, text: str,
                 own: list[Citation]) -> list[Paper]:
    """The papers member ``name`` cites, checked against the arXiv papers it links."""
    linked = arxiv_ids(text)
    papers: list[Paper] = []
    for citation in read_citations(reader, name, text):
        if any(_same(citation, mine) for mine in own):
            continue
        if citation.arxiv and linked and citation.arxiv not in linked:
            reader.warn(name, "a BibTeX citation of an arXiv paper the README does not link: "
                        "left out", field="citation",
                        value=f"{citation.describe()}; the README links arXiv "
                              f"{', '.join(linked)}")
        elif (paper := check(None, citation)) is not None:
            papers = with_paper(papers, paper)
    return papers


def _same(one: Citation, other: Citation) -> bool:
    return one.key == other.key or bool(
        one.title and other.title and same_title(one.title, other.title))
