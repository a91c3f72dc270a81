"""Who made a benchmark: publishing organisations and authors, each an ordered credit."""

from rdflib import URIRef

from graph.mapping.context import MappingContext
from graph.mapping.emitter import Statements
from graph.mapping.organizations import split_makers
from graph.namespace import BENCH, DCTERMS


def add_makers(text: str | None, benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    """The publisher statement verbatim, each organisation it names, and every note kept."""
    if text is None:
        return
    out.add_text(benchmark, BENCH.publisherText, text)
    makers = split_makers(text)
    out.add_texts(benchmark, BENCH.publisherNote, makers.group_notes)
    for position, mention in enumerate(makers.organizations, start=1):
        org = ctx.named_node(out, ctx.iris.org(mention.name), BENCH.Organization, mention.name)
        out.add(benchmark, BENCH.publisher, org)
        credit = _credit(benchmark, "publisher", position, org, out, ctx)
        out.add(benchmark, BENCH.publisherCredit, credit)
        out.add_texts(credit, BENCH.note, mention.notes)


def add_authors(names: list[str], benchmark: URIRef, out: Statements, ctx: MappingContext) -> None:
    """Each author as a person and a creator, with a credit keeping the record's order."""
    for position, name in enumerate(names, start=1):
        person = ctx.named_node(out, ctx.iris.person(name), BENCH.Person, name)
        out.add(benchmark, DCTERMS.creator, person)
        out.add(
            benchmark, BENCH.authorCredit, _credit(benchmark, "author", position, person, out, ctx)
        )


def _credit(
    benchmark: URIRef, role: str, position: int, agent: URIRef, out: Statements, ctx: MappingContext
) -> URIRef:
    credit = ctx.iris.part(benchmark, role, str(position))
    out.add_type(credit, BENCH.Credit)
    out.add(credit, BENCH.agent, agent)
    out.add_integer(credit, BENCH.position, position)
    return credit
