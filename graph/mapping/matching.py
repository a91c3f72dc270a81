"""Matching harness entries: to the curated benchmarks, and to each other.

``graph.mapping.identity`` decides which benchmark each record describes; this module is its
step for harness registry entries, the records that state no catalog id. The rule is the
identity rule (names, aliases and ``Name (ABBR)``, compared as slugs), checked against what
the entries say of themselves: the papers they cite and the datasets they load. A check that
fails is a warning, and no merge. Nothing ever merges on a paper or a dataset id alone: a
match starts from a name.

Papers *agree* when two sides share an arXiv id or a DOI, or cite a paper of the same title
(``graph.titles.same_title``: the same words, or one the other's first words). They
*disagree* when they do not agree and both sides name papers by an id of one kind (both an
arXiv id, or both a DOI): a title that differs is no evidence, since one paper is cited under
its preprint's and its proceedings' titles. Dataset ids are compared case-folded, and only
ids: a web address a harness fetches a file from (``https://…/test.csv``) says where the file
is, not which dataset it holds, and is no evidence. Because mirrors exist
(``allenai/winogrande``, ``winogrande``, ``AI-ModelScope/winogrande_val``), only two sides
that both state dataset ids and share none, not even a dataset's name under another owner or
as the first or last words of another's (``hendrycks_math`` holds ``math``; ``ChemBench4K``
does not hold ``ChemBench``, whose name runs on in the same word), disagree, and that counts
only where their papers do not agree. Names of the same letters are one name, whatever their
spacing: lmms-eval's ``SEED-Bench`` and OpenCompass's ``SeedBench`` (of seed science) are told
apart by an override. Ids that name one dataset under two names
(``Hennara/aexams``, ``OALL/Arabic_EXAMS``) are mirrors in the overrides (``[[mirror]]``),
through which ``identity`` reads every entry's dataset ids.

So a name match is vetoed by papers that disagree, or by datasets that disagree where no
paper agrees: inspect_evals' ChemBench (arXiv 2404.01475, ``jablonkagroup/ChemBench``) and
OpenCompass's ChemBench (no paper, ``opencompass/ChemBench4K``) are two benchmarks.

1. An entry that a curated record (a catalog page, a directory page) claims under one of its
   slugs, the first found, describes that benchmark: it is *anchored* there. Where the entry
   and the curated records' papers disagree, it is not (a warning).
2. Entries answering to one slug join, in a fixed order that depends on what the entries
   say and never on the order they were read: first the pairs whose papers agree, then, slug
   by slug in sorted order, everything answering to the slug, as long as what joins stays
   consistent: at most one anchor, no papers that disagree, no datasets that disagree where
   the papers do not agree. Where a slug is answered by groups that cannot join, those stay
   apart (a warning), and the groups that say nothing of themselves (no anchor, paper id or
   dataset) join the largest of them, or, when two are equally large, only each other.
3. A group's benchmark is its anchor's; else its own id: the slug most of its entries give
   as their name or id, then the shortest, then the first in order, but never an id a
   curated record's benchmark or another group has (then the harness's key is added:
   ``gsm8k_helm``).

Entries that name no benchmark alike are not matched on evidence alone, not even two that
load the same datasets and cite the same paper: the parts a harness runs one benchmark as
(HELM's ``winogrande_afr_*``, one per language) share both and stay parts, and suites share
datasets and cite papers in common (lm-eval's ``basque_bench`` and ``catalan_bench`` both load
``facebook/flores`` and cite Belebele's paper). Such pairs are listed by ``shared_evidence``
to be checked by hand; the ones that are one benchmark are overrides.

The overrides (``graph.mapping.overrides``) are applied by ``identity`` after this step.
"""

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from graph.slug import slugify
from graph.titles import same_title

Key = tuple[str, str]
"""An entry by its harness and its id there."""

DOI_PREFIX = "doi:"
"""How a DOI is kept among a record's paper ids (``doi:10.18653/v1/…``, lower case), beside
bare arXiv ids."""


@dataclass(frozen=True)
class Evidence:
    """What a side says of itself beyond its names: the ids of the papers it cites (bare arXiv
    ids, ``doi:``-prefixed DOIs), their titles, and the dataset ids it loads (case-folded)."""

    papers: frozenset[str] = frozenset()
    titles: tuple[str, ...] = ()
    datasets: frozenset[str] = frozenset()


def papers_agree(one: Evidence, other: Evidence) -> bool:
    """Whether the two cite one paper: a shared arXiv id or DOI, or a same title."""
    return bool(one.papers & other.papers) or any(
        same_title(a, b) for a in one.titles for b in other.titles)


def papers_disagree(one: Evidence, other: Evidence) -> bool:
    """Whether the two cite other papers: ids of one kind on both sides, and no agreement."""
    return bool(_id_kinds(one.papers) & _id_kinds(other.papers)) and not papers_agree(one, other)


def datasets_disagree(one: Evidence, other: Evidence) -> bool:
    """Whether both load datasets by id and share none, even as a mirror, with no paper that
    agrees to outweigh it."""
    ones, others = _hub_ids(one.datasets), _hub_ids(other.datasets)
    return bool(ones and others and ones.isdisjoint(others)
                and not _names_overlap(_dataset_names(ones), _dataset_names(others))
                and not papers_agree(one, other))


def _hub_ids(datasets: frozenset[str]) -> frozenset[str]:
    """The ids among ``datasets``, without the web addresses (a file on a server names where
    the harness fetches it, not which dataset it is)."""
    return frozenset(dataset for dataset in datasets if "://" not in dataset)


def _dataset_names(datasets: Iterable[str]) -> set[tuple[str, ...]]:
    """The datasets' names without their owners, as the words of their slugs: a mirror keeps
    the name under another owner (``openai/gsm8k``, ``AI-ModelScope/gsm8k``, ``gsm8k``;
    ``Maxwell-Jia/AIME_2024``, ``opencompass/aime2024``)."""
    return {tuple(slugify(dataset.rsplit("/", 1)[-1]).split("_")) for dataset in datasets}


_SHORTEST_NAME = 4
"""The shortest dataset name that may be the first or last words of another's."""


def _names_overlap(ones: set[tuple[str, ...]], others: set[tuple[str, ...]]) -> bool:
    """Whether a dataset name of one side is another's, or its first or last words: a mirror
    often adds its split or its source to the name as words of their own
    (``winogrande_val``, ``civil_comments_helm``, ``MATH-lighteval``, ``hendrycks_math``),
    where another dataset's name runs on in the same word (``ChemBench4K`` is not
    ``ChemBench``). Joined words shorter than ``_SHORTEST_NAME`` count only when whole."""
    return any(_within(a, b) or _within(b, a) for a in ones for b in others)


def _within(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    name = "".join(short)
    if name == "".join(long):
        return True
    ends = {"".join(long[:n]) for n in range(1, len(long))}
    ends |= {"".join(long[n:]) for n in range(1, len(long))}
    return len(name) >= _SHORTEST_NAME and name in ends


def _id_kinds(papers: Iterable[str]) -> set[str]:
    return {"doi" if paper.startswith(DOI_PREFIX) else "arxiv" for paper in papers}


@dataclass(frozen=True)
class Candidate:
    """An entry to match: what it answers to, what it may be called, what it says of itself."""

    key: Key
    position: int
    """Its place among the build's records, to name it in a problem."""
    slugs: tuple[str, ...]
    """Every slug it answers to (its names' forms, its id, its aliases), first the names."""
    own: tuple[str, ...]
    """The slugs it may give a benchmark as id: its names' (abbreviation dropped) and its id."""
    evidence: Evidence = Evidence()


@dataclass(frozen=True)
class Disagreement:
    """An entry kept apart from a benchmark it is named like."""

    position: int
    reason: str
    value: str
    field: str = "papers"
    """The entry's field the disagreement is about: ``papers`` or ``datasets``."""


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
    titles: list[str]
    datasets: set[str]

    @property
    def first(self) -> Key:
        return min(member.key for member in self.members)

    @property
    def evidence(self) -> Evidence:
        return Evidence(frozenset(self.papers), tuple(self.titles), frozenset(self.datasets))

    def identified(self) -> bool:
        """Whether it says who it is beyond its names, so that it can refuse a join: an
        anchor, a paper's id, a dataset."""
        return bool(self.anchors or self.papers or self.datasets)

    def absorb(self, other: "_Group") -> None:
        self.members += other.members
        self.anchors |= other.anchors
        self.papers |= other.papers
        self.titles += [t for t in other.titles if t not in self.titles]
        self.datasets |= other.datasets


def _consistent(a: _Group, b: _Group) -> bool:
    one, other = a.evidence, b.evidence
    return (len(a.anchors | b.anchors) <= 1 and not papers_disagree(one, other)
            and not datasets_disagree(one, other))


class _Joiner:
    def __init__(self, candidates: Sequence[Candidate], anchors: Mapping[Key, str],
                 anchor_papers: Mapping[str, frozenset[str]]) -> None:
        self.parent = {c.key: c.key for c in candidates}
        self.groups: dict[Key, _Group] = {}
        for c in candidates:
            anchor = anchors.get(c.key)
            theirs = anchor_papers.get(anchor, frozenset()) if anchor else frozenset()
            self.groups[c.key] = _Group([c], {anchor} if anchor else set(),
                                        set(c.evidence.papers | theirs),
                                        list(c.evidence.titles), set(c.evidence.datasets))

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
        self.groups[keep].absorb(self.groups.pop(drop))
        self.parent[drop] = keep
        return True


def match_entries(candidates: Sequence[Candidate], curated: Mapping[str, str],
                  curated_papers: Mapping[str, frozenset[str]]) -> Matches:
    """The benchmark of each candidate (steps 1 to 3 of the module)."""
    matches = Matches()
    anchors, refused = _anchor(candidates, curated, curated_papers, matches)
    joiner = _Joiner(candidates, anchors, curated_papers)
    by_slug: dict[str, list[Candidate]] = {}
    for candidate in sorted(candidates, key=lambda c: c.key):
        for slug in dict.fromkeys(candidate.slugs):
            by_slug.setdefault(slug, []).append(candidate)
    answering = sorted((slug, group) for slug, group in by_slug.items() if len(group) > 1)
    for _slug, group in answering:  # step 2, first the pairs whose papers agree
        for a, b in combinations(group, 2):
            if papers_agree(a.evidence, b.evidence):
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


def _anchor(candidates: Sequence[Candidate], curated: Mapping[str, str],
            curated_papers: Mapping[str, frozenset[str]], matches: Matches
            ) -> tuple[dict[Key, str], set[str]]:
    """Step 1: the curated benchmark each candidate is anchored at, and the curated
    benchmarks some candidate was refused (their ids are not free for another group)."""
    anchors: dict[Key, str] = {}
    refused: set[str] = set()
    for candidate in candidates:
        found = next((curated[s] for s in candidate.slugs if s in curated), None)
        if found is None:
            continue
        theirs = curated_papers.get(found, frozenset())
        if papers_disagree(candidate.evidence, Evidence(theirs)):
            refused.add(found)
            matches.disagreements.append(Disagreement(
                candidate.position, "the catalogued benchmark of this name cites another "
                "paper: kept apart", _cites(found, theirs)))
        else:
            anchors[candidate.key] = found
    return anchors, refused


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
    if papers_disagree(group.evidence, other.evidence):
        return Disagreement(position, "entries of the same name cite another paper: kept apart",
                            _cites(slug, frozenset(other.papers)))
    return Disagreement(position, "entries of the same name load other datasets, and no paper "
                        "they cite agrees: kept apart",
                        f"{slug}: {', '.join(sorted(other.datasets))}", "datasets")


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
    if not papers:
        return benchmark
    arxiv = sorted(p for p in papers if not p.startswith(DOI_PREFIX))
    dois = sorted(p.removeprefix(DOI_PREFIX) for p in papers if p.startswith(DOI_PREFIX))
    said = ([f"arXiv {', '.join(arxiv)}"] if arxiv else []) + (
        [f"DOI {', '.join(dois)}"] if dois else [])
    return f"{benchmark}: {'; '.join(said)}"


@dataclass(frozen=True)
class SharedEvidence:
    """Two entries that name no benchmark alike, but load a dataset and cite a paper in
    common: a merge the rule does not make, to be checked by hand."""

    one: Key
    other: Key
    datasets: tuple[str, ...]
    papers: tuple[str, ...]


def shared_evidence(candidates: Sequence[Candidate], described: Mapping[Key, str]
                    ) -> list[SharedEvidence]:
    """Every pair of ``candidates`` that ``described`` puts on two benchmarks although they
    share a dataset id and a paper's id, in key order."""
    by_dataset: dict[str, list[Candidate]] = {}
    for candidate in sorted(candidates, key=lambda c: c.key):
        for dataset in candidate.evidence.datasets:
            by_dataset.setdefault(dataset, []).append(candidate)
    pairs: set[tuple[Key, Key]] = set()
    found: list[SharedEvidence] = []
    for dataset in sorted(by_dataset):
        for a, b in combinations(by_dataset[dataset], 2):
            if (a.key, b.key) in pairs or described.get(a.key) == described.get(b.key):
                continue
            papers = a.evidence.papers & b.evidence.papers
            if papers:
                pairs.add((a.key, b.key))
                found.append(SharedEvidence(
                    a.key, b.key, tuple(sorted(a.evidence.datasets & b.evidence.datasets)),
                    tuple(sorted(papers))))
    return sorted(found, key=lambda s: (s.one, s.other))
