"""The directory page record: one benchmark's page in a benchmark directory, as plain text.

The page has no id of its own: the benchmark's id is the slug of its title.
"""

from decimal import Decimal

from graph.ingest.records.base import RecordModel
from graph.slug import slugify


class Fact(RecordModel):
    """One ``- Key`` / ``- value`` pair from the page's fact list, as written."""

    key: str
    value: str


class Score(RecordModel):
    """A ``MODEL VALUE%`` line: a model's score on a benchmark."""

    model: str
    value: Decimal
    unit: str | None = "percent"
    """``percent`` when the value has a ``%``; ``None`` (unknown) for a bare number."""


class ScoresSection(RecordModel):
    """The scores section: a heading ("No scores here yet", "Top scores"), a sentence, results."""

    heading: str
    statement: str | None = None
    scores: list[Score] = []


class ModelCardSection(RecordModel):
    """Whether lab model cards report the benchmark, and the survey that claim rests on."""

    heading: str
    statement: str | None = None
    launch_posts: int | None = None
    labs: int | None = None


class RelatedEntry(RecordModel):
    """Another benchmark listed under "More in CATEGORY"."""

    title: str
    status: str | None = None
    summary: str | None = None
    top_score: Score | None = None


class Section(RecordModel):
    """A section the importer does not know: kept verbatim and reported."""

    heading: str
    lines: list[str] = []


class DirectoryPage(RecordModel):
    """A benchmark directory's page about one benchmark."""

    title: str
    summary: str | None = None
    access: str | None = None
    """The access sentence as written, e.g. "Access needs PhysioNet credentials."."""
    access_note: str | None = None
    """Whatever the access paragraph says after the access sentence."""
    facts: list[Fact] = []
    authors_words: str | None = None
    scores: ScoresSection | None = None
    model_cards: ModelCardSection | None = None
    category: str | None = None
    related: list[RelatedEntry] = []
    unknown_sections: list[Section] = []

    @property
    def benchmark_id(self) -> str:
        return slugify(self.title)
