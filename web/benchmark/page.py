"""The benchmark page: everything the graph says about one benchmark, for a person to read.

The entities blueprint (``web.entities``) dispatches the HTML of ``/benchmark/<id>`` here:
``render_benchmark(page)`` gets the ``NodePage`` of a ``bench:Benchmark`` node — its store,
its node, its ``Description`` (the statements every other format is written from) and the
links to those formats — and returns the page.

What the page shows, section by section, is ``BenchmarkPage``; every value on it carries the
records that state it (``web.benchmark.view``), so where two records disagree both values
show, each with its source. A benchmark no record of its own describes says so, and lists
who refers to it. The body is markdown, rendered and sanitised by ``web.benchmark.markdown``; the
``<head>`` carries a schema.org ``Dataset`` (``web.benchmark.jsonld``); the SHACL findings
come from the store's validation report (``web.benchmark.findings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyoxigraph as ox
from flask import render_template
from markupsafe import Markup

from graph.store.base import Statement
from graph.validation.report import ValidationReport
from web.benchmark import sections as sections
from web.benchmark.data import PART_LINKS, bench, dcterms, foaf, gather, rdf, rdfs, schema, skos
from web.benchmark.findings import Findings, findings, stored_validation
from web.benchmark.jsonld import dataset
from web.benchmark.markdown import BenchmarkHref, render_inline, render_markdown
from web.benchmark.view import Row, Said, Shown, View
from web.entities.page import NodePage
from web.links import iri_href

HEADER = (rdfs.label, skos.altLabel, dcterms.identifier, dcterms.abstract,
          bench.inSuite, bench.accessLevel, bench.status, bench.catalogued, bench.body)
ABOUT = (foaf.homepage, bench.measures, bench.taskFormat, bench.language, bench.modality,
         bench.released, dcterms.modified, bench.category, bench.subcategory, bench.tag,
         bench.family, bench.level, bench.accessHolder, bench.scoring, bench.answerFormat,
         bench.taskAvailability, bench.accessStatement, bench.accessNote, bench.leaderboard,
         schema.codeRepository, bench.authorsWords, bench.otherFact)
"""The benchmark's own facts, in the order the page lists them under "About"."""
MAKERS = (bench.publisherText, bench.publisherNote, bench.publisherUrl)
CONTAMINATION = (bench.contaminationRisk, bench.contaminationNote)
SATURATION = (bench.saturationStatus, bench.saturationNote, bench.saturationAsOf,
              bench.topScore)
SCORES = (bench.scoresHeading, bench.scoresStatement, bench.modelCovered)
LINEAGE = (bench.variant, bench.predecessor, bench.successor, bench.mentions,
           bench.relatedBenchmark)
SHOWN_ELSEWHERE = (rdf.type, dcterms.creator, bench.publisher, bench.harnessNote, bench.result,
                   *(str(link) for link in PART_LINKS))
"""Shown in a section of their own (or, for creators and publishers, by their credits)."""


@dataclass(frozen=True)
class Body:
    html: Markup
    said: tuple[Said, ...]


@dataclass(frozen=True)
class Link:
    """A lineage relation or a way another node links here, and the nodes it joins."""

    label: str
    nodes: tuple[Shown, ...]


@dataclass(frozen=True)
class BenchmarkPage:
    """What the template shows."""

    iri: str
    title: str
    names: Row | None
    aliases: Row | None
    identifier: Row | None
    summaries: Row | None
    summary_html: list[Body]
    """The summaries as their markdown shows them (HELM's descriptions link their papers)."""
    badges: list[Row]
    """Suite, access level and status: each property with its values."""
    catalogued: bool | None
    bodies: list[Body]
    about: list[Row]
    harnesses: list[sections.HarnessTask]
    harness_note: Row | None
    papers: list[tuple[Shown, list[sections.Credit], list[Row]]]
    """Each paper, its authors in order, and what else is stated of it."""
    authors: list[sections.Credit]
    creators: Row | None
    publishers: list[sections.Credit]
    makers: list[Row]
    dataset: list[Row]
    metric: list[Row]
    contamination: list[Row]
    saturation: list[Row]
    results: sections.ResultsSection
    scores: list[Row]
    model_cards: list[Row]
    lineage: list[Link]
    links_here: list[Link]
    sources: list[sections.Item]
    records: list[tuple[Said, list[Row]]]
    findings: Findings
    other: list[Row]
    truncated: bool
    jsonld: dict[str, Any]


def render_benchmark(page: NodePage) -> str:
    """The HTML page of the benchmark ``page`` is about."""
    store = page.store
    hood = gather(store, page.description)
    view = View(hood, store.base, store.build_facts().record)
    results = sections.results(store, page.iri, page.iri[len(f"{store.base}benchmark/"):])
    built = _build(view, stored_validation(store), results)
    return render_template("benchmark/page.html", page=built, alternates=page.alternates)


def _build(view: View, report: ValidationReport | None,
           results: sections.ResultsSection) -> BenchmarkPage:
    hood, benchmark = view.hood, view.hood.benchmark
    names = view.row(benchmark, rdfs.label, "Name")
    title = _title(view, names)
    authors = sections.credits(view, bench.authorCredit)
    publishers = sections.credits(view, bench.publisherCredit)
    metric = sections.parts_of(view, bench.metric)
    catalogued = {term.value for term in benchmark.objects(bench.catalogued)}
    claimed = {*HEADER, *ABOUT, *MAKERS, *CONTAMINATION, *SATURATION, *SCORES, *LINEAGE,
               *SHOWN_ELSEWHERE}
    summaries = view.row(benchmark, dcterms.abstract, "Summary")
    return BenchmarkPage(
        iri=benchmark.iri,
        title=title,
        names=names,
        aliases=view.row(benchmark, skos.altLabel, "Also called"),
        identifier=view.row(benchmark, dcterms.identifier, "Catalog id"),
        summaries=summaries,
        summary_html=[Body(render_inline(shown.text, _benchmark_href(view)), shown.said)
                      for shown in (summaries.values if summaries else ())],
        badges=[row for p in (bench.inSuite, bench.accessLevel, bench.status)
                if (row := view.row(benchmark, p, view.label(p))) is not None],
        catalogued=None if len(catalogued) != 1 else catalogued == {"true"},
        bodies=[Body(render_markdown(shown.text, _benchmark_href(view)), shown.said)
                for shown in view.shown(benchmark.get(bench.body))],
        about=view.rows(benchmark, ABOUT),
        harnesses=sections.harness_tasks(view),
        harness_note=view.row(benchmark, bench.harnessNote),
        papers=[(view.value(ox.NamedNode(paper.iri)), sections.paper_authors(view, paper),
                 view.table(paper, (rdfs.label, dcterms.title, dcterms.creator,
                                    bench.authorCredit)))
                for paper in sections.parts_of(view, bench.paper)],
        authors=authors,
        creators=None if authors else view.row(benchmark, dcterms.creator),
        publishers=publishers or [sections.Credit(None, shown, ()) for shown in
                                  view.shown(benchmark.get(bench.publisher))],
        makers=view.rows(benchmark, MAKERS),
        dataset=[row for node in sections.parts_of(view, bench.dataset)
                 for row in view.table(node)],
        metric=[row for node in metric for row in view.table(node)],
        contamination=view.rows(benchmark, CONTAMINATION),
        saturation=view.rows(benchmark, SATURATION),
        results=results,
        scores=view.rows(benchmark, SCORES),
        model_cards=[row for node in sections.parts_of(view, bench.modelCardSurvey)
                     for row in view.table(node)],
        lineage=_lineage(view),
        links_here=_links_here(view),
        sources=sections.sources(view),
        records=[(said, view.table(hood.records[said.graph], (), False)
                  if said.graph in hood.records else [])
                 for said in sorted(view.saids.values(), key=lambda s: s.number)],
        findings=findings(view, report),
        other=view.rows(benchmark, [p for p in benchmark.statements if p not in claimed]),
        truncated=hood.truncated,
        jsonld=dataset(view, title, authors, publishers),
    )


def _title(view: View, names: Row | None) -> str:
    """The name a record describing the benchmark gives it; else any; else its id. A blank
    name (a record's empty ``name``, kept as written) names nothing."""
    given = [shown for shown in (names.values if names else ()) if shown.text.strip()]
    for shown in given:
        if any(said.graph in view.hood.describing for said in shown.said):
            return shown.text
    if given:
        return given[0].text
    identifier = view.hood.benchmark.lexical(dcterms.identifier)
    return identifier or view.label(view.hood.benchmark.iri)


def _benchmark_href(view: View) -> BenchmarkHref:
    prefix = f"{view.base}benchmark/"
    return lambda benchmark_id: iri_href(prefix + benchmark_id, view.base) or "#"


_INVERSE = {bench.variant: bench.variant, bench.predecessor: bench.successor,
            bench.successor: bench.predecessor}
_LINEAGE_TITLES = {bench.variant: "Variants", bench.predecessor: "Predecessors",
                   bench.successor: "Successors", bench.mentions: "Its text links to",
                   bench.relatedBenchmark: "Listed beside it"}


_INCOMING = {bench.mentions: "Mentioned by", bench.variant: "Listed as a variant by",
             bench.predecessor: "Named as predecessor by", bench.successor: "Named as successor by",
             bench.relatedBenchmark: "Listed beside"}


def _lineage(view: View) -> list[Link]:
    """Variants (listed by either side), predecessors and successors (stated either way),
    and the benchmarks it names."""
    out = []
    for predicate in LINEAGE:
        statements = view.hood.benchmark.get(predicate)
        mirrored = [s for s in view.hood.incoming if _INVERSE.get(s.predicate.value) == predicate]
        nodes = view.merged(view.shown(statements), view.shown(mirrored, of_subject=True))
        if nodes:
            out.append(Link(_LINEAGE_TITLES[predicate], nodes))
    return out


def _links_here(view: View) -> list[Link]:
    """Every statement of another node that points here, by property (its records apart:
    they are the page's sources)."""
    groups: dict[str, list[Statement]] = {}
    for statement in view.hood.incoming:
        if statement.predicate.value != bench.describes:
            groups.setdefault(statement.predicate.value, []).append(statement)
    return [Link(_INCOMING.get(p) or f"{view.predicate_label(p)} of",
                 view.shown(group, of_subject=True)) for p, group in groups.items()]


__all__ = ["BenchmarkPage", "render_benchmark"]
