"""A validation session: validate a build's graph, or what an incremental build changed.

``ValidationSession.validate(quads)`` and ``validate_store(store)`` check every graph of
the data: each record graph record by record (with the build's facts about its nodes and
what the ontology says about the terms it uses), the ontology graph once, and the
cross-record shapes once over everything (``graph.validation.across``).

``update_store`` validates a build's store after an incremental build, where nothing is kept
between builds (each build's writing process is new): the store holds the graphs, and the
previous build's report holds the results. It re-checks the graphs that changed and those
typing a benchmark a change mentions, and the cross-record shapes on the nodes a change
mentions, from the store; every other result is the previous report's, which the same code
and shapes made (``graph.store.state``'s fingerprint: another one is a full build).
"""

from collections.abc import Callable, Collection, Iterable, Sequence

import pyoxigraph as ox
from rdflib import URIRef
from rdflib.term import Node

from graph.dataset.oxigraph import RdflibTerms, StatedTerm, to_oxigraph, to_rdflib
from graph.dataset.quads import Quad
from graph.mapping.iris import Iris
from graph.namespace import BENCH, ONTOLOGY_IRI, RDF, RDFS
from graph.ontology import ontology_triples
from graph.settings import Settings, default_settings
from graph.system.gc_pause import gc_paused
from graph.validation.across import LINKS, RESULT_SHAPES, AcrossRecords, Source
from graph.validation.batch import BatchValidator, Context, Unit
from graph.validation.report import ValidationReport, ValidationResult
from graph.validation.shapes import ShapeSet, bundled_shapes
from graph.validation.store import Triple
from graph.validation.stream import StoreGraphs

DEFAULT_BATCH = 100
_TYPE, _BENCHMARK = ox.NamedNode(str(RDF.type)), ox.NamedNode(str(BENCH.Benchmark))
_CATALOGUED, _LABEL = ox.NamedNode(str(BENCH.catalogued)), ox.NamedNode(str(RDFS.label))
_SOURCE_FILE = ox.NamedNode(str(BENCH.sourceFile))
_TO_NODE = tuple(ox.NamedNode(str(predicate)) for predicate in (BENCH.describes, *LINKS))
"""The predicates whose objects a cross-record check reads."""


class ValidationSession:
    """The shapes, and the build's facts and record files of the data it validates."""

    def __init__(self, settings: Settings | None = None, shapes: ShapeSet | None = None,
                 batch_size: int = DEFAULT_BATCH) -> None:
        self.shapes = shapes or bundled_shapes()
        self.build_graph = Iris((settings or default_settings()).base).build()
        self.batch_size = max(1, batch_size)
        self._facts_of: Callable[[Node], Sequence[tuple[Node, Node]]] = lambda node: ()
        """The build graph's facts about a subject: from all of them, held, or read from a
        store when asked for (an update reads a few)."""
        self._files: dict[URIRef, str | None] = {}

    def validate(self, quads: Iterable[Quad]) -> ValidationReport:
        """Validate ``quads`` and return the whole report.

        The ontology graph (``https://w3id.org/benchgraph/ontology``), when the quads hold
        it, is what records are checked against and is checked once itself; without it,
        the bundled ontology and vocabularies are.
        """
        with gc_paused():
            graphs, build = _split(quads, self.build_graph)
            ontology = graphs.pop(ONTOLOGY_IRI, None)
            return self._validate(build, ontology, graphs.items())

    def validate_store(self, store: ox.Store) -> ValidationReport:
        """Validate the named graphs of a build's ``store`` as ``validate`` does with their
        quads, giving the same report, but keeping no graph once it is checked: each batch's
        rdflib quads are read from the store, checked and dropped
        (``graph.validation.stream``). The default graph is not read (a build's store holds
        the merge of the named graphs there)."""
        with gc_paused():
            source = StoreGraphs(store)
            build = _build_of(source.quads(self.build_graph))
            ontology = source.quads(ONTOLOGY_IRI) or None
            graphs = source.each(skip=frozenset({self.build_graph, ONTOLOGY_IRI}))
            return self._validate(build, ontology, graphs)

    def update_store(self, store: ox.Store, previous: ValidationReport,
                     changed: Collection[URIRef], mentioned: Iterable[StatedTerm], records: int
                     ) -> tuple[ValidationReport, int]:
        """The report of ``store``, whose ``changed`` graphs (some now gone) are all that
        differ from the store ``previous`` was made of, with ``mentioned`` the subjects and
        objects of every statement removed or added (the build graph's too: its literals are
        passed over), and ``records``
        the record graphs it now holds. Re-checked: the changed graphs still held, those that
        type as a benchmark a node mentioned (its build facts may have changed), and the
        cross-record shapes on the nodes mentioned, fed every fact about them; every other
        result is ``previous``'s. The same report ``validate_store`` gives, and how many
        graphs were checked again."""
        with gc_paused():
            source = StoreGraphs(store)
            self._facts_of = _BuildFactsIn(store, self.build_graph)
            validator = self._validator_for(_triples(source.quads(ONTOLOGY_IRI)))
            nodes = [node for node in mentioned if isinstance(node, (ox.NamedNode, ox.BlankNode))]
            again = {graph for graph in changed if source.holds(graph)} | {
                URIRef(quad.graph_name.value) for node in nodes
                for quad in store.quads_for_pattern(node, _TYPE, _BENCHMARK)
                if isinstance(quad.graph_name, ox.NamedNode)}
            again -= {self.build_graph, ONTOLOGY_IRI}
            units = [self._unit(graph, source.quads(graph)) for graph in sorted(again)]
            checked = self._checked(validator, units)
            touched = {to_rdflib(node) for node in nodes}
            redone = set(changed) | again
            kept = [result for result in previous.results
                    if not (result.focus_node in touched if result.shape in RESULT_SHAPES
                            else result.record in redone)]
            across = self._across_of(store, nodes).check(touched)
            return (ValidationReport.of([*kept, *checked, *across], records, self.shapes.graph),
                    len(again))

    def _validate(self, build: dict[Node, list[tuple[Node, Node]]], ontology: list[Quad] | None,
                  graphs: Iterable[tuple[URIRef, list[Quad]]]) -> ValidationReport:
        self._facts_of = lambda node: build.get(node, ())
        triples = _triples(ontology)
        validator = self._validator_for(triples)
        results = validator.validate_graph(ONTOLOGY_IRI, triples)
        across = AcrossRecords(self.shapes, self._files.get)
        for subject, facts in build.items():
            across.add_source((self.build_graph, subject),
                              _build_quads(self.build_graph, subject, facts))
        batch: list[Unit] = []
        records = 0
        for graph, graph_quads in graphs:
            across.add_source((graph, None), graph_quads)
            batch.append(self._unit(graph, graph_quads))
            records += 1
            if len(batch) == self.batch_size:
                results += self._checked(validator, batch)
                batch = []
        results += self._checked(validator, batch)
        results += across.check(across.nodes())
        return ValidationReport.of(results, records, self.shapes.graph)

    def _unit(self, graph: URIRef, quads: list[Quad]) -> Unit:
        self._files[graph] = _source_file(quads)
        return Unit(graph, quads, self._files[graph])

    def _checked(self, validator: BatchValidator, units: Sequence[Unit]
                 ) -> list[ValidationResult]:
        """The results of checking ``units``, a batch at a time, each of its record."""
        results: list[ValidationResult] = []
        for start in range(0, len(units), self.batch_size):
            results += (result for result in validator.validate(
                units[start:start + self.batch_size]) if result.record is not None)
        return results

    def _across_of(self, store: ox.Store, nodes: Iterable[ox.NamedNode | ox.BlankNode]
                   ) -> AcrossRecords:
        """The cross-record indexes fed what every source states of ``nodes`` that a check
        reads: a type as a benchmark, a catalogued flag, a link or a ``describes`` to it, and,
        of a node with any of those, its labels. (A node with none has no result whatever
        its labels say: an organisation that thousands of records name costs nothing.)"""
        terms = RdflibTerms()
        by_source: dict[Source, list[Quad]] = {}
        for node in nodes:
            found = [*store.quads_for_pattern(node, _TYPE, _BENCHMARK),
                     *store.quads_for_pattern(node, _CATALOGUED, None),
                     *(quad for predicate in _TO_NODE
                       for quad in store.quads_for_pattern(None, predicate, node))]
            if found:
                found += store.quads_for_pattern(node, _LABEL, None)
            for quad in found:
                if not isinstance(quad.graph_name, ox.NamedNode) or \
                        quad.graph_name.value == str(ONTOLOGY_IRI):
                    continue
                name = URIRef(quad.graph_name.value)
                key: Source = (name, to_rdflib(node)) if name == self.build_graph else (name, None)
                by_source.setdefault(key, []).extend(terms.quads([quad], name))
        across = AcrossRecords(self.shapes, self._files.get)
        for key, quads in by_source.items():
            record, subject = key
            if subject is None and record not in self._files:
                self._files[record] = _source_file(terms.quads(store.quads_for_pattern(
                    None, _SOURCE_FILE, None, ox.NamedNode(record)), record))
            across.add_source(key, quads)
        return across

    def _build_facts(self, node: Node) -> Sequence[tuple[Node, Node]]:
        return self._facts_of(node)

    def _validator_for(self, ontology: Sequence[Triple]) -> BatchValidator:
        return BatchValidator(self.shapes, Context.of(ontology, self._build_facts))


class _BuildFactsIn:
    """The build graph's facts about each subject, read from ``store`` when first asked for,
    in ``_build_of``'s order."""

    def __init__(self, store: ox.Store, graph: URIRef) -> None:
        self._store, self._graph = store, ox.NamedNode(graph)
        self._read: dict[Node, list[tuple[Node, Node]]] = {}
        self._terms = RdflibTerms()

    def __call__(self, subject: Node) -> list[tuple[Node, Node]]:
        found = self._read.get(subject)
        if found is None:
            term = to_oxigraph(subject)
            statements = [] if isinstance(term, ox.Literal) else \
                self._store.quads_for_pattern(term, None, None, self._graph)
            quads = self._terms.quads(statements, URIRef(self._graph.value))
            found = self._read[subject] = _build_of(quads).get(subject, [])
        return found


def _triples(ontology: Sequence[Quad] | None) -> Sequence[Triple]:
    """The ontology's triples: the graph's given, else the bundled ontology's."""
    return tuple((s, p, o) for s, p, o, _ in ontology) if ontology else ontology_triples()


def _split(quads: Iterable[Quad], build_graph: URIRef
           ) -> tuple[dict[URIRef, list[Quad]], dict[Node, list[tuple[Node, Node]]]]:
    graphs: dict[URIRef, list[Quad]] = {}
    for quad in quads:
        found = graphs.get(quad[3])
        if found is None:
            graphs[quad[3]] = [quad]
        else:
            found.append(quad)
    return graphs, _build_of(graphs.pop(build_graph, []))


def _build_of(quads: Iterable[Quad]) -> dict[Node, list[tuple[Node, Node]]]:
    """The build graph's (predicate, object) pairs by subject, each subject's in one order."""
    build: dict[Node, list[tuple[Node, Node]]] = {}
    for s, p, o, _ in quads:
        build.setdefault(s, []).append((p, o))
    for facts in build.values():
        facts.sort(key=lambda pair: (str(pair[0]), str(pair[1])))
    return build


def _build_quads(graph: URIRef, subject: Node, facts: Sequence[tuple[Node, Node]]
                 ) -> list[Quad]:
    return [(subject, p, o, graph) for p, o in facts]  # type: ignore[misc]


def _source_file(quads: Sequence[Quad]) -> str | None:
    source_file = str(BENCH.sourceFile)
    for _, p, o, _ in quads:
        if str.__eq__(p, source_file):
            return str(o)
    return None
