"""Harvesting the AI-evaluation harnesses' own packages into snapshot files.

``benchgraph harvest`` reads the wheels of HELM, lm-eval, inspect_evals, OpenCompass,
evalscope, lighteval, lmms-eval and alpaca-eval (or folders holding them unpacked) without
installing or importing them, and writes what each states about its benchmarks as one
deterministic JSON snapshot per harness (``graph.ingest.records.harness_snapshot``,
``graph.ingest.harvest.snapshot``). A reader per harness, behind one protocol
(``graph.ingest.harvest.reader``), is chosen by the package's METADATA name. What HELM's repository
states beside its wheel (MedHELM's access levels) is read when a checkout of it is given
(``graph.ingest.harvest.helm_repository``), and the snapshot names its commit. Where a package
states
both a result's model name and its own description of that model, the result names the model as
the description does (``graph.ingest.harvest.model_ids``).
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graph.ingest.harvest.alpaca_eval import AlpacaEvalReader
from graph.ingest.harvest.archive import HarvestError, open_archive
from graph.ingest.harvest.evalscope import EvalScopeReader
from graph.ingest.harvest.helm import HelmReader
from graph.ingest.harvest.helm_repository import HelmRepository, with_access
from graph.ingest.harvest.inspect_evals import InspectEvalsReader
from graph.ingest.harvest.lighteval import LightevalReader
from graph.ingest.harvest.lm_eval import LmEvalReader
from graph.ingest.harvest.lmms_eval import LmmsEvalReader
from graph.ingest.harvest.model_ids import with_model_ids
from graph.ingest.harvest.opencompass import OpenCompassReader
from graph.ingest.harvest.reader import HarnessReader
from graph.ingest.importers.base import Problem
from graph.ingest.records.harness_snapshot import SNAPSHOT_FORMAT, Repository, Snapshot

READERS: tuple[HarnessReader, ...] = (
    HelmReader(), LmEvalReader(), InspectEvalsReader(), OpenCompassReader(), EvalScopeReader(),
    LightevalReader(), LmmsEvalReader(), AlpacaEvalReader(),
)
"""Every harness reader, in the order their packages are listed to the user."""


@dataclass
class Harvest:
    """The snapshots of the packages read, and every warning met while reading them."""

    snapshots: list[Snapshot] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def harvest(paths: Sequence[Path], helm_repository: HelmRepository | None = None) -> Harvest:
    """The snapshot of each package at ``paths`` (wheels or unpacked wheels), in harness
    order, HELM's with what ``helm_repository`` states (``helm_repository.locate``); raises
    ``HarvestError`` for an input that is no harness package, two packages of one harness,
    or a HELM repository without a HELM package."""
    result = Harvest()
    seen: dict[str, Path] = {}
    for path in paths:
        with open_archive(path) as archive:
            package = archive.package()
            reader = reader_for(path, package.normalized_name)
            if reader.harness in seen:
                raise HarvestError(f"{path}: a second package of {reader.distribution} "
                                   f"(the first is {seen[reader.harness]})")
            seen[reader.harness] = path
            reading = reader.read(archive)
        repository: Repository | None = None
        if helm_repository is not None and reader.harness == "helm":
            reading.entries, repository = with_access(helm_repository, package.version,
                                                      reading.entries, reading.problems)
        result.problems += archive.problems + reading.problems
        result.snapshots.append(Snapshot(
            format=SNAPSHOT_FORMAT, harness=reader.harness, package=package.name,
            version=package.version, licence=package.licence, copyright=package.copyright,
            repository=repository, entries=with_model_ids(reading.entries, reading.models),
            models=reading.models,
        ))
    if helm_repository is not None and "helm" not in seen:
        raise HarvestError(f"{helm_repository.folder}: HELM's repository, given without a "
                           "HELM package (crfm-helm) to read it with")
    order = [reader.harness for reader in READERS]
    result.snapshots.sort(key=lambda snapshot: order.index(snapshot.harness))
    return result


def reader_for(path: Path, distribution: str) -> HarnessReader:
    """The reader of the package named ``distribution``; raises ``HarvestError``."""
    for reader in READERS:
        if reader.distribution == distribution:
            return reader
    known = ", ".join(reader.distribution for reader in READERS)
    raise HarvestError(f"{path}: a package of {distribution}, not of a harness read here "
                       f"({known})")


__all__ = ["READERS", "Harvest", "HarvestError", "HelmRepository", "harvest", "reader_for"]
