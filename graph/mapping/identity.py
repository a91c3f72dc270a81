"""Which benchmark a record describes, and which benchmark a title names: one rule, here only.

A record says who its benchmark is with an id (a catalog page's ``page.id``), names (a
catalog page's name, a directory page's title, a harness entry's display name and its id in
the harness), aliases, the papers it cites (by arXiv id, DOI and title) and, for a harness
entry, the dataset ids it loads. A name that ends in a bracketed abbreviation counts as two
more: ``BIG-Bench Hard (BBH)`` is also the name ``BIG-Bench Hard`` and the alias ``BBH``
(``graph.mapping.names``). All of it is compared as slugs, after every
record is read, in three tiers, each looking up the claims of the tiers before it:

1. a record with an id describes the benchmark of that id;
2. a curated record without one (a directory page) describes the benchmark that a record
   with an id claims under one of its names (its full name first, then the name before the
   abbreviation, then the abbreviation); otherwise its own benchmark, whose id is the slug of
   its name (abbreviation dropped);
3. a harness registry entry describes the curated benchmark it is named like, confirmed by
   the papers where both sides cite one, and otherwise the benchmark of the entries of
   other harnesses named like it (``graph.mapping.matching``: papers that disagree, or
   datasets that disagree where no paper agrees, are a warning and no merge; nothing merges
   on a paper or a dataset id alone). Then the overrides, data for the known misses
   (``graph.mapping.overrides``), have the last word. An entry the overrides call no
   benchmark (a ``collection`` of other benchmarks' tasks, an entry to ``leave-out``) is
   matched to nothing: it answers to no name, and its node is its harness's own
   (``grouping_id``: ``lm_eval_leaderboard``), for the mapping to state as a grouping, not
   a benchmark (``BenchmarkIndex.kind_of``); one left out is a warning too. A ``corpus`` is
   matched as any entry is, and only its kind differs.

A title named by reference (a directory page's related entry) resolves the same way against
every record's claims, those of records without an id included, so a related entry
``BIG-Bench Hard`` lands on the node of a page titled ``BIG-Bench Hard (BBH)``. When several
benchmarks claim one slug, a record of an earlier tier beats one of a later (and an entry the
rule matched beats one an override moved), then an id beats a name and a name beats an alias,
then the smaller id wins: the answer never depends on the order the records were read in.

Duplicates are decided here too (``stated_claim``): only two records of one kind that state
the same id (a directory page states the slug of its title, a harness entry its id in its
harness) are one record too many.

All of this reads a record through its ``RecordIdentity`` alone (``identity``): its naming,
its claim and, for a harness entry, its key, name and tasks. An incremental build keeps that
small value for every record and so makes the index again without the records themselves
(``graph.store.state``).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from graph.ingest.records import CatalogPage, DirectoryPage, HarnessEntry, HarnessModel, Record
from graph.ingest.records.harness_snapshot import Entry
from graph.mapping.matching import (
    DOI_PREFIX,
    Candidate,
    Evidence,
    Key,
    SharedEvidence,
    match_entries,
    shared_evidence,
)
from graph.mapping.names import forms, own_id, split_abbreviation
from graph.mapping.overrides import NO_OVERRIDES, EntryKind, Overrides
from graph.mapping.papers import paper_ids
from graph.slug import node_key, slugify

# Ranks of a claim on a slug: lower wins. Records with an id claim first, harness entries last,
# and last of all the entries an override moved: an override mends an entry whose name misleads
# (lm-eval's kobest README is headed 'LAMBADA'), so its names never take a slug from another's.
(_ID, _NAME, _ALIAS, _UNSTATED_NAME, _UNSTATED_ALIAS, _ENTRY_NAME, _ENTRY_ALIAS, _PINNED_NAME,
 _PINNED_ALIAS) = range(9)


@dataclass(frozen=True)
class StatedClaim:
    """What a record claims by itself, before any other record is read: the key of the
    duplicate rule (one record per kind and id) and the field an error names."""

    kind: str
    benchmark_id: str
    """Empty when the record gives nothing to make an id of (a title ``***``)."""
    field: str


@dataclass(frozen=True)
class Naming:
    """How one record names its benchmark, whatever the record's kind."""

    benchmark_id: str | None
    """The id the record states, if its kind has one."""
    names: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    papers: frozenset[str] = frozenset()
    """The ids of the papers it cites for the benchmark: arXiv ids (without version) as they
    are, DOIs in lower case after ``doi:`` (``matching.DOI_PREFIX``)."""
    titles: tuple[str, ...] = ()
    """The titles of the papers a harness entry cites, as written."""
    datasets: frozenset[str] = frozenset()
    """The dataset ids a harness entry loads, case-folded."""

    @property
    def evidence(self) -> Evidence:
        return Evidence(self.papers, self.titles, self.datasets)


def naming(record: Record) -> Naming:
    """The id, names, aliases, papers and datasets ``record`` gives its benchmark."""
    match record:
        case CatalogPage():
            page = record.page
            ids = paper_ids(page.paper)
            return Naming(page.id, (page.name,), tuple(page.aliases),
                          _paper_keys([(ids.arxiv, ids.doi)]))
        case DirectoryPage():
            return Naming(None, (record.title,))
        case HarnessEntry():
            return _entry_naming(record.entry)
        case HarnessModel():
            return Naming(None, ())  # about a model: it names no benchmark


def _entry_naming(entry: Entry) -> Naming:
    return Naming(None, (entry.name, entry.id), tuple(entry.aliases),
                  _paper_keys([(p.arxiv, p.doi) for p in entry.papers]),
                  tuple(dict.fromkeys(p.title for p in entry.papers if p.title)),
                  frozenset(d.id.casefold() for d in entry.datasets))


def _paper_keys(ids: Iterable[tuple[str | None, str | None]]) -> frozenset[str]:
    """Papers' keys from their (arXiv id, DOI) pairs: the arXiv id, ``doi:`` and the DOI."""
    keys: set[str] = set()
    for arxiv, doi in ids:
        keys.update(([arxiv] if arxiv else []) + ([DOI_PREFIX + doi.lower()] if doi else []))
    return frozenset(keys)


def stated_claim(record: Record) -> StatedClaim:
    """The id ``record`` states on its own: a catalog page's id, a directory page's title
    slugged (so two pages titled ``GPQA`` and ``gpqa`` are duplicates; ``GPQA`` and
    ``GPQA (Diamond)`` are two records about one benchmark), a harness entry's id in its
    harness (two snapshots of one harness repeat every entry)."""
    match record:
        case CatalogPage():
            return StatedClaim("catalog page", record.page.id, "page.id")
        case DirectoryPage():
            return StatedClaim("directory page", slugify(record.title), "title")
        case HarnessEntry():
            return StatedClaim(f"{record.package.harness} entry", record.entry.id, "id")
        case HarnessModel():
            return StatedClaim(f"{record.package.harness} model", record.model.id, "id")


@dataclass(frozen=True)
class EntryIdentity:
    """What the index reads of a harness entry beyond its naming."""

    key: Key
    """Its harness and its id there (``HarnessEntry.key``)."""
    name: str
    tasks: tuple[str, ...]


@dataclass(frozen=True)
class RecordIdentity:
    """Everything the index reads of one record (``identity``): small, picklable, kept by an
    incremental build in place of the record."""

    naming: Naming
    claim: StatedClaim
    entry: EntryIdentity | None = None
    """Set for a harness entry (the third tier), None for a curated record."""
    about_model: bool = False
    """A record about a model (``HarnessModel``): the index reads nothing of it."""


def identity(record: "Record | RecordIdentity") -> RecordIdentity:
    """What the index reads of ``record`` (itself when it is one already)."""
    if isinstance(record, RecordIdentity):
        return record
    entry = None
    if isinstance(record, HarnessEntry):
        entry = EntryIdentity(record.key, record.entry.name, tuple(record.entry.tasks))
    return RecordIdentity(naming(record), stated_claim(record), entry,
                          isinstance(record, HarnessModel))


Identified = Record | RecordIdentity
"""A record, or what the index reads of one: the index's methods take either."""


class _Claims:
    """Slug -> the (rank, benchmark id) that claims it best."""

    def __init__(self) -> None:
        self.best: dict[str, tuple[int, str]] = {}

    def claim(self, slugs: Iterable[str], rank: int, benchmark_id: str) -> None:
        best = self.best
        for slug in slugs:
            current = best.get(slug)
            if slug and (current is None or (rank, benchmark_id) < current):
                best[slug] = (rank, benchmark_id)

    def claim_naming(self, naming: Naming, benchmark_id: str, name_rank: int,
                     alias_rank: int) -> None:
        for written in naming.names:
            as_names, as_aliases = forms(written)
            self.claim(as_names, name_rank, benchmark_id)
            self.claim(as_aliases, alias_rank, benchmark_id)
        for written in naming.aliases:
            as_names, as_aliases = forms(written)
            self.claim(as_names + as_aliases, alias_rank, benchmark_id)

    def ids(self) -> dict[str, str]:
        return {slug: benchmark_id for slug, (_, benchmark_id) in self.best.items()}


def _lookup(by_slug: dict[str, str], names: Sequence[str]) -> str | None:
    """The benchmark claimed under the first of ``names``' forms that any record claims."""
    for written in names:
        as_names, as_aliases = forms(written)
        for slug in as_names + as_aliases:
            found = by_slug.get(slug)
            if found is not None:
                return found
    return None


@dataclass(frozen=True)
class TaskMove:
    """Tasks of a harness entry that are another benchmark's (an override's ``[[tasks]]``)."""

    benchmark_id: str
    tasks: tuple[str, ...]


@dataclass(frozen=True)
class IndexProblem:
    """Something to warn about one record, found while matching: its place among the records
    indexed, then the warning's field, reason and value."""

    position: int
    field: str
    reason: str
    value: str


@dataclass(frozen=True)
class BenchmarkIndex:
    """Which benchmark each record describes and each title names, over one build."""

    stated: dict[str, str]
    """Slug -> benchmark id, claimed by records that state an id."""
    named: dict[str, str]
    """Slug -> benchmark id, claimed by every record (those that state an id first)."""
    stated_ids: frozenset[str]
    """The ids some record states: benchmarks whose name a record with an id gives."""
    entries: dict[Key, str]
    """(harness, entry id) -> the benchmark id the harness entry describes."""
    entry_labels: dict[Key, str] | None = None
    """The entries that name their benchmark, one per benchmark no curated record describes,
    and the name each gives it: its own, or its override's where its own names another
    benchmark (lm-eval's kobest README is headed 'LAMBADA')."""
    moved_tasks: dict[Key, tuple[TaskMove, ...]] | None = None
    problems: tuple[IndexProblem, ...] = ()
    kinds: dict[Key, EntryKind] | None = None
    """The entries the overrides call no benchmark, and what each is instead."""
    titles: dict[str, str] | None = None
    """The paper titles harness entries write in more than one case, by their case-folded
    form, each with the form that has the most capitals: BibTeX styles lower a title's
    unbraced words, and a harness's BibTeX is often written so (``Babilong`` for the paper's
    ``BABILong``); the capitals are the authors'."""

    def described_by(self, record: Identified) -> str:
        """The id of the benchmark ``record`` is about (the module's tiers)."""
        known = identity(record)
        if known.entry is not None:
            return self.entries[known.entry.key]
        found = known.naming
        if found.benchmark_id is not None:
            return found.benchmark_id
        return _lookup(self.stated, found.names + found.aliases) or own_id(found.names[0])

    def resolve(self, title: str) -> str:
        """The id of the benchmark a reference titled ``title`` means."""
        return _lookup(self.named, (title,)) or own_id(title)

    def has_stated_name(self, benchmark_id: str) -> bool:
        """Whether a record that states this id names the benchmark: then a title another
        record gives it is one of its other names, not its name."""
        return benchmark_id in self.stated_ids

    def label_from(self, record: Identified) -> str | None:
        """The benchmark's name, if this entry is the one that names it (else the entry's name
        is one of the benchmark's other names); None for a record that is no harness entry."""
        entry = identity(record).entry
        return None if entry is None else (self.entry_labels or {}).get(entry.key)

    def tasks_moved(self, record: Identified) -> tuple[TaskMove, ...]:
        """The entry's tasks that are another benchmark's, by override."""
        entry = identity(record).entry
        return () if entry is None else (self.moved_tasks or {}).get(entry.key, ())

    def title_as(self, title: str) -> str:
        """How a paper's ``title`` is written: the form with the most capitals of those the
        harness entries write that differ from it only in case, so that one paper has one
        title whichever entry states it."""
        return (self.titles or {}).get(title.casefold(), title)

    def kind_of(self, record: Identified) -> EntryKind:
        """What the record's node is: a benchmark, or for a harness entry the overrides call
        no benchmark, a ``collection`` of other benchmarks' tasks (its node a grouping,
        ``grouping_id``, whose members are the benchmarks ``tasks_moved`` names), one to
        ``leave-out``, or a ``corpus``. It depends on the record alone (its key and the
        bundled overrides), never on the other records."""
        entry = identity(record).entry
        return "benchmark" if entry is None else (self.kinds or {}).get(entry.key, "benchmark")


def index_benchmarks(records: Iterable[Identified],
                     overrides: Overrides = NO_OVERRIDES) -> BenchmarkIndex:
    """The index of every record of one build; the same whatever the records' order."""
    known = [identity(record) for record in records]
    namings = [found.naming for found in known]
    claims = _Claims()
    for found in namings:
        if found.benchmark_id is not None:
            claims.claim((found.benchmark_id,), _ID, found.benchmark_id)
            claims.claim_naming(found, found.benchmark_id, _NAME, _ALIAS)
    stated = claims.ids()
    papers: dict[str, frozenset[str]] = {}
    curated: set[str] = set()
    for record, found in zip(known, namings, strict=True):
        if record.entry is not None or record.about_model:
            continue
        if found.benchmark_id is None:
            described = _lookup(stated, found.names + found.aliases) or own_id(found.names[0])
            claims.claim_naming(found, described, _UNSTATED_NAME, _UNSTATED_ALIAS)
        else:
            described = found.benchmark_id
        curated.add(described)
        papers[described] = papers.get(described, frozenset()) | found.papers
    entries = [(i, r.entry) for i, r in enumerate(known) if r.entry is not None]
    harvested = _HarvestedTier(entries, namings, overrides)
    harvested.match(claims, papers)
    stated_ids = frozenset(f.benchmark_id for f in namings if f.benchmark_id is not None)
    return BenchmarkIndex(
        stated, claims.ids(), stated_ids, harvested.described,
        harvested.namers(curated), harvested.moves(claims.ids()), tuple(harvested.problems),
        harvested.kinds(), _title_forms(namings))


def _title_forms(namings: Iterable[Naming]) -> dict[str, str]:
    """``BenchmarkIndex.titles``: of the forms of one title, that with the most capitals (the
    first in code point order among as many)."""
    forms: dict[str, set[str]] = {}
    for found in namings:
        for title in found.titles:
            forms.setdefault(title.casefold(), set()).add(title)
    return {folded: min(written, key=lambda t: (-sum(c.isupper() for c in t), t))
            for folded, written in forms.items() if len(written) > 1}


def grouping_id(key: Key) -> str:
    """The node of an entry that is no benchmark: its harness's key and its id there, so that
    it never takes a benchmark's (``lm_eval_leaderboard``)."""
    return node_key(f"{key[0]}_{key[1]}")


class _HarvestedTier:
    """Tier 3 of the module: the harness entries, matched, then overridden."""

    def __init__(self, entries: list[tuple[int, EntryIdentity]], namings: list[Naming],
                 overrides: Overrides) -> None:
        self.entries = entries
        self.namings = namings
        self.overrides = overrides
        self.described: dict[Key, str] = {}
        self.problems: list[IndexProblem] = []

    def kinds(self) -> dict[Key, EntryKind]:
        """The entries of the build that the overrides call no benchmark, and what each is."""
        kinds = {r.key: self.overrides.kind_of(r.key) for _, r in self.entries}
        return {key: kind for key, kind in kinds.items() if kind != "benchmark"}

    def _grouped(self, key: Key) -> bool:
        return self.overrides.kind_of(key) in ("collection", "leave-out")

    def candidate(self, position: int, record: EntryIdentity) -> Candidate:
        """What the matching step needs to know of one entry: its names' slugs, and its
        evidence, its dataset ids read through the overrides' mirrors."""
        found = self.namings[position]
        slugs: list[str] = []
        own: list[str] = []
        for written in found.names:
            as_names, as_aliases = forms(written)
            slugs += as_names
            own += as_names
            slugs += as_aliases
        for written in found.aliases:
            as_names, as_aliases = forms(written)
            slugs += as_names + as_aliases
        evidence = replace(found.evidence, datasets=frozenset(
            self.overrides.dataset(d) for d in found.datasets))
        return Candidate(record.key, position, tuple(s for s in dict.fromkeys(slugs) if s),
                         tuple(s for s in dict.fromkeys(own) if s), evidence)

    def free(self) -> list[tuple[int, EntryIdentity]]:
        """The entries the rule matches: neither pinned by an override nor a grouping."""
        return [(i, r) for i, r in self.entries
                if not self.overrides.for_entry(r.key) and not self._grouped(r.key)]

    def match(self, claims: _Claims, papers: dict[str, frozenset[str]]) -> None:
        """Every entry's benchmark; claims each entry's names for it, at the entries' rank.
        An entry that is no benchmark claims nothing: its node is its own grouping."""
        pinned = [(i, r) for i, r in self.entries if self.overrides.for_entry(r.key)]
        free = self.free()
        self._set_apart()
        matches = match_entries([self.candidate(i, r) for i, r in free], claims.ids(), papers)
        ids = {position: record.key[1] for position, record in free}
        self.problems += [IndexProblem(d.position, f"entries[{ids[d.position]}].{d.field}",
                                       d.reason, d.value) for d in matches.disagreements]
        self.described.update(matches.described)
        for position, record in free:
            claims.claim_naming(self.namings[position], self.described[record.key],
                                _ENTRY_NAME, _ENTRY_ALIAS)
        before_pins = claims.ids()
        for position, record in pinned:
            override = self.overrides.for_entry(record.key)
            assert override is not None
            target = _lookup(before_pins, (override.benchmark,)) or own_id(override.benchmark)
            self.described[record.key] = target
            claims.claim_naming(self.namings[position], target, _PINNED_NAME, _PINNED_ALIAS)

    def _set_apart(self) -> None:
        """The node of each entry that is no benchmark, and the warning for one left out."""
        for position, record in self.entries:
            found = self.overrides.not_benchmark(record.key)
            if found is None or found.kind == "corpus":
                continue
            self.described[record.key] = grouping_id(record.key)
            if found.kind == "leave-out":
                self.problems.append(IndexProblem(
                    position, f"entries[{record.key[1]}]",
                    "no benchmark (graph/mapping/harness_overrides.toml): left out",
                    found.reason))

    def moves(self, named: dict[str, str]) -> dict[Key, tuple[TaskMove, ...]]:
        """The tasks the overrides move, each to the benchmark its override names."""
        out: dict[Key, tuple[TaskMove, ...]] = {}
        for position, record in self.entries:
            found = []
            for override in self.overrides.tasks_of(record.key):
                missing = [t for t in override.tasks if t not in record.tasks]
                if missing:
                    self.problems.append(IndexProblem(
                        position, f"entries[{record.key[1]}].tasks",
                        "an override names a task the entry does not have", ", ".join(missing)))
                tasks = tuple(t for t in override.tasks if t in record.tasks)
                target = _lookup(named, (override.benchmark,)) or own_id(override.benchmark)
                if tasks and target != self.described[record.key]:
                    found.append(TaskMove(target, tasks))
            if found:
                out[record.key] = tuple(found)
        return out

    def namers(self, curated: set[str]) -> dict[Key, str]:
        """For each benchmark only entries describe, the entry that names it (one whose name
        is the benchmark's id, then the shortest name, then the first in order) and the name:
        the entry's, unless an override moved the entry to a benchmark its name does not
        name, when the override's name for it is the name."""
        best: dict[str, tuple[tuple[int, int, str, Key], Key]] = {}
        for _position, record in self.entries:
            benchmark = self.described[record.key]
            if benchmark in curated:
                continue
            name = record.name
            as_names, _ = forms(name)
            rank = (0 if benchmark in as_names else 1, len(name), name, record.key)
            if benchmark not in best or rank < best[benchmark][0]:
                best[benchmark] = (rank, record.key)
        entries = {record.key: record for _, record in reversed(self.entries)}  # the first
        labels: dict[Key, str] = {}
        for benchmark, (_, key) in best.items():
            override = self.overrides.for_entry(key)
            entry = entries[key]
            renamed = override is not None and benchmark not in forms(entry.name)[0]
            labels[key] = override.benchmark if renamed and override else entry.name
        return labels


def unmatched_evidence(records: Iterable[Identified], index: BenchmarkIndex,
                       overrides: Overrides = NO_OVERRIDES) -> list[SharedEvidence]:
    """The pairs of harness entries the rule leaves on two benchmarks although they load a
    dataset and cite a paper in common (``matching.shared_evidence``): the merges no rule
    makes, to be checked by hand and, where they are one benchmark, made by override."""
    known = [identity(record) for record in records]
    entries = [(i, r.entry) for i, r in enumerate(known) if r.entry is not None]
    tier = _HarvestedTier(entries, [found.naming for found in known], overrides)
    candidates = [tier.candidate(i, r) for i, r in tier.free()]
    return shared_evidence(candidates, index.entries)


__all__ = ["BenchmarkIndex", "EntryIdentity", "Identified", "IndexProblem", "Naming",
           "RecordIdentity", "StatedClaim", "TaskMove", "grouping_id", "identity",
           "index_benchmarks", "naming", "own_id", "split_abbreviation", "stated_claim",
           "unmatched_evidence"]
