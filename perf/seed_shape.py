"""How near the synthetic catalog's records are to the first seed record, side by side.

    python -m perf.seed_shape [--profile P] [--records N] [--seed S] [--json]

The seed record (``catalog/000_501ccd0cd0e2608f.txt``) is built alone, and N generated
records (``perf.generate_catalog``, no defects) are built together, each by
``graph.build.graphs.build`` as ``benchgraph build`` builds a folder; then, for the seed and for the
mean generated record: the record file's bytes; the quads (every quad but the ontology
graph's: the record graphs and the build graph, as the table holds them) and those quads by
predicate; the fields filled; the markdown body's sections, words and links; the sources.
The verdict is the ratio of quads per record, generated over seed: the figure a profile is
held to (perf/decisions/synthetic-catalog-full.md).

A field is a leaf of the record's JSON: a string, number, boolean or list (``page.tags``,
``page.metric.max_score``); it is filled unless it is empty (``""``, null, ``[]``). A
generated figure is a mean over the records, a share of records for a field.
"""

import argparse
import json
import re
import sys
import tempfile
import textwrap
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from graph.build.graphs import build
from graph.namespace import ONTOLOGY_IRI, curie
from graph.settings import Settings
from perf.generate_catalog import DEFAULT_PROFILE, PROFILES, write_catalog

SEED_RECORD = Path(__file__).resolve().parents[1] / "catalog" / "000_501ccd0cd0e2608f.txt"
"""The first seed: a catalog page record with every kind of field."""
DEFAULT_RECORDS = 200
TOP_PREDICATES = 15
"""Predicates shown by name besides those one side has and the other lacks."""
MARKDOWN_LINK = re.compile(r"\[[^\]\n]+\]\([^)\s]+\)")


@dataclass(frozen=True)
class Shape:
    """What a record is like, the mean of ``records`` records."""

    records: int
    bytes: float
    """The record file's size, as the catalog writes it."""
    quads: float
    """Quads per record: the record graphs' and the build graph's (the ontology left out)."""
    predicates: dict[str, float]
    """Those quads by predicate (a CURIE), per record."""
    filled: dict[str, float]
    """Each field (a dotted path), the share of records that fill it."""
    body_sections: float
    body_words: float
    body_links: float
    """Markdown links ``[text](target)`` in the body."""
    sources: float


def fields(value: Any, prefix: str = "") -> Iterator[tuple[str, bool]]:
    """Every leaf of a record's JSON, as (dotted path, whether it is filled)."""
    if isinstance(value, dict):
        for key, inner in sorted(value.items()):
            yield from fields(inner, f"{prefix}{key}.")
    else:
        yield prefix.rstrip("."), value not in ("", None, [])


def shape(path: Path) -> Shape:
    """The shape of the catalog page records at ``path`` (a record file, or a folder of them
    and nothing else), built as ``benchgraph build PATH`` builds them."""
    files = [path] if path.is_file() else sorted(path.glob("*.txt"))
    records = [json.loads(file.read_text(encoding="utf-8")) for file in files]
    count = len(records)
    store = build([path], Settings()).store
    ontology = ox.NamedNode(ONTOLOGY_IRI)
    predicates: Counter[str] = Counter(
        quad.predicate.value for quad in store.quads_for_pattern(None, None, None, None)
        if isinstance(quad.graph_name, ox.NamedNode) and quad.graph_name != ontology)
    by_predicate = {curie(iri): n / count for iri, n in predicates.items()}
    filled: Counter[str] = Counter()
    for record in records:
        filled.update({leaf: int(full) for leaf, full in fields(record)})
    bodies = [str(record.get("body") or "") for record in records]
    return Shape(
        records=count,
        bytes=sum(file.stat().st_size for file in files) / count,
        quads=predicates.total() / count,
        predicates=dict(sorted(by_predicate.items())),
        filled={leaf: n / count for leaf, n in sorted(filled.items())},
        body_sections=sum(len(re.findall(r"^## ", b, re.MULTILINE)) for b in bodies) / count,
        body_words=sum(len(b.split()) for b in bodies) / count,
        body_links=sum(len(MARKDOWN_LINK.findall(b)) for b in bodies) / count,
        sources=sum(len(record["page"]["sources"]) for record in records) / count,
    )


def seed_shape(path: Path = SEED_RECORD) -> Shape:
    return shape(path)


def generated_shape(records: int, profile: str = DEFAULT_PROFILE, seed: int = 0) -> Shape:
    """The shape of ``records`` generated records of ``profile``, built in a folder of their
    own (removed after)."""
    with tempfile.TemporaryDirectory(prefix="seed-shape-") as folder:
        write_catalog(records, Path(folder), seed=seed, sizes=PROFILES[profile], defect_share=0)
        return shape(Path(folder))


@dataclass(frozen=True)
class Comparison:
    profile: str
    seed: Shape
    generated: Shape

    @property
    def ratio(self) -> float:
        """Quads per record, generated over seed."""
        return self.generated.quads / self.seed.quads

    def left_empty(self) -> dict[str, float]:
        """The fields the seed fills that some generated records leave empty: share filled."""
        return {path: share for path, share in self.generated.filled.items()
                if self.seed.filled.get(path) and share < 1}

    def filled_beyond(self) -> dict[str, float]:
        """The fields the seed leaves empty that generated records fill: share filled."""
        return {path: share for path, share in self.generated.filled.items()
                if not self.seed.filled.get(path) and share > 0}

    def verdict(self) -> str:
        return (f"quads per record, generated / seed: {self.ratio:.2f} ({self.profile}, "
                f"{self.generated.records:,} records: {self.generated.quads:.1f} against "
                f"{self.seed.quads:.0f})")

    def as_json(self) -> dict[str, Any]:
        return {"profile": self.profile, "seed": asdict(self.seed),
                "generated": asdict(self.generated), "ratio": self.ratio,
                "left_empty": self.left_empty(), "filled_beyond": self.filled_beyond()}


def compare(records: int = DEFAULT_RECORDS, profile: str = DEFAULT_PROFILE,
            seed: int = 0) -> Comparison:
    return Comparison(profile, seed_shape(), generated_shape(records, profile, seed))


def _top_level(path: str) -> str:
    """The field a leaf belongs to: a key of the record, or of its ``page``."""
    parts = path.split(".")
    return ".".join(parts[:2] if parts[0] == "page" else parts[:1])


def _leaves_filled(filled: dict[str, float]) -> dict[str, tuple[float, int]]:
    """Per top-level field: the leaves filled (a mean) and the leaves it has."""
    grouped: dict[str, tuple[float, int]] = {}
    for path, share in filled.items():
        done, total = grouped.get(_top_level(path), (0.0, 0))
        grouped[_top_level(path)] = (done + share, total + 1)
    return grouped


def _number(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"


def _wrapped(title: str, items: list[str]) -> list[str]:
    """``title`` and the items after it, wrapped to 100 columns."""
    return textwrap.wrap(f"{title}: " + (", ".join(items) or "none"), 100,
                         initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)


def report(comparison: Comparison) -> str:
    """The comparison as text, the verdict last."""
    seed, made = comparison.seed, comparison.generated
    name = f"{comparison.profile} (mean of {made.records:,})"
    width = max(len(name), 9)
    lines = [f"{'':<34}{'seed':>9}  {name:>{width}}"]

    def row(label: str, left: str, right: str) -> None:
        lines.append(f"{label:<34}{left:>9}  {right:>{width}}")

    row("record bytes", _number(seed.bytes), f"{made.bytes:,.0f}")
    row("quads per record", _number(seed.quads), f"{made.quads:,.1f}")
    row("body: sections", _number(seed.body_sections), f"{made.body_sections:.1f}")
    row("body: words", _number(seed.body_words), f"{made.body_words:.1f}")
    row("body: markdown links", _number(seed.body_links), f"{made.body_links:.1f}")
    row("sources", _number(seed.sources), f"{made.sources:.1f}")

    lines += ["", "quads by predicate, per record (the most frequent):"]
    names = sorted(set(seed.predicates) | set(made.predicates),
                   key=lambda p: (-max(seed.predicates.get(p, 0), made.predicates.get(p, 0)), p))
    for predicate in names[:TOP_PREDICATES]:
        row(f"  {predicate}", _number(seed.predicates.get(predicate, 0)),
            f"{made.predicates.get(predicate, 0):.1f}")
    lines += _wrapped("only the seed has", [f"{p} ({_number(n)})" for p, n in
                                            seed.predicates.items() if p not in made.predicates])
    lines += _wrapped("only generated records have", [f"{p} ({n:.1f})" for p, n in
                                                      made.predicates.items()
                                                      if p not in seed.predicates])

    lines += ["", "fields filled, where the two differ (leaves filled / leaves):"]
    seed_leaves, made_leaves = _leaves_filled(seed.filled), _leaves_filled(made.filled)
    same = 0
    for field in sorted(set(seed_leaves) | set(made_leaves)):
        done, total = seed_leaves.get(field, (0.0, 0))
        mean, leaves = made_leaves.get(field, (0.0, 0))
        if (done, total) == (mean, leaves):
            same += 1
        else:
            row(f"  {field}", f"{done:.0f}/{total}", f"{mean:.1f}/{leaves}")
    lines.append(f"  {same} more fields the same in the seed and in every generated record")
    lines += _wrapped("the seed fills, generated records leave empty (share filled)",
                      [f"{path} ({share:.0%})" for path, share in comparison.left_empty().items()])
    lines += _wrapped("the seed leaves empty, generated records fill (share filled)",
                      [f"{path} ({share:.0%})"
                       for path, share in comparison.filled_beyond().items()])
    lines += ["", comparison.verdict()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perf.seed_shape",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", choices=sorted(PROFILES), default=DEFAULT_PROFILE,
                        help=f"the generator's profile (default {DEFAULT_PROFILE})")
    parser.add_argument("--records", type=int, default=DEFAULT_RECORDS, metavar="N",
                        help=f"generated records to measure (default {DEFAULT_RECORDS})")
    parser.add_argument("--seed", type=int, default=0, help="the generator's seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.records < 1:
        parser.error("N must be at least 1")
    comparison = compare(args.records, args.profile, args.seed)
    print(json.dumps(comparison.as_json(), indent=1) if args.json else report(comparison))
    return 0


if __name__ == "__main__":
    sys.exit(main())
