"""What a build changed in the records against the build its store held before it: kept with
the build's facts (``graph.store.base.BuildFacts.changes``) by every kind of store, so that
``build --store``, ``push``, the home page and ``/changes.json`` can say it."""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, Literal

from graph.slug import slugify

if TYPE_CHECKING:
    from graph.store.base import BuildFacts, RecordGraph

ChangeKind = Literal["added", "changed", "removed"]
Compared = Literal["start", "first", "previous", "unknown"]
"""What a build's records were compared with: nothing, as the store was built when it was
opened (``start``: a memory store); nothing, as the store held no build before (``first``);
the build the store held before (``previous``); or it is not known (``unknown``: a store
written before builds kept what they changed, or a build over one whose manifest another
version wrote)."""


@dataclass(frozen=True)
class RecordChange:
    """A record a build added, changed or removed: its named graph, and its file."""

    graph: str
    file: str

    @property
    def label(self) -> str:
        """How a person names it: its file, and for one of a file's many records (a harness
        snapshot's entries) the record's name in it, the part of its graph's key after the
        file's (``graph.ingest.loader.record_key``): ``harnesses/helm.json (mimic_rrs)``."""
        key = self.graph.rsplit("/", 1)[-1]
        stem = self.file[:len(self.file) - len(PurePosixPath(self.file).suffix)]
        own = slugify(stem)
        return self.file if key == own else f"{self.file} ({key.removeprefix(own + '_')})"

    def to_json(self) -> dict[str, str]:
        return {"graph": self.graph, "file": self.file}


@dataclass(frozen=True)
class BuildChanges:
    """What a build changed in the records against the build its store held before it, kept
    with the build so that a store says what its last build changed, whatever its kind."""

    compared: Compared = "start"
    previous: str | None = None
    """When the build compared with was made (ISO 8601, UTC), when ``compared`` is
    ``previous``."""
    added: tuple[RecordChange, ...] = ()
    changed: tuple[RecordChange, ...] = ()
    """Records in both builds whose graph is not the same."""
    removed: tuple[RecordChange, ...] = ()

    @classmethod
    def between(cls, before: BuildFacts, after: Sequence[RecordGraph],
                differ: Container[str] | None = None) -> BuildChanges:
        """The records ``after`` adds to ``before``'s, those it removes, and those in both
        whose graph differs: the graphs in ``differ`` when the build knows which graphs'
        statements differ (an incremental build, a push); else those whose file differs
        (its path or its SHA-256: a full build keeps no graph of the one before to compare
        with, so a record whose graph changed only through another record's is not named
        there)."""
        old = {record.graph: record for record in before.records}
        new = {record.graph for record in after}

        def differs(record: RecordGraph) -> bool:
            if differ is not None:
                return record.graph in differ
            held = old[record.graph]
            return (held.source_file, held.sha256) != (record.source_file, record.sha256)

        return cls(
            "previous", before.built_at,
            added=_changes(record for record in after if record.graph not in old),
            changed=_changes(record for record in after
                             if record.graph in old and differs(record)),
            removed=_changes(record for record in before.records if record.graph not in new),
        )

    def kinds(self) -> tuple[tuple[ChangeKind, tuple[RecordChange, ...]], ...]:
        """Each kind of change with its records, in the order they are told."""
        return ("added", self.added), ("changed", self.changed), ("removed", self.removed)

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"compared": self.compared, "previous_built_at": self.previous}
        for kind, records in self.kinds():
            found[kind] = [record.to_json() for record in records]
        return found

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BuildChanges:
        def records(kind: ChangeKind) -> tuple[RecordChange, ...]:
            return tuple(RecordChange(item["graph"], item["file"]) for item in data[kind])

        return cls(data["compared"], data["previous_built_at"], records("added"),
                   records("changed"), records("removed"))


def _changes(records: Iterable[RecordGraph]) -> tuple[RecordChange, ...]:
    return tuple(RecordChange(record.graph, record.source_file) for record in records)


NOT_KEPT = BuildChanges("unknown")
"""The changes of a build whose store did not keep them."""


__all__ = ["NOT_KEPT", "BuildChanges", "ChangeKind", "Compared", "RecordChange"]
