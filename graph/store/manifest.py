"""A store folder's manifest, ``benchgraph-store.json``: which generation is current, and the
facts of the build that wrote it.

The manifest is the one file a build replaces to switch a store folder to a new generation
(``graph.store.disk``), whole and at once (``write_atomically``: a new file renamed over the
old one). So its identity on disk, the ``ManifestVersion`` (device, inode, size and change
time of the file the name leads to), changes with every switch, and a reader learns whether
a build has switched since it last looked from one ``stat``, without reading it
(``graph.store.following``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graph.build.stats import GraphStats
from graph.export import write_atomically
from graph.store.base import BuildFacts
from graph.store.errors import StoreError

MANIFEST = "benchgraph-store.json"
FORMAT_VERSION = 2
"""2: a generation keeps its files (``graph.store.files``) beside the Oxigraph data."""


@dataclass(frozen=True)
class Manifest:
    """The facts a store folder keeps about the build it holds (what it changed against the
    build before it too: ``BuildFacts.changes``)."""

    generation: str
    """The subfolder holding the current pyoxigraph store."""
    facts: BuildFacts
    counts: GraphStats
    quads: int
    """Statements in the named graphs (each record's own, the build graph, the ontology)."""
    triples: int
    """Statements in the default graph: their merge."""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "generation": self.generation,
            **self.facts.to_json(),
            "quads": self.quads,
            "triples": self.triples,
            "counts": self.counts.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        return cls(data["generation"], BuildFacts.from_json(data),
                   GraphStats.from_json(data["counts"]), data["quads"], data["triples"])


@dataclass(frozen=True)
class ManifestVersion:
    """Which manifest file a folder's manifest name led to when it was looked at: a new one
    after every switch (a replaced file is a new inode; its size and change time are compared
    too, since a freed inode number may be given to the next file)."""

    device: int
    inode: int
    size: int
    changed_ns: int

    @classmethod
    def of(cls, info: os.stat_result) -> ManifestVersion:
        return cls(info.st_dev, info.st_ino, info.st_size, info.st_ctime_ns)


def manifest_version(folder: Path) -> ManifestVersion | None:
    """The version of ``folder``'s manifest now (one ``stat``); None when it has none."""
    try:
        return ManifestVersion.of(os.stat(folder / MANIFEST))
    except (FileNotFoundError, NotADirectoryError):
        return None


def read_manifest(folder: Path, base: str | None = None) -> Manifest:
    """The manifest of the store in ``folder``; StoreError when there is none, when it is
    unreadable, when it was built with another base IRI than ``base``, or when the generation
    it names is not there."""
    manifest = read_versioned(folder, base)[0]
    if not (folder / manifest.generation).is_dir():
        raise incomplete(folder, manifest)
    return manifest


def incomplete(folder: Path, manifest: Manifest) -> StoreError:
    """The error of a store folder whose manifest names a generation it does not hold."""
    return StoreError(f"the store in {folder} is incomplete (no {manifest.generation}/): "
                      "build it again")


def read_versioned(folder: Path, base: str | None = None) -> tuple[Manifest, ManifestVersion]:
    """The manifest of the store in ``folder``, as ``read_manifest`` reads it but for the
    generation it names (which a reader checks as it leases it), and the version of the very
    file it read (its ``fstat``: a switch between a ``stat`` and the reading cannot pair one
    manifest with another's version)."""
    path = folder / MANIFEST
    try:
        with path.open("rb") as handle:
            version = ManifestVersion.of(os.fstat(handle.fileno()))
            data = json.loads(handle.read())
    except FileNotFoundError:
        raise StoreError(f"{folder} holds no benchgraph store: build one with "
                         f"`benchgraph build --store oxigraph:{folder}`") from None
    except (OSError, ValueError) as error:
        raise StoreError(f"{path} cannot be read as a store manifest: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT_VERSION:
        raise StoreError(f"{folder} was built by another version of benchgraph: build it again")
    manifest = Manifest.from_json(data)
    if base is not None and manifest.facts.base != base:
        raise StoreError(f"the store in {folder} was built with the base IRI "
                         f"{manifest.facts.base}, not {base}: give --base "
                         f"{manifest.facts.base} or build the store again")
    return manifest, version


def current_generation(folder: Path) -> str | None:
    """The generation ``folder``'s manifest names now; None when it names none that can be
    read (no manifest, or one of another version)."""
    try:
        data = json.loads((folder / MANIFEST).read_bytes())
    except (OSError, ValueError):
        return None
    found = data.get("generation") if isinstance(data, dict) else None
    return found if isinstance(found, str) else None


def write_manifest(folder: Path, manifest: Manifest) -> None:
    """The manifest replaced whole and on disk, its new name too (``write_atomically``)."""
    # json.dumps, not json.dump: the latter always runs Python's own encoder, and so does any
    # ``indent``, many times slower (perf/decisions/kept-state-read-lazily.md).
    text = json.dumps(manifest.to_json(), ensure_ascii=False).encode("utf-8")
    write_atomically(folder / MANIFEST, lambda out: out.write(text))


__all__ = ["FORMAT_VERSION", "MANIFEST", "Manifest", "ManifestVersion", "current_generation",
           "incomplete", "manifest_version", "read_manifest", "read_versioned", "write_manifest"]
