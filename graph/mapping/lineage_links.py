"""Lineage between harness benchmarks, kept as data: ``lineage.toml`` beside this module.

A derived benchmark is its own benchmark, linked to the one it derives from, never absorbed
into it: HumanEval+ adds tests to HumanEval's problems, HELM's Vietnamese MATH translates
MATH. And a harness may run one benchmark as parts, one per language or subject (HELM's
``xcopa_id`` and ``xcopa_ta``, the 57 MMLU subjects), each its own entry and node; each part
is linked to the benchmark it is a part of. No harness states either link (it runs the
benchmarks side by side), so each is an item of the data file, with its reason:

- ``[[variant]]``: ``variant`` (a benchmark id, as the catalog gives it) derives from
  ``parent`` (a name or an id, resolved as a reference is); the link goes from the parent to
  the variant (``bench:variant``);
- ``[[family]]``: each of ``parts`` (benchmark ids) is one part of ``family`` (a name or an
  id, resolved as a reference is); the link goes from the part to the family (``inFamily``).

The links are stated in the record graph of each harness entry that describes the variant
or the part, or runs some of its tasks (an override's ``[[tasks]]``: lm-eval runs HumanEval+
as tasks of its ``humaneval`` folder). ``lineage_links`` asks the benchmark index only what
the build writes down (``described_by``, ``tasks_moved``, ``resolve``), so an incremental
build sees when a link would change. ``tests/test_lineage_links.py`` checks every item on the
bundled catalog: each id is a benchmark some entry describes, each reference resolves to
another one.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graph.mapping.identity import BenchmarkIndex, Identified
from graph.resources import bundled_toml, read_toml

FILE_NAME = "lineage.toml"

Text = Annotated[str, Field(min_length=1)]

Predicate = Literal["variant", "inFamily"]
"""A link's property by its local name in ``bench:``: ``variant`` from a parent to its
variant, ``inFamily`` from a part to the benchmark it is a part of."""


class _Item(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    reason: Text
    """Why the link holds: what the harness or the benchmark's paper says."""


class Variant(_Item):
    """A benchmark derived from another."""

    parent: Text
    """The benchmark it derives from, by name or id (resolved as a reference)."""
    variant: Text
    """The derived benchmark's id, as the catalog gives it."""


class Family(_Item):
    """The parts a harness runs one benchmark as."""

    family: Text
    """The benchmark they are parts of, by name or id (resolved as a reference)."""
    parts: Annotated[list[Text], Field(min_length=1)]
    """The parts' benchmark ids, as the catalog gives them."""


class Lineage(BaseModel):
    """Every lineage item, as the file lists them."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    variant: list[Variant] = []
    family: list[Family] = []

    @model_validator(mode="after")
    def _once(self) -> "Lineage":
        pairs = [(v.parent, v.variant) for v in self.variant]
        parts = [part for f in self.family for part in f.parts]
        twice = sorted({str(p) for p in pairs if pairs.count(p) > 1}
                       | {p for p in parts if parts.count(p) > 1})
        if twice:
            raise ValueError(f"listed twice: {', '.join(twice)}")
        return self


@dataclass(frozen=True)
class LineageLink:
    """One link between two benchmarks, by their ids: ``subject`` ``bench:{predicate}``
    ``object``."""

    subject: str
    predicate: Predicate
    object: str


@dataclass(frozen=True)
class _Held:
    """What the data file says of one benchmark id: the reference its link points to."""

    predicate: Predicate
    reference: str


def read_lineage(text: str) -> Lineage:
    """The lineage of a TOML text (``graph.resources.read_toml``)."""
    return read_toml(Lineage, text)


@cache
def bundled_lineage() -> Lineage:
    """The lineage shipped with benchgraph, read once per process."""
    return bundled_toml(Lineage, "graph.mapping", FILE_NAME)


@cache
def _bundled_by_benchmark() -> Mapping[str, tuple[_Held, ...]]:
    return _by_benchmark(bundled_lineage())


def _by_benchmark(lineage: Lineage) -> Mapping[str, tuple[_Held, ...]]:
    """Benchmark id -> the links the file gives it, in the file's order."""
    held: dict[str, list[_Held]] = {}
    for variant in lineage.variant:
        held.setdefault(variant.variant, []).append(_Held("variant", variant.parent))
    for family in lineage.family:
        for part in family.parts:
            held.setdefault(part, []).append(_Held("inFamily", family.family))
    return {benchmark: tuple(links) for benchmark, links in held.items()}


def lineage_links(record: Identified, index: BenchmarkIndex,
                  lineage: Lineage | None = None) -> list[LineageLink]:
    """The links the record's graph states: those of the benchmark it describes and of each
    benchmark it runs tasks of, from the bundled lineage (or ``lineage``). A reference that
    resolves to the benchmark itself links nothing."""
    held = _bundled_by_benchmark() if lineage is None else _by_benchmark(lineage)
    stated = [index.described_by(record)]
    stated += [move.benchmark_id for move in index.tasks_moved(record)]
    links: list[LineageLink] = []
    for benchmark in dict.fromkeys(stated):
        for item in held.get(benchmark, ()):
            other = index.resolve(item.reference)
            if other == benchmark:
                continue
            links.append(LineageLink(other, "variant", benchmark) if item.predicate == "variant"
                         else LineageLink(benchmark, "inFamily", other))
    return links
