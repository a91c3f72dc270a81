"""A directory page record -> the statements of its named graph.

The page's benchmark, and every related entry, is named by title and resolved
through the build's ``BenchmarkIndex`` (``graph.mapping.identity``): a page about a
benchmark a catalog page describes lands on that benchmark's node, with its scores, its
access level and its related entries. The title is the benchmark's ``rdfs:label`` when no
record with an id names the benchmark, and one of its other names (``skos:altLabel``)
when one does, so the catalog's own name stays the name queries show.
"""

from collections.abc import Callable

from rdflib import URIRef

from graph.ingest.records.directory_page import DirectoryPage, ModelCardSection, RelatedEntry
from graph.mapping.context import MappingContext
from graph.mapping.dates import partial_date
from graph.mapping.emitter import Statements
from graph.mapping.makers import add_makers
from graph.mapping.results import add_result
from graph.namespace import BENCH, DCTERMS, RDFS, SKOS
from graph.slug import slugify

FactMapper = Callable[[str, URIRef, Statements, MappingContext], None]


def _released(value: str, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    iso = partial_date(value)
    if iso is None:  # kept as written; a recommended-level shape asks for a typed date
        out.add_text(benchmark, BENCH.released, value)
    else:
        out.add_partial_date(benchmark, BENCH.released, iso)


def _kind(value: str, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    out.add(
        benchmark,
        BENCH.subcategory,
        ctx.concept(out, ctx.iris.category(value), BENCH.Category, value),
    )


def _text(predicate: URIRef) -> FactMapper:
    def add(value: str, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
        out.add_text(benchmark, predicate, value)

    return add


FACTS: dict[str, FactMapper] = {
    "made_by": lambda value, benchmark, out, ctx: add_makers(value, benchmark, out, ctx),
    "released": _released,
    "kind": _kind,
    "level": _text(BENCH.level),
    "scored": _text(BENCH.scoring),
    "answers": _text(BENCH.answerFormat),
    "tasks": _text(BENCH.taskAvailability),
}
"""Each fact key a directory page may list (slugged) and how it maps; any other key is kept
as ``bench:otherFact "Key: value"``."""


def map_directory_page(record: DirectoryPage, out: Statements, ctx: MappingContext) -> None:
    """Statements about the page's benchmark, its scores, and the benchmarks listed beside it."""
    benchmark = _titled(record.title, ctx.index.described_by(record), out, ctx)
    out.add(out.graph, BENCH.describes, benchmark)
    out.add_text(benchmark, DCTERMS.abstract, record.summary)
    out.add_text(benchmark, BENCH.accessStatement, record.access)
    out.add_text(benchmark, BENCH.accessNote, record.access_note)
    if record.access is not None:
        out.add(benchmark, BENCH.accessLevel, ctx.vocabulary.access_level_for(record.access))
    for fact in record.facts:
        mapper = FACTS.get(slugify(fact.key))
        if mapper is None:
            out.add_text(benchmark, BENCH.otherFact, f"{fact.key}: {fact.value}")
        else:
            mapper(fact.value, benchmark, out, ctx)
    out.add_text(benchmark, BENCH.authorsWords, record.authors_words)
    if record.scores is not None:
        out.add_text(benchmark, BENCH.scoresHeading, record.scores.heading)
        out.add_text(benchmark, BENCH.scoresStatement, record.scores.statement)
        for score in record.scores.scores:
            add_result(out, ctx, benchmark, score.model, score.value, score.unit)
    if record.model_cards is not None:
        _model_cards(record.model_cards, benchmark, out, ctx)
    category = None
    if record.category is not None:
        category = ctx.concept(
            out, ctx.iris.category(record.category), BENCH.Category, record.category
        )
        out.add(benchmark, BENCH.category, category)
    for entry in record.related:
        out.add(benchmark, BENCH.relatedBenchmark, _related(entry, category, out, ctx))


def _titled(title: str, benchmark_id: str, out: Statements, ctx: MappingContext) -> URIRef:
    """The benchmark ``benchmark_id``, which this page calls ``title``."""
    benchmark = ctx.benchmark_reference(out, benchmark_id)
    named_elsewhere = ctx.index.has_stated_name(benchmark_id)
    out.add_text(benchmark, SKOS.altLabel if named_elsewhere else RDFS.label, title)
    return benchmark


def _model_cards(
    section: ModelCardSection, benchmark: URIRef, out: Statements, ctx: MappingContext
) -> None:
    survey = ctx.iris.part(benchmark, "model_card_survey")
    out.add(benchmark, BENCH.modelCardSurvey, survey)
    out.add_type(survey, BENCH.ModelCardSurvey)
    out.add_text(survey, RDFS.label, section.heading)
    out.add_boolean(survey, BENCH.reportedInModelCards, not section.heading.startswith("No "))
    out.add_text(survey, BENCH.statement, section.statement)
    out.add_integer(survey, BENCH.launchPosts, section.launch_posts)
    out.add_integer(survey, BENCH.labs, section.labs)


def _related(
    entry: RelatedEntry, category: URIRef | None, out: Statements, ctx: MappingContext
) -> URIRef:
    related = _titled(entry.title, ctx.index.resolve(entry.title), out, ctx)
    out.add_text(related, BENCH.status, entry.status)
    out.add_text(related, DCTERMS.abstract, entry.summary)
    out.add(related, BENCH.category, category)
    if entry.top_score is not None:
        score = entry.top_score
        add_result(out, ctx, related, score.model, score.value, score.unit)
    return related
