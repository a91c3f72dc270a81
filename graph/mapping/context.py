"""What mapping one record needs to know about the whole build."""

from dataclasses import dataclass

from rdflib import URIRef

from graph.dataset.quads import Object
from graph.dataset.terms import plain
from graph.mapping.emitter import Statements
from graph.mapping.identity import BenchmarkIndex
from graph.mapping.iris import Iris
from graph.namespace import BENCH, DCTERMS, RDFS, SKOS
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
