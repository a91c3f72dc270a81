"""Known misses of the matching rule, kept as data: ``harness_overrides.toml`` beside this module.

The rule (``graph.mapping.identity``, ``graph.mapping.matching``) matches a harness entry to a
benchmark by name, confirmed by the papers and the dataset ids the entries state. Some entries
name their benchmark in words no rule should read as its name (HELM calls HumanEval
``HumanEval (Code)``), some run a benchmark as a few tasks of a bigger entry (lm-eval runs
BoolQ inside ``super_glue``), and some harness folders are no benchmark at all (OpenCompass's
``demo``). Each such case is one item here, with the reason it holds;
``tests/test_harness_overrides.py`` checks every one of them on the bundled catalog.

- ``[[entry]]``: the entry (``harness``, ``entry``) describes the benchmark named
  ``benchmark`` (a name or an id, resolved as a reference is: by slug, against every record's
  claims), instead of the one the rule finds;
- ``[[tasks]]``: the entry's ``tasks`` are the named benchmark's tasks in that harness; the
  entry itself still describes its own benchmark, which keeps its other tasks. An entry may
  have several, one per benchmark;
- ``[[mirror]]``: the ``datasets`` ids name one dataset (a copy under another owner and
  name, a processed form of it), so that the rule does not read two entries that load them
  as two benchmarks' (``graph.mapping.matching``: datasets that disagree keep entries apart);
- ``[[not_a_benchmark]]``: the entry is no benchmark of its own, and ``kind`` says what it is:
  a ``collection`` groups other benchmarks' tasks (lm-eval's ``leaderboard``: a suite-like
  grouping, never matched by name to a benchmark), ``leave-out`` is nothing to catalogue (a
  demo, a template: left out, with a warning naming it), a ``corpus`` is text that a harness
  measures perplexity on (C4, the Pile): matched as any entry is, and typed as a corpus.

An item about an entry the build does not hold does nothing: the harness may simply not be
in the catalog. One entry has at most one ``[[entry]]`` and one ``[[not_a_benchmark]]``, and
an entry that is no benchmark (a collection, one left out) describes none by override.
"""

from functools import cache, cached_property
from typing import Annotated, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graph.ingest.records.harness_snapshot import Harness
from graph.resources import bundled_toml, read_toml

FILE_NAME = "harness_overrides.toml"

Text = Annotated[str, Field(min_length=1)]
Key = tuple[str, str]

EntryKind = Literal["benchmark", "collection", "leave-out", "corpus"]
"""What an entry is: a benchmark (every entry not listed otherwise), or what its
``[[not_a_benchmark]]`` says."""


class _Item(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    harness: Harness
    entry: Text
    """The entry's id in its harness's snapshot."""
    reason: Text
    """Why: what the harness writes, and why the rule cannot see it."""

    @property
    def key(self) -> Key:
        return (self.harness, self.entry)


class _Override(_Item):
    benchmark: Text
    """The benchmark it describes (or whose tasks it holds), by name or id."""


class EntryOverride(_Override):
    """An entry that describes another benchmark than its name says."""


class TaskOverride(_Override):
    """Tasks of an entry that are another benchmark's tasks."""

    tasks: Annotated[list[Text], Field(min_length=1)]


class NotABenchmark(_Item):
    """An entry that is no benchmark of its own, and what it is instead."""

    kind: Literal["collection", "leave-out", "corpus"]


class Mirror(BaseModel):
    """Dataset ids that name one dataset."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    datasets: Annotated[list[Text], Field(min_length=2)]
    reason: Text


class Overrides(BaseModel):
    """Every override, as the file lists them."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    entry: list[EntryOverride] = []
    tasks: list[TaskOverride] = []
    mirror: list[Mirror] = []
    not_a_benchmark: list[NotABenchmark] = []

    @model_validator(mode="after")
    def _one_answer_per_entry(self) -> "Overrides":
        for items in (self.entry, self.not_a_benchmark):
            keys = [":".join(item.key) for item in items]
            _once(keys)
        _once([d.casefold() for m in self.mirror for d in dict.fromkeys(m.datasets)])
        pinned = {o.key for o in self.entry}
        grouped = sorted(n.key for n in self.not_a_benchmark
                         if n.kind != "corpus" and n.key in pinned)
        if grouped:
            raise ValueError("no benchmark, yet an [[entry]] override names its benchmark: "
                             + ", ".join(":".join(k) for k in grouped))
        return self

    def for_entry(self, key: Key) -> EntryOverride | None:
        """The override of the benchmark the entry ``key`` describes, if any."""
        return self._by_entry.entry.get(key)

    def tasks_of(self, key: Key) -> list[TaskOverride]:
        """The overrides that move some of the entry ``key``'s tasks to another benchmark."""
        return self._by_entry.tasks.get(key, [])

    def dataset(self, dataset_id: str) -> str:
        """The id a dataset is compared by, case-folded: for one of a ``[[mirror]]``'s ids,
        the first of them in sorted order."""
        folded = dataset_id.casefold()
        for mirror in self.mirror:
            names = sorted(d.casefold() for d in mirror.datasets)
            if folded in names:
                return names[0]
        return folded

    def not_benchmark(self, key: Key) -> NotABenchmark | None:
        """What the entry ``key`` is, if the file says it is no benchmark of its own."""
        return self._by_entry.not_a_benchmark.get(key)

    @cached_property
    def _by_entry(self) -> "_ByEntry":
        """The overrides by the entry they name: a build asks of every entry (one answer per
        entry: ``_one_answer_per_entry``)."""
        tasks: dict[Key, list[TaskOverride]] = {}
        for override in self.tasks:
            tasks.setdefault(override.key, []).append(override)
        return _ByEntry({o.key: o for o in self.entry}, tasks,
                        {n.key: n for n in self.not_a_benchmark})

    def kind_of(self, key: Key) -> EntryKind:
        """What the entry ``key`` is: a benchmark unless the file says otherwise."""
        found = self.not_benchmark(key)
        return "benchmark" if found is None else found.kind


class _ByEntry(NamedTuple):
    entry: dict[Key, EntryOverride]
    tasks: dict[Key, list[TaskOverride]]
    not_a_benchmark: dict[Key, NotABenchmark]


def _once(names: list[str]) -> None:
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ValueError(f"listed twice: {', '.join(twice)}")


NO_OVERRIDES = Overrides()


def read_overrides(text: str) -> Overrides:
    """The overrides of a TOML text (``graph.resources.read_toml``)."""
    return read_toml(Overrides, text)


@cache
def bundled_overrides() -> Overrides:
    """The overrides shipped with benchgraph, read once per process."""
    return bundled_toml(Overrides, "graph.mapping", FILE_NAME)
