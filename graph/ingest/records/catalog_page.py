"""The catalog page record: one benchmark's page, as the catalog exports it in JSON.

Every key of the exported record is declared here with a strict type. A key this
model does not know is kept (``unknown_keys``) and reported, never silently dropped.
"""

from typing import Annotated

from pydantic import Field, ValidationInfo, field_validator

from graph.ingest.records.base import RecordModel
from graph.ingest.records.fields import (
    ArxivId,
    BenchmarkId,
    Doi,
    IsoDate,
    IsoDateTime,
    Name,
    Names,
    Number,
    OptionalBenchmarkId,
    OptionalNumber,
    PartialDate,
    Text,
    Url,
)
from graph.ingest.records.verbatim import keep


class Build(RecordModel):
    """When and from what commit the catalog exported this record."""

    built_at: IsoDateTime = None
    commit: Text = None
    eligibility_as_of: IsoDate = None


class VerifiedResult(RecordModel):
    """A result the catalog has checked against its source."""

    model: Name
    score: Number
    unit: Text = None
    source_url: Url = None
    as_of: IsoDate = None


class Disposition(RecordModel):
    """The catalog's verdict on the record: canonical id, review status, checked results."""

    canonical_id: OptionalBenchmarkId = None
    reasons: list[str] = []
    status: Text = None
    verified_results: list[VerifiedResult] = []


class Contamination(RecordModel):
    risk: Text = None
    note: Text = None


class Dataset(RecordModel):
    languages: list[str] = []
    license: Text = None
    modalities: list[str] = []
    public_test_set: bool | None = None
    size: Annotated[int | None, Field(ge=0)] = None
    size_note: Text = None
    splits: Text = None
    url: Url = None


class Freshness(RecordModel):
    researched: IsoDate = None
    researched_by: Text = None
    reviewed: IsoDate = None
    reviewed_by: Text = None


class Harness(RecordModel):
    """The benchmark's task name in each harness that runs it; ``other`` is a free note."""

    bigbench: Text = None
    helm: Text = None
    inspect_evals: Text = None
    lm_eval: Text = None
    opencompass: Text = None
    other: Text = None


class Lineage(RecordModel):
    """A benchmark's relatives, by id. A variant naming the page's own id is kept as a
    ``Verbatim`` (see ``Page``): it is reported and never linked. (The page's own id as
    its predecessor or successor is linked, and a core shape calls it a violation.)"""

    family: Text = None
    predecessor: OptionalBenchmarkId = None
    successors: list[BenchmarkId] = []
    variants: list[BenchmarkId] = []

    def without_own_id(self, own: str, info: ValidationInfo) -> "Lineage":
        """This lineage with each variant equal to ``own`` kept as a ``Verbatim``."""
        if own not in self.variants:
            return self  # the common case: nothing to copy
        reason = "the page's own id: a benchmark is not its own variant; kept as text, not linked"
        variants = [keep(v, reason, info) if v == own else v for v in self.variants]
        return self.model_copy(update={"variants": variants})


class Metric(RecordModel):
    name: Text = None
    direction: Text = None
    unit: Text = None
    max_score: OptionalNumber = None
    human_baseline: OptionalNumber = None
    random_baseline: OptionalNumber = None
    baseline_note: Text = None


class Paper(RecordModel):
    """The paper that describes the benchmark, known by any of its arXiv id, DOI, title
    and URL."""

    arxiv: ArxivId = None
    doi: Doi = None
    title: Text = None
    url: Url = None
    year: Annotated[int | None, Field(ge=1900, le=2999)] = None


class Publisher(RecordModel):
    authors: Names = []
    org: Text = None
    url: Url = None


class Saturation(RecordModel):
    status: Text = None
    as_of: IsoDate = None
    note: Text = None
    top_score: OptionalNumber = None


class Source(RecordModel):
    title: Text = None
    url: Url = None
    accessed: IsoDate = None


class Page(RecordModel):
    """The benchmark page itself."""

    id: BenchmarkId
    name: Name
    aliases: Names = []
    summary: Text = None
    measures: Text = None
    task_format: Text = None
    category: Text = None
    subcategory: Text = None
    tags: Names = []
    status: Text = None
    page_kind: Text = None
    released: PartialDate = None
    last_updated: IsoDate = None
    leaderboard_url: Url = None
    repo_url: Url = None
    contamination: Contamination = Contamination()
    dataset: Dataset = Dataset()
    freshness: Freshness = Freshness()
    harness: Harness = Harness()
    lineage: Lineage = Lineage()
    metric: Metric = Metric()
    paper: Paper = Paper()
    publisher: Publisher = Publisher()
    saturation: Saturation = Saturation()
    sources: list[Source] = []

    @field_validator("lineage")
    @classmethod
    def _not_own_variant(cls, lineage: Lineage, info: ValidationInfo) -> Lineage:
        own = info.data.get("id")  # absent when the id itself failed
        return lineage if own is None else lineage.without_own_id(own, info)


class CatalogPage(RecordModel):
    """A catalog page record: the page plus the catalog's own bookkeeping about it."""

    page: Page
    body: Text = None
    build: Build = Build()
    disposition: Disposition = Disposition()
    models_covered: Names = []

    @property
    def benchmark_id(self) -> str:
        return self.page.id
