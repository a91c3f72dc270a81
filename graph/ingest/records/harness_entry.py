"""The harness registry entry: one benchmark-level item of a harness snapshot, as a record;
and one model the snapshot describes, as a record of its own.

A snapshot file (``catalog/harnesses/helm.json``, written by ``benchgraph harvest``) holds one
package at one version and hundreds of entries; each entry is a record of its own, with its
own named graph, beside the catalog pages and directory pages (DESIGN.md, "Records and
sources"). The entry is the snapshot model's ``Entry`` as it stands
(``graph.ingest.records.harness_snapshot``: only what the package states, each fact as it wrote it);
the record adds the package it was read from, which every fact cites.
"""

from dataclasses import dataclass

from graph.ingest.records.harness_snapshot import Entry, Harness, Repository
from graph.ingest.records.stated_model import StatedModel


@dataclass(frozen=True)
class HarnessPackage:
    """The package a snapshot was read from: what each of its entries cites."""

    harness: Harness
    """The harness's catalog key (``helm``), the notation of its vocabulary member."""
    name: str
    """The distribution's name as its METADATA writes it (``crfm-helm``)."""
    version: str
    licence: str | None = None
    copyright: str | None = None
    repository: Repository | None = None
    """The repository read beside the package (HELM's, for MedHELM's access levels)."""


@dataclass(frozen=True)
class HarnessEntry:
    """One entry of a harness snapshot and the package it came from."""

    package: HarnessPackage
    entry: Entry

    @property
    def key(self) -> tuple[str, str]:
        """What names the entry across a build: its harness and its id there."""
        return (self.package.harness, self.entry.id)


@dataclass(frozen=True)
class HarnessModel:
    """One model a harness snapshot describes (its ``models``) and the package it came from:
    a record of its own, about a model, not a benchmark."""

    package: HarnessPackage
    model: StatedModel

    @property
    def key(self) -> tuple[str, str]:
        """What names the model's record across a build: its harness and its id there."""
        return (self.package.harness, self.model.id)
