"""A synthetic catalog: N catalog page records shaped like the first seed, and K directory pages.

    python -m perf.generate_catalog N OUT_DIR [--seed S] [--directory-pages K]
        [--profile lean|seed|full] [--defect-share F]

Deterministic: the same N, seed and sizes give the same files, byte for byte. The records
share what real catalogs share, so the graph has nodes where records meet: papers (some
records describe the same paper), organisations (in the seed's free-text publisher style),
people, models (verified results and ``models_covered``), tags (with the ``medhelm`` suite
and the access tags), and lineage links to other records or to benchmarks that no record
describes. Sizes are in ``Sizes``, with three profiles in ``PROFILES``: ``lean`` (the
default, lists kept short so that the graph is as near the issue's ~77 triples a record as
records shaped like the seed allow), ``seed`` (the seed's list lengths, ~8 sources and ~5
authors, but optional fields left empty now and then, as in ``lean``) and ``full`` (the first
seed's whole shape: every field it fills filled in every record, bodies of its eight
sections and length, its sources; held to the seed by ``perf.seed_shape``).

About ``--defect-share`` of the records (default 1 %) then get a defect, as real catalogs
have them (``perf.defects``): most must still load, with a warning or none, a handful are
files no reader can take. ``OUT_DIR/.defects.json`` lists which file carries which.
"""

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perf import defects
from perf import vocabulary as v
from perf.defect_values import Planted, broken
from perf.directory_pages import directory_page
from perf.pools import NO_ARXIV_SHARE, Paper, Pools, make_pools, sentences

Span = tuple[int, int]


@dataclass(frozen=True)
class Sizes:
    """How big and how connected the records are: (low, high) spans are inclusive."""

    sources: Span = (5, 8)
    authors: Span = (3, 6)
    aliases: Span = (0, 2)
    tags: Span = (3, 6)
    body_sections: Span = (4, 7)
    body_sentences: Span = (2, 4)
    """Sentences in each section of the markdown body."""
    variants: Span = (0, 3)
    successors: Span = (0, 1)
    body_links: Span = (1, 3)
    verified_results: Span = (0, 3)
    models_covered: Span = (0, 4)
    paper_share: float = 0.3
    """Fraction of records that describe a paper another record also describes."""
    people_per_record: float = 0.8
    """Size of the pool of people, per record (authors repeat across papers)."""
    reference_share: float = 0.2
    """Fraction of lineage and body links that point at benchmarks no record describes."""
    blank_share: float = 0.12
    """Chance that an optional field is left unknown (an empty string or null)."""
    harness_share: float = 0.35
    """Chance that each of the five harness keys names a task."""
    every_field: bool = False
    """Fill every field the first seed fills, in every record: no optional field left
    unknown (``blank_share`` then counts for nothing), a release date, whether the test set
    is public, an arXiv id for every paper and a HELM task, as the seed has them. The fields
    the seed leaves empty (verified results, successors, baselines, ...) keep their spans."""


PROFILES: dict[str, Sizes] = {
    "lean": Sizes(sources=(1, 2), authors=(1, 3), aliases=(0, 1), tags=(1, 3),
                  body_sections=(3, 5), variants=(0, 1), successors=(0, 1), body_links=(0, 2),
                  verified_results=(0, 1), models_covered=(0, 1), paper_share=0.5,
                  blank_share=0.2, harness_share=0.12),
    "seed": Sizes(sources=(6, 9), authors=(4, 6), aliases=(1, 3), tags=(4, 7),
                  body_sections=(6, 8), variants=(0, 3), successors=(0, 1), body_links=(1, 3),
                  verified_results=(0, 4), models_covered=(0, 4)),
    "full": Sizes(sources=(7, 9), authors=(4, 6), aliases=(1, 3), tags=(4, 5),
                  body_sections=(8, 8), body_sentences=(3, 4), variants=(1, 3),
                  successors=(0, 1), body_links=(1, 3), verified_results=(0, 2),
                  models_covered=(0, 2), harness_share=0.12, every_field=True),
}
"""Named sizes: ``lean`` is the default for the performance suite; ``full`` is the one held
to the first seed's shape (perf/decisions/synthetic-catalog-full.md)."""
DEFAULT_PROFILE = "lean"

TODAY = "2026-09-09"
GENERATOR_VERSION = 2
"""Raised when what the generator writes changes in kind (2: defects, and their manifest).
Cached catalogs are told apart by a hash of the generator's source anyway."""
DEFAULT_DEFECT_SHARE = 0.01
MANIFEST = ".defects.json"


class CatalogGenerator:
    """Makes the records of one synthetic catalog; every choice comes from one seeded RNG."""

    def __init__(self, count: int, seed: int = 0, sizes: Sizes | None = None,
                 directory_pages: int = 0) -> None:
        if count < 0 or directory_pages < 0:
            raise ValueError("counts must not be negative")
        self.count = count
        self.sizes = sizes or PROFILES[DEFAULT_PROFILE]
        self.rng = random.Random(seed)
        self.pools: Pools = make_pools(self.rng, count, directory_pages, self.sizes.paper_share,
                                       self.sizes.people_per_record, self.sizes.authors,
                                       no_arxiv_share=0 if self.sizes.every_field
                                       else NO_ARXIV_SHARE)

    # -- small helpers -------------------------------------------------------------------------
    def _n(self, span: Span) -> int:
        return self.rng.randint(span[0], span[1])

    def _blank(self, share: float) -> bool:
        """Whether to leave a field the seed fills empty, with chance ``share`` (never with
        ``every_field``, which draws nothing)."""
        return not self.sizes.every_field and self.rng.random() < share

    def _maybe(self, value: Any, blank: Any = "") -> Any:
        return blank if self._blank(self.sizes.blank_share) else value

    def _date(self, year_from: int = 2025) -> str:
        return f"{self.rng.randint(year_from, 2026)}-{self.rng.randint(1, 8):02d}-" \
               f"{self.rng.randint(1, 28):02d}"

    def _linked_id(self, own: int) -> str:
        """A benchmark id to link to: another record's, or one that no record describes."""
        pools = self.pools
        if self.count < 2 or self.rng.random() < self.sizes.reference_share:
            return self.rng.choice(pools.reference_ids)
        other = self.rng.randrange(self.count - 1)
        return pools.ids[other if other < own else other + 1]

    def _linked_ids(self, own: int, span: Span) -> list[str]:
        found: list[str] = []
        for _ in range(self._n(span)):
            linked = self._linked_id(own)
            if linked not in found:
                found.append(linked)
        return found

    # -- one record ----------------------------------------------------------------------------
    def record(self, index: int) -> dict[str, Any]:
        """The catalog page record number ``index`` (call in order: the RNG is shared)."""
        rng, pools, sizes = self.rng, self.pools, self.sizes
        bench_id, name = pools.ids[index], pools.names[index]
        paper = pools.papers[pools.paper_of[index]]
        category, subcategories = rng.choice(v.CATEGORIES)
        variants = self._linked_ids(index, sizes.variants)
        mentions = variants + self._linked_ids(index, sizes.body_links)
        tags = rng.sample(v.TOPIC_TAGS, self._n(sizes.tags))
        if rng.random() < 0.15:
            tags.append(rng.choice(v.SUITE_TAGS))
        if rng.random() < 0.6:
            tags.append(rng.choice(v.ACCESS_TAGS))
        models = rng.sample(pools.models, self._n(sizes.models_covered))
        return {
            "body": self._body(name, mentions),
            "build": {
                "built_at": f"{TODAY}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:"
                            f"{rng.randint(0, 59):02d}+00:00",
                "commit": f"{rng.getrandbits(160):040x}",
                "eligibility_as_of": TODAY,
            },
            "disposition": self._disposition(index, bench_id, models),
            "models_covered": models,
            "page": {
                "aliases": self._aliases(name),
                "category": category,
                "contamination": {"note": self._maybe(sentences(rng, 2)),
                                  "risk": self._maybe(rng.choice(v.RISKS))},
                "dataset": self._dataset(paper),
                "freshness": {"researched": self._date(),
                              "researched_by": rng.choice(v.RESEARCHERS),
                              "reviewed": self._maybe(self._date()),
                              "reviewed_by": self._maybe(rng.choice(v.RESEARCHERS))},
                "harness": self._harness(bench_id),
                "id": bench_id,
                "last_updated": self._date() if rng.random() < 0.4 else "",
                "leaderboard_url": self._maybe(f"https://example.org/leaderboards/{bench_id}"),
                "lineage": {
                    "family": self._maybe(rng.choice(v.NAME_HEADS) + " family"),
                    "predecessor": self._linked_id(index) if rng.random() < 0.25 else "",
                    "successors": self._linked_ids(index, sizes.successors),
                    "variants": variants,
                },
                "measures": sentences(rng, rng.randint(3, 6)),
                "metric": self._metric(bench_id),
                "name": name,
                "page_kind": "benchmark",
                "paper": _NO_PAPER if self._blank(sizes.blank_share / 2) else paper.as_json(),
                "publisher": {"authors": list(paper.authors), "org": paper.org,
                              "url": self._maybe(f"https://example.org/groups/{bench_id}")},
                "released": self._released(paper),
                "repo_url": self._maybe(f"https://github.com/example-org/{bench_id}"),
                "saturation": self._saturation(),
                "sources": self._sources(bench_id, name, paper),
                "status": rng.choice(v.PAGE_STATUSES),
                "subcategory": self._maybe(rng.choice(subcategories)),
                "summary": sentences(self.rng, 1),
                "tags": tags,
                "task_format": self._maybe(self._task_format()),
            },
        }

    def _aliases(self, name: str) -> list[str]:
        options = [name.upper(), name.replace("-", " "), f"{name} benchmark", f"the {name} set"]
        return self.rng.sample(options, self._n(self.sizes.aliases))

    def _body(self, name: str, mentions: list[str]) -> str:
        rng = self.rng
        headings = v.BODY_HEADINGS[: self._n(self.sizes.body_sections)]
        parts = [""]
        for heading in headings:
            text = sentences(rng, self._n(self.sizes.body_sentences))
            if heading == "Lineage" or (heading == headings[-1] and "Lineage" not in headings):
                links = ", ".join(f"[{self._link_text(m)}]({m}.md)" for m in mentions)
                text += f" Related to {name}: {links}." if links else ""
            parts.append(f"## {heading}\n\n{text}\n")
        return "\n".join(parts)

    def _link_text(self, bench_id: str) -> str:
        return bench_id if self.rng.random() < 0.5 else bench_id.replace("_", "-").title()

    def _dataset(self, paper: Paper) -> dict[str, Any]:
        rng = self.rng
        size = rng.choice([None, rng.randint(100, 250_000)])
        return {
            "languages": rng.sample(v.LANGUAGES, rng.randint(1, 2)),
            "license": self._maybe(rng.choice(v.LICENCES)),
            "modalities": rng.sample(v.MODALITIES, rng.randint(1, 2)),
            "public_test_set": rng.choice([True, False] if self.sizes.every_field
                                          else [True, False, None]),
            "size": size,
            "size_note": self._maybe(sentences(rng, 2)),
            "splits": self._maybe(sentences(rng, 1)),
            "url": self._maybe(paper.url),
        }

    def _harness(self, bench_id: str) -> dict[str, str]:
        keys = ("bigbench", "helm", "inspect_evals", "lm_eval", "opencompass")
        share = self.sizes.harness_share
        always = "helm" if self.sizes.every_field else None  # the seed's harness
        entry = {key: (bench_id if key != "lm_eval" else f"leaderboard_{bench_id}")
                 if key == always or self.rng.random() < share else "" for key in keys}
        entry["other"] = self._maybe(sentences(self.rng, 1))
        return entry

    def _metric(self, bench_id: str) -> dict[str, Any]:
        rng = self.rng
        unit = rng.choice(v.METRIC_UNITS)
        top = 100 if unit in ("percent", "accuracy", "pass@1", "F1") else rng.choice([5, 10, 2000])
        return {
            "baseline_note": self._maybe(sentences(rng, 2)),
            "direction": self._maybe(rng.choice(v.DIRECTIONS)),
            "human_baseline": rng.choice([None, round(rng.uniform(0.5, 0.95) * top, 1)]),
            "max_score": self._maybe(top, blank=None),
            "name": f"{bench_id}_{rng.choice(['accuracy', 'f1', 'score', 'win_rate'])}",
            "random_baseline": rng.choice([None, None, round(top / rng.choice([2, 4, 5]), 1)]),
            "unit": unit,
        }

    def _released(self, paper: Paper) -> str:
        year = str(paper.year)
        kind = self.rng.randrange(1 if self.sizes.every_field else 0, 4)
        if kind == 0:
            return ""
        # Nothing is dated after the record's build (TODAY): a shape may check it.
        month = f"{self.rng.randint(1, 8 if paper.year == 2026 else 12):02d}"
        return year if kind == 1 else f"{year}-{month}" if kind == 2 else f"{year}-{month}-15"

    def _saturation(self) -> dict[str, Any]:
        rng = self.rng
        status = rng.choice(v.SATURATION_STATUSES)
        return {"as_of": self._maybe(self._date()), "note": self._maybe(sentences(rng, 2)),
                "status": status,
                "top_score": None if status == "unknown" else round(rng.uniform(30, 99), 1)}

    def _sources(self, bench_id: str, name: str, paper: Paper) -> list[dict[str, str]]:
        rng = self.rng
        sources = []
        for number in range(self._n(self.sizes.sources)):
            url = rng.choice(v.SOURCE_HOSTS).format(id=bench_id, arxiv=paper.arxiv or "2301.00001")
            title = rng.choice(v.SOURCE_TITLES).format(name=name, title=paper.title)
            sources.append({"accessed": self._date(), "title": title,
                            "url": f"{url}#s{number}" if "#" not in url else f"{url}-{number}"})
        return sources

    def _task_format(self) -> str:
        text = sentences(self.rng, 2)
        if self.rng.random() < 0.2:  # text that is merely odd is data: quotes, braces, '#'
            text += ' Answer as {"label": "yes"} or {"label": "no"}; lines starting # are notes.'
        return text

    def _disposition(self, index: int, bench_id: str, models: list[str]) -> dict[str, Any]:
        rng = self.rng
        canonical = bench_id if rng.random() > 0.03 or self.count < 2 else self._linked_id(index)
        results: list[dict[str, Any]] = []
        for model in rng.sample(self.pools.models, self._n(self.sizes.verified_results)):
            results.append({"as_of": self._date(), "model": model,
                            "score": round(rng.uniform(20, 99), 1), "unit": "percent",
                            "source_url": f"https://example.org/results/{bench_id}/{len(results)}"})
        return {"canonical_id": canonical, "reasons": rng.sample(v.REASONS, rng.randint(0, 1)),
                "status": rng.choice(v.DISPOSITION_STATUSES), "verified_results": results}


_NO_PAPER: dict[str, Any] = {"arxiv": "", "title": "", "url": "", "year": None}


def record_text(record: dict[str, Any]) -> str:
    """A record as the catalog writes it: sorted keys, one-space indent, ASCII escapes."""
    return json.dumps(record, indent=1, sort_keys=True, ensure_ascii=True)


def file_name(prefix: str, index: int, key: str) -> str:
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return f"{prefix}{index:05d}_{digest}.txt"


@dataclass(frozen=True)
class Catalog:
    """Every file of a synthetic catalog, and the defects planted in them."""

    files: dict[str, str]
    """File name -> text, catalog pages first. A byte that is not UTF-8 (a ``not-utf8``
    defect) is a lone surrogate: write the text with ``errors="surrogateescape"``."""
    defects: dict[str, list[Planted]]
    """File name -> the defects it carries (files with none are left out)."""
    about: dict[str, Any]
    """What made it: generator version, sizes, seed, defect share."""

    def manifest(self) -> dict[str, Any]:
        """The JSON written beside the files as ``MANIFEST`` (see ``perf.defects.manifest``)."""
        return defects.manifest(self.defects, self.about)


def generate(count: int, seed: int = 0, directory_pages: int = 0, sizes: Sizes | None = None,
             defect_share: float = DEFAULT_DEFECT_SHARE) -> Catalog:
    """The catalog: ``count`` catalog pages and ``directory_pages`` directory pages, then
    defects in about ``defect_share`` of the records (``perf.defects``), some of them as
    more directory pages (about catalogued benchmarks)."""
    generator = CatalogGenerator(count, seed, sizes, directory_pages)
    records = [generator.record(i) for i in range(count)]
    planting = defects.plant(records, generator.pools, seed, defect_share)
    files: dict[str, str] = {}
    planted: dict[str, list[Planted]] = {}
    for index, record in enumerate(records):
        name = file_name("", index, generator.pools.ids[index])
        files[name] = record_text(record)
        planted[name] = planting.in_records.get(index, [])
        if index in planting.broken:
            files[name] = broken(files[name], planting.broken[index].defect)
            planted[name] = [planting.broken[index]]
    pages: list[tuple[str, list[Planted]]] = [
        (directory_page(generator.rng, generator.pools, k, count), [])
        for k in range(directory_pages)]
    for index, (text, found) in enumerate(pages + planting.pages):
        name = file_name("dir_", index, text.partition("\n")[0])
        files[name], planted[name] = text, found
    about = {"generator": GENERATOR_VERSION, "records": count,
             "directory_pages": directory_pages, "seed": seed, "defect_share": defect_share}
    return Catalog(files, {name: found for name, found in planted.items() if found}, about)


def write_catalog(count: int, out_dir: Path, seed: int = 0, directory_pages: int = 0,
                  sizes: Sizes | None = None,
                  defect_share: float = DEFAULT_DEFECT_SHARE) -> list[Path]:
    """Writes the catalog into ``out_dir`` (created if need be), and its manifest as
    ``out_dir/MANIFEST`` (a hidden file: a build of the folder skips it); returns the
    record files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    catalog = generate(count, seed, directory_pages, sizes, defect_share)
    written = []
    for name, text in catalog.files.items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        written.append(path)
    manifest = json.dumps(catalog.manifest(), indent=1, ensure_ascii=False)
    (out_dir / MANIFEST).write_text(manifest + "\n", encoding="utf-8")
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perf.generate_catalog", description=__doc__
                                     .split("\n\n")[0])
    parser.add_argument("count", type=int, metavar="N", help="number of catalog page records")
    parser.add_argument("out_dir", type=Path, metavar="OUT_DIR", help="folder to write into")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--directory-pages", type=int, default=0, metavar="K",
                        help="also write K plain-text directory pages (default 0)")
    parser.add_argument("--profile", choices=sorted(PROFILES), default=DEFAULT_PROFILE,
                        help=f"record sizes (default {DEFAULT_PROFILE})")
    parser.add_argument("--defect-share", type=float, default=DEFAULT_DEFECT_SHARE,
                        metavar="F", help="fraction of records given a defect, listed in "
                        f"OUT_DIR/{MANIFEST} (default {DEFAULT_DEFECT_SHARE:g}; 0 for none)")
    args = parser.parse_args(argv)
    if args.count < 0 or args.directory_pages < 0:
        parser.error("N and K must not be negative")
    if not 0 <= args.defect_share <= 1:
        parser.error("--defect-share is a fraction from 0 to 1")
    try:
        written = write_catalog(args.count, args.out_dir, args.seed, args.directory_pages,
                                PROFILES[args.profile], args.defect_share)
    except OSError as error:
        print(f"generate_catalog: cannot write {args.out_dir}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"wrote {len(written)} files to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
