"""Every IRI under the base dereferences: ``{base}x`` is this app's ``/x``.

- A data IRI (``/benchmark/x``, ``/org/x``, ``/paper/2211.08584``, ``/record/x``,
  ``/benchmark/x/result/m/r`` ...) is ``/<path:rest>``; the vocabularies' individuals and
  schemes (``bench:Gated``, ``bench:HELM``, ``bench:MedHELM``, ``bench:Harnesses``), which live
  in the ontology's namespace, are ``/vocabulary/<Name>``, and ``/vocabulary`` lists them.
  (The ontology's classes and properties are documented at ``/ontology#Name``.)
- One code path for every format: the node's ``Description`` from the store. The address is
  a page (``web.data_view``: a browser, no ``Accept`` or ``*/*``); Turtle,
  N-Triples, JSON-LD and RDF/XML come by suffix (``.ttl``, ``.nt``, ``.jsonld`` or ``.json``,
  ``.rdf``), by ``format=`` or by ``Accept`` (``application/json`` is JSON-LD), and a paper's
  or a benchmark's papers' BibTeX at ``.bib`` or by ``Accept: application/x-bibtex``, with
  ``Vary: Accept``, ``<link rel="alternate">`` in the page and a ``Link`` header on every
  representation.
- A suffix is one of the registry's extensions of those formats after the last dot of the
  last segment. No data IRI ends so: ids and slugs are ``[a-z0-9_]`` (DESIGN.md,
  "Identifiers"), record keys are slugs,
  and a paper key is an arXiv id (``2211.08584``, ``math.GT_0309136``: digits, or capitals and
  ``_`` after the dot) or a slug. Should one ever do, it still answers: a suffixed path whose
  node is unknown is tried whole before it is a 404.
- An unknown IRI is a 404 in the app's one error shape, with a search box and the nodes whose
  name, alias or id is exactly the last segment (``/benchmark/clue_cmnli``: the benchmark that
  OpenCompass's entry ``CLUE_cmnli`` was matched to, which bears that name as an alias). They are
  links, not a redirect: an id that is no node's does not become another node's.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

import pyoxigraph as ox
from flask import Blueprint, Response, abort, current_app, g, render_template, request, url_for

from graph.errors import BenchgraphError, ErrorKind
from graph.export.bibtex import MEDIA_TYPE as BIBTEX_TYPE
from graph.export.bibtex import bibtex, papers_of
from graph.mapping.iris import Iris
from graph.namespace import BENCH, BENCH_IRI
from graph.search.results import SearchError
from graph.settings import Settings
from graph.store.base import Description, Store
from web.benchmark import page as benchmark_page
from web.data_view import Alternate, DataView, alternates
from web.entities.kinds import lists_for, page_arg, run_list, section_iris
from web.entities.page import NodePage, cell_maker, render_node, types_of
from web.entities.records import contents_iris, freshness, graph_contents
from web.entities.view import (
    DESCRIBE_CAP,
    PROPERTY_PAGE,
    Direction,
    group_statements,
    node_groups,
    property_statements,
)
from web.labels import fetch_labels
from web.links import iri_href, reading_links
from web.negotiation import GRAPH_OFFERS, HTML, Offer, write_triples
from web.params import one_of
from web.sparql import TRUNCATED_HEADER
from web.stores import get_store

bp = Blueprint("entities", __name__)

BIBTEX = Offer(("bib",), (BIBTEX_TYPE, "text/x-bibtex"), served_as=f"{BIBTEX_TYPE}; charset=utf-8")
"""A paper's, or a benchmark's papers', BibTeX (``graph.export.bibtex``)."""
_OFFERS = (*GRAPH_OFFERS, BIBTEX)
_CITABLE = frozenset({str(BENCH.Paper), str(BENCH.Benchmark)})
_SUFFIXES = frozenset(suffix for offer in _OFFERS for suffix in offer.suffixes)
_RECORD = str(BENCH.Record)
_BENCHMARK = str(BENCH.Benchmark)
_NAMED_SO = 5
"""Nodes a 404 names at the most."""
Href = Callable[[str], str]


@bp.route("/vocabulary")
def vocabularies() -> Response:
    """The controlled vocabularies (access levels, harnesses, suites ...) and their members."""
    view = DataView()
    store = get_store()
    rows = store.query("SELECT DISTINCT ?scheme ?member WHERE { ?member skos:inScheme ?scheme }"
                       ).rows
    members: dict[str, list[ox.NamedNode]] = {}
    for scheme, member in rows:
        if isinstance(scheme, ox.NamedNode) and isinstance(member, ox.NamedNode):
            members.setdefault(scheme.value, []).append(member)
    labels = fetch_labels(store, [*members, *(m.value for ms in members.values() for m in ms)])
    schemes = sorted(members, key=lambda iri: labels.text(iri).casefold())
    show = cell_maker(labels, store.base)
    return view.respond(lambda: render_template("entities/vocabularies.html", schemes=[
        (show(ox.NamedNode(iri)),
         [show(m) for m in sorted(members[iri], key=lambda m: labels.text(m.value).casefold())])
        for iri in schemes]))


@bp.route("/vocabulary/<name>")
def vocabulary(name: str) -> Response:
    return dereference(BENCH_IRI, name, lambda rest: url_for("entities.vocabulary", name=rest))


@bp.route("/<path:rest>")
def node(rest: str) -> Response:
    return dereference(get_store().base, rest, lambda rest: url_for("entities.node", rest=rest))


def dereference(namespace: str, rest: str, href: Href) -> Response:
    """The node ``namespace + rest`` (``rest`` may end in a format suffix) as the client asks."""
    store = get_store()
    settings: Settings = current_app.config["BENCHGRAPH_SETTINGS"]
    stem, suffix = split_suffix(rest)
    view = DataView(_OFFERS, suffix)
    cap = (settings.row_limit or None) if view.form else DESCRIBE_CAP
    found = _find(store, namespace, [(stem, suffix), *([(rest, None)] if suffix else [])], cap)
    if found is None:
        name = stem.rstrip("/").rsplit("/", 1)[-1]
        g.search_query = name.replace("_", " ")
        g.named_so = _named_so(store, name)
        abort(404, f"Nothing in this graph has the IRI <{namespace}{stem}>.")
    path, kept_suffix, description, is_graph = found
    if kept_suffix != suffix:  # the whole path is the node's: its last dot is no suffix
        view = DataView(_OFFERS)
    citable = not _CITABLE.isdisjoint(types_of(description))
    offers = _OFFERS if citable else GRAPH_OFFERS
    if view.form is BIBTEX and not citable:
        if kept_suffix is not None:
            abort(404, f"<{namespace}{path}> is no paper or benchmark: it has no BibTeX")
        view.refuse(offers)
    forms = (Alternate("html", HTML, href(path)),
             *alternates(offers, lambda name: href(f"{path}.{name}")))

    def data(offer: Offer) -> Response:
        if offer is BIBTEX:
            papers = ([description.node] if str(BENCH.Paper) in types_of(description)
                      else papers_of(store, description.node))
            response = Response(bibtex(store, papers), content_type=offer.content_type)
        else:
            assert offer.format is not None  # every other offer is a graph format
            triples = dict.fromkeys(ox.Triple(s.subject, s.predicate, s.object)
                                    for s in (*description.outgoing, *description.incoming)
                                    if not isinstance(s.subject, ox.Literal))
            response = Response(write_triples(triples, offer.format, store.base),
                                content_type=offer.content_type)
            if description.truncated:
                response.headers[TRUNCATED_HEADER] = str(cap)
        if kept_suffix is None:
            response.headers["Content-Location"] = href(f"{path}.{offer.name}")
        return response

    return view.respond(lambda: _html(store, description, forms, is_graph), data, forms)


def _named_so(store: Store, name: str) -> list[tuple[str, str]]:
    """The (label, address) of each node the search finds by exactly ``name``: its name, an
    alias or its id, joined or not (``graph.search.ranking``)."""
    if not name:
        return []
    try:
        hits = store.artefacts().search(name, limit=_NAMED_SO).hits
    except SearchError:  # a name too long to search for
        return []
    return [(hit.label, href) for hit in hits
            if hit.match == "exact" and (href := iri_href(hit.iri, store.base))]


def split_suffix(rest: str) -> tuple[str, str | None]:
    """``("paper/2211.08584", "ttl")`` for ``paper/2211.08584.ttl``; no suffix otherwise."""
    head, slash, last = rest.rpartition("/")
    stem, dot, ending = last.rpartition(".")
    if dot and stem and ending in _SUFFIXES:
        return head + slash + stem, ending
    return rest, None


def _find(store: Store, namespace: str, candidates: list[tuple[str, str | None]],
          cap: int | None) -> tuple[str, str | None, Description, bool] | None:
    """The first candidate (path, suffix) whose node the store knows, with its description
    and whether it names a graph."""
    for path, wanted in candidates:
        try:
            node = ox.NamedNode(namespace + path)
        except ValueError:  # not an IRI at all (a space, a quote): nothing has it
            continue
        description = store.describe(node.value, limit=cap)
        if description.exists:
            return path, wanted, description, _RECORD in types_of(description)
        if store.query("ASK { GRAPH ?graph { ?s ?p ?o } }", bindings={"graph": node}).boolean:
            return path, wanted, description, True
    return None


def _html(store: Store, description: Description, forms: tuple[Alternate, ...],
          is_graph: bool) -> str:
    """The page of the node ``description`` describes, by its kind (or one property's list of
    values, which needs none of its groups)."""
    listing = "property" in request.args
    groups = ([], []) if listing else node_groups(store, description)
    page = NodePage(store, description.node, description, *groups, alternates=forms,
                    types=types_of(description))
    if listing:
        return _property_page(page)
    if _BENCHMARK in page.types:
        return benchmark_page.render_benchmark(page)
    if is_graph:
        contents = graph_contents(page.store, page.node, page.description,
                                  page_arg(request.args, "contents_page"))
        record = page.store.build_facts().record(page.iri)
        build = page.iri == str(Iris(page.base).build())
        return render_node("entities/record.html", page, contents_iris(contents),
                           title=f"Record {record.source_file}" if record else
                           "What the build derived" if build else None,
                           contents=contents, facts=freshness(page.description), record=record,
                           graph_query=urlencode({"query": _graph_query(page.node)}))
    specs = lists_for(set(page.types))
    sections = tuple(run_list(page.store, spec, page.node,
                              page_arg(request.args, f"{spec.key}_page")) for spec in specs)
    reading = (reading_links((s.predicate.value, s.object) for s in page.description.outgoing)
               if str(BENCH.Paper) in page.types else ())
    return render_node("entities/node.html", page, section_iris(sections), sections=sections,
                       reading=reading)


def _graph_query(graph: ox.NamedNode) -> str:
    """The query that gives what ``graph`` states, for the SPARQL editor."""
    return f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH {graph} {{ ?s ?p ?o }} }}"


def _property_page(page: NodePage) -> str:
    """Every value of one property of the node, a page at a time."""
    direction = one_of("direction", ("out", "in"), "out")
    try:
        predicate = ox.NamedNode(request.args["property"])
    except ValueError:
        raise BenchgraphError("property must be an IRI", ErrorKind.USAGE) from None
    settings: Settings = current_app.config["BENCHGRAPH_SETTINGS"]
    way: Direction = "out" if direction == "out" else "in"
    statements = property_statements(page.store, page.node, predicate, way,
                                     limit=settings.row_limit or None)
    groups = group_statements(statements, way, keep=None)
    values = groups[0].values if groups else ()
    pages = max(1, -(-len(values) // PROPERTY_PAGE))
    number = min(page_arg(request.args, "page"), pages)
    shown = values[(number - 1) * PROPERTY_PAGE: number * PROPERTY_PAGE]
    iris = [predicate.value, *(v.term.value for v in shown if isinstance(v.term, ox.NamedNode))]
    return render_node("entities/property.html", page, iris, predicate=predicate,
                       direction=way, values=shown, total=len(values), number=number,
                       pages=pages, truncated=len(statements) >= (settings.row_limit or 0) > 0)


__all__ = ["bp", "dereference", "split_suffix"]
