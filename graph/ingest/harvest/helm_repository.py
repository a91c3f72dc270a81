"""HELM's source repository, read beside its wheel: the access levels MedHELM states.

The wheel does not hold them; HELM's repository does, in
``src/helm/benchmark/presentation/run_entries_medhelm_{public,gated,private_ORG}.conf``. HELM's
``docs/medhelm.md`` ("Benchmark Access Levels") defines the three: a run entry is listed in
the file of the access its data needs, public (anyone can reproduce it), gated (credentialed
users: PhysioNet, Redivis) or private to the organisation ORG. The other run-entry files
(``run_entries_medhelm_dspy.conf``) state no access level and are not read.

The files are HOCON, read with pyhocon: ``entries: [{description: "ehrshot:subject=…"}, …]``.
A run entry's name is its description up to the first ``:`` (the run spec's name), and its
access goes to each HELM entry whose tasks hold that name; a name that differs from the
entry's id becomes one of its aliases (``medhelm_med_qa`` of ``med_qa``). A name no entry runs
is a warning naming the file. Substitutions are left unresolved, so no environment variable is
read, and a file with an ``include`` is refused rather than followed: an include can name any
file, a URL, or a Python package that pyhocon would import to find it.

The facts hold at one commit, which the snapshot records (``Repository``): a git work tree's
``HEAD``, a file that differs from ``HEAD`` being a warning; for a folder that is no work tree
(an unpacked ``git archive``), the commit its user names. A repository whose
``pyproject.toml`` states another version than the package's is a warning: its run-entry files
may list another release's benchmarks. The licence is the one the repository's ``LICENSE`` is
the text of, by its SPDX id; the copyright line is the first one ``LICENSE`` or ``NOTICE``
states.
"""

import re
import subprocess
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pyhocon import ConfigFactory
from pyhocon.exceptions import ConfigException
from pyparsing import ParseBaseException

from graph.ingest.harvest.archive import MAX_MEMBER_BYTES, Archive, HarvestError, MemberError
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.importers.base import Problem
from graph.ingest.records.harness_snapshot import Entry, Repository, StatedAccess
from graph.regular_file import NotRegular, TooLarge, read_regular

URL = "https://github.com/stanford-crfm/helm"
PRESENTATION = "src/helm/benchmark/presentation"
LICENCE_FILES = ("LICENSE", "NOTICE")
PROJECT = "pyproject.toml"
_ACCESS_FILE = re.compile(r"run_entries_medhelm_(?P<level>public|gated|private)"
                          r"(?:_(?P<holder>[A-Za-z0-9-]+))?\.conf")
_COMMIT = re.compile(r"[0-9a-f]{40}")
_INCLUDE = re.compile(r"^[\s{\[,]*include\b", re.MULTILINE)
"""A line that starts with HOCON's ``include`` keyword: looked for before pyhocon parses the
file, since pyhocon follows an include while it parses."""
_LICENCES = (("Apache License Version 2.0", "Apache-2.0"), ("MIT License", "MIT"))
"""The licence texts recognised by their opening words, and their SPDX ids."""
GIT_SECONDS = 30


@dataclass(frozen=True)
class HelmRepository:
    """A folder holding HELM's repository at ``commit``; ``work_tree`` when git knows it."""

    folder: Path
    commit: str
    work_tree: bool


def locate(folder: Path, commit: str | None = None) -> HelmRepository:
    """HELM's repository in ``folder`` at the commit git names for it (``HEAD``, when the
    folder is the top of a git work tree) or else ``commit``; raises ``HarvestError`` when
    neither names one, they differ, or the folder has no ``src/helm/benchmark/presentation``."""
    if not (folder / PRESENTATION).is_dir():
        raise HarvestError(f"{folder}: no {PRESENTATION}/ folder: not HELM's repository")
    given = commit.lower() if commit else None
    if given is not None and not _COMMIT.fullmatch(given):
        raise HarvestError(f"--helm-commit {commit}: not a full commit id (40 hex digits)")
    head, why = _head(folder)
    if head is not None and given is not None and head != given:
        raise HarvestError(f"{folder}: its HEAD is commit {head}, not {given}")
    found = head or given
    if found is None:
        raise HarvestError(f"{folder}: {why}: name the commit it holds with --helm-commit SHA")
    return HelmRepository(folder, found, head is not None)


def _head(folder: Path) -> tuple[str | None, str]:
    """The folder's ``HEAD`` commit when it is the top of a git work tree, else ``None`` and
    why not."""
    answer = _git(folder, "rev-parse", "--show-toplevel", "HEAD")
    if answer is None:
        return None, "not a git work tree (or git cannot read it)"
    top, _, head = answer.decode().strip().partition("\n")
    if Path(top).resolve() != folder.resolve():
        return None, f"not the top of a git work tree (that is {top})"
    if not _COMMIT.fullmatch(head.strip()):
        return None, f"its HEAD is no SHA-1 commit ({head.strip()})"
    return head.strip(), ""


def _git(folder: Path, *arguments: str) -> bytes | None:
    """What ``git -C folder ARGUMENTS`` writes, or ``None`` when it fails or git is missing.
    Only commands that run nothing a repository's config names (no hooks, no filters)."""
    try:
        done = subprocess.run(["git", "-C", str(folder), *arguments], capture_output=True,
                              timeout=GIT_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


class _RepositoryFiles(Archive):
    """The few files of the repository read here, listed by name rather than walked (a clone
    can hold a ``.git`` and a front end's ``node_modules`` of many thousand files)."""

    def __init__(self, folder: Path, problems: list[Problem]) -> None:
        try:
            listed = [path.name for path in (folder / PRESENTATION).iterdir()]
        except OSError as error:
            raise HarvestError(f"{folder / PRESENTATION}: cannot list the folder: "
                               f"{error.strerror}") from None
        confs = [f"{PRESENTATION}/{name}" for name in listed if _ACCESS_FILE.fullmatch(name)]
        present = [n for n in (*LICENCE_FILES, PROJECT) if (folder / n).is_file()]
        super().__init__(folder, confs + present, problems)

    def read_bytes(self, name: str) -> bytes:
        try:
            return read_regular(self.path / name, MAX_MEMBER_BYTES, follow_links=False)
        except (NotRegular, TooLarge, OSError) as error:
            raise MemberError("cannot be read", str(error)) from None

    def copyright(self) -> str | None:
        return self._copyright([n for n in LICENCE_FILES if n in self])


@dataclass(frozen=True)
class _Listed:
    """One run entry listed in an access file."""

    name: str
    access: StatedAccess


def with_access(repository: HelmRepository, version: str, entries: list[Entry],
                problems: list[Problem]) -> tuple[list[Entry], Repository | None]:
    """The entries of the package at ``version`` with the access levels the repository's
    run-entry files state, and the repository as the snapshot names it (``None`` when no
    entry cites it)."""
    files = _RepositoryFiles(repository.folder, problems)
    reader = MemberReader(files, problems)
    _check_version(reader, version)
    names = files.below(f"{PRESENTATION}/")
    if not names:
        reader.warn(PRESENTATION, "no run_entries_medhelm_{public,gated,private_ORG}.conf: "
                    "no access level read")
    listed = [item for name in names for item in _listed(reader, name, repository)]
    by_task: dict[str, list[int]] = {}
    for index, entry in enumerate(entries):
        for task in entry.tasks:
            by_task.setdefault(task, []).append(index)
    stated: dict[int, list[_Listed]] = {}
    for item in listed:
        if item.name not in by_task:
            reader.warn(item.access.source, "a run entry that no HELM entry runs",
                        field="entries", value=item.name)
        for index in by_task.get(item.name, []):
            stated.setdefault(index, []).append(item)
    updated = [_with(entry, stated.get(index, [])) for index, entry in enumerate(entries)]
    if not stated:
        return updated, None
    return updated, Repository(url=URL, commit=repository.commit, licence=_licence(reader),
                               copyright=files.copyright())


def _with(entry: Entry, listed: list[_Listed]) -> Entry:
    if not listed:
        return entry
    aliases = [*entry.aliases, *(i.name for i in listed if i.name != entry.id)]
    return Entry.model_validate({**dict(entry), "aliases": aliases,
                                 "access": [*entry.access, *(i.access for i in listed)]})


def _listed(reader: MemberReader, name: str, repository: HelmRepository) -> Iterator[_Listed]:
    """The run entries one access file lists, each once, in file order."""
    form = _ACCESS_FILE.fullmatch(name.rsplit("/", 1)[-1])
    text = reader.text(name)
    if form is None or text is None or not _committed(reader, name, text, repository):
        return
    level, holder = form.group("level"), form.group("holder")
    if (level == "private") != (holder is not None):
        reader.warn(name, "an access file not named run_entries_medhelm_{public,gated,"
                    "private_ORG}.conf")
        return
    seen: set[str] = set()
    for index, entry in enumerate(_entries(reader, name, text)):
        run_entry = _run_entry(entry)
        if run_entry is None:
            reader.warn(name, "a run entry with no description naming it",
                        field=f"entries[{index}]")
        elif run_entry not in seen:
            seen.add(run_entry)
            yield _Listed(run_entry, StatedAccess.model_validate(
                {"level": level, "run_entry": run_entry, "holder": holder, "source": name}))


def _entries(reader: MemberReader, name: str, text: str) -> list[Any]:
    """The file's ``entries`` list, or ``[]`` and a warning."""
    if _INCLUDE.search(text):
        reader.warn(name, "a HOCON include: not followed, and the file not read")
        return []
    try:
        config = ConfigFactory.parse_string(text, resolve=False)
    except (ParseBaseException, ConfigException, RecursionError) as error:
        reader.warn(name, "not valid HOCON", value=str(error).strip())
        return []
    entries = config.get("entries", None) if isinstance(config, dict) else None
    if not isinstance(entries, list):
        reader.warn(name, "no list of run entries", field="entries")
        return []
    return entries


def _licence(reader: MemberReader) -> str | None:
    """The SPDX id of the licence ``LICENSE`` is the text of, when it is one known here."""
    text = reader.text("LICENSE") if "LICENSE" in reader.archive else None
    opening = " ".join(text.split()[:8]) if text else ""
    return next((spdx for words, spdx in _LICENCES if opening.startswith(words)), None)


def _check_version(reader: MemberReader, version: str) -> None:
    """A warning when the repository's ``pyproject.toml`` states another version."""
    text = reader.text(PROJECT) if PROJECT in reader.archive else None
    try:
        project = tomllib.loads(text).get("project") if text is not None else None
    except tomllib.TOMLDecodeError as error:
        reader.warn(PROJECT, "not valid TOML", value=str(error))
        return
    stated = project.get("version") if isinstance(project, dict) else None
    if isinstance(stated, str) and stated != version:
        reader.warn(PROJECT, "another version than the package's: its run entries may be "
                    "another release's", field="project.version",
                    value=f"{stated}, the package {version}")


def _run_entry(entry: Any) -> str | None:
    description = entry.get("description", None) if isinstance(entry, dict) else None
    if not isinstance(description, str):
        return None
    return description.split(":", 1)[0].strip() or None


def _committed(reader: MemberReader, name: str, text: str, repository: HelmRepository) -> bool:
    """Whether the file read is the commit's: in a work tree, a file that differs from
    ``HEAD`` is a warning and is not read (its facts would be no commit's)."""
    if not repository.work_tree:
        return True
    committed = _git(repository.folder, "cat-file", "blob", f"{repository.commit}:{name}")
    if committed is not None and committed.decode("utf-8-sig", "replace") == text:
        return True
    reader.warn(name, "differs from the commit read (a local change): not read",
                value=repository.commit)
    return False
