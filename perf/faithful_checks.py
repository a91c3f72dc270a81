"""What a build of a catalog with defects should have done, against what it did.

Three inputs: the catalog's manifest (``perf.defects``: file -> the defects planted in it,
each with its level), the records in the built graph (file -> the benchmarks its record
describes), and the build's JSON report (every warning and rejection), when there is one.

The JSON report is read as either of two shapes (the report is not settled yet):

- a list of problems, each ``{"file", "field", "reason", "value", "kind"}`` with ``kind``
  ``"warning"`` or ``"rejected"``;
- an object with lists ``"warnings"`` and ``"rejected"`` of such problems (``kind`` is then
  the list's).

``"path"`` is read where ``"file"`` is missing. A file is compared by its path below the
catalog folder (the report may give it as the build was told it, or absolute).
"""

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from perf.defects import FIELD, FILE

WARNING, REJECTED = "warning", "rejected"


class ReportShapeError(ValueError):
    """A JSON report in neither of the shapes this module reads."""


@dataclass(frozen=True)
class Reported:
    """One warning or rejection of the build's JSON report."""

    file: str
    """Below the catalog folder, ``/``-separated."""
    field: str | None
    reason: str
    value: str | None
    kind: str


def read_report(path: Path, catalog: Path) -> list[Reported]:
    """The problems of a JSON report; ``ReportShapeError`` when it is neither shape."""
    data = json.loads(path.read_text(encoding="utf-8"))
    entries: list[tuple[Any, str | None]]
    if isinstance(data, list):
        entries = [(item, None) for item in data]
    elif isinstance(data, dict) and isinstance(data.get("warnings"), list) and isinstance(
            data.get("rejected"), list):
        entries = [(item, WARNING) for item in data["warnings"]]
        entries += [(item, REJECTED) for item in data["rejected"]]
    else:
        raise ReportShapeError("neither a list of problems nor an object with lists "
                               "'warnings' and 'rejected'")
    return [_problem(item, kind, catalog) for item, kind in entries]


def _problem(item: Any, kind: str | None, catalog: Path) -> Reported:
    if not isinstance(item, dict):
        raise ReportShapeError(f"a problem is {type(item).__name__}, not an object")
    given = item.get("file", item.get("path"))
    kind = kind or item.get("kind")
    if not isinstance(given, str) or kind not in (WARNING, REJECTED):
        raise ReportShapeError(f"a problem with no file or no kind 'warning'/'rejected': {item}")
    return Reported(relative_to(given, catalog), item.get("field"), str(item.get("reason")),
                    item.get("value"), kind)


def relative_to(given: str, catalog: Path) -> str:
    """A file's path below ``catalog`` (given relative to where the build ran, or absolute);
    its name alone when it is neither."""
    path = PurePath(given)
    for base in (catalog, catalog.absolute()):
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return path.name


def fields_match(planted: str | None, reported: str | None) -> bool:
    """Whether a report's field names the planted one: the same, or one inside the other
    (``page.lineage`` for ``page.lineage.variants``; ``page.sources[0].url`` for
    ``page.sources[0]``)."""
    if planted is None or reported is None:
        return planted == reported
    longer, shorter = (planted, reported) if len(planted) >= len(reported) else (reported, planted)
    return longer == shorter or (longer.startswith(shorter) and longer[len(shorter)] in ".[")


@dataclass
class Tally:
    """One defect class over the catalog."""

    level: str
    files: int = 0
    built: int = 0
    warned: int = 0
    """Files with a warning naming them and this class's field."""
    rejected: int = 0
    """Files the report rejects."""


@dataclass
class Findings:
    """What the build did with the planted defects; report-based lists are None without one."""

    tallies: dict[str, Tally] = field(default_factory=dict)
    field_files: int = 0
    """Files whose defects are all field-level or kept shapes, at least one field-level."""
    kept_files: int = 0
    """Files with kept shapes only."""
    file_files: int = 0
    lost_field: list[str] = field(default_factory=list)
    lost_kept: list[str] = field(default_factory=list)
    lost_clean: list[str] = field(default_factory=list)
    """Files with no defect and no record in the graph."""
    not_built: int = 0
    """Record files of the catalog with no record in the graph: what the report must reject."""
    built_broken: list[str] = field(default_factory=list)
    """Files with a file-level defect that were built all the same."""
    pages: int = 0
    pages_apart: list[str] = field(default_factory=list)
    """Directory pages about a catalogued benchmark whose record describes another one."""
    expected_warnings: int = 0
    missing_warnings: list[str] | None = None
    """Field-level defects (``file: field``) with no warning naming them."""
    missing_rejections: list[str] | None = None
    """Files with no record in the graph that the report does not reject."""
    unexpected: list[Reported] | None = None
    """Warnings and rejections no planted defect calls for."""
    reasons: dict[str, str] = field(default_factory=dict)
    """A rejected file -> the report's reason, to say why a record was lost."""
    classes: dict[str, list[str]] = field(default_factory=dict)
    """A file with defects -> their classes, to name them beside the file."""

    @property
    def report_complete(self) -> bool | None:
        if self.missing_warnings is None or self.missing_rejections is None:
            return None
        return not self.missing_warnings and not self.missing_rejections


def check(manifest: dict[str, Any], files: list[str], built: dict[str, list[str]],
          report: list[Reported] | None) -> Findings:
    """Compares the planted defects (``manifest``) and the catalog's record ``files`` with the
    records built (file -> the ids of the benchmarks its record describes) and, when given,
    the report's problems."""
    found = Findings(tallies={name: Tally(about["level"])
                              for name, about in manifest["classes"].items()})
    warnings = _by_file(p for p in report or [] if p.kind == WARNING)
    rejections = _by_file(p for p in report or [] if p.kind == REJECTED)
    expected: dict[str, list[str | None]] = {}
    missing_warnings: list[str] = []
    for name, planted in manifest["files"].items():
        is_built = name in built
        found.classes[name] = [entry["class"] for entry in planted]
        for entry in planted:
            tally = found.tallies[entry["class"]]
            tally.files += 1
            tally.built += is_built
            tally.rejected += name in rejections
            if entry["level"] == FIELD:
                expected.setdefault(name, []).append(entry["field"])
                named = any(fields_match(entry["field"], p.field) for p in warnings.get(name, []))
                tally.warned += named
                if not named:
                    missing_warnings.append(f"{name}: {entry['field']}")
            if entry["field"] == "title" and entry.get("means"):
                found.pages += 1
                if is_built and entry["means"] not in built[name]:
                    found.pages_apart.append(f"{name}: {entry['value']!r} describes "
                                             f"{', '.join(built[name])}, not {entry['means']}")
        levels = {entry["level"] for entry in planted}
        if FILE in levels:
            found.file_files += 1
            if is_built:
                found.built_broken.append(name)
        elif FIELD in levels:
            found.field_files += 1
            if not is_built:
                found.lost_field.append(name)
        else:
            found.kept_files += 1
            if not is_built:
                found.lost_kept.append(name)
    not_built = [name for name in files if name not in built]
    found.not_built = len(not_built)
    found.lost_clean = [name for name in not_built if name not in manifest["files"]]
    found.expected_warnings = sum(len(fields) for fields in expected.values())
    if report is not None:
        found.missing_warnings = missing_warnings
        found.missing_rejections = [name for name in not_built if name not in rejections]
        found.unexpected = [p for p in report if not _called_for(p, expected, manifest)]
        found.reasons = {name: problems[0].reason for name, problems in rejections.items()}
    return found


def _called_for(problem: Reported, expected: dict[str, list[str | None]],
                manifest: dict[str, Any]) -> bool:
    """Whether a planted defect calls for this problem: a warning on a field-level defect's
    field, or the rejection of a file with a file-level defect."""
    if problem.kind == WARNING:
        return any(fields_match(f, problem.field) for f in expected.get(problem.file, []))
    planted = manifest["files"].get(problem.file, [])
    return any(entry["level"] == FILE for entry in planted)


def _by_file(problems: Iterable[Reported]) -> dict[str, list[Reported]]:
    grouped: dict[str, list[Reported]] = {}
    for problem in problems:
        grouped.setdefault(problem.file, []).append(problem)
    return grouped
