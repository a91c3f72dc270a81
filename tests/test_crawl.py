"""The crawler test: from ``/``, every link of every page of the seeds and the crawl catalog
leads to a page (no 404, no 500), and every IRI under the base in every Turtle answer
dereferences (``tests/crawler.py`` says what is followed and how)."""

import pytest
from flask import Flask, Response

from graph.settings import Settings
from graph.store.local import LocalStore
from tests.crawler import Crawler
from web import create_app

pytestmark = pytest.mark.slow

BASE = "https://w3id.org/benchgraph/"
def _planted() -> Flask:
    """An app with one of each mistake the crawler must find."""
    app = Flask(__name__)
    app.logger.disabled = True  # the planted bug's traceback is expected

    def page(title: str, body: str) -> str:
        return f"<title>{title}</title><h1>{title}</h1>{body}"

    @app.route("/")
    def home() -> str:
        return page("home", '<a href="/fine">fine</a> <a href="/missing">missing</a>'
                    ' <a href="/boom">boom</a> <a href="/untitled">untitled</a>'
                    ' <a href="/fine#there">anchor</a> <a href="/fine#nowhere">no anchor</a>'
                    ' <a href="javascript:alert(1)">script</a> <a href="https://example.org/">'
                    'out</a> <link rel="alternate" type="text/turtle" href="/data.ttl">'
                    + "".join(f' <a href="/list?page={n}">{n}</a>' for n in range(10)))

    @app.route("/fine")
    def fine() -> str:
        return page("fine", '<p id="there">here</p>')

    @app.route("/untitled")
    def untitled() -> str:  # a node whose only name is blank, shown as it is
        return "<title> </title><h1></h1><p>no name</p>"

    @app.route("/list")
    def listing() -> str:
        return page("a list", "a page of a list")

    @app.route("/boom")
    def boom() -> str:
        raise RuntimeError("a bug")

    @app.route("/data.ttl")
    def data() -> Response:
        turtle = (f"<{BASE}fine> <https://example.org/links> <{BASE}gone>, <{BASE}fine#there>, "
                  f"<{BASE}fine#lost>, <https://example.org/x> .")
        return Response(turtle, mimetype="text/turtle")

    return app


def test_the_crawler_finds_each_planted_mistake() -> None:
    report = Crawler(_planted(), BASE).crawl()
    problems = {(failure.url, failure.problem) for failure in report.failures}
    assert problems == {
        ("/missing", "404"),
        ("/boom", "500"),
        ("/fine#nowhere", 'no id "nowhere" on the page'),
        ("javascript:alert(1)", "javascript: link"),
        ("/gone", "404"),  # an IRI under the base in a Turtle answer
        ("/fine#lost", 'no id "lost" on the page'),
        ("/untitled", "no text in its <title>"),
        ("/untitled", "no text in its <h1>"),
    }
    assert "https://example.org/" in report.outside
    assert report.turtle_answers == 1 and report.iris_checked == 4
    lists = [address for address in report.fetched if address.startswith("/list?")]
    assert len(lists) == 3  # query strings are sampled


def test_every_link_leads_to_a_page(settings: Settings, crawl_store: LocalStore) -> None:
    app = create_app(settings, crawl_store)
    report = Crawler(app, crawl_store.base).crawl()
    assert report.turtle_answers > 0 and report.iris_checked > 1000
    assert not report.routed_failures, "\n".join(map(str, report.routed_failures[:50]))
    assert not report.failures, "\n".join(map(str, report.failures[:50]))
