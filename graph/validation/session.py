"""A validation session: validate a whole catalog once, then re-validate what changes.

``ValidationSession.validate(quads)`` checks every graph of the data: each record graph
record by record (with the build's facts about its nodes and what the ontology says about
the terms it uses), the ontology graph once, and the cross-record shapes once over
everything. ``update(quads)`` replaces some graphs and re-checks only them, the records
whose build facts changed, and the cross-record results of the nodes they touch: about
the cost of one record.

``validate_store`` and ``update_store`` do the same for a build's store, where a session
keeps nothing between builds (each build's writing process is new): the store holds the
graphs, and the previous build's report holds the results. An incremental build re-checks
the graphs that changed and those typing a benchmark a change mentions, and the
cross-record shapes on the nodes a change mentions, from the store; every other result is
the previous report's, which the same code and shapes made (``graph.store.state``'s
fingerprint: another one is a full build).
"""

from collections.abc import Collection, Iterable, Sequence
from functools import cache
from typing import cast

import pyoxigraph as ox
from rdflib import URIRef
from rdflib.term import Node

from graph.dataset.oxigraph import RdflibTerms, to_rdflib
from graph.dataset.quads import Quad
from graph.mapping.iris import Iris
from graph.namespace import BENCH, ONTOLOGY_IRI, RDF, RDFS
from graph.ontology import ontology_graph
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
    """The shapes, the data last validated, and its results, ready for updates."""

    def __init__(self, settings: Settings | None = None, shapes: ShapeSet | None = None,
                 batch_size: int = DEFAULT_BATCH) -> None:
        self.shapes = shapes or bundled_shapes()
        self.build_graph = Iris((settings or default_settings()).base).build()
        self.batch_size = max(1, batch_size)
        self._build: dict[Node, list[tuple[Node, Node]]] = {}
        self._ontology = _bundled_ontology()
        self._validator = self._validator_for(self._ontology)
        self._graphs: dict[URIRef, list[Quad]] = {}
        self._files: dict[URIRef, str | None] = {}
        self._results: dict[URIRef, list[ValidationResult]] = {}
        self._across = AcrossRecords(self.shapes, self._files.get)
        self._ontology_results: list[ValidationResult] = []
        self._streamed = False

    # -- the public API -----------------------------------------------------------------------
    def validate(self, quads: Iterable[Quad]) -> ValidationReport:
        """Forget any earlier data, validate ``quads`` and return the whole report.

        The ontology graph (``https://w3id.org/benchgraph/ontology``), when the quads hold
        it, is what records are checked against and is checked once itself; without it,
        the bundled ontology and vocabularies are.
        """
        with gc_paused():
            graphs, build = _split(quads, self.build_graph)
            ontology = graphs.pop(ONTOLOGY_IRI, None)
            return self._validate(build, ontology, graphs.items(), keep=True)

    def update(self, quads: Iterable[Quad], removed: Iterable[URIRef] = ()
               ) -> ValidationReport:
        """Replace the graphs that ``quads`` hold (and drop ``removed``), then re-check.

        A record graph in ``quads`` replaces the stored graph of that name whole. Statements
        in the build graph replace the build's facts about their subjects only, and the
        records that type those subjects as benchmarks are checked again too. The ontology
        graph may come along unchanged; a changed one raises ``ValueError`` (every record
        depends on it: validate everything again). Returns the results of what was checked
        again; ``report()`` gives the whole catalog's.
        """
        with gc_paused():
            return self._update(quads, removed)

    def validate_store(self, store: ox.Store) -> ValidationReport:
        """Validate the named graphs of a build's ``store`` as ``validate`` does with their
        quads, giving the same report, but keeping no graph once it is checked: each batch's
        rdflib quads are read from the store, checked and dropped
        (``graph.validation.stream``). The default graph is not read (a build's store holds
        the merge of the named graphs there). What the cross-record shapes need is kept, as
        always; ``update`` is refused afterwards (there is nothing to re-check against)."""
        with gc_paused():
            source = StoreGraphs(store)
            build = _build_of(source.quads(self.build_graph))
            ontology = source.quads(ONTOLOGY_IRI) or None
            graphs = source.each(skip=frozenset({self.build_graph, ONTOLOGY_IRI}))
            return self._validate(build, ontology, graphs, keep=False)

    def update_store(self, store: ox.Store, previous: ValidationReport,
                     changed: Collection[URIRef], mentioned: Iterable[ox.NamedNode | ox.BlankNode],
                     records: int) -> tuple[ValidationReport, int]:
        """The report of ``store``, whose ``changed`` graphs (some now gone) are all that
        differ from the store ``previous`` was made of, with ``mentioned`` the subjects and
        objects of every statement removed or added (the build graph's too), and ``records``
        the record graphs it now holds. Re-checked: the changed graphs still held, those that
        type as a benchmark a node mentioned (its build facts may have changed), and the
        cross-record shapes on the nodes mentioned, fed every graph with a fact about them;
        every other result is ``previous``'s. The same report ``validate_store`` gives, and
        how many graphs were checked again."""
        with gc_paused():
            source = StoreGraphs(store)
            self._streamed = True
            self._build.clear()
            self._replace_build(_build_of(source.quads(self.build_graph)))
            ontology = source.quads(ONTOLOGY_IRI)
            triples = tuple((s, p, o) for s, p, o, _ in ontology) if ontology \
                else _bundled_ontology()
            self._validator = self._validator_for(triples)
            nodes = [node for node in mentioned if isinstance(node, (ox.NamedNode, ox.BlankNode))]
            skip = {self.build_graph, ONTOLOGY_IRI}
            again = {graph for graph in changed if source.holds(graph)} | {
                URIRef(quad.graph_name.value) for node in nodes
                for quad in store.quads_for_pattern(node, _TYPE, _BENCHMARK)
                if isinstance(quad.graph_name, ox.NamedNode)} - skip
            self._results.clear()
            units = []
            for graph in sorted(again):
                quads = source.quads(graph)
                self._files[graph] = _source_file(quads)
                units.append(Unit(graph, quads, self._files[graph]))
            for start in range(0, len(units), self.batch_size):
                self._check_units(units[start:start + self.batch_size])
            touched = {to_rdflib(node) for node in nodes}
            across = self._across_of(store, nodes)
            redone = set(changed) | again
            kept = [result for result in previous.results
                    if not (result.focus_node in touched if result.shape in RESULT_SHAPES
                            else result.record in redone)]
            results = [*kept, *(r for rs in self._results.values() for r in rs),
                       *across.recheck(touched)]
            return ValidationReport.of(results, records, self.shapes.graph), len(again)

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
            across.set_source(key, quads)
        return across

    def _validate(self, build: dict[Node, list[tuple[Node, Node]]], ontology: list[Quad] | None,
                  graphs: Iterable[tuple[URIRef, list[Quad]]], keep: bool) -> ValidationReport:
        self._graphs.clear()
        self._files.clear()
        self._results.clear()
        self._build.clear()
        self._streamed = not keep
        self._across = AcrossRecords(self.shapes, self._files.get, keep_sources=keep)
        triples = tuple((s, p, o) for s, p, o, _ in ontology) if ontology else _bundled_ontology()
        self._ontology = triples
        self._validator = self._validator_for(triples)
        self._ontology_results = self._validator.validate_graph(ONTOLOGY_IRI, triples)
        self._replace_build(build)
        for subject in self._build:
            self._across.set_source((self.build_graph, subject),
                                    _build_quads(self.build_graph, subject, self._build[subject]))
        batch: list[Unit] = []
        for graph, graph_quads in graphs:
            if keep:
                self._graphs[graph] = graph_quads
            self._files[graph] = _source_file(graph_quads)
            self._across.set_source((graph, None), graph_quads)
            batch.append(Unit(graph, graph_quads, self._files[graph]))
            if len(batch) == self.batch_size:
                self._check_units(batch)
                batch = []
        self._check_units(batch)
        self._across.recheck(self._across.nodes())
        return self.report()

    def _update(self, quads: Iterable[Quad], removed: Iterable[URIRef]) -> ValidationReport:
        if self._streamed:
            raise ValueError("this session validated a store and kept none of its graphs: "
                             "validate the quads to update them later")
        graphs, build = _split(quads, self.build_graph)
        ontology = graphs.pop(ONTOLOGY_IRI, None)
        if ontology is not None and {q[:3] for q in ontology} != set(self._ontology):
            raise ValueError("the ontology graph changed: validate the whole catalog again")
        touched: set[Node] = set()
        again: set[URIRef] = set(graphs)
        for subject in self._replace_build(build):
            again |= self._across.graphs_typing(subject)
            touched |= self._across.set_source(
                (self.build_graph, subject),
                _build_quads(self.build_graph, subject, self._build.get(subject, [])))
        for graph in removed:
            if graph in self._graphs:
                del self._graphs[graph], self._results[graph]
                self._files.pop(graph, None)
                touched |= self._across.remove_source((graph, None))
                again.discard(graph)
        for graph, graph_quads in graphs.items():
            self._store(graph, graph_quads)
            touched |= self._across.set_source((graph, None), graph_quads)
        checked = sorted(g for g in again if g in self._graphs)
        self._check(checked)
        results = [r for graph in checked for r in self._results.get(graph, [])]
        results += self._across.recheck(touched)
        return ValidationReport.of(results, len(checked), self.shapes.graph)

    def report(self) -> ValidationReport:
        """The results of the whole catalog as it stands."""
        results = [r for graph_results in self._results.values() for r in graph_results]
        results += self._ontology_results
        results += self._across.results()
        return ValidationReport.of(results, len(self._results), self.shapes.graph)

    # -- the work -----------------------------------------------------------------------------
    def _store(self, graph: URIRef, graph_quads: list[Quad]) -> None:
        self._graphs[graph] = graph_quads
        self._files[graph] = _source_file(graph_quads)

    def _check(self, graphs: Sequence[URIRef]) -> None:
        for start in range(0, len(graphs), self.batch_size):
            chunk = graphs[start:start + self.batch_size]
            self._check_units([Unit(g, self._graphs[g], self._files.get(g)) for g in chunk])

    def _check_units(self, units: Sequence[Unit]) -> None:
        if not units:
            return
        # (A graph of None, statements outside any named graph, is a key like any other.)
        by_graph: dict[URIRef, list[ValidationResult]] = {
            cast(URIRef, unit.graph): [] for unit in units}
        for result in self._validator.validate(units):
            if result.record is not None:
                by_graph[result.record].append(result)
        self._results.update(by_graph)

    def _replace_build(self, build: dict[Node, list[tuple[Node, Node]]]) -> set[Node]:
        """Replace the build facts of each subject given; returns those that changed."""
        changed = {s for s, facts in build.items() if self._build.get(s) != facts}
        self._build.update(build)
        return changed

    def _build_facts(self, node: Node) -> Sequence[tuple[Node, Node]]:
        return self._build.get(node, ())

    def _validator_for(self, ontology: Sequence[Triple]) -> BatchValidator:
        return BatchValidator(self.shapes, Context.of(ontology, self._build_facts))


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


@cache
def _bundled_ontology() -> tuple[Triple, ...]:
    return tuple(ontology_graph())
