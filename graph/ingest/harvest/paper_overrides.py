"""Known wrong paper statements in a harness's READMEs, kept as data: ``paper_overrides.toml``
beside this module.

A README's Paper section and its BibTeX citation each state the benchmark's paper; where they
disagree, the reader cannot tell which is right, warns, and harvests neither
(``graph.ingest.harvest.lm_eval_readme``). Where someone has looked and knows, one ``[[readme]]``
entry here says which to trust, and why:

- ``trust = "citation"``: the Paper section is wrong (lm-eval's ETHICS README pastes
  WikiText's paper, and a few paste another paper's link under the right title); the
  citation is the paper: the first one the README holds, or the one ``cite_key`` names;
- ``trust = "section"``: the citation names another paper than the benchmark's; the Paper
  section's paper stands, and no citation adds to it;
- ``trust = "both"``: the two name one paper in other words (a typo, a reworded title); the
  citation (the first, or ``cite_key``) adds to the section's paper, its title standing for
  the section's.

An override is needed while it changes the paper the reader would harvest without it; one
that no longer does (the README was mended, or the entry is gone) is a warning of the
harvest, so that the file keeps no stale fixes.
"""

from functools import cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graph.ingest.records.harness_snapshot import Harness
from graph.resources import bundled_toml, read_toml

FILE_NAME = "paper_overrides.toml"

Text = Annotated[str, Field(min_length=1)]


class ReadmeOverride(BaseModel):
    """Which of a README's two statements of its paper to trust."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    harness: Harness
    entry: Text
    """The entry's id in its harness's snapshot (``hendrycks_ethics``)."""
    trust: Literal["citation", "section", "both"]
    cite_key: Text | None = None
    """With ``trust = "citation"``: the BibTeX key of the citation that is the paper."""
    reason: Text
    """What the README states, and why the trusted statement is the right one."""


class PaperOverrides(BaseModel):
    """Every override, as the file lists them; at most one per entry."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    readme: list[ReadmeOverride] = []

    @model_validator(mode="after")
    def _one_override_an_entry(self) -> "PaperOverrides":
        keys = [(o.harness, o.entry) for o in self.readme]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{FILE_NAME}: two overrides name one entry")
        return self

    def for_harness(self, harness: Harness) -> dict[str, ReadmeOverride]:
        """The overrides of one harness's READMEs, by entry id."""
        return {o.entry: o for o in self.readme if o.harness == harness}


def read_overrides(text: str) -> PaperOverrides:
    """The overrides of a TOML text (``graph.resources.read_toml``); two that name one entry
    break the format (a bug in the shipped data, not a harvest warning)."""
    return read_toml(PaperOverrides, text)


@cache
def bundled_overrides() -> PaperOverrides:
    """The overrides shipped with benchgraph, read once per process."""
    return bundled_toml(PaperOverrides, "graph.ingest.harvest", FILE_NAME)
