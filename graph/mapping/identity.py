"""Which benchmark a record describes, and which benchmark a title names: one rule, here only.

A record says who its benchmark is with an id (a catalog page's ``page.id``), names (a
catalog page's name, a directory page's title) and aliases. A name that ends in a bracketed
abbreviation counts as two more: ``BIG-Bench Hard (BBH)`` is also the name
``BIG-Bench Hard`` and the alias ``BBH`` (``split_abbreviation`` says what an abbreviation
looks like). All of it is compared as slugs, after every record is read:

1. a record with an id describes the benchmark of that id;
2. a record without one describes the benchmark that a record with an id claims under one
   of its names (its full name first, then the name before the abbreviation, then the
   abbreviation): two records about one benchmark meet on one node, whatever kind each is;
3. otherwise, its own benchmark, whose id is the slug of its name (abbreviation dropped).

A title named by reference (a directory page's related entry) resolves the same way against
every record's claims, those of records without an id included, so a related entry
``BIG-Bench Hard`` lands on the node of a page titled ``BIG-Bench Hard (BBH)``. When several
benchmarks claim one slug, a record with an id beats one without, then an id beats a name
and a name beats an alias, then the smaller id wins: the answer never depends on the order
the records were read in.

Duplicates are decided here too (``stated_claim``): only two records of one kind that state
the same id (a directory page states the slug of its title) are one record too many.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from graph.records import CatalogPage, DirectoryPage, Record
from graph.slug import node_key, slugify

# Ranks of a claim on a slug: lower wins. Records with an id claim first.
_ID, _NAME, _ALIAS, _UNSTATED_NAME, _UNSTATED_ALIAS = range(5)

# "Name (SHORT)" at the very end: SHORT one word of 2-16 characters, no nested bracket.
_TRAILING_SHORT_FORM = re.compile(r"(?P<name>.*?\S)\s*\((?P<short>[^\s()]{2,16})\)\s*")
_ALPHANUMERIC = re.compile(r"[^\W_]")


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


def naming(record: Record) -> Naming:
    """The id, names and aliases ``record`` gives its benchmark."""
    match record:
        case CatalogPage():
            page = record.page
            return Naming(page.id, (page.name,), tuple(page.aliases))
        case DirectoryPage():
            return Naming(None, (record.title,))


def stated_claim(record: Record) -> StatedClaim:
    """The id ``record`` states on its own: a catalog page's id, a directory page's title
    slugged (so two pages titled ``GPQA`` and ``gpqa`` are duplicates; ``GPQA`` and
    ``GPQA (Diamond)`` are two records about one benchmark)."""
    match record:
        case CatalogPage():
            return StatedClaim("catalog page", record.page.id, "page.id")
        case DirectoryPage():
            return StatedClaim("directory page", slugify(record.title), "title")


def split_abbreviation(title: str) -> tuple[str, str] | None:
    """``(name, abbreviation)`` when ``title`` ends in a bracketed abbreviation, else None.

    An abbreviation is one bracketed word at the end (2-16 characters, no space) that holds
    an upper-case letter and is short for the name before it: its letters and digits occur
    in the name in order, the first at the start of a word (the test of Schwartz and Hearst,
    2003). So ``BIG-Bench Hard (BBH)`` and ``Humanity's Last Exam (HLE)`` split;
    ``MIMIC-CXR (classification)``, ``MIMIC-RRS (MedHELM)``, ``AIME (2025)`` and
    ``GPT-5 (high)`` do not: a bracket that only qualifies the name stays part of it.
    """
    match = _TRAILING_SHORT_FORM.fullmatch(title)
    if match is None:
        return None
    name, short = match.group("name"), match.group("short")
    if not any(char.isupper() for char in short) or not _is_short_for(short, name):
        return None
    return name, short


def _is_short_for(short: str, name: str) -> bool:
    """Whether ``short``'s letters and digits occur in ``name`` in order, matched from the
    end, the first of them at the start of a word of ``name``."""
    letters = _ALPHANUMERIC.findall(short.lower())
    text = name.lower()
    if not letters or len(letters) >= len(_ALPHANUMERIC.findall(text)):
        return False
    end = len(text)
    for index in range(len(letters) - 1, -1, -1):
        found = text.rfind(letters[index], 0, end)
        while index == 0 and found > 0 and _ALPHANUMERIC.match(text[found - 1]):
            found = text.rfind(letters[index], 0, found)
        if found < 0:
            return False
        end = found
    return True


@lru_cache(maxsize=65536)  # one title is resolved once per page that lists it
def _forms(written: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The slugs a written name stands for: (as names, as aliases). ``BIG-Bench Hard (BBH)``
    -> ``(("big_bench_hard_bbh", "big_bench_hard"), ("bbh",))``."""
    split = split_abbreviation(written)
    if split is None:
        return (slugify(written),), ()
    return (slugify(written), slugify(split[0])), (slugify(split[1]),)


def own_id(title: str) -> str:
    """The id of a benchmark named ``title`` that no other record claims: the slug of its
    name, the abbreviation dropped (``BIG-Bench Hard (BBH)`` -> ``big_bench_hard``)."""
    split = split_abbreviation(title)
    return node_key(title if split is None else split[0])


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
            as_names, as_aliases = _forms(written)
            self.claim(as_names, name_rank, benchmark_id)
            self.claim(as_aliases, alias_rank, benchmark_id)
        for written in naming.aliases:
            as_names, as_aliases = _forms(written)
            self.claim(as_names + as_aliases, alias_rank, benchmark_id)

    def ids(self) -> dict[str, str]:
        return {slug: benchmark_id for slug, (_, benchmark_id) in self.best.items()}


def _lookup(by_slug: dict[str, str], names: Sequence[str]) -> str | None:
    """The benchmark claimed under the first of ``names``' forms that any record claims."""
    for written in names:
        as_names, as_aliases = _forms(written)
        for slug in as_names + as_aliases:
            found = by_slug.get(slug)
            if found is not None:
                return found
    return None


@dataclass(frozen=True)
class BenchmarkIndex:
    """Which benchmark each record describes and each title names, over one build."""

    stated: dict[str, str]
    """Slug -> benchmark id, claimed by records that state an id."""
    named: dict[str, str]
    """Slug -> benchmark id, claimed by every record (those that state an id first)."""
    stated_ids: frozenset[str]
    """The ids some record states: benchmarks whose name a record with an id gives."""

    def described_by(self, record: Record) -> str:
        """The id of the benchmark ``record`` is about (rules 1 to 3 of the module)."""
        found = naming(record)
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


def index_benchmarks(records: Iterable[Record]) -> BenchmarkIndex:
    """The index of every record of one build; the same whatever the records' order."""
    namings = [naming(record) for record in records]
    claims = _Claims()
    for found in namings:
        if found.benchmark_id is not None:
            claims.claim((found.benchmark_id,), _ID, found.benchmark_id)
            claims.claim_naming(found, found.benchmark_id, _NAME, _ALIAS)
    stated = claims.ids()
    for found in namings:
        if found.benchmark_id is None:
            described = _lookup(stated, found.names + found.aliases) or own_id(found.names[0])
            claims.claim_naming(found, described, _UNSTATED_NAME, _UNSTATED_ALIAS)
    stated_ids = frozenset(f.benchmark_id for f in namings if f.benchmark_id is not None)
    return BenchmarkIndex(stated, claims.ids(), stated_ids)
