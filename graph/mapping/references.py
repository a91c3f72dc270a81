"""Benchmarks a catalog page's body links to: ``[text](benchmark_id.md)``, the catalog's own
page links. (Benchmarks named by title resolve in ``graph.mapping.identity``.)"""

import re
from dataclasses import dataclass

# [text](target.md), where target is a benchmark id: the catalog's own page links.
_MARKDOWN_LINK = re.compile(r"\[([^\]\n]{1,500})\]\(([a-z0-9_]{1,200})\.md\)")


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
