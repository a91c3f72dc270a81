"""The harness snapshot: what one harness package states about the benchmarks it runs.

A ``Snapshot`` is one package at one version (``crfm-helm`` 0.5.16, say): its licence and
copyright line, and one ``Entry`` per benchmark-level item in it (a HELM run group, an
lm-eval task folder, an inspect eval, an OpenCompass dataset folder). An entry holds only
what the package says, each fact as the package wrote it; a fact the package does not state
is absent (``None`` or an empty list, and left out of the snapshot file), never guessed.
In particular no package states access levels: what HELM and OpenCompass do state, that a
task needs data on the user's disk, is kept as exactly that (``needs_local_data``).

The models are strict and immutable, and they put themselves in order: set-like lists come
out sorted and without repeats, lists of models sorted by their key, entries sorted by id.
So a reader may collect facts in any order and the same package always gives the same
snapshot, and the same bytes (``graph.ingest.harvest.snapshot.snapshot_bytes``).
"""

from collections.abc import Callable
from typing import Annotated, Literal, TypeVar

from pydantic import AfterValidator, Field, model_validator

from graph.ingest.records.base import SnapshotModel, SortedNames
from graph.ingest.records.stated_model import StatedModel
from graph.ingest.records.stated_result import StatedResult

SNAPSHOT_FORMAT: Literal[4] = 4
"""The version of the snapshot file's shape that ``benchgraph harvest`` writes; bumped when a
field is added or changes meaning. Format 2 added the papers' citations, access levels,
homepages, languages, modalities and run requirements; format 3, the results the package
states; format 4, where a task's local data lies (``LocalData.path``). An older file, which
has none of them, reads as it is."""

Harness = Literal["helm", "lm_eval", "inspect_evals", "opencompass", "evalscope", "lighteval",
                  "lmms_eval", "alpaca_eval"]
"""A harness by its catalog key (the ``harness`` keys of a catalog record, the notations of
the harness vocabulary in ``ontology/vocabularies.ttl``)."""


M = TypeVar("M", bound="SnapshotModel")


def _by(key: Callable[[M], tuple[str, ...]]) -> AfterValidator:
    """Sorts a list of models by ``key`` and keeps the first of any that share it."""

    def order(models: list[M]) -> list[M]:
        kept: dict[tuple[str, ...], M] = {}
        for model in models:
            kept.setdefault(key(model), model)
        return [kept[k] for k in sorted(kept)]

    return AfterValidator(order)


class Paper(SnapshotModel):
    """A paper the harness cites for the benchmark, with what it states of it: an arXiv id, a
    DOI, a link, a title, and what a citation of it (BibTeX, or a short "Author et al., YEAR")
    adds. At least one of ``arxiv``, ``doi``, ``url`` and ``title`` is stated."""

    arxiv: str | None = None
    """A bare arXiv id (``2211.08584``, ``hep-th/9901001``), without version."""
    doi: str | None = None
    """A bare DOI (``10.18653/v1/2020.emnlp-main.550``)."""
    url: str | None = None
    """A link to the paper that is not an arXiv or doi.org link (ACL Anthology, OpenReview)."""
    title: str | None = None
    authors: list[str] = []
    """In the order the citation lists them, each as ``Given Family`` with LaTeX decoded."""
    year: int | None = None
    """The year the citation states (publication), never one read off an arXiv id."""
    venue: str | None = None
    """The journal, proceedings or publisher the citation names, as written."""
    cite_key: str | None = None
    """The BibTeX key the harness cites it by."""
    citation: str | None = None
    """A short citation as the harness wrote it (``Hendrycks et al., 2021``)."""

    @model_validator(mode="after")
    def _identified(self) -> "Paper":
        if not (self.arxiv or self.doi or self.url or self.title):
            raise ValueError("a paper needs an arXiv id, a DOI, a link or a title")
        return self


class Dataset(SnapshotModel):
    """A dataset the harness loads, by the id it loads it by."""

    id: str
    """As written: a Hugging Face id (``openai/gsm8k``) or an older short name (``xnli``)."""
    hub: Literal["huggingface", "modelscope"] | None = None
    """Where the id lives, when the package says."""
    gated: str | None = None
    """The package's own word on access to it (inspect_evals: ``auto``), verbatim."""


class StatedAccess(SnapshotModel):
    """An access level a harness's own files state, by the file a run entry is listed in
    (MedHELM's ``run_entries_medhelm_{public,gated,private_ORG}.conf``)."""

    level: Literal["public", "gated", "private"]
    run_entry: str
    """The run entry's name as the file writes it (the part before ``:``)."""
    holder: str | None = None
    """For a private level, the organisation the file is named for (``stanford``)."""
    source: str
    """The file, as a path in the repository (``Snapshot.repository``)."""


class Requirements(SnapshotModel):
    """What running the benchmark needs, as the harness states it (inspect_evals' eval.yaml)."""

    sandbox: SortedNames = []
    """What runs in a sandbox, as the harness says it (inspect_evals: ``solver``,
    ``scorer``)."""
    internet: bool | None = None
    """Whether it needs internet access while it runs."""


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
    """A task that reads its data from the user's disk: data the user supplies, unless the
    harness names an archive it downloads."""

    run_spec: str
    """The name it runs by: a HELM run spec (what ``helm-run --run-entries`` takes), an
    OpenCompass dataset config (what ``opencompass --datasets`` takes)."""
    argument: str
    """What takes the data's location: the run spec function's parameter (HELM
    ``data_path``), the config's key (OpenCompass ``path``, ``data_files``)."""
    path: str | None = None
    """The location on disk the harness reads, as written (OpenCompass ``./data/lawbench``);
    none where the user gives it (HELM)."""
    download: str | None = None
    """The archive the harness downloads into ``path`` when it is missing (OpenCompass's
    ``DATASETS_URL``): where there is one, the user need not supply the data."""
    source: str
    """The file in the package that says so."""


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
    see ``graph.ingest.harvest.text.short_description``). Never a README's copy of an abstract."""
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
    needs_local_data: Annotated[
        list[LocalData], _by(lambda n: (n.run_spec, n.argument, n.path or ""))
    ] = []
    homepage: str | None = None
    """The benchmark's home page as the harness links it (``Homepage:``), an http(s) URL."""
    languages: SortedNames = []
    """The languages the harness says it covers, as written (``en``, ``French``)."""
    modalities: SortedNames = []
    """What its inputs are, as the harness says (``image``, ``video``, ``audio``, ``text``)."""
    access: Annotated[list[StatedAccess], _by(lambda a: (a.level, a.run_entry))] = []
    requirements: Requirements | None = None
    version: str | None = None
    """The harness's version of its implementation (inspect_evals ``version``), as written."""
    contributors: SortedNames = []
    """Who implemented it in the harness (inspect_evals ``contributors``), not its authors."""
    results: Annotated[list[StatedResult], _by(StatedResult.key)] = []
    """The results the package states for it (an inspect eval's "Evaluation Report", an
    OpenCompass README's tables, AlpacaEval's leaderboards)."""
    todo: bool = False
    """The harness lists it as not yet implemented (HELM ``todo: true``)."""
    source: Annotated[SortedNames, Field(min_length=1)]
    """The files in the package these facts were read from (a path ending in ``/`` stands for
    the files below that folder)."""


class Repository(SnapshotModel):
    """A source repository some entries' facts were read from, beside the package, at one
    commit (the MedHELM access levels, from HELM's repository)."""

    url: str
    commit: Annotated[str, Field(pattern=r"^[0-9a-f]{40}$")]
    licence: str | None = None
    copyright: str | None = None


class Snapshot(SnapshotModel):
    """One harness package at one version, and its entries in id order."""

    format: Literal[1, 2, 3, 4]
    """The version of the file's shape (``SNAPSHOT_FORMAT`` when written); always written."""
    harness: Harness
    package: str
    """The distribution's name as its METADATA writes it (``crfm-helm``)."""
    version: str
    licence: str | None = None
    """As the package's METADATA states it (``License-Expression``, else ``License``)."""
    copyright: str | None = None
    """The first copyright line of the package's licence files, verbatim."""
    repository: Repository | None = None
    """The repository read beside the package, where any entry cites one of its files."""
    entries: list[Entry] = []
    models: Annotated[list[StatedModel], _by(lambda m: (m.id,))] = []
    """The models the package describes (HELM's model metadata, OpenCompass's and
    AlpacaEval's model configs), each a record of its own beside the entries."""

    @model_validator(mode="after")
    def _entries_in_order(self) -> "Snapshot":
        ids = [entry.id for entry in self.entries]
        if len(set(ids)) != len(ids):
            raise ValueError("two entries share an id")
        if ids != sorted(ids):
            object.__setattr__(self, "entries", sorted(self.entries, key=lambda e: e.id))
        return self
