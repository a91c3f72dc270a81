"""What mapping one record needs to know about the whole build."""

from dataclasses import dataclass
from decimal import Decimal

from rdflib import URIRef

from graph.dataset.quads import Object
from graph.dataset.terms import plain
from graph.mapping.emitter import Statements
from graph.mapping.identity import BenchmarkIndex
from graph.mapping.iris import Iris
from graph.namespace import BENCH, DCTERMS, RDFS, SKOS
from graph.slug import node_key
from graph.vocabulary import Vocabulary


@dataclass(frozen=True)
class MappingContext:
    iris: Iris
    vocabulary: Vocabulary
    index: BenchmarkIndex

    def term(self, vocabulary_class: URIRef, value: str | None) -> Object | None:
        """The vocabulary member a record's value names; the value verbatim when none does
        (kept, and flagged by a recommended-level shape)."""
        if value is None:
            return None
        return self.vocabulary.find(vocabulary_class, value) or plain(value)

    def benchmark_reference(self, out: Statements, benchmark_id: str) -> URIRef:
        """A benchmark named by id from another benchmark's record: a node all the same."""
        node = self.iris.benchmark(benchmark_id)
        out.add_type(node, BENCH.Benchmark)
        out.add_text(node, DCTERMS.identifier, benchmark_id)
        return node

    def named_node(self, out: Statements, node: URIRef, rdf_class: URIRef, label: str) -> URIRef:
        """A shared node (organisation, person, model...) with its class and label."""
        out.add_type(node, rdf_class)
        out.add_text(node, RDFS.label, label)
        return node

    def concept(self, out: Statements, node: URIRef, rdf_class: URIRef, label: str) -> URIRef:
        """A category or tag: a SKOS concept whose notation is the label as written."""
        self.named_node(out, node, rdf_class, label)
        out.add_text(node, SKOS.prefLabel, label)
        return node


def add_result(
    out: Statements,
    ctx: MappingContext,
    benchmark: URIRef,
    model_name: str,
    score: Decimal,
    unit: str | None,
) -> URIRef:
    """A model's score on a benchmark, as this record states it: its own node per record, so
    two sources that disagree both stay visible (``…/result/{model}/{record}``; a record that
    gives the same model another result on the same benchmark gets ``…/2``, ``…/3``…)."""
    model = ctx.named_node(out, ctx.iris.model(model_name), BENCH.Model, model_name)
    path = ["result", node_key(model_name), ctx.iris.record_key(out.graph)]
    again = out.occurrence((benchmark, path[1]))
    if again > 1:
        path.append(str(again))
    node = ctx.iris.part(benchmark, *path)
    out.add(benchmark, BENCH.result, node)
    out.add_type(node, BENCH.Result)
    out.add(node, BENCH.model, model)
    out.add_decimal(node, BENCH.score, score)
    out.add_text(node, BENCH.unit, unit)
    return node
