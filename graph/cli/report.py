"""The load report as the user reads it, on stderr, and as tools read it, in JSON.

A catalog of 10,000 records can warn tens of thousands of times about a few problems, so
the terminal gets a summary that stays short whatever the catalog: the counts, each rejected
file on its own line, then one line per kind of warning (its field, list indices dropped as
in ``page.sources[].url``, and its reason) with how often it occurs and the first files. It
keeps to ``MAX_LINES``, rejections first; what does not fit is counted on a last line.
``--verbose`` lists every warning and rejection instead, and ``--report FILE.json`` writes
each of them (file, field, reason, value, kind) for tools, with, after a build into a store
or a push, the records it added, changed and removed (``graph.cli.changes``).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from graph.build.stats import StatementCounts
from graph.export import write_atomically

if TYPE_CHECKING:  # the loader is imported when a command builds: see graph.cli
    from graph.ingest.importers.base import Problem
    from graph.ingest.loader import LoadReport
    from graph.store.changes import BuildChanges

MAX_LINES = 40
"""The most lines the load report takes without ``--verbose``."""
FILES_SHOWN = 3
"""Files named on the line of a kind of warning, before ``…`` when there are more."""
WARNING_LINES_KEPT = 8
"""When not everything fits, rejections come first, but this many kinds of warning are still
shown (if there are as many)."""
_INDEX = re.compile(r"\[[^\[\]]+\]")


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

    def line(self) -> str:
        """``warning: page.x: unknown key, kept as data — 9,812 times in 4,000 files (a, b, c,
        …)``: the first ``FILES_SHOWN`` files named, and ``…`` only when there are more. (A
        long line wraps on a terminal; a name left out to fit it hid a file behind ``…``.)"""
        if len(self.problems) == 1:
            return f"warning: {self.problems[0]}"
        files = self.files
        times = len(self.problems)
        how_often = (counted(times, "file") if times == len(files)
                     else f"{times:,} times in {counted(len(files), 'file')}")
        where = f"{self.field}: " if self.field else ""
        named, folder = _below_one_folder(files[:FILES_SHOWN])
        more = ", …" if len(files) > FILES_SHOWN else ""
        return f"warning: {where}{self.reason} — {how_often} ({folder}{', '.join(named)}{more})"


def _below_one_folder(paths: list[Path]) -> tuple[list[str], str]:
    """The paths as names below their common folder, and ``in FOLDER/: `` to say it once."""
    parents = {path.parent for path in paths}
    if len(parents) != 1 or str(next(iter(parents))) in ("", "."):
        return [str(path) for path in paths], ""
    return [path.name for path in paths], f"in {next(iter(parents))}/: "


def normalised_field(name: str | None) -> str | None:
    """The field with list indices and entry names dropped: ``page.sources[3].url`` ->
    ``page.sources[].url``, ``entries[gsm8k].metrics[0]`` -> ``entries[].metrics[]``."""
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
    written: bool = True,
) -> list[str]:
    """The report's lines: counts (and with ``counts``, what the build made: ``counts_line``),
    rejections, then warnings, grouped unless ``verbose``; at most ``max_lines`` unless
    ``verbose``."""
    groups = group_problems(report.warnings)
    kinds = f" of {counted(len(groups), 'kind')}" if len(groups) > 1 else ""
    lines = [", ".join([
        counted(len(report.records), "record") + " loaded",
        counted(len(report.rejected), "file") + " rejected",
        counted(len(report.warnings), "warning") + kinds,
    ])]
    if counts is not None:
        lines.append(counts_line(counts, written))
    rejected = [f"rejected: {problem}" for problem in report.rejected]
    if verbose:
        return lines + rejected + [f"warning: {problem}" for problem in report.warnings]
    room = max_lines - len(lines)
    if len(rejected) + len(groups) <= room:
        return lines + rejected + [group.line() for group in groups]
    room -= 1  # for the line that counts what is left out
    shown_rejected = min(len(rejected), room - min(len(groups), WARNING_LINES_KEPT))
    shown_groups = room - shown_rejected
    left_out = [counted(len(rejected) - shown_rejected, "more rejected file")] if len(
        rejected) > shown_rejected else []
    if len(groups) > shown_groups:
        left_out.append(counted(len(groups) - shown_groups, "more kind") + " of warning")
    more = (f"… and {' and '.join(left_out)}: --verbose lists every one, "
            "--report FILE.json writes them for tools")
    return [*lines, *rejected[:shown_rejected],
            *(group.line() for group in groups[:shown_groups]), more]


def print_load_report(
    report: LoadReport,
    counts: StatementCounts | None = None,
    verbose: bool = False,
    stream: TextIO | None = None,
    written: bool = True,
) -> None:
    """The report on ``stream`` (stderr), after whatever the command printed; with ``counts``,
    what the build made, in words (``counts_line``)."""
    print_lines(report_lines(report, counts, verbose, written=written), stream)


def print_lines(lines: Iterable[str], stream: TextIO | None = None) -> None:
    """``lines`` on ``stream`` (stderr), after whatever the command printed to stdout."""
    sys.stdout.flush()  # what a command printed comes before its report on a shared terminal
    (stream or sys.stderr).write("".join(line + "\n" for line in lines))


def counts_line(counts: StatementCounts, written: bool = True) -> str:
    """What a build made: ``wrote …`` (``statements_line``) when it wrote the graph out, as
    a file or on stdout; else (only into a store) ``built …``, and that no file was."""
    if written:
        return f"wrote {statements_line(counts)}"
    return f"built {statements_line(counts)}; no RDF file written (-o FILE writes one)"


def statements_line(counts: StatementCounts) -> str:
    """``1,180 triples: 340 from records, 18 from the build graph, 822 from the ontology``:
    what ``build`` wrote and ``stats`` counts, in the same words."""
    records = f"{counts.records:,} from records"
    if counts.unit == "quads":
        records = f"{counts.records:,} in {counted(counts.record_graphs, 'record graph')}"
    return (f"{counted(counts.total, counts.unit[:-1])}: {records}, "
            f"{counts.build:,} from the build graph, {counts.ontology:,} from the ontology")


def report_json(report: LoadReport, changes: BuildChanges | None = None) -> dict[str, Any]:
    """Every rejection and warning, for tools: two lists of problems, each with its file,
    field, reason, value and kind (``rejected`` or ``warning``), in report order; with
    ``changes`` (a build into a store, a push), what the build changed against the one
    before it, as the store keeps it (``BuildChanges.to_json``: ``compared``,
    ``previous_built_at``, and ``added``, ``changed`` and ``removed``, lists of records, each
    its ``graph`` and ``file``)."""
    found: dict[str, Any] = {
        "files_read": report.files_read,
        "records_loaded": len(report.records),
        "rejected": [_problem_json(p, "rejected") for p in report.rejected],
        "warnings": [_problem_json(p, "warning") for p in report.warnings],
    }
    if changes is not None:
        found["changes"] = changes.to_json()
    return found


def write_report_json(path: Path, report: LoadReport,
                      changes: BuildChanges | None = None) -> None:
    """``report_json`` written to ``path`` by ``write_atomically``: a file is replaced whole
    (a reader never sees half of it), a stream, a device or a FIFO (``/dev/stderr``) written
    to in place, and nothing else is ever replaced."""
    data = json.dumps(report_json(report, changes), indent=1,
                      ensure_ascii=False).encode("utf-8")
    write_atomically(path, lambda handle: handle.write(data + b"\n"))


def _problem_json(problem: Problem, kind: str) -> dict[str, Any]:
    return {"kind": kind, "file": str(problem.path), "field": problem.field,
            "reason": problem.reason, "value": problem.value}


def counted(n: int, noun: str) -> str:
    """``1 file``, ``2 files``: ``n`` with its noun, plural but for one."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"
