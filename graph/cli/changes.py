"""What a build changed since the one before it, as the user reads it on stderr.

``build --store oxigraph:DIR`` and ``push`` compare their build with the one the store held
(``graph.store.base.BuildChanges``) and say which records they added, changed and removed:
the first ``SHOWN`` of each kind on one line, then how many more; ``--verbose`` lists each
on a line of its own, and ``--report FILE.json`` writes them all under ``changes``
(``graph.cli.report.report_json``), in the JSON form a store keeps and the web app serves at
``/changes.json``.
"""

from __future__ import annotations

from graph.cli.report import counted
from graph.store.changes import BuildChanges, ChangeKind, RecordChange

SHOWN = 5
"""Records of each kind named without ``--verbose``."""


def change_lines(changes: BuildChanges, records: int, before: str = "build",
                 verbose: bool = False) -> list[str]:
    """What ``changes`` says, in lines: a first line with the counts (or why nothing was
    compared), then a line per kind of change that has records (a line per record with
    ``verbose``). ``records`` is how many the build holds; ``before`` names what was
    compared with (``build``, ``push``)."""
    if changes.compared == "start":
        return [f"built at start from {counted(records, 'record')}"]
    if changes.compared == "first":
        return [f"no earlier {before} to compare with: {counted(records, 'record')}"]
    if changes.compared == "unknown":
        return [f"the earlier {before} cannot be compared with (it was made by another "
                f"version of benchgraph): {counted(records, 'record')}"]
    since = f"since the {before} of {changes.previous}"
    kinds = [(kind, found) for kind, found in changes.kinds() if found]
    if not kinds:
        return [f"{since}: no record added, changed or removed"]
    counts = (f"{counted(len(changes.added), 'record')} added, {len(changes.changed):,} "
              f"changed, {len(changes.removed):,} removed")
    lines = [f"{since}: {counts}"]
    for kind, found in kinds:
        lines += ([f"{kind}: {record.label}" for record in found] if verbose
                  else [kind_line(kind, found)])
    return lines


def kind_line(kind: ChangeKind, records: tuple[RecordChange, ...]) -> str:
    """``changed: a.txt, b.txt, c.txt, d.txt, e.txt … and 12 more (--verbose lists them)``."""
    named = ", ".join(record.label for record in records[:SHOWN])
    more = len(records) - SHOWN
    return f"{kind}: {named}" + (f" … and {more:,} more (--verbose lists them)" if more > 0
                                 else "")


__all__ = ["SHOWN", "change_lines", "kind_line"]
