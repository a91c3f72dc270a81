"""The load report as the user reads it, on stderr, and as tools read it, in JSON.

A catalog of 10,000 records can warn tens of thousands of times about a few problems, so
the terminal gets a summary that stays short whatever the catalog: the counts, each rejected
file on its own line, then one line per kind of warning (its field, list indices dropped as
in ``page.sources[].url``, and its reason) with how often it occurs and the first files. It
keeps to ``MAX_LINES``, rejections first; what does not fit is counted on a last line.
``--verbose`` lists every warning and rejection instead, and ``--report FILE.json`` writes
each of them (file, field, reason, value, kind) for tools.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from graph.export import write_atomically
from graph.stats import StatementCounts

if TYPE_CHECKING:  # the loader is imported when a command builds: see graph.cli
    from graph.importers.base import Problem
    from graph.loader import LoadReport

MAX_LINES = 40
"""The most lines the load report takes without ``--verbose``."""
FILES_SHOWN = 3
"""Files named on the line of a kind of warning, as many as the terminal's width allows."""
WARNING_LINES_KEPT = 8
"""When not everything fits, rejections come first, but this many kinds of warning are still
shown (if there are as many)."""
_INDEX = re.compile(r"\[\d+\]")


@dataclass
class ProblemGroup:
    """The warnings of one kind: the same reason about the same field, in any file."""

    field: str | None
    """The field with its list indices dropped (``page.sources[].url``)."""
    reason: str
    problems: list[Problem] = dataclass_field(default_factory=list)

    @property
    def files(self) -> list[Path]:
        """The files it occurs in, each once, in report order."""
        return list(dict.fromkeys(problem.path for problem in self.problems))

    def line(self, width: int = 120) -> str:
        """``warning: page.x: unknown key, kept as data — 9,812 times in 4,000 files (a, b, …)``,
        naming as many files as fit in ``width`` (at least one)."""
        if len(self.problems) == 1:
            return f"warning: {self.problems[0]}"
        files = self.files
        times = len(self.problems)
        how_often = (_count(times, "file") if times == len(files)
                     else f"{times:,} times in {_count(len(files), 'file')}")
        where = f"{self.field}: " if self.field else ""
        named, folder = _below_one_folder(files[:FILES_SHOWN])
        head = f"warning: {where}{self.reason} — {how_often} ({folder}"
        shown = named[:1]
        for name in named[1:]:
            if len(head) + len(", ".join([*shown, name])) + len(", …)") > width:
                break
            shown.append(name)
        return head + ", ".join(shown) + (", …)" if len(files) > len(shown) else ")")


def _below_one_folder(paths: list[Path]) -> tuple[list[str], str]:
    """The paths as names below their common folder, and ``in FOLDER/: `` to say it once."""
    parents = {path.parent for path in paths}
    if len(parents) != 1 or str(next(iter(parents))) in ("", "."):
        return [str(path) for path in paths], ""
    return [path.name for path in paths], f"in {next(iter(parents))}/: "


def normalised_field(name: str | None) -> str | None:
    """The field with list indices dropped: ``page.sources[3].url`` -> ``page.sources[].url``."""
    return None if name is None else _INDEX.sub("[]", name)


def group_problems(problems: Iterable[Problem]) -> list[ProblemGroup]:
    """The problems by kind (normalised field and reason), the most frequent first."""
    groups: dict[tuple[str | None, str], ProblemGroup] = {}
    for problem in problems:
        key = (normalised_field(problem.field), problem.reason)
        group = groups.get(key)
        if group is None:
            group = groups[key] = ProblemGroup(*key)
        group.problems.append(problem)
    return sorted(groups.values(), key=lambda g: (-len(g.problems), g.field or "", g.reason))


def report_lines(
    report: LoadReport,
    counts: StatementCounts | None = None,
    verbose: bool = False,
    max_lines: int = MAX_LINES,
    width: int = 120,
) -> list[str]:
    """The report's lines: counts (and what was written, with ``counts``), rejections, then
    warnings, grouped unless ``verbose``; at most ``max_lines`` unless ``verbose``."""
    groups = group_problems(report.warnings)
    kinds = f" of {_count(len(groups), 'kind')}" if len(groups) > 1 else ""
    lines = [", ".join([
        _count(len(report.records), "record") + " loaded",
        _count(len(report.rejected), "file") + " rejected",
        _count(len(report.warnings), "warning") + kinds,
    ])]
    if counts is not None:
        lines.append(f"wrote {statements_line(counts)}")
    rejected = [f"rejected: {problem}" for problem in report.rejected]
    if verbose:
        return lines + rejected + [f"warning: {problem}" for problem in report.warnings]
    room = max_lines - len(lines)
    if len(rejected) + len(groups) <= room:
        return lines + rejected + [group.line(width) for group in groups]
    room -= 1  # for the line that counts what is left out
    shown_rejected = min(len(rejected), room - min(len(groups), WARNING_LINES_KEPT))
    shown_groups = room - shown_rejected
    left_out = [_count(len(rejected) - shown_rejected, "more rejected file")] if len(
        rejected) > shown_rejected else []
    if len(groups) > shown_groups:
        left_out.append(_count(len(groups) - shown_groups, "more kind") + " of warning")
    more = (f"… and {' and '.join(left_out)}: --verbose lists every one, "
            "--report FILE.json writes them for tools")
    return [*lines, *rejected[:shown_rejected],
            *(group.line(width) for group in groups[:shown_groups]), more]


def print_load_report(
    report: LoadReport,
    counts: StatementCounts | None = None,
    verbose: bool = False,
    stream: TextIO | None = None,
) -> None:
    """The report on ``stream`` (stderr), after whatever the command printed; with ``counts``,
    what was written, in words (``statements_line``)."""
    out = stream or sys.stderr
    sys.stdout.flush()  # what a command printed comes before its report on a shared terminal
    lines = report_lines(report, counts, verbose, width=_width(out))
    out.write("".join(line + "\n" for line in lines))


def _width(stream: TextIO) -> int:
    """The terminal's width when ``stream`` is one (``$COLUMNS`` first), else 120."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError):  # not a terminal, or no file at all (a test's capture)
        return 120


def statements_line(counts: StatementCounts) -> str:
    """``1,180 triples: 340 from records, 18 from the build graph, 822 from the ontology``:
    what ``build`` wrote and ``stats`` counts, in the same words."""
    records = f"{counts.records:,} from records"
    if counts.unit == "quads":
        records = f"{counts.records:,} in {_count(counts.record_graphs, 'record graph')}"
    return (f"{_count(counts.total, counts.unit[:-1])}: {records}, "
            f"{counts.build:,} from the build graph, {counts.ontology:,} from the ontology")


def report_json(report: LoadReport) -> dict[str, Any]:
    """Every rejection and warning, for tools: two lists of problems, each with its file,
    field, reason, value and kind (``rejected`` or ``warning``), in report order."""
    return {
        "files_read": report.files_read,
        "records_loaded": len(report.records),
        "rejected": [_problem_json(p, "rejected") for p in report.rejected],
        "warnings": [_problem_json(p, "warning") for p in report.warnings],
    }


def write_report_json(path: Path, report: LoadReport) -> None:
    """``report_json`` written to ``path`` by ``write_atomically``: a file is replaced whole
    (a reader never sees half of it), a stream, a device or a FIFO (``/dev/stderr``) written
    to in place, and nothing else is ever replaced."""
    data = json.dumps(report_json(report), indent=1, ensure_ascii=False).encode("utf-8")
    write_atomically(path, lambda handle: handle.write(data + b"\n"))


def _problem_json(problem: Problem, kind: str) -> dict[str, Any]:
    return {"kind": kind, "file": str(problem.path), "field": problem.field,
            "reason": problem.reason, "value": problem.value}


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"
