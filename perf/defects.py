"""Defects planted in a synthetic catalog, in about ``share`` of its records, the way real
catalogs have them (DESIGN.md, "Defects" and "Records and sources").

Each class has a level, which is what a build is checked against (``perf.faithful_checks``):

- ``field``: a value of the right JSON type that breaks a lexical rule (a release date
  ``c. 2018``, an arXiv id ``12.34567x``, a ``javascript:`` URL, an empty name, a benchmark
  listed as its own variant). The record must be kept, with a warning naming file and field.
- ``kept``: shapes that are no defect at all but trip a reader that is too strict: arXiv ids
  written ``arXiv:…`` or as an abs URL (normalised), papers known only by URL or by DOI,
  directory pages about a catalogued benchmark (titled by its id, by an alias, or as
  ``Name (ABBR)``), makers written the way pages write them. Kept, with no warning.
- ``file``: the file cannot be read as a record (truncated JSON, not UTF-8): rejected. These
  stay a handful, so that rejections are exercised too.

Defects draw from an RNG of their own, after every record is made: the records that carry
none are byte for byte those of the same catalog without defects. Which file carries which
defect goes in the catalog's manifest (``manifest``), so a check can tell what was meant.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from perf import defect_values as make
from perf.defect_values import Planted
from perf.directory_pages import directory_page
from perf.pools import Pools

FIELD, KEPT, FILE = "field", "kept", "file"
LEVELS = {
    FIELD: "a value that breaks a lexical rule: the record is kept, with a warning naming the "
           "file and the field",
    KEPT: "a shape real catalogs have: the record is kept, with no warning",
    FILE: "the file cannot be read as a record: it is rejected",
}


@dataclass(frozen=True)
class DefectClass:
    name: str
    level: str
    weight: int
    """Its part of the defects planted: ``weight`` out of the sum over every class."""
    about: str


CLASSES: tuple[DefectClass, ...] = (
    DefectClass("released-not-a-date", FIELD, 8, "page.released like 'c. 2018'"),
    DefectClass("arxiv-not-an-id", FIELD, 5, "page.paper.arxiv like '12.34567x'"),
    DefectClass("url-not-http", FIELD, 10, "a javascript: or ftp: URL in a URL field"),
    DefectClass("name-empty", FIELD, 5, "page.name is ''"),
    DefectClass("own-variant", FIELD, 6, "the page's own id among its other variants"),
    DefectClass("arxiv-prefixed", KEPT, 4, "page.paper.arxiv as 'arXiv:2409.01545'"),
    DefectClass("arxiv-abs-url", KEPT, 4, "page.paper.arxiv as 'https://arxiv.org/abs/…v2'"),
    DefectClass("paper-url-only", KEPT, 5, "a paper with a URL, no title and no arXiv id"),
    DefectClass("paper-doi-only", KEPT, 6, "a paper with only page.paper.doi (bare or doi.org)"),
    DefectClass("directory-by-id", KEPT, 5, "a directory page titled by a record's id"),
    DefectClass("directory-by-alias", KEPT, 5, "a directory page titled by a record's alias"),
    DefectClass("directory-name-abbr", KEPT, 5, "a directory page titled 'Name (ABBR)'"),
    DefectClass("maker-list", KEPT, 5, "makers 'A, B and C'"),
    DefectClass("maker-article", KEPT, 5, "makers 'the Allen Institute for AI'"),
    DefectClass("maker-contributions", KEPT, 5, "makers 'A (Surname et al.) with contributions "
                                                "from B and C'"),
    DefectClass("truncated-json", FILE, 3, "a catalog page cut off mid-way"),
    DefectClass("not-utf8", FILE, 2, "a catalog page with a Latin-1 byte in it"),
)
BY_NAME = {defect.name: defect for defect in CLASSES}
SECOND_FIELD_DEFECT = 0.125
"""Chance that a file with a field-level defect carries a second one, in another field."""


@dataclass
class Planting:
    """Where the defects went. Field-level and kept ones are already in the records."""

    in_records: dict[int, list[Planted]] = field(default_factory=dict)
    """Record index -> the defects now in that record."""
    broken: dict[int, Planted] = field(default_factory=dict)
    """Record index -> the file-level defect its text is to get (``defect_values.broken``)."""
    pages: list[tuple[str, list[Planted]]] = field(default_factory=list)
    """New directory pages: their text, and the defects they carry."""


def allocate(total: int) -> dict[str, int]:
    """How many files of each class make ``total`` defects: shares of the weights, the
    remainders to the largest fractions (ties in class order). Deterministic, no RNG."""
    weights = sum(defect.weight for defect in CLASSES)
    exact = {defect.name: total * defect.weight / weights for defect in CLASSES}
    counts = {name: int(share) for name, share in exact.items()}
    left = total - sum(counts.values())
    by_fraction = sorted(exact, key=lambda name: -(exact[name] - counts[name]))
    for name in by_fraction[:left]:
        counts[name] += 1
    return counts


def plant(records: list[dict[str, Any]], pools: Pools, seed: int, share: float) -> Planting:
    """Plants defects in ``round(share * len(records))`` files, one class a file, except that
    one field-level file in eight gets a second field-level defect and half the directory
    pages also name their makers in a real-world shape: into ``records`` (changed in place)
    and as new directory pages, each about a record that carries no defect."""
    if not 0 <= share <= 1:
        raise ValueError("the defect share is a fraction from 0 to 1")
    return _Planter(records, pools, random.Random(f"benchgraph-perf-defects-{seed}")).plant(
        round(share * len(records)))


Applier = Callable[[dict[str, Any]], Planted]


@dataclass
class _Planter:
    records: list[dict[str, Any]]
    pools: Pools
    rng: random.Random
    planting: Planting = field(default_factory=Planting)
    free: list[int] = field(default_factory=list)
    """Indices of the records no defect has touched yet, in a random order."""
    taken: set[str] = field(default_factory=set)
    """Slugs an abbreviation made up for a directory page's title must not have."""

    def plant(self, total: int) -> Planting:
        self.free = self.rng.sample(range(len(self.records)), len(self.records))
        self.taken = set(self.pools.ids)
        appliers = self._appliers()
        field_level = [d.name for d in CLASSES if d.level == FIELD]
        for name, count in allocate(total).items():
            for _ in range(count):
                index = self._take(name)
                if index is None:
                    break  # no record fits any more: the manifest says what was planted
                if BY_NAME[name].level == FILE:
                    self.planting.broken[index] = Planted(name, None, None)
                elif name.startswith("directory-"):
                    self._page(name, index)
                else:
                    found = [appliers[name](self.records[index])]
                    if name in field_level and self.rng.random() < SECOND_FIELD_DEFECT:
                        other = self.rng.choice([d for d in field_level if d != name])
                        found.append(appliers[other](self.records[index]))
                    self.planting.in_records[index] = found
        return self.planting

    def _take(self, name: str) -> int | None:
        """A record no defect has touched yet that can carry this class."""
        needs_arxiv = name in ("arxiv-prefixed", "arxiv-abs-url")
        for position, index in enumerate(self.free):
            if not needs_arxiv or self.records[index]["page"]["paper"]["arxiv"]:
                return self.free.pop(position)
        return None

    def _appliers(self) -> dict[str, Applier]:
        rng = self.rng
        return {
            "released-not-a-date": lambda r: make.released(rng, r),
            "arxiv-not-an-id": lambda r: make.bad_arxiv(rng, r),
            "url-not-http": lambda r: make.bad_url(rng, r),
            "name-empty": make.empty_name,
            "own-variant": lambda r: make.own_variant(rng, r, self.pools),
            "arxiv-prefixed": lambda r: make.arxiv_form(rng, r, "arxiv-prefixed"),
            "arxiv-abs-url": lambda r: make.arxiv_form(rng, r, "arxiv-abs-url"),
            "paper-url-only": lambda r: make.paper_url_only(rng, r),
            "paper-doi-only": lambda r: make.paper_doi_only(rng, r),
            **{name: self._catalog_maker(name) for name in make.MAKER_CLASSES},
        }

    def _catalog_maker(self, name: str) -> Applier:
        def apply(record: dict[str, Any]) -> Planted:
            publisher = record["page"]["publisher"]
            text = make.maker(self.rng, name, self.pools, publisher["authors"])
            publisher["org"] = text
            return Planted(name, "page.publisher.org", text)
        return apply

    def _page(self, name: str, target: int) -> None:
        """A directory page about the benchmark of record ``target``, titled as ``name`` says."""
        title = make.page_title(self.rng, name, self.records[target]["page"], self.taken)
        found = [Planted(name, "title", title, means=self.records[target]["page"]["id"])]
        maker = None
        if self.rng.random() < 0.5:  # half of them also name their makers as pages do
            kind = self.rng.choice(make.MAKER_CLASSES)
            maker = make.maker(self.rng, kind, self.pools, ())
            found.append(Planted(kind, "facts", maker))
        text = directory_page(self.rng, self.pools, 0, len(self.records), title=title,
                              maker=maker)
        self.planting.pages.append((text, found))


def manifest(files: dict[str, list[Planted]], about: dict[str, Any]) -> dict[str, Any]:
    """The manifest written beside a catalog: ``about`` (generator version, sizes, seed,
    share), what each level means, each class's level, and file -> the defects it carries."""
    return {
        **about,
        "levels": LEVELS,
        "classes": {d.name: {"level": d.level, "about": d.about} for d in CLASSES},
        "files": {name: [_as_json(p) for p in planted]
                  for name, planted in sorted(files.items()) if planted},
    }


def _as_json(planted: Planted) -> dict[str, Any]:
    shown = {"class": planted.defect, "level": BY_NAME[planted.defect].level,
             "field": planted.field, "value": planted.value}
    return shown if planted.means is None else {**shown, "means": planted.means}
