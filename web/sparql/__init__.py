"""``/sparql``: the SPARQL 1.1 Protocol endpoint, its service description, and the editor.

A request with a query is answered by the store, in the format ``Accept`` (or ``format=``)
asks for. A ``GET`` with no query gets the query editor when it comes from a browser, and
the service description (SPARQL 1.1 Service Description, as RDF) otherwise. CORS is open,
so that browser clients elsewhere can query; the endpoint is read-only and closed (updates
and SERVICE refused by the store).
"""

from __future__ import annotations

from urllib.parse import urlencode

import pyoxigraph as ox
from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from graph.namespace import BENCH_IRI, BENCH_TERMS, ONTOLOGY_IRI, PREFIXES
from graph.settings import Settings
from graph.sparql.admission import admit_bound
from graph.sparql.named import load_named_queries
from graph.sparql.parameters import bind_parameters
from graph.store.base import Store
from graph.store.kinds import limits_from
from web.links import iri_href
from web.negotiation import (
    GRAPH_FORMATS,
    RESULT_FORMATS,
    choose,
    content_type,
    formats_for,
    is_browser,
    wants_html,
    write,
    write_triples,
)
from web.sparql.protocol import read_request
from web.stores import get_store

SD = "http://www.w3.org/ns/sparql-service-description#"
TRUNCATED_HEADER = "Benchgraph-Truncated"
"""Set, to the row limit, on an answer the row limit cut short."""

bp = Blueprint("sparql", __name__)


@bp.route("/sparql", methods=["GET", "POST"], strict_slashes=False)
def endpoint() -> ResponseReturnValue:
    """Answer a query, or describe the service."""
    asked = read_request()
    if asked.query is None:
        if request.method == "GET" and wants_html():
            return editor()
        return service_description(asked.format)
    if request.method == "GET" and asked.format is None and asked.dataset is None and is_browser():
        # A person following a link to a query: the editor, with the query open in a tab.
        return redirect(url_for("sparql.endpoint") + "#" + urlencode({"query": asked.query}), 303)
    settings: Settings = current_app.config["BENCHGRAPH_SETTINGS"]
    result = get_store().query(asked.query, dataset=asked.dataset, limits=limits_from(settings))
    fmt = choose(formats_for(result), asked.format, fallback_to_accept=True)
    response = Response(write(result, fmt, get_store().base), content_type=content_type(fmt))
    response.vary.add("Accept")
    if result.truncated:
        response.headers[TRUNCATED_HEADER] = str(settings.row_limit)
    return response


def editor() -> Response:
    """The query editor (YASGUI), pointed at this endpoint only, with the named queries as its
    examples."""
    store = get_store()
    config = {
        "endpoint": url_for("sparql.endpoint", _external=True),
        "prefixes": {**PREFIXES, "base": store.base},
        "examples": editor_examples(store),
        "pages": editor_pages(store.base),
    }
    response = Response(render_template("sparql/editor.html", config=config),
                        mimetype="text/html")
    response.vary.add("Accept")
    return response


def editor_pages(base: str) -> dict[str, object]:
    """Where the editor's result table links an IRI, by the rules of the site's own pages
    (``web.links.iri_href``): ``exact``, the ontology's own IRIs, each to its entry; then, by
    ``under``, any other name in the ontology's namespace (an individual of a vocabulary) to
    its vocabulary page and any IRI under the base to its page, the first namespace that holds
    the IRI winning, as there. Any other IRI links to itself."""
    ontology = [str(ONTOLOGY_IRI), BENCH_IRI, *(BENCH_IRI + name for name in sorted(BENCH_TERMS))]
    return {
        "exact": {iri: iri_href(iri, base) for iri in ontology},
        # /vocabulary/<name> (entities.vocabulary) and /<path:rest> (entities.node)
        "under": [[BENCH_IRI, url_for("entities.vocabularies") + "/"],
                  [base, url_for("home.index")]],
    }


def editor_examples(store: Store) -> dict[str, dict[str, str]]:
    """Each named query the editor can run as it is: its parameters bound by a ``VALUES``
    block, to their defaults, an id parameter to a catalogued benchmark; a query with another
    required parameter is left to its own page."""
    sample = store.query("SELECT ?id WHERE { ?b bench:catalogued true ; dcterms:identifier ?id }"
                         " ORDER BY ?id LIMIT 1").rows
    sample_id = sample[0][0].value if sample and sample[0][0] is not None else None
    examples: dict[str, dict[str, str]] = {}
    for query in load_named_queries().values():
        values = {}
        for parameter in query.parameters:
            if parameter.default is None and parameter.type == "id" and sample_id:
                values[parameter.name] = sample_id
            elif parameter.default is None:
                break
        else:
            bindings = bind_parameters(query, values, store.base)
            settings: Settings = current_app.config["BENCHGRAPH_SETTINGS"]
            admitted = admit_bound(query.text, bindings, query.name, settings.max_query_bytes)
            examples[query.name] = {"title": query.title, "query": admitted.text}
    return examples


def service_description(named: str | None) -> Response:
    """This endpoint described in the SPARQL 1.1 Service Description vocabulary."""
    fmt = choose(GRAPH_FORMATS, named, fallback_to_accept=True)
    endpoint_iri = ox.NamedNode(request.base_url)
    triples = list(_description(endpoint_iri))
    response = Response(write_triples(triples, fmt, get_store().base),
                        content_type=content_type(fmt))
    response.vary.add("Accept")
    return response


def _description(service: ox.NamedNode) -> list[ox.Triple]:
    def sd(name: str) -> ox.NamedNode:
        return ox.NamedNode(SD + name)

    rdf_type = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    triples = [
        ox.Triple(service, rdf_type, sd("Service")),
        ox.Triple(service, sd("endpoint"), service),
        ox.Triple(service, sd("supportedLanguage"), sd("SPARQL11Query")),
        ox.Triple(service, sd("feature"), sd("UnionDefaultGraph")),  # the merge of the graphs
    ]
    for fmt in (*RESULT_FORMATS, *GRAPH_FORMATS):
        if fmt.iri is not None:
            triples.append(ox.Triple(service, sd("resultFormat"), ox.NamedNode(fmt.iri)))
    dataset = ox.BlankNode("dataset")
    default = ox.BlankNode("default")
    triples += [
        ox.Triple(service, sd("defaultDataset"), dataset),
        ox.Triple(dataset, rdf_type, sd("Dataset")),
        ox.Triple(dataset, sd("defaultGraph"), default),
        ox.Triple(default, rdf_type, sd("Graph")),
    ]
    store = get_store()
    names = [record.graph for record in store.build_facts().records]
    names += [f"{store.base}build", str(ONTOLOGY_IRI)]
    for number, name in enumerate(names):
        named = ox.BlankNode(f"graph{number}")
        triples += [
            ox.Triple(dataset, sd("namedGraph"), named),
            ox.Triple(named, rdf_type, sd("NamedGraph")),
            ox.Triple(named, sd("name"), ox.NamedNode(name)),
        ]
    return triples


__all__ = ["TRUNCATED_HEADER", "bp"]
