"""Reading a harness package without installing, importing or unpacking it.

An ``Archive`` is a wheel (a zip file) or a folder holding an unpacked one. It lists its
member files by their POSIX path inside the package and reads one member at a time, so
nothing is extracted and nothing from the package ever runs. A member is read only up to
``MAX_MEMBER_BYTES`` (whatever its zip header claims), a member name that is absolute or
climbs out with ``..`` is never used (zip-slip), and in a folder symbolic links are not
followed. The package is named by its ``*.dist-info/METADATA``: name, version, licence,
and the copyright line of its licence files.
"""

import os
import re
import zipfile
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path, PurePosixPath

from graph.errors import BenchgraphError, ErrorKind
from graph.ingest.importers.base import Problem
from graph.regular_file import NotRegular, TooLarge, read_regular

MAX_MEMBER_BYTES = 16 * 1024 * 1024
"""The largest member read; the largest in the four harness wheels is under 1 MB."""

_COPYRIGHT = re.compile(r"^\s*(Copyright\s+(\(c\)\s*)?\d{4}.*?)\s*$", re.IGNORECASE)


class HarvestError(BenchgraphError):
    """An input that cannot be harvested at all: missing, not a wheel, no METADATA."""

    kind = ErrorKind.INPUT


class MemberError(Exception):
    """One member that cannot be read; the rest of the archive still can. ``reason`` reads
    the same for every member; ``detail`` holds what differs (a size, an offset)."""

    def __init__(self, reason: str, detail: str | None = None) -> None:
        super().__init__(reason if detail is None else f"{reason} ({detail})")
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class Package:
    """What a package's METADATA and licence files say about it."""

    name: str
    version: str
    licence: str | None
    """``License-Expression``, else ``License``, as written; ``None`` when neither is."""
    copyright: str | None

    @property
    def normalized_name(self) -> str:
        """The name as PyPI compares names (PEP 503): ``inspect_evals`` -> ``inspect-evals``."""
        return re.sub(r"[-_.]+", "-", self.name).lower()


class Archive(ABC):
    """A wheel or an unpacked wheel: sorted member names, and each member's bytes."""

    def __init__(self, path: Path, names: list[str], problems: list[Problem]) -> None:
        self.path = path
        self.names: tuple[str, ...] = tuple(sorted(names))
        self._members = frozenset(self.names)
        self.problems = problems
        """Members skipped while listing (unsafe names, links), as warnings."""

    def __contains__(self, name: object) -> bool:
        return name in self._members

    def below(self, folder: str) -> list[str]:
        """The members under ``folder`` (``"helm/benchmark/"``), at any depth, sorted."""
        return [name for name in self.names if name.startswith(folder)]

    @abstractmethod
    def read_bytes(self, name: str) -> bytes:
        """The member's bytes; raises ``MemberError`` when it cannot be read."""

    def read_text(self, name: str) -> str:
        """The member as UTF-8 text (a byte-order mark dropped); raises ``MemberError``."""
        data = self.read_bytes(name)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise MemberError("not UTF-8", f"byte offset {error.start}") from None

    def problem(self, name: str, reason: str, field: str | None = None,
                value: str | None = None) -> Problem:
        """A warning about member ``name``, shown as the archive's path and the member's."""
        return Problem(self.path / name, field, reason, value)

    def package(self) -> Package:
        """The package as its ``*.dist-info/METADATA`` names it; raises ``HarvestError``."""
        metadata = [n for n in self.names if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
        if len(metadata) != 1:
            found = "no" if not metadata else "more than one"
            raise HarvestError(f"{self.path}: {found} *.dist-info/METADATA: not a wheel "
                               "or an unpacked wheel")
        try:
            headers = HeaderParser().parsestr(self.read_text(metadata[0]))
        except MemberError as error:
            raise HarvestError(f"{self.path / metadata[0]}: {error}") from None
        name, version = headers.get("Name"), headers.get("Version")
        if not name or not version:
            raise HarvestError(f"{self.path / metadata[0]}: no Name or no Version")
        licence = headers.get("License-Expression") or headers.get("License")
        folder = metadata[0].rsplit("/", 1)[0]
        named = [f"{folder}/licenses/{f}" for f in headers.get_all("License-File", [])]
        licence_files = [f for f in named if f in self] or [  # older wheels: by their names
            n for n in self.below(f"{folder}/")
            if re.match(r"(LICEN[CS]E|COPYING|NOTICE)", n.rsplit("/", 1)[-1], re.IGNORECASE)
        ]
        return Package(name, version, licence.strip() if licence and licence.strip() else None,
                       self._copyright(licence_files))

    def _copyright(self, files: list[str]) -> str | None:
        """The first line of the licence files that states a copyright with a year."""
        for name in files:
            try:
                text = self.read_text(name)
            except MemberError:
                continue
            for line in text.splitlines():
                found = _COPYRIGHT.match(line)
                if found:
                    return found.group(1)
        return None


class _ZipArchive(Archive):
    def __init__(self, path: Path, archive: zipfile.ZipFile) -> None:
        problems: list[Problem] = []
        self._zip = archive
        self._infos: dict[str, zipfile.ZipInfo] = {}
        for info in archive.infolist():
            if info.is_dir():
                continue
            if not _safe_name(info.filename):
                problems.append(Problem(path / info.filename, None, _UNSAFE))
                continue
            self._infos.setdefault(info.filename, info)
        super().__init__(path, list(self._infos), problems)

    def read_bytes(self, name: str) -> bytes:
        info = self._infos.get(name)
        if info is None:
            raise MemberError("no such file in the package")
        if info.file_size > MAX_MEMBER_BYTES:
            raise _too_large(info.file_size)
        try:
            with self._zip.open(info) as stream:
                data = stream.read(MAX_MEMBER_BYTES + 1)
        except (zipfile.BadZipFile, OSError, NotImplementedError, EOFError) as error:
            raise MemberError("cannot be read from the zip file", str(error)) from None
        if len(data) > MAX_MEMBER_BYTES:
            raise _too_large(len(data))
        return data


class _FolderArchive(Archive):
    def __init__(self, path: Path) -> None:
        problems: list[Problem] = []
        names: list[str] = []

        def fail(error: OSError) -> None:
            raise HarvestError(f"{error.filename or path}: cannot read the folder: "
                               f"{error.strerror}")

        for top, dirs, files in os.walk(path, onerror=fail):  # links to folders: not walked
            dirs.sort()
            below = PurePosixPath(*Path(top).relative_to(path).parts)
            for file in files:
                name = str(below / file)
                if (Path(top) / file).is_symlink():
                    problems.append(Problem(path / name, None, "a symbolic link: not followed"))
                else:
                    names.append(name)
        super().__init__(path, names, problems)

    def read_bytes(self, name: str) -> bytes:
        if name not in self:
            raise MemberError("no such file in the package")
        try:
            return read_regular(self.path / name, MAX_MEMBER_BYTES, follow_links=False)
        except NotRegular:
            raise MemberError("not a regular file") from None
        except TooLarge as large:
            raise _too_large(large.size) from None
        except OSError as error:
            raise MemberError("cannot read the file", error.strerror or str(error)) from None


_UNSAFE = "an unsafe member name (absolute, or climbing out with ..): skipped"


def _safe_name(name: str) -> bool:
    if name.startswith("/") or "\\" in name or re.match(r"[A-Za-z]:", name):
        return False
    return ".." not in PurePosixPath(name).parts and "\x00" not in name


def _too_large(size: int) -> MemberError:
    return MemberError(f"larger than the {MAX_MEMBER_BYTES} bytes read from one member",
                       f"{size} bytes")


def resolve_member(base: str, relative: str) -> str | None:
    """The member that ``relative`` names from inside folder ``base``, normalised; ``None``
    when it is absolute or climbs above the package's root."""
    if relative.startswith("/") or "\\" in relative:
        return None
    parts: list[str] = [p for p in base.split("/") if p]
    for part in relative.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts) or None


@contextmanager
def open_archive(path: Path) -> Iterator[Archive]:
    """The wheel or folder at ``path``, open for reading; raises ``HarvestError``."""
    if path.is_dir():
        yield _FolderArchive(path)
        return
    if not path.exists():
        raise HarvestError(f"{path}: no such file or folder")
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as error:
        raise HarvestError(f"{path}: not a wheel (a zip file) or a folder: {error}") from None
    with archive:
        yield _ZipArchive(path, archive)
