"""Snapshot files: one JSON file per harness, the same bytes for the same package, and NOTICE.

A snapshot file is ``{harness}.json``: keys sorted, entries in id order (the models sort
their own lists), one space of indent so that a new package version reads as a small diff,
UTF-8, and a fact the package does not state left out rather than written as null or [].
Files are written whole or not at all (a temporary file, then a rename). The NOTICE names each
package with its licence and copyright line, and a repository read beside a package (HELM's,
for MedHELM's access levels) with its commit, licence and copyright line: those facts are
that repository's, not the package's.
"""

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from graph.ingest.records.harness_snapshot import Snapshot

NOTICE_NAME = "NOTICE"


def snapshot_bytes(snapshot: Snapshot) -> bytes:
    """The snapshot as its file holds it."""
    data = snapshot.model_dump(mode="json", exclude_defaults=True)
    data["format"] = snapshot.format  # the one field written even at its default
    return (json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode()


def read_snapshot(data: bytes | str) -> Snapshot:
    """A snapshot file read back (strictly: a key no model declares is an error)."""
    return Snapshot.model_validate_json(data)


def snapshot_file_name(snapshot: Snapshot) -> str:
    return f"{snapshot.harness}.json"


def notice_text(snapshot: Snapshot) -> str:
    """The attribution of one snapshot: package, version, licence and copyright line, and
    those of the repository read beside it, if any."""
    copyright_line = snapshot.copyright or "(the package's licence files state no copyright line)"
    licence = snapshot.licence or "(the package's METADATA states none)"
    return (
        f"{snapshot.package} {snapshot.version}\n"
        f"Licence: {licence}\n"
        f"{copyright_line}\n"
        f"Harvested into {snapshot_file_name(snapshot)}: names, identifiers, papers with what "
        "their citations state (title, authors, year, venue, DOI), homepages, dataset ids, "
        "metric names and short descriptions, the results its documentation reports and the "
        "models it describes, as the package states them. Each entry, result and model cites "
        "the files of the package it was read from.\n" + _repository_notice(snapshot)
    )


def _repository_notice(snapshot: Snapshot) -> str:
    repository = snapshot.repository
    if repository is None:
        return ""
    copyright_line = repository.copyright or "(its LICENSE and NOTICE state no copyright line)"
    return (
        f"Beside it, {repository.url} at commit {repository.commit}\n"
        f"Licence: {repository.licence or '(its LICENSE is no licence recognised here)'}\n"
        f"{copyright_line}\n"
        "Read from it: the MedHELM access levels its run-entry files state, and the run "
        "entries' names; each access level cites its file.\n"
    )


def combined_notice(snapshots: Sequence[Snapshot]) -> str:
    """The NOTICE of a folder of snapshots: what they are, then each package's attribution."""
    blocks = [notice_text(s) for s in sorted(snapshots, key=lambda s: s.harness)]
    return (
        "Harness registry snapshots\n\n"
        "These files hold facts read from the published packages of AI evaluation harnesses, "
        "without running them: the names, ids, papers and their citations, homepages, dataset "
        "ids, metric names and short descriptions those packages state about the benchmarks "
        "they run, the results their documentation and leaderboard files report, and the "
        "models they describe. No code and no paper abstract is copied. Each package is "
        "named below with its licence and copyright line.\n\n" + "\n".join(blocks)
    )


def write_snapshots(snapshots: Sequence[Snapshot], folder: Path) -> list[Path]:
    """Writes each snapshot and the NOTICE for them into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = [_write(folder / snapshot_file_name(s), snapshot_bytes(s)) for s in snapshots]
    return [*written, _write(folder / NOTICE_NAME, combined_notice(snapshots).encode())]


def _write(path: Path, data: bytes) -> Path:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp's 0600 is for secrets, not data
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current
