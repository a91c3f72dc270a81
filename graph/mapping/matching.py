"""Matching harness entries: to the curated benchmarks, and to each other.

``graph.mapping.identity`` decides which benchmark each record describes; this module is its
step for harness registry entries, the records that state no catalog id. The rule is the
identity rule (names, aliases and ``Name (ABBR)``, compared as slugs), plus one check: where
both sides name papers by arXiv id, the match must share one. A disagreement is a warning,
and no merge. Nothing ever merges on an arXiv id or a dataset id alone: a match starts from a
name.

1. An entry that a curated record (a catalog page, a directory page) claims under one of its
   slugs, the first found, describes that benchmark: it is *anchored* there. Where the entry
   and the curated records both cite papers and share none, it is not (a warning).
2. Entries answering to one slug join, in a fixed order that depends on what the entries
   say and never on the order they were read: first the pairs whose papers agree, then, slug
   by slug in sorted order, everything answering to the slug, as long as what joins stays
   consistent: at most one anchor, and papers that overlap wherever both sides cite any.
   Where a slug is answered by groups that cannot join (two papers, two anchors), those stay
   apart (a warning), and the groups that cite nothing join the largest of them, or, when
   two are equally large, only each other.
3. A group's benchmark is its anchor's; else its own id: the slug most of its entries give
   as their name or id, then the shortest, then the first in order, but never an id a
   curated record's benchmark or another group has (then the harness's key is added:
   ``gsm8k_helm``).

The overrides (``graph.mapping.overrides``) are applied by ``identity`` after this step.
"""

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

Key = tuple[str, str]
"""An entry by its harness and its id there."""


@dataclass(frozen=True)
class Candidate:
    """An entry to match: what it answers to, what it may be called, what it cites."""

    key: Key
    position: int
    """Its place among the build's records, to name it in a problem."""
    slugs: tuple[str, ...]
    """Every slug it answers to (its names' forms, its id, its aliases), first the names."""
    own: tuple[str, ...]
    """The slugs it may give a benchmark as id: its names' (abbreviation dropped) and its id."""
    papers: frozenset[str]


@dataclass(frozen=True)
class Disagreement:
    """An entry kept apart from a benchmark it is named like."""

    position: int
    reason: str
    value: str


@dataclass
class Matches:
    """Which benchmark each matched entry describes, and the disagreements on the way."""

    described: dict[Key, str] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)


@dataclass
class _Group:
    """Entries joined so far: union-find node data, kept on the root."""

    members: list[Candidate]
    anchors: set[str]
    papers: set[str]

    @property
    def first(self) -> Key:
        return min(member.key for member in self.members)

    def identified(self) -> bool:
        """Whether it says who it is beyond its names: an anchor, or papers."""
        return bool(self.anchors or self.papers)


def _consistent(a: _Group, b: _Group) -> bool:
    return len(a.anchors | b.anchors) <= 1 and not (
        a.papers and b.papers and a.papers.isdisjoint(b.papers))


class _Joiner:
    def __init__(self, candidates: Sequence[Candidate], anchors: Mapping[Key, str],
                 anchor_papers: Mapping[str, frozenset[str]]) -> None:
        self.parent = {c.key: c.key for c in candidates}
        self.groups: dict[Key, _Group] = {}
        for c in candidates:
            anchor = anchors.get(c.key)
            papers = set(c.papers) | set(anchor_papers.get(anchor, ()) if anchor else ())
            self.groups[c.key] = _Group([c], {anchor} if anchor else set(), papers)

    def root(self, key: Key) -> Key:
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def join(self, a: Key, b: Key) -> bool:
        """Joins the groups of ``a`` and ``b`` if they are consistent; whether they are one."""
        ra, rb = self.root(a), self.root(b)
        if ra == rb:
            return True
        ga, gb = self.groups[ra], self.groups[rb]
        if not _consistent(ga, gb):
            return False
        keep, drop = (ra, rb) if ga.first <= gb.first else (rb, ra)
        kept, dropped = self.groups[keep], self.groups.pop(drop)
        kept.members += dropped.members
        kept.anchors |= dropped.anchors
        kept.papers |= dropped.papers
        self.parent[drop] = keep
        return True


def match_entries(candidates: Sequence[Candidate], curated: Mapping[str, str],
                  curated_papers: Mapping[str, frozenset[str]]) -> Matches:
    """The benchmark of each candidate (steps 1 to 3 of the module)."""
    matches = Matches()
    anchors: dict[Key, str] = {}
    refused: set[str] = set()
    for candidate in candidates:
        found = next((curated[s] for s in candidate.slugs if s in curated), None)
        if found is None:
            continue
        theirs = curated_papers.get(found, frozenset())
        if candidate.papers and theirs and candidate.papers.isdisjoint(theirs):
            refused.add(found)
            matches.disagreements.append(Disagreement(
                candidate.position, "the catalogued benchmark of this name cites another "
                "paper: kept apart", _cites(found, theirs)))
        else:
            anchors[candidate.key] = found
    joiner = _Joiner(candidates, anchors, curated_papers)
    by_slug: dict[str, list[Candidate]] = {}
    for candidate in sorted(candidates, key=lambda c: c.key):
        for slug in dict.fromkeys(candidate.slugs):
            by_slug.setdefault(slug, []).append(candidate)
    answering = sorted((slug, group) for slug, group in by_slug.items() if len(group) > 1)
    for _slug, group in answering:  # step 2, first the pairs whose papers agree
        for a, b in combinations(group, 2):
            if a.papers & b.papers:
                joiner.join(a.key, b.key)
    for slug, group in answering:
        _join_on(slug, group, joiner, matches)
    taken = set(curated.values()) | refused
    for root in sorted(joiner.groups, key=lambda r: (-len(joiner.groups[r].members), r)):
        found_group = joiner.groups[root]
        benchmark = next(iter(found_group.anchors), None) or _own_id(found_group, taken)
        taken.add(benchmark)
        for member in found_group.members:
            matches.described[member.key] = benchmark
    return matches


def _join_on(slug: str, group: list[Candidate], joiner: _Joiner, matches: Matches) -> None:
    """Step 2 for one slug: everything answering to it joins, as far as it stays consistent."""
    roots = sorted({joiner.root(c.key) for c in group}, key=lambda r: joiner.groups[r].first)
    plain = [r for r in roots if not joiner.groups[r].identified()]
    apart: list[Key] = []  # identified groups that could not join any before them
    for root in (r for r in roots if joiner.groups[r].identified()):
        if not any(joiner.join(other, root) for other in apart):
            apart.append(root)
    kept = sorted({joiner.root(r) for r in apart}, key=lambda r: joiner.groups[r].first)
    target: Key | None = kept[0] if len(kept) == 1 else None
    if len(kept) > 1:
        sizes = [len(joiner.groups[r].members) for r in kept]
        largest = kept[sizes.index(max(sizes))]
        if sizes.count(max(sizes)) == 1:
            target = largest
        for root in kept:
            if root != largest:
                matches.disagreements.append(_kept_apart(slug, joiner.groups[root],
                                                         joiner.groups[largest]))
    for root in plain:
        joiner.join(target if target is not None else plain[0], root)


def _kept_apart(slug: str, group: _Group, other: _Group) -> Disagreement:
    """The warning on the first entry of ``group``, which answers to ``slug`` as ``other``'s
    entries do but cannot join them."""
    position = min(group.members, key=lambda m: m.key).position
    if group.anchors and other.anchors and group.anchors != other.anchors:
        return Disagreement(position, "entries of the same name describe another catalogued "
                            "benchmark: kept apart", f"{slug}: {', '.join(sorted(other.anchors))}")
    return Disagreement(position, "entries of the same name cite another paper: kept apart",
                        _cites(slug, frozenset(other.papers)))


def _own_id(group: _Group, taken: set[str]) -> str:
    """The id a group without an anchor gives its benchmark (step 3 of the module)."""
    counts = Counter(slug for member in group.members for slug in dict.fromkeys(member.own))
    ranked = sorted(counts, key=lambda slug: (-counts[slug], len(slug), slug))
    for slug in ranked:
        if slug not in taken:
            return slug
    first = min(group.members, key=lambda m: m.key)
    base = f"{ranked[0]}_{first.key[0]}" if ranked else first.key[0]
    candidate, number = base, 1
    while candidate in taken:
        number += 1
        candidate = f"{base}_{number}"
    return candidate


def _cites(benchmark: str, papers: frozenset[str]) -> str:
    return f"{benchmark}: arXiv {', '.join(sorted(papers))}" if papers else benchmark
