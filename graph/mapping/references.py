"""Benchmarks named by reference: markdown links in a body, and titles on directory pages.

A title resolves, once all records are read, to the catalogued benchmark whose id,
name or alias has the same slug; otherwise to the slug of the title itself. The
answer never depends on the order records were read in: when two benchmarks claim
one slug, an id beats a name, a name beats an alias, and then the smaller id wins.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass

from graph.records import CatalogPage, DirectoryPage, Record
from graph.slug import node_key, slugify

# [text](target.md), where target is a benchmark id: the catalog's own page links.
_MARKDOWN_LINK = re.compile(r"\[([^\]\n]{1,500})\]\(([a-z0-9_]{1,200})\.md\)")

_BY_ID, _BY_NAME, _BY_ALIAS, _BY_PAGE_TITLE = range(4)


@dataclass(frozen=True)
class Link:
    benchmark_id: str
    text: str


def markdown_links(markdown: str | None) -> list[Link]:
    """Links to other benchmark pages, first mention first, each benchmark once."""
    links: dict[str, Link] = {}
    for match in _MARKDOWN_LINK.finditer(markdown or ""):
        links.setdefault(match.group(2), Link(match.group(2), match.group(1)))
    return list(links.values())


@dataclass(frozen=True)
class BenchmarkIndex:
    """Which benchmark a title means, over every record of one build."""

    by_slug: dict[str, str]

    def resolve(self, title: str) -> str:
        """The id of the benchmark called ``title``."""
        slug = slugify(title)
        return self.by_slug.get(slug) or node_key(title)

    def described_by(self, record: Record) -> str:
        """The id of the benchmark ``record`` is about: a catalog page's own id, a directory
        page's title resolved like any other title."""
        return record.page.id if isinstance(record, CatalogPage) else self.resolve(record.title)


def index_benchmarks(records: Iterable[Record]) -> BenchmarkIndex:
    claims: dict[str, tuple[int, str]] = {}

    def claim(name: str, rank: int, benchmark_id: str) -> None:
        slug = slugify(name)
        current = claims.get(slug)
        if slug and (current is None or (rank, benchmark_id) < current):
            claims[slug] = (rank, benchmark_id)

    for record in records:
        if isinstance(record, CatalogPage):
            claim(record.page.id, _BY_ID, record.page.id)
            claim(record.page.name, _BY_NAME, record.page.id)
            for alias in record.page.aliases:
                claim(alias, _BY_ALIAS, record.page.id)
        elif isinstance(record, DirectoryPage):
            claim(record.title, _BY_PAGE_TITLE, record.benchmark_id)
    return BenchmarkIndex({slug: benchmark_id for slug, (_, benchmark_id) in claims.items()})
