"""The validation report as pages: grouped by shape (a summary, then one page per shape) and
by record (a page of records at a time), each result in the shape's words and linking the
focus node's page.

A report of 10,000 records holds ten thousand results or more, so no page shows them all:
the summary counts them by shape, and the results come a page at a time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from flask import current_app, url_for
from rdflib import Literal, URIRef
from rdflib.term import Node

from graph.namespace import curie
from graph.store.base import Store
from graph.validation.report import Severity, ValidationReport, ValidationResult
from web.docs.shapes import shape_anchor
from web.labels import Labels, fetch_labels
from web.links import iri_href

RECORDS_PER_PAGE = 25
RESULTS_PER_PAGE = 100


@dataclass(frozen=True)
class NodeLink:
    """A node of a result as the report shows it: a label linking its page."""

    text: str
    href: str | None
    iri: str


@dataclass(frozen=True)
class ResultView:
    """One result, in the shape's words."""

    severity: Severity
    shape_name: str
    shape_anchor: str
    message: str
    focus: NodeLink
    path: str | None
    value: str | None
    record: NodeLink | None
    source_file: str | None


@dataclass(frozen=True)
class ShapeCount:
    """How many results one shape gave, for the summary."""

    anchor: str
    name: str
    message: str
    severity: Severity
    count: int
    records: int


@dataclass(frozen=True)
class RecordGroup:
    """The results of one record (or, with no record, of the whole catalog)."""

    record: NodeLink | None
    source_file: str | None
    results: tuple[ResultView, ...]


def page_href(iri: str, base: str) -> str | None:
    """Where the report links a node: to the app's own page for it (``web.links.iri_href``);
    any other IRI is shown, not linked (a report never links out)."""
    href = iri_href(iri, base)
    return href if href is not None and href.startswith(url_for("home.index")) else None


def shape_counts(report: ValidationReport) -> list[ShapeCount]:
    """Results per shape, most severe first, then the most frequent."""
    counts: Counter[Node] = Counter()
    records: dict[Node, set[URIRef | None]] = {}
    first: dict[Node, ValidationResult] = {}
    for result in report.results:
        counts[result.shape] += 1
        records.setdefault(result.shape, set()).add(result.record)
        first.setdefault(result.shape, result)
    rows = [ShapeCount(shape_anchor(str(shape)), first[shape].shape_name, first[shape].message,
                       first[shape].severity, count, len(records[shape]))
            for shape, count in counts.items()]
    return sorted(rows, key=lambda row: (row.severity.rank, -row.count, row.name))


def shape_results(report: ValidationReport, anchor: str) -> list[ValidationResult]:
    """The results of the shape whose anchor is ``anchor``, in report order."""
    return [result for result in report.results if shape_anchor(str(result.shape)) == anchor]


def record_groups(report: ValidationReport) -> list[tuple[URIRef | None, list[ValidationResult]]]:
    """The results grouped by record, in report order (by file)."""
    return list(report.by_record().items())


@dataclass(frozen=True)
class Summary:
    """What every page of the report shows or slices, worked out once per report."""

    shapes: list[ShapeCount]
    groups: list[tuple[URIRef | None, list[ValidationResult]]]


_SUMMARY_KEY = "benchgraph.docs.validation-summary"


def summary(report: ValidationReport) -> Summary:
    """The report's ``Summary``, kept by the app with the report it is of (a store keeps one
    report while it is served; the groups of 10,000 records take milliseconds to make)."""
    kept: tuple[ValidationReport, Summary] | None = current_app.extensions.get(_SUMMARY_KEY)
    if kept is None or kept[0] is not report:
        kept = (report, Summary(shape_counts(report), record_groups(report)))
        current_app.extensions[_SUMMARY_KEY] = kept  # a race only makes it twice
    return kept[1]


def views(results: Sequence[ValidationResult], store: Store) -> list[ResultView]:
    """``results`` as a page shows them, their nodes labelled (one query for the page)."""
    labels = _labels(store, [r.focus_node for r in results] + [r.record for r in results])
    return [ResultView(
        severity=r.severity, shape_name=r.shape_name, shape_anchor=shape_anchor(str(r.shape)),
        message=r.message, focus=node_link(r.focus_node, store.base, labels), path=r.path,
        value=None if r.value is None else _value_text(r.value),
        record=None if r.record is None else node_link(r.record, store.base, labels),
        source_file=r.source_file,
    ) for r in results]


def grouped(groups: Iterable[tuple[URIRef | None, list[ValidationResult]]],
            store: Store) -> list[RecordGroup]:
    groups = list(groups)
    shown = views([result for _, results in groups for result in results], store)
    labels = _labels(store, [record for record, _ in groups])
    out, start = [], 0
    for record, results in groups:
        chunk = tuple(shown[start:start + len(results)])
        start += len(results)
        link = None if record is None else node_link(record, store.base, labels)
        out.append(RecordGroup(link, results[0].source_file if results else None, chunk))
    return out


def node_link(node: Node, base: str, labels: Labels) -> NodeLink:
    iri = str(node)
    if not isinstance(node, URIRef):
        return NodeLink(_value_text(node), None, iri)
    return NodeLink(labels.text(iri), page_href(iri, base), iri)


def _labels(store: Store, nodes: Iterable[Node | None]) -> Labels:
    return fetch_labels(store, (str(node) for node in nodes if isinstance(node, URIRef)))


def _value_text(value: Node) -> str:
    return str(value) if isinstance(value, Literal) else curie(str(value))


__all__ = ["RECORDS_PER_PAGE", "RESULTS_PER_PAGE", "NodeLink", "RecordGroup",
           "ResultView", "ShapeCount", "Summary", "grouped", "node_link", "page_href",
           "record_groups", "shape_counts", "shape_results", "summary", "views"]
