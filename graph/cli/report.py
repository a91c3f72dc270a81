"""The load report as the user reads it, on stderr: counts, then every warning and rejection."""

import sys
from typing import TextIO

from graph.loader import LoadReport


def print_load_report(
    report: LoadReport, triples: int | None = None, stream: TextIO | None = None
) -> None:
    out = stream or sys.stderr
    sys.stdout.flush()  # what a command printed comes before its report on a shared terminal
    counts = [
        _plural(len(report.records), "record") + " loaded",
        *([_plural(triples, "triple")] if triples is not None else []),
        _plural(len(report.warnings), "warning"),
        _plural(len(report.rejected), "file") + " rejected",
    ]
    print(", ".join(counts), file=out)
    for warning in report.warnings:
        print(f"warning: {warning}", file=out)
    for rejected in report.rejected:
        print(f"rejected: {rejected}", file=out)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
