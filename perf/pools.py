"""The shared things a synthetic catalog's records draw from: names, papers, people, models.

Drawing from pools is what makes records meet in the graph: two records that take the same
paper share its node, its authors and its publisher organisations.
"""

import random
from dataclasses import dataclass
from typing import Any

from graph.slug import slugify
from perf import vocabulary as v


@dataclass(frozen=True)
class Paper:
    arxiv: str
    title: str
    url: str
    year: int
    authors: tuple[str, ...]
    org: str
    """The publisher field, in the catalog's free-text style (``A (note); B (note)``)."""

    def as_json(self) -> dict[str, Any]:
        return {"arxiv": self.arxiv, "title": self.title, "url": self.url, "year": self.year}


@dataclass(frozen=True)
class Pools:
    names: list[str]
    """Benchmark names: the records' first, then the uncatalogued ones, then directory pages'."""
    ids: list[str]
    """The slug of each name: a record's id is ``ids[index]``."""
    reference_ids: list[str]
    """Ids of benchmarks that no record describes (linked to, never catalogued)."""
    reference_names: list[str]
    directory_names: list[str]
    papers: list[Paper]
    paper_of: list[int]
    """For each record, the index of its paper in ``papers``."""
    people: list[str]
    organisations: list[str]
    models: list[str]


def sentences(rng: random.Random, count: int) -> str:
    """``count`` plausible sentences about a benchmark, ending with a full stop."""
    return " ".join(
        f"{rng.choice(v.SUBJECTS)} {rng.choice(v.VERBS)} {rng.choice(v.OBJECTS)} "
        f"{rng.choice(v.QUALIFIERS)}." for _ in range(count)
    )


def _benchmark_names(rng: random.Random, count: int) -> list[str]:
    names: list[str] = []
    seen: set[str] = set()
    while len(names) < count:
        for _ in range(20):
            name = rng.choice(v.NAME_HEADS) + rng.choice(v.NAME_CORES) + rng.choice(v.NAME_TAILS)
            if slugify(name) not in seen:
                break
        else:  # the combinations are running out: number them
            name = f"{name} {len(names)}"
        seen.add(slugify(name))
        names.append(name)
    return names


def _people(rng: random.Random, count: int) -> list[str]:
    people: list[str] = []
    seen: set[str] = set()
    while len(people) < count:
        first, last = rng.choice(v.FIRST_NAMES), rng.choice(v.LAST_NAMES)
        name = f"{first} {last}"
        if name in seen:
            name = f"{first} {chr(ord('A') + rng.randrange(26))}. {last}"
        if name in seen:
            name = f"{name} {len(people)}"
        seen.add(name)
        people.append(name)
    return people


def _organisations() -> list[str]:
    departments = ("", " NLP Group", " School of Medicine", " Vision Lab",
                   " Data Science Institute")
    return [org + dept for dept in departments for org in v.ORGANISATIONS]


def publisher_field(rng: random.Random, organisations: list[str], authors: tuple[str, ...]) -> str:
    """A publisher field naming one to three organisations, in one of the catalog's styles."""
    # Half the picks come from the first organisations: some organisations publish a lot.
    def pick() -> str:
        return rng.choice(organisations[: len(v.ORGANISATIONS)] if rng.random() < 0.5
                          else organisations)

    first, second = pick(), pick()
    while second == first:
        second = pick()
    note = rng.choice(v.ORG_NOTES)
    surname = authors[0].rsplit(" ", 1)[-1] if authors else "Chen"
    style = rng.randrange(6)
    if style == 0:
        return first
    if style == 1:
        return f"{first} ({note})"
    if style == 2:
        return f"{first} ({note}); {second} ({surname})"
    if style == 3:
        return f"{first} and {second}"
    if style == 4:
        return f"{first} and {second} ({surname} et al.)"
    third = pick()
    return f"{first}; {second}" + (f"; {third}" if third not in (first, second) else "")


def _papers(rng: random.Random, count: int, people: list[str], organisations: list[str],
            authors: tuple[int, int], no_arxiv_share: float) -> list[Paper]:
    papers: list[Paper] = []
    seen: set[str] = set()
    while len(papers) < count:
        year = rng.randint(2018, 2026)
        arxiv = f"{year % 100:02d}{rng.randint(1, 12):02d}.{rng.randint(1, 99999):05d}"
        if arxiv in seen:
            continue
        seen.add(arxiv)
        if rng.random() < no_arxiv_share:  # a paper with no arXiv id: known by its title
            arxiv = ""
        title = (f"{rng.choice(('Toward', 'Measuring', 'Beyond', 'Revisiting', 'Scaling'))} "
                 f"{rng.choice(v.OBJECTS)} {rng.choice(v.QUALIFIERS)} ({len(papers)})").capitalize()
        if arxiv and rng.random() < 0.5:
            url = f"https://arxiv.org/abs/{arxiv}"
        else:
            url = rng.choice(v.VENUE_URLS).format(year=year, n=len(papers) + 1)
        names = tuple(rng.sample(people, min(len(people), rng.randint(*authors))))
        papers.append(Paper(arxiv, title, url, year, names,
                            publisher_field(rng, organisations, names)))
    return papers


def _models() -> list[str]:
    return [f"{family}{'-' if family in ('GPT', 'Phi') else ' '}{version}"
            for family, versions in v.MODEL_FAMILIES for version in versions]


NO_ARXIV_SHARE = 0.08
"""Fraction of papers with no arXiv id, known by title and URL, by default."""


def make_pools(rng: random.Random, count: int, directory_pages: int, paper_share: float,
               people_per_record: float, authors: tuple[int, int],
               no_arxiv_share: float = NO_ARXIV_SHARE) -> Pools:
    """The pools for ``count`` records and ``directory_pages`` directory pages."""
    references = max(3, count // 5)
    names = _benchmark_names(rng, count + references + directory_pages)
    ids = [slugify(name) for name in names]
    people = _people(rng, max(10, int(count * people_per_record)))
    organisations = _organisations()
    paper_count = max(1, round(count * (1 - paper_share)))
    papers = _papers(rng, paper_count, people, organisations, authors, no_arxiv_share)
    paper_of = list(range(min(count, paper_count)))
    paper_of += [rng.randrange(paper_count) for _ in range(count - len(paper_of))]
    rng.shuffle(paper_of)
    return Pools(
        names=names, ids=ids,
        reference_ids=ids[count: count + references],
        reference_names=names[count: count + references],
        directory_names=names[count + references:],
        papers=papers, paper_of=paper_of, people=people, organisations=organisations,
        models=_models(),
    )
