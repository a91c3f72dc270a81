"""A catalog page record -> the statements of its named graph."""

import json
from typing import Any

from rdflib import URIRef

from graph.ingest.records.catalog_page import CatalogPage, Dataset, Metric, Page, Paper
from graph.ingest.records.verbatim import Verbatim
from graph.mapping.context import MappingContext
from graph.mapping.emitter import Statements
from graph.mapping.makers import add_authors, add_makers
from graph.mapping.paper_node import PaperFacts, add_paper
from graph.mapping.papers import paper_ids
from graph.mapping.references import markdown_links
from graph.mapping.results import add_result
from graph.namespace import BENCH, DCTERMS, PROV, RDFS, SCHEMA, SKOS


def map_catalog_page(record: CatalogPage, out: Statements, ctx: MappingContext) -> None:
    """Statements about the record's benchmark, and the record's own bookkeeping."""
    page = record.page
    record_node = out.graph
    benchmark = ctx.iris.benchmark(page.id)
    out.add(record_node, BENCH.describes, benchmark)
    _record_bookkeeping(record, record_node, out)

    out.add_type(benchmark, BENCH.Benchmark)
    out.add_text(benchmark, DCTERMS.identifier, page.id)
    out.add_text(benchmark, RDFS.label, page.name)
    out.add_texts(benchmark, SKOS.altLabel, page.aliases)
    out.add_text(benchmark, DCTERMS.abstract, page.summary)
    out.add_text(benchmark, BENCH.measures, page.measures)
    out.add_text(benchmark, BENCH.taskFormat, page.task_format)
    out.add_text(benchmark, BENCH.body, record.body)
    out.add_text(benchmark, BENCH.status, page.status)
    out.add_partial_date(benchmark, BENCH.released, page.released)
    out.add_date(benchmark, DCTERMS.modified, page.last_updated)
    out.add_url(benchmark, BENCH.leaderboard, page.leaderboard_url)
    out.add_url(benchmark, SCHEMA.codeRepository, page.repo_url)
    _classification(page, benchmark, out, ctx)
    _harnesses(page, benchmark, out, ctx)
    _paper(page.paper, benchmark, out, ctx)
    add_makers(page.publisher.org, benchmark, out, ctx)
    add_authors(page.publisher.authors, benchmark, out, ctx)
    out.add_url(benchmark, BENCH.publisherUrl, page.publisher.url)
    _dataset(page.dataset, benchmark, out, ctx)
    _metric(page.metric, benchmark, out, ctx)
    _contamination_and_saturation(page, benchmark, out, ctx)
    _lineage(record, benchmark, out, ctx)
    _sources(page, benchmark, out, ctx)
    for result in record.disposition.verified_results:
        node = add_result(out, ctx, benchmark, result.model, result.score, result.unit)
        out.add_url(node, SCHEMA.url, result.source_url)
        out.add_date(node, BENCH.asOf, result.as_of)
        out.add_boolean(node, BENCH.verified, True)
    for model in record.models_covered:
        out.add(
            benchmark,
            BENCH.modelCovered,
            ctx.named_node(out, ctx.iris.model(model), BENCH.Model, model),
        )


def _record_bookkeeping(record: CatalogPage, node: URIRef, out: Statements) -> None:
    out.add_text(node, BENCH.pageKind, record.page.page_kind)
    freshness = record.page.freshness
    out.add_date(node, BENCH.researched, freshness.researched)
    out.add_text(node, BENCH.researchedBy, freshness.researched_by)
    out.add_date(node, BENCH.reviewed, freshness.reviewed)
    out.add_text(node, BENCH.reviewedBy, freshness.reviewed_by)
    out.add_datetime(node, PROV.generatedAtTime, record.build.built_at)
    out.add_text(node, BENCH.commit, record.build.commit)
    out.add_date(node, BENCH.eligibilityAsOf, record.build.eligibility_as_of)
    disposition = record.disposition
    out.add_text(node, BENCH.canonicalId, disposition.canonical_id)
    out.add_text(node, BENCH.dispositionStatus, disposition.status)
    out.add_texts(node, BENCH.dispositionReason, disposition.reasons)
    for key, value in record.unknown_keys():
        out.add_json(node, BENCH.unknownField, _json({"key": key, "value": value}))


def _classification(page: Page, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    category = None
    if page.category is not None:
        category = ctx.concept(out, ctx.iris.category(page.category), BENCH.Category, page.category)
        out.add(benchmark, BENCH.category, category)
    if page.subcategory is not None:
        sub = ctx.concept(
            out, ctx.iris.category(page.subcategory), BENCH.Category, page.subcategory
        )
        out.add(sub, SKOS.broader, category)
        out.add(benchmark, BENCH.subcategory, sub)
    for tag in page.tags:
        node = ctx.concept(out, ctx.iris.tag(tag), BENCH.Tag, tag)
        out.add_text(node, SKOS.notation, tag)
        out.add(benchmark, BENCH.tag, node)
        out.add(benchmark, BENCH.inSuite, ctx.vocabulary.find(BENCH.Suite, tag))
        out.add(benchmark, BENCH.accessLevel, ctx.vocabulary.find(BENCH.AccessLevel, tag))


def _harnesses(page: Page, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    harness = page.harness
    for key in ("bigbench", "helm", "inspect_evals", "lm_eval", "opencompass"):
        task_name: str | None = getattr(harness, key)
        harness_node = ctx.vocabulary.find(BENCH.Harness, key)
        if task_name is None or harness_node is None:
            continue
        task = ctx.iris.part(benchmark, "task", key)
        out.add(benchmark, BENCH.harnessTask, task)
        out.add_type(task, BENCH.HarnessTask)
        out.add(task, BENCH.harness, harness_node)
        out.add_text(task, BENCH.taskName, task_name)
    out.add_text(benchmark, BENCH.harnessNote, harness.other)


def _paper(paper: Paper, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    """The paper, known by its arXiv id, else its DOI, else its title, else its URL
    (``graph.mapping.papers``). An id kept as written (a field-level defect) is stated as
    written and identifies nothing."""
    ids = paper_ids(paper)
    facts = PaperFacts(
        arxiv=ids.arxiv if ids.arxiv is not None else paper.arxiv, arxiv_version=ids.version,
        doi=ids.doi if ids.doi is not None else paper.doi, url=paper.url, title=paper.title,
        year=paper.year)
    node = add_paper(facts, out, ctx)
    if node is not None:
        out.add(benchmark, BENCH.paper, node)


def _dataset(dataset: Dataset, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    node = ctx.iris.part(benchmark, "dataset")
    before = out.stated()
    out.add_texts(node, DCTERMS.language, dataset.languages)
    out.add_texts(node, BENCH.modality, dataset.modalities)
    out.add_text(node, BENCH.licenseText, dataset.license)
    out.add_boolean(node, BENCH.publicTestSet, dataset.public_test_set)
    out.add_integer(node, BENCH.size, dataset.size)
    out.add_text(node, BENCH.sizeNote, dataset.size_note)
    out.add_text(node, BENCH.splitsNote, dataset.splits)
    out.add_url(node, SCHEMA.url, dataset.url)
    if out.stated() > before:
        out.add(benchmark, BENCH.dataset, node)
        out.add_type(node, BENCH.Dataset)


def _metric(metric: Metric, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    node = ctx.iris.part(benchmark, "metric")
    before = out.stated()
    out.add_text(node, RDFS.label, metric.name)
    out.add(node, BENCH.direction, ctx.term(BENCH.MetricDirection, metric.direction))
    out.add_text(node, BENCH.unit, metric.unit)
    out.add_decimal(node, BENCH.maxScore, metric.max_score)
    out.add_decimal(node, BENCH.humanBaseline, metric.human_baseline)
    out.add_decimal(node, BENCH.randomBaseline, metric.random_baseline)
    out.add_text(node, BENCH.baselineNote, metric.baseline_note)
    if out.stated() > before:
        out.add(benchmark, BENCH.metric, node)
        out.add_type(node, BENCH.Metric)


def _contamination_and_saturation(
    page: Page, benchmark: URIRef, out: Statements, ctx: MappingContext
) -> None:
    out.add(
        benchmark,
        BENCH.contaminationRisk,
        ctx.term(BENCH.ContaminationRisk, page.contamination.risk),
    )
    out.add_text(benchmark, BENCH.contaminationNote, page.contamination.note)
    saturation = page.saturation
    out.add(benchmark, BENCH.saturationStatus, ctx.term(BENCH.SaturationStatus, saturation.status))
    out.add_text(benchmark, BENCH.saturationNote, saturation.note)
    out.add_date(benchmark, BENCH.saturationAsOf, saturation.as_of)
    out.add_decimal(benchmark, BENCH.topScore, saturation.top_score)


def _lineage(record: CatalogPage, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    lineage = record.page.lineage
    out.add_text(benchmark, BENCH.family, lineage.family)
    if lineage.predecessor is not None:
        out.add(benchmark, BENCH.predecessor, ctx.benchmark_reference(out, lineage.predecessor))
    for successor in lineage.successors:
        out.add(benchmark, BENCH.successor, ctx.benchmark_reference(out, successor))
    for variant in lineage.variants:
        if isinstance(variant, Verbatim):  # the page's own id: kept as text, not a link
            out.add_text(benchmark, BENCH.ownVariant, variant)
        else:
            out.add(benchmark, BENCH.variant, ctx.benchmark_reference(out, variant))
    for link in markdown_links(record.body):
        if link.benchmark_id != record.page.id:
            out.add(benchmark, BENCH.mentions, ctx.benchmark_reference(out, link.benchmark_id))


def _sources(page: Page, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    for number, source in enumerate(page.sources, start=1):
        node = ctx.iris.part(benchmark, "source", str(number))
        out.add(benchmark, BENCH.source, node)
        out.add_type(node, BENCH.Source)
        out.add_integer(node, BENCH.position, number)
        out.add_text(node, DCTERMS.title, source.title)
        out.add_url(node, SCHEMA.url, source.url)
        out.add_date(node, BENCH.accessed, source.accessed)


def _json(value: dict[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
