"""The benchgraph web app: ``create_app`` builds it, waitress serves it (``benchgraph serve``).

Blueprints by concern: ``home`` (the front page), ``sparql`` (the SPARQL 1.1 Protocol endpoint,
its service description and the query editor), ``queries`` (the named queries as pages and as
data), ``search`` and ``browse`` (search, and the benchmark list with its facets), ``dumps``
(the whole graph in every format), ``docs`` (the ontology, the shapes and the validation
report), ``results_chart`` (a benchmark's and a model's results as charts and their data) and
``entities`` (every IRI under the base, and the vocabularies' members, as pages
and as RDF). Every blueprint reaches the graph through ``web.stores.get_store()``, which
``web.stores.init_app`` registers; errors take one shape (``web.errors``). Every parameter is
UTF-8 text before a view reads it (``web.params``), every response carries the same
security headers (``web.headers``), and a page is answered as HTML unless data is asked for
(``web.data_view``). Static files have versioned addresses and a year of cache life, and
text is compressed (``web.assets``).
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_cors import CORS

from graph.settings import Settings, default_settings
from graph.store.base import Store
from web import (
    assets,
    browse,
    docs,
    dumps,
    entities,
    errors,
    headers,
    home,
    params,
    queries,
    results,
    results_chart,
    search,
    sparql,
    stores,
)
from web.benchmark import marks


def create_app(
    settings: Settings | None = None,
    store: Store | None = None,
    config: dict[str, Any] | None = None,
) -> Flask:
    """The app over ``store`` (default: a memory store of the bundled catalog, built on first
    use); ``config`` adds to or overrides Flask's configuration (tests)."""
    settings = settings or default_settings()
    app = Flask(__name__)
    app.config.from_mapping(
        BENCHGRAPH_SETTINGS=settings,
        MAX_CONTENT_LENGTH=settings.max_request_bytes,
        MAX_FORM_MEMORY_SIZE=settings.max_request_bytes,
        JSON_SORT_KEYS=False,
    )
    if config:
        app.config.update(config)
    assets.init_app(app)  # first: its compression runs last, on what every other hook made
    headers.init_app(app)  # next: its hook runs after every other one but compression
    stores.init_app(app, store)
    errors.init_app(app)
    params.init_app(app)
    marks.init_app(app)
    # The graph is public and read-only: any origin may read any page or answer, errors
    # included (a client shows the parser's message), and POST only to the endpoint. A
    # cross-origin script reads only the headers a response exposes.
    CORS(app, resources={"/sparql": {"methods": ["GET", "POST"]}, "/*": {"methods": ["GET"]}},
         max_age=86400, expose_headers=[sparql.TRUNCATED_HEADER, "Link"])
    app.register_blueprint(home.bp)
    app.register_blueprint(sparql.bp)
    app.register_blueprint(queries.bp)
    app.register_blueprint(search.bp)
    app.register_blueprint(browse.bp)
    app.register_blueprint(results.bp)
    app.register_blueprint(dumps.bp)
    docs.init_app(app)
    app.register_blueprint(results_chart.bp)  # before entities: /benchmark/ID/results.svg
    app.register_blueprint(entities.bp)  # last: its /<path:rest> takes what no other route does
    return app


__all__ = ["create_app"]
