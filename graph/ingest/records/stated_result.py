"""A result as a source states it: one model's value on one benchmark (or a part of it), with
the settings it was produced under, who produced it, when, and where it was read.

A ``StatedResult`` keeps what the source wrote and adds nothing: the value as printed (``"85.2"``,
``"0.852"``, ``"15.2"`` of a ``"15.2/14.4"`` cell), the model as the source names it
(``llama-2-70b-turbomind``), the metric by the source's own word. Which model node, which
normalised value, which benchmark: the mapping decides, after every record is read. A setting
the source does not state is absent (``None``), never a default: two results whose settings
are not stated are not known to be comparable.

The field names follow Every Eval Ever's schema 0.3 where it has one, so an export to that
format is a renaming:

=========================  ==========================================================
here                       Every Eval Ever 0.3
=========================  ==========================================================
``source_type``            ``source_metadata.source_type``
``ran_by``                 ``source_metadata.evaluator_relationship`` (``model_maker``
                           is ``first_party``; ``harness_maintainers``,
                           ``paper_authors`` of another's model and ``community`` are
                           ``third_party``; ``not_stated`` is ``other``)
``settings``               ``generation_config`` (shots, chain of thought, prompt)
                           and ``metric_config.llm_scoring.judges`` (``judge``)
``uncertainty``            ``score_details.uncertainty``
``samples``                ``score_details.uncertainty.num_samples``
``harness``, ``harness_    ``eval_library.name``, ``eval_library.version``
version``
=========================  ==========================================================
"""

from typing import Annotated, Literal

from pydantic import Field, model_validator

from graph.ingest.records.base import SnapshotModel

RanBy = Literal["paper_authors", "harness_maintainers", "model_maker", "community",
                "not_stated"]
"""Who produced the value: the authors of the benchmark's paper (a figure quoted from it), the
harness's maintainers (a run the package reports), the model's maker, or a community
submission; ``not_stated`` where the source does not say."""

Scale = Literal["fraction", "percent", "points"]
"""How the value is printed: 0–1, 0–100 with or without ``%``, or another scale the metric has
(a win rate in points, an Elo, a count)."""


class Uncertainty(SnapshotModel):
    """The uncertainty the source prints beside the value, on the value's scale."""

    stderr: str | None = None
    """The standard error as printed."""
    ci_low: str | None = None
    ci_high: str | None = None
    ci_level: float | None = None
    """The confidence level of ``ci_low``–``ci_high`` (``0.95``), where the source says it."""


class Settings(SnapshotModel):
    """What makes two results comparable, as the source states it; ``None``: not stated."""

    shots: Annotated[int, Field(ge=0)] | None = None
    chain_of_thought: bool | None = None
    prompt: str | None = None
    """The prompt or configuration name the source gives (an OpenCompass config's
    ``gen_1d7fe4``, an inspect task's ``-T`` arguments)."""
    judge: str | None = None
    """The judge model, where a model scores the answers."""
    epochs: Annotated[int, Field(ge=1)] | None = None
    """Runs over the dataset that the value averages."""
    other: dict[str, str] = {}
    """Any further setting the source states, by its own name (``temperature``: ``0.5``)."""


class StatedResult(SnapshotModel):
    """One value a source states for one model on a benchmark."""

    model: Annotated[str, Field(min_length=1)]
    """The model as the source names it, verbatim."""
    model_id: str | None = None
    """The model as the package's own description of it names it (``Snapshot.models``): the
    name that description is keyed by (``ModelRules.record_name``: its Hugging Face id, else
    its API id where the package's id respells it, else the package's id). Set by the harvest
    where the name the table uses is one the package gives a model it describes
    (OpenCompass's table says ``llama-3-70b-instruct-hf``, its config loads
    ``meta-llama/Meta-Llama-3-70B-Instruct``)."""
    model_provider: str | None = None
    """The organisation the source names beside the model (inspect's "Provider" column)."""
    metric: Annotated[str, Field(min_length=1)] | None = None
    """The metric as the source names it (a column heading: ``Accuracy``, ``pass@1``);
    ``None`` where the source prints a value without saying what it measures (OpenCompass's
    model tables)."""
    value: Annotated[str, Field(pattern=r"^-?[0-9]+(\.[0-9]+)?$")]
    """The value as printed, without a ``%`` sign (``scale`` says what it was)."""
    scale: Scale | None = None
    """As printed; ``None`` where the source does not make it plain."""
    subset: str | None = None
    """The sub-task, subset or split, where the source names one (``gsm8k_main``,
    ``diamond``); ``None``: the benchmark as a whole."""
    uncertainty: Uncertainty | None = None
    samples: Annotated[int, Field(ge=0)] | None = None
    """The samples the value was computed on."""
    settings: Settings = Settings()
    harness: str | None = None
    """The harness that produced it, by its catalog key (``inspect_evals``), where stated."""
    harness_version: str | None = None
    """The harness's version or the implementation's (an inspect eval's ``2-B``)."""
    reported_as: Literal["reproduction", "paper"] | None = None
    """For a source that prints its own run beside the paper's figure ("ours / paper"):
    which of the two this value is."""
    ran_by: RanBy = "not_stated"
    source_type: Literal["documentation", "evaluation_run"] = "documentation"
    """Every Eval Ever's: a value read from documentation (a README, a leaderboard file),
    or from an evaluation run's own log."""
    date: Annotated[str, Field(pattern=r"^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$")] | None = None
    """When it was produced or reported, as precisely as the source says (year, month, or
    day); ``None``: not stated."""
    date_stated_as: str | None = None
    """The words the date was read from (``Results generated December 2025``)."""
    table: str | None = None
    """The heading of the table (or section) it was read from."""
    source: Annotated[str, Field(min_length=1)]
    """The file in the package it was read from."""

    @model_validator(mode="after")
    def _dated_with_its_words(self) -> "StatedResult":
        if self.date_stated_as is not None and self.date is None:
            raise ValueError("words a date was read from, with no date")
        return self

    def key(self) -> tuple[str, ...]:
        """What makes two results of one entry the same claim (the snapshot keeps one)."""
        return (self.model, self.subset or "", self.metric or "", self.reported_as or "",
                self.settings.model_dump_json(), self.table or "", self.source)


__all__ = ["RanBy", "Scale", "Settings", "StatedResult", "Uncertainty"]
