"""The harness snapshot: what one harness package states about the benchmarks it runs.

A ``Snapshot`` is one package at one version (``crfm-helm`` 0.5.16, say): its licence and
copyright line, and one ``Entry`` per benchmark-level item in it (a HELM run group, an
lm-eval task folder, an inspect eval, an OpenCompass dataset folder). An entry holds only
what the package says, each fact as the package wrote it; a fact the package does not state
is absent (``None`` or an empty list, and left out of the snapshot file), never guessed.
In particular no package states access levels: what HELM does state, that a run spec needs
a local ``data_path``, is kept as exactly that (``needs_local_data``).

The models are strict and immutable, and they put themselves in order: set-like lists come
out sorted and without repeats, lists of models sorted by their key, entries sorted by id.
So a reader may collect facts in any order and the same package always gives the same
snapshot, and the same bytes (``graph.harvest.snapshot.snapshot_bytes``).
"""

from collections.abc import Callable
from typing import Annotated, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

SNAPSHOT_FORMAT: Literal[1] = 1
"""The version of the snapshot file's shape; bumped when a field changes meaning."""

Harness = Literal["helm", "lm_eval", "inspect_evals", "opencompass"]
"""A harness by its catalog key (the ``harness`` keys of a catalog record, the notations of
the harness vocabulary in ``ontology/vocabularies.ttl``)."""


def _sorted_unique(values: list[str]) -> list[str]:
    return sorted(set(values))


SortedNames = Annotated[list[str], AfterValidator(_sorted_unique)]
"""A set of names, kept sorted so that the snapshot does not depend on reading order."""

M = TypeVar("M", bound="SnapshotModel")


def _by(key: Callable[[M], tuple[str, ...]]) -> AfterValidator:
    """Sorts a list of models by ``key`` and keeps the first of any that share it."""

    def order(models: list[M]) -> list[M]:
        kept: dict[tuple[str, ...], M] = {}
        for model in models:
            kept.setdefault(key(model), model)
        return [kept[k] for k in sorted(kept)]

    return AfterValidator(order)


class SnapshotModel(BaseModel):
    """Strict, immutable, and no key that the model does not declare."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Paper(SnapshotModel):
    """A paper the harness cites for the benchmark: its arXiv id, its title, or both."""

    arxiv: str | None = None
    """A bare arXiv id (``2211.08584``, ``hep-th/9901001``), without version."""
    title: str | None = None


class Dataset(SnapshotModel):
    """A dataset the harness loads, by the id it loads it by."""

    id: str
    """As written: a Hugging Face id (``openai/gsm8k``) or an older short name (``xnli``)."""
    hub: Literal["huggingface"] | None = None
    """Where the id lives, when the package says."""
    gated: str | None = None
    """The package's own word on access to it (inspect_evals: ``auto``), verbatim."""


class Metric(SnapshotModel):
    name: str
    """The harness's id of the metric (``exact_match``)."""
    display_name: str | None = None
    lower_is_better: bool | None = None
    main: bool = False
    """The harness names it as the benchmark's main metric (HELM ``environment.main_name``)."""


class Taxonomy(SnapshotModel):
    """HELM's description of a scenario along five axes, each as the schema wrote it."""

    task: str | None = None
    what: str | None = None
    who: str | None = None
    when: str | None = None
    language: str | None = None


class Group(SnapshotModel):
    """A named group of tasks in the harness (an lm-eval ``group``), with its members as
    written: task names, tag names or other groups."""

    name: str
    alias: str | None = None
    members: list[str] = []


class SampleCount(SnapshotModel):
    task: str
    samples: Annotated[int, Field(ge=0)]


class HumanBaseline(SnapshotModel):
    task: str
    metric: str
    score: float
    source: str | None = None
    """Where the harness says the baseline comes from (a URL, as written)."""


class LocalData(SnapshotModel):
    """A HELM run spec that cannot run without data the user supplies on disk."""

    run_spec: str
    """The run spec's name (what ``helm-run --run-entries`` takes)."""
    argument: str
    """The run spec function's parameter that takes the path (``data_path``)."""
    source: str
    """The file in the wheel that defines the run spec."""


class Entry(SnapshotModel):
    """One benchmark-level item of a harness, and every fact the harness states about it."""

    id: Annotated[str, Field(min_length=1)]
    """Its id in the harness: a HELM run group, an lm-eval task folder below ``lm_eval/tasks``
    (``gsm8k``, ``afrobench/adr``), an inspect eval folder, an OpenCompass dataset folder."""
    name: Annotated[str, Field(min_length=1)]
    """Its display name as the harness writes it, else its id."""
    aliases: SortedNames = []
    """Other names the harness gives it (short display names, names in other suites)."""
    description: str | None = None
    """The harness's own short description (the first paragraph, cut to whole sentences;
    see ``graph.harvest.text.short_description``). Never a README's copy of an abstract."""
    papers: list[Paper] = []
    """In the order the harness cites them."""
    datasets: Annotated[list[Dataset], _by(lambda d: (d.id,))] = []
    metrics: Annotated[list[Metric], _by(lambda m: (m.name,))] = []
    task_formats: SortedNames = []
    """How the harness poses the task: HELM adapter methods (``multiple_choice_joint``),
    lm-eval output types (``generate_until``)."""
    tags: SortedNames = []
    categories: SortedNames = []
    """The harness's groupings it sits in (HELM aggregate groups, an inspect eval's group)."""
    suites: SortedNames = []
    """The harness's suites that include it (HELM: the schema, ``medhelm``, ``lite``...)."""
    taxonomy: Taxonomy | None = None
    tasks: SortedNames = []
    """The names to run it by in the harness: its sub-tasks (lm-eval tasks, HELM run specs,
    inspect tasks, OpenCompass dataset abbreviations)."""
    groups: Annotated[list[Group], _by(lambda g: (g.name,))] = []
    sample_counts: Annotated[list[SampleCount], _by(lambda s: (s.task,))] = []
    human_baselines: Annotated[
        list[HumanBaseline], _by(lambda h: (h.task, h.metric, h.source or ""))
    ] = []
    needs_local_data: Annotated[list[LocalData], _by(lambda n: (n.run_spec, n.argument))] = []
    contributors: SortedNames = []
    """Who implemented it in the harness (inspect_evals ``contributors``), not its authors."""
    todo: bool = False
    """The harness lists it as not yet implemented (HELM ``todo: true``)."""
    source: Annotated[SortedNames, Field(min_length=1)]
    """The files in the package these facts were read from (a path ending in ``/`` stands for
    the files below that folder)."""


class Snapshot(SnapshotModel):
    """One harness package at one version, and its entries in id order."""

    format: Literal[1]
    """The version of the file's shape (``SNAPSHOT_FORMAT``); always written."""
    harness: Harness
    package: str
    """The distribution's name as its METADATA writes it (``crfm-helm``)."""
    version: str
    licence: str | None = None
    """As the package's METADATA states it (``License-Expression``, else ``License``)."""
    copyright: str | None = None
    """The first copyright line of the package's licence files, verbatim."""
    entries: list[Entry] = []

    @model_validator(mode="after")
    def _entries_in_order(self) -> "Snapshot":
        ids = [entry.id for entry in self.entries]
        if len(set(ids)) != len(ids):
            raise ValueError("two entries share an id")
        if ids != sorted(ids):
            object.__setattr__(self, "entries", sorted(self.entries, key=lambda e: e.id))
        return self
