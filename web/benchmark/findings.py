"""A benchmark's SHACL findings, in the shapes' own words, from the store's validation report.

The report is the one validated when the store folder was built and kept in it
(``Artefacts.validation()``). A store that keeps none has not been validated, and the page says
exactly that: never an empty list of findings, which would read as "nothing wrong".

A finding is the benchmark's when its focus node is the benchmark, one of its parts
(``…/benchmark/{id}/dataset``, ``…/source/3``) or a record that describes it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import pyoxigraph as ox
from flask import current_app
from rdflib import URIRef

from graph.store.base import Store
from graph.validation.report import Severity, ValidationReport, ValidationResult
from web.benchmark.view import Said, Shown, View

_INDEX_KEY = "benchgraph.benchmark_page.findings"


@dataclass(frozen=True)
class Finding:
    severity: str
    """``Violation``, ``Warning`` or ``Info``."""
    shape_name: str
    message: str
    focus: Shown
    path: str | None
    value: str | None
    said: tuple[Said, ...]


@dataclass(frozen=True)
class Findings:
    validated: bool
    """False: the store keeps no validation report, so nothing is known either way."""
    items: tuple[Finding, ...] = ()

    def count(self, severity: str) -> int:
        return sum(1 for item in self.items if item.severity == severity)


def stored_validation(store: Store) -> ValidationReport | None:
    """The validation report the store keeps; None when it keeps none.

    ``Artefacts.validation()`` comes with the store folders that keep their report; a store
    without the method has none, and nor does one whose method answers None."""
    validation = getattr(store, "validation", None)
    if validation is None:
        return None
    report = validation()
    assert report is None or isinstance(report, ValidationReport)
    return report


def findings(view: View, report: ValidationReport | None) -> Findings:
    """The findings about the page's benchmark, most severe first."""
    if report is None:
        return Findings(validated=False)
    index = _index(report, view.base)
    mine = [*index.get(view.hood.benchmark.iri, ()),
            *(r for record in view.hood.describing for r in index.get(record, ()))]
    mine.sort(key=lambda r: (r.severity.rank, r.shape_name, str(r.focus_node), str(r.value)))
    return Findings(True, tuple(_finding(view, r) for r in dict.fromkeys(mine)))


def _finding(view: View, result: ValidationResult) -> Finding:
    said = view.saids.get(str(result.record)) if result.record is not None else None
    focus = result.focus_node
    return Finding(
        result.severity.value, result.shape_name, result.message,
        view.value(ox.NamedNode(focus) if isinstance(focus, URIRef) else ox.Literal(str(focus))),
        result.path, None if result.value is None else str(result.value), (said,) if said else ())


def _index(report: ValidationReport, base: str) -> dict[str, list[ValidationResult]]:
    """The report's results by the node they are about (a benchmark's parts under the
    benchmark): built once per report, kept with the app."""
    held = current_app.extensions.get(_INDEX_KEY)
    if held is not None and held[0] is report:
        index: dict[str, list[ValidationResult]] = held[1]
        return index
    grouped: defaultdict[str, list[ValidationResult]] = defaultdict(list)
    prefix = f"{base}benchmark/"
    for result in report.results:
        focus = str(result.focus_node)
        if focus.startswith(prefix):
            focus = prefix + focus[len(prefix):].split("/", 1)[0]
        grouped[focus].append(result)
    index = dict(grouped)
    current_app.extensions[_INDEX_KEY] = (report, index)
    return index


__all__ = ["Finding", "Findings", "Severity", "findings", "stored_validation"]
