"""A harness registry entry -> the statements of its named graph.

The entry states what its harness says about one benchmark, on the benchmark's own node
(``graph.mapping.identity`` decides which), so a curated record and the entries of four
harnesses meet there, each in its own graph; ``bench:importer "harness-registry"`` on the
record tells the kinds apart. What the statements are:

- the record: the entry's id in its harness, the harness, the files of the package that
  state it (``bench:statedIn``) and the package itself (``prov:wasDerivedFrom``
  ``{base}package/…``: name, version, licence and copyright line, as its NOTICE gives them);
- the benchmark: its name (``rdfs:label`` for the one entry that names a benchmark no
  curated record describes, ``skos:altLabel`` otherwise), aliases, the harness's short
  description (``dcterms:abstract``), papers, the dataset ids it loads
  (``…/dataset/{slug}``, with the hub and the hub's access word, verbatim), metrics
  (``…/metric/{slug}``, direction, main), task formats, tags (two spellings of one tag,
  ``truthfulqa-multi`` and ``truthfulqa_multi``, are one tag node, noted by the first in
  sorted order), categories, suites (the
  harness's suites are vocabulary members, ``{harness}_{suite}`` or the suite's own
  notation), and HELM's taxonomy;
- the harness task ``…/task/{harness}``, where a catalog page's harness key lands too: the
  names to run it by (its sub-tasks and lm-eval groups, or the entry's id when it lists none),
  who implemented it, whether the harness marks it as still to do; and a sub-task node
  ``…/task/{harness}/{slug}`` for each task the harness states something about alone: its
  sample count, its human baselines, the data it needs on disk.

Access is stated, never guessed: no harness states an access level, and none is made here.
A HELM run spec that takes a ``data_path`` is stated as exactly that (``bench:needsLocalData``,
with the file that says so); an OpenCompass config that reads a local copy, as its path
(``bench:localPath``) and, where OpenCompass names one, the archive it downloads it from
(``bench:downloadUrl``; it then needs no data from the user); inspect_evals' ``gated: auto``
stays that word on the dataset.
What is not mapped: lm-eval groups' members and aliases (the harness's wiring of its tasks,
already listed as task names).
"""

import re
from dataclasses import dataclass, field
from decimal import Decimal

from rdflib import URIRef

from graph.dataset.quads import Object
from graph.dataset.terms import plain
from graph.ingest.records import HarnessEntry, HarnessPackage
from graph.ingest.records.harness_snapshot import (
    Entry,
    HumanBaseline,
    LocalData,
    Repository,
    Taxonomy,
)
from graph.mapping.context import MappingContext
from graph.mapping.emitter import Statements
from graph.mapping.identity import grouping_id
from graph.mapping.lineage_links import lineage_links
from graph.mapping.paper_node import PaperFacts, add_paper
from graph.mapping.results import add_stated_result
from graph.namespace import BENCH, DCTERMS, FOAF, PROV, RDFS, SCHEMA, SKOS
from graph.slug import node_key

_WEB = re.compile(r"https?://\S+$")
_LINEAGE = {"variant": BENCH.variant, "inFamily": BENCH.inFamily}
_TAXONOMY = (("task", BENCH.taxonomyTask), ("what", BENCH.taxonomyWhat),
             ("who", BENCH.taxonomyWho), ("when", BENCH.taxonomyWhen),
             ("language", BENCH.taxonomyLanguage))


def map_harness_entry(record: HarnessEntry, out: Statements, ctx: MappingContext) -> None:
    """Statements about the entry's benchmark, its task there, and the record's sources; for
    an entry the overrides call a collection, its grouping (``_collection``). (One they leave
    out has no graph: ``graph.mapping.record``.)"""
    kind = ctx.index.kind_of(record)
    entry, package = record.entry, record.package
    harness = ctx.vocabulary.find(BENCH.Harness, package.harness)
    _record(record, harness, out, ctx)
    for link in lineage_links(record, ctx.index):
        out.add(ctx.benchmark_reference(out, link.subject), _LINEAGE[link.predicate],
                ctx.benchmark_reference(out, link.object))
    if kind == "collection":
        _collection(record, harness, out, ctx)
        return
    benchmark = ctx.benchmark_reference(out, ctx.index.described_by(record))
    out.add(out.graph, BENCH.describes, benchmark)
    if kind == "corpus":
        out.add_type(benchmark, BENCH.Corpus)

    label = ctx.index.label_from(record)
    out.add_text(benchmark, RDFS.label, label)
    out.add_text(benchmark, SKOS.altLabel, entry.name if entry.name != label else None)
    out.add_texts(benchmark, SKOS.altLabel, entry.aliases)
    out.add_text(benchmark, DCTERMS.abstract, entry.description)
    out.add_url(benchmark, FOAF.homepage, entry.homepage)
    out.add_texts(benchmark, BENCH.language, entry.languages)
    out.add_texts(benchmark, BENCH.modality, entry.modalities)
    _papers(entry, benchmark, out, ctx)
    _access(entry, benchmark, out, ctx)
    _datasets(entry, benchmark, out, ctx)
    _metrics(entry, benchmark, out, ctx)
    out.add_texts(benchmark, BENCH.taskFormat, entry.task_formats)
    tags = {ctx.iris.tag(tag): tag for tag in reversed(entry.tags)}  # one per node: the first
    for node_iri, tag in sorted(tags.items()):
        node = ctx.concept(out, node_iri, BENCH.Tag, tag)
        out.add_text(node, SKOS.notation, tag)
        out.add(benchmark, BENCH.tag, node)
    for category in entry.categories:
        out.add(benchmark, BENCH.category,
                ctx.concept(out, ctx.iris.category(category), BENCH.Category, category))
    for suite in entry.suites:
        out.add(benchmark, BENCH.inSuite, _suite(package.harness, suite, ctx))
    _taxonomy(entry.taxonomy, benchmark, out)

    moved = {task: move.benchmark_id for move in ctx.index.tasks_moved(record)
             for task in move.tasks}
    own_tasks = [t for t in entry.tasks if t not in moved]
    task = _task(benchmark, package.harness, harness, out, ctx)
    names = [*own_tasks, *(group.name for group in entry.groups)] or [entry.id]
    out.add_texts(task, BENCH.taskName, names)
    out.add_texts(task, BENCH.implementedBy, entry.contributors)
    out.add_text(task, BENCH.implementationVersion, entry.version)
    if entry.requirements is not None:
        out.add_texts(task, BENCH.needsSandbox, entry.requirements.sandbox)
        out.add_boolean(task, BENCH.needsInternet, entry.requirements.internet)
    out.add_boolean(task, BENCH.listedAsTodo, entry.todo or None)
    _subtasks(entry, {t: task for t in own_tasks}, task, out, ctx)
    for result in entry.results:
        add_stated_result(out, ctx, benchmark, result)
    for target in dict.fromkeys(moved.values()):
        other = _task(ctx.benchmark_reference(out, target), package.harness, harness, out, ctx)
        tasks = [t for t in entry.tasks if moved.get(t) == target]
        out.add_texts(other, BENCH.taskName, tasks)
        _subtasks(entry, {t: other for t in tasks}, None, out, ctx)


def _record(record: HarnessEntry, harness: URIRef | None, out: Statements,
            ctx: MappingContext) -> None:
    """The record: the entry's id in its harness, the files and the package (and repository)
    its facts were read from."""
    entry, package = record.entry, record.package
    out.add_text(out.graph, BENCH.entryId, entry.id)
    out.add(out.graph, BENCH.harness, harness)
    out.add_texts(out.graph, BENCH.statedIn, entry.source)
    out.add(out.graph, PROV.wasDerivedFrom, package_node(package, harness, out, ctx))
    if entry.access and package.repository is not None:
        out.add(out.graph, PROV.wasDerivedFrom, _repository(package.repository, out, ctx))


def _collection(record: HarnessEntry, harness: URIRef | None, out: Statements,
                ctx: MappingContext) -> None:
    """A harness folder that groups other benchmarks' tasks (lm-eval's ``leaderboard``): a
    suite of the harness's, holding the benchmarks its tasks run."""
    suite = ctx.named_node(out, ctx.iris.suite(grouping_id(record.key)), BENCH.Suite,
                           record.entry.name)
    out.add(out.graph, BENCH.describes, suite)
    out.add_text(suite, SKOS.notation, record.entry.id)
    out.add(suite, BENCH.harness, harness)
    out.add_text(suite, DCTERMS.abstract, record.entry.description)
    for move in ctx.index.tasks_moved(record):
        member = ctx.benchmark_reference(out, move.benchmark_id)
        out.add(member, BENCH.inSuite, suite)
        task = _task(member, record.package.harness, harness, out, ctx)
        out.add_texts(task, BENCH.taskName, move.tasks)


def package_node(package: HarnessPackage, harness: URIRef | None, out: Statements,
                 ctx: MappingContext) -> URIRef:
    """The package a record's facts were read from (name, version, licence, copyright)."""
    node = ctx.named_node(out, ctx.iris.package(package.name, package.version),
                          BENCH.HarnessPackage, f"{package.name} {package.version}")
    out.add_text(node, SCHEMA.name, package.name)
    out.add_text(node, SCHEMA.softwareVersion, package.version)
    out.add(node, BENCH.harness, harness)
    out.add_text(node, SCHEMA.license, package.licence)
    out.add_text(node, SCHEMA.copyrightNotice, package.copyright)
    return node


def _repository(repository: Repository, out: Statements, ctx: MappingContext) -> URIRef:
    """The repository at the commit some of the entry's facts were read from."""
    node = ctx.named_node(out, ctx.iris.repository(repository.url, repository.commit),
                          BENCH.SourceRepository,
                          f"{repository.url.removeprefix('https://')} at {repository.commit[:12]}")
    out.add_url(node, SCHEMA.codeRepository, repository.url)
    out.add_text(node, BENCH.commit, repository.commit)
    out.add_text(node, SCHEMA.license, repository.licence)
    out.add_text(node, SCHEMA.copyrightNotice, repository.copyright)
    return node


def _papers(entry: Entry, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    """Each paper the harness cites, with what its citation of it states
    (``graph.mapping.paper_node``)."""
    for paper in entry.papers:
        node = add_paper(PaperFacts(
            arxiv=paper.arxiv, doi=paper.doi, url=paper.url, title=paper.title,
            authors=paper.authors, year=paper.year, venue=paper.venue,
            cite_key=paper.cite_key, citation=paper.citation), out, ctx)
        out.add(benchmark, BENCH.paper, node)


def _access(entry: Entry, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    """The access levels the harness's own files state, each with the file that states it;
    the holder of a private level as the file names it."""
    for stated in entry.access:
        out.add(benchmark, BENCH.accessLevel, ctx.term(BENCH.AccessLevel, stated.level))
        out.add_text(benchmark, BENCH.accessHolder, stated.holder)
        out.add_text(out.graph, BENCH.statedIn, stated.source)


def _datasets(entry: Entry, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    for dataset in entry.datasets:
        node = ctx.iris.part(benchmark, "dataset", node_key(dataset.id))
        out.add(benchmark, BENCH.dataset, node)
        out.add_type(node, BENCH.Dataset)
        out.add_text(node, DCTERMS.identifier, dataset.id)
        out.add_text(node, BENCH.hub, dataset.hub)
        out.add_text(node, BENCH.hubAccess, dataset.gated)


def _metrics(entry: Entry, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    for metric in entry.metrics:
        node = ctx.iris.part(benchmark, "metric", node_key(metric.name))
        out.add(benchmark, BENCH.metric, node)
        out.add_type(node, BENCH.Metric)
        out.add_text(node, DCTERMS.identifier, metric.name)
        out.add_text(node, RDFS.label, metric.display_name or metric.name)
        if metric.lower_is_better is not None:
            direction = "lower_is_better" if metric.lower_is_better else "higher_is_better"
            out.add(node, BENCH.direction, ctx.term(BENCH.MetricDirection, direction))
        out.add_boolean(node, BENCH.mainMetric, metric.main or None)


def _suite(harness: str, suite: str, ctx: MappingContext) -> Object:
    """The harness's suite in the vocabulary (``Vocabulary.harness_suite``); the name as
    written when the vocabulary has none (a core shape then asks for it to be added)."""
    found = ctx.vocabulary.harness_suite(harness, suite)
    return found if found is not None else plain(suite)


def _taxonomy(taxonomy: Taxonomy | None, benchmark: URIRef, out: Statements) -> None:
    if taxonomy is not None:
        for axis, predicate in _TAXONOMY:
            out.add_text(benchmark, predicate, getattr(taxonomy, axis))


def _task(benchmark: URIRef, key: str, harness: URIRef | None, out: Statements,
          ctx: MappingContext) -> URIRef:
    """The benchmark's task in the harness (the node a catalog page's harness key makes)."""
    task = ctx.iris.part(benchmark, "task", key)
    out.add(benchmark, BENCH.harnessTask, task)
    out.add_type(task, BENCH.HarnessTask)
    out.add(task, BENCH.harness, harness)
    return task


@dataclass
class _TaskFacts:
    """What the harness states about one of an entry's tasks alone."""

    samples: int | None = None
    baselines: list[HumanBaseline] = field(default_factory=list)
    local_data: list[LocalData] = field(default_factory=list)


def _subtasks(entry: Entry, tasks: dict[str, URIRef], default: URIRef | None,
              out: Statements, ctx: MappingContext) -> None:
    """A node per task that the harness states something about alone, below the harness task
    it belongs to (``default`` for a task the entry does not list among its tasks: a HELM run
    spec that needs local data under another name, a sample count of a task not listed)."""
    facts: dict[str, _TaskFacts] = {}
    for count in entry.sample_counts:
        facts.setdefault(count.task, _TaskFacts()).samples = count.samples
    for baseline in entry.human_baselines:
        facts.setdefault(baseline.task, _TaskFacts()).baselines.append(baseline)
    for local in entry.needs_local_data:
        facts.setdefault(local.run_spec, _TaskFacts()).local_data.append(local)
    for name, stated in facts.items():
        owner = tasks.get(name, default)
        if owner is None:
            continue
        node = ctx.iris.part(owner, node_key(name))
        out.add(owner, BENCH.subtask, node)
        out.add_type(node, BENCH.Subtask)
        out.add_text(node, BENCH.taskName, name)
        out.add_integer(node, BENCH.sampleCount, stated.samples)
        for baseline in stated.baselines:
            metric = ctx.iris.part(node, "metric", node_key(baseline.metric))
            out.add(node, BENCH.metric, metric)
            out.add_type(metric, BENCH.Metric)
            out.add_text(metric, RDFS.label, baseline.metric)
            out.add_decimal(metric, BENCH.humanBaseline, Decimal(repr(baseline.score)))
            if baseline.source is not None and _WEB.match(baseline.source):
                out.add_url(metric, BENCH.baselineSource, baseline.source)
            else:
                out.add_text(metric, BENCH.baselineSource, baseline.source)
        for local in stated.local_data:
            out.add_text(node, BENCH.localPath, local.path)
            out.add_url(node, BENCH.downloadUrl, local.download)
            if local.download is None:
                out.add_text(node, BENCH.needsLocalData, local.argument)
            out.add_text(node, BENCH.statedIn, local.source)
