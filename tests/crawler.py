"""A crawler of the app through Flask's test client: start at ``/``, follow every link, and
report every link that does not lead to a page.

What it follows, and how:

- on an HTML page, every ``href`` and ``src`` (``<a>``, ``<link>`` of any ``rel``, scripts,
  images), and the ``Link`` header's targets; a link into the app (a path, or an absolute IRI
  under the data's base, which the app serves as its own path) is fetched, a link out is
  counted and left alone. A ``<link rel="alternate">`` (and a ``Link`` header's) is fetched
  with ``Accept`` set to its ``type``, any other link as a browser asks;
- a link with a fragment must land on an element with that ``id`` (a fragment with ``=`` in
  it is state for the page's script, as the editor's ``#query=...``, and is not checked);
- a Turtle response is parsed, and every IRI in it under the base must dereference: it is
  fetched (as Turtle, so the IRIs of its own answer are checked in turn), and its fragment
  must be an ``id`` of the page a browser gets there (``/ontology#Benchmark``);
- a ``javascript:`` or ``data:`` link anywhere is a failure: the app never makes one;
- an HTML page whose ``<title>`` or ``<h1>`` has no text is a failure: a node whose only
  name is blank (a record's empty ``name``, kept as written) still gets a heading.

Every distinct path is fetched, but query strings are sampled: each query parameter of a path
is tried in ``SAMPLES`` addresses (``/benchmarks?tag=x`` and ``?tag=y`` are one kind of
view; all the combinations of facets would never end).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urldefrag, urljoin, urlsplit

from flask import Flask
from rdflib import Graph, URIRef
from werkzeug.exceptions import MethodNotAllowed, NotFound
from werkzeug.test import TestResponse

SAMPLES = 3
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
_UNSAFE_SCHEMES = ("javascript:", "data:", "vbscript:")


@dataclass(frozen=True)
class Failure:
    """A link that did not lead where it should."""

    url: str
    problem: str
    """``404``, ``500``, ``no id "x"``, ``javascript: link`` ..."""
    found_on: str
    """The page (or Turtle answer) that linked it."""
    routed: bool = True
    """Whether any route of the app matches the path: a link to a page whose blueprint is
    not registered matches none."""

    def __str__(self) -> str:
        return f"{self.url}: {self.problem} (linked from {self.found_on})"


@dataclass
class CrawlReport:
    """What a crawl fetched and what it found wrong."""

    fetched: dict[str, int] = field(default_factory=dict)
    """Each address fetched (with its Accept), and its status."""
    failures: list[Failure] = field(default_factory=list)
    outside: set[str] = field(default_factory=set)
    """Links out of the app, not followed."""
    iris_checked: int = 0
    turtle_answers: int = 0

    @property
    def routed_failures(self) -> list[Failure]:
        return [failure for failure in self.failures if failure.routed]

    @property
    def unrouted_failures(self) -> list[Failure]:
        return [failure for failure in self.failures if not failure.routed]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str | None]] = []
        """(address, Accept to fetch it with: a rel=alternate's type, else None)"""
        self.ids: set[str] = set()
        self.headings: dict[str, str] = {}
        """The text of the first ``<title>`` and ``<h1>``."""
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("title", "h1") and tag not in self.headings:
            self.headings[tag] = ""
            self._open.append(tag)
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("name"):
            self.ids.add(str(values["name"]))
        rel = (values.get("rel") or "").split()
        for name in ("href", "src"):
            target = values.get(name)
            if target is not None:
                accept = values.get("type") if tag == "link" and "alternate" in rel else None
                self.links.append((target.strip(), accept))

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for tag in self._open:
            self.headings[tag] += data

    def blank_headings(self) -> list[str]:
        """``title`` and ``h1`` when the page has one with no text (or none at all)."""
        return [tag for tag in ("title", "h1") if not self.headings.get(tag, "").strip()]


@dataclass(frozen=True)
class _Visit:
    path: str
    accept: str
    found_on: str
    fragment: str = ""


class Crawler:
    """Crawls ``app`` (data IRIs under ``base``) from ``start``."""

    def __init__(self, app: Flask, base: str, start: str = "/") -> None:
        self.app = app
        self.client = app.test_client()
        self.base = base
        self.start = start
        self._adapter = app.url_map.bind("localhost")
        self._ids: dict[str, set[str]] = {}
        self._samples: dict[str, dict[str, int]] = {}
        """Per path, how many addresses fetched held each query parameter."""
        self._taken: set[str] = set()

    def crawl(self) -> CrawlReport:
        report = CrawlReport()
        queue: deque[_Visit] = deque([_Visit(self.start, BROWSER_ACCEPT, "(start)")])
        anchors: list[_Visit] = []
        seen: set[tuple[str, str]] = set()
        while queue:
            visit = queue.popleft()
            if visit.fragment:
                anchors.append(visit)
            key = (visit.path, visit.accept)
            if key in seen:
                continue
            seen.add(key)
            response = self.client.get(visit.path, headers={"Accept": visit.accept})
            report.fetched[f"{visit.path} [{visit.accept}]"] = response.status_code
            if response.status_code in (301, 302, 303, 307, 308):
                target = self._local(response.headers["Location"], visit.path)
                if target is None:
                    report.failures.append(Failure(visit.path, "redirects out of the app",
                                                   visit.found_on))
                    continue
                address, fragment = urldefrag(target)
                queue.append(_Visit(address, visit.accept, visit.path, _anchor(fragment)))
                continue
            if response.status_code != 200:
                report.failures.append(Failure(visit.path, str(response.status_code),
                                               visit.found_on, self._routed(visit.path)))
                continue
            queue.extend(self._links_of(response, visit.path, report))
        for visit in anchors:
            problem = self._anchor_problem(visit)
            if problem:
                report.failures.append(Failure(f"{visit.path}#{visit.fragment}", problem,
                                               visit.found_on, self._routed(visit.path)))
        return report

    def _links_of(self, response: TestResponse, path: str, report: CrawlReport
                  ) -> Iterator[_Visit]:
        media_type = response.mimetype
        if media_type == "text/html":
            page = _Links()
            page.feed(response.get_data(as_text=True))
            self._ids[path] = page.ids
            for tag in page.blank_headings():
                report.failures.append(Failure(path, f"no text in its <{tag}>", "(the page)"))
            links = page.links + _link_header(response)
            for target, accept in links:
                yield from self._follow(target, accept, path, report)
        elif media_type == "text/turtle":
            report.turtle_answers += 1
            yield from self._turtle_iris(response, path, report)
        else:
            for target, accept in _link_header(response):
                yield from self._follow(target, accept, path, report)

    def _follow(self, target: str, accept: str | None, page: str, report: CrawlReport
                ) -> Iterator[_Visit]:
        if target.lower().startswith(_UNSAFE_SCHEMES):
            report.failures.append(Failure(target, f"{target.split(':', 1)[0]}: link", page))
            return
        local = self._local(target, page)
        if local is None:
            report.outside.add(target)
            return
        address, fragment = urldefrag(local)
        if not self._sampled(address):
            return
        yield _Visit(address or page, accept or BROWSER_ACCEPT, page, _anchor(fragment))

    def _turtle_iris(self, response: TestResponse, path: str, report: CrawlReport
                     ) -> Iterator[_Visit]:
        graph = Graph()
        try:
            graph.parse(data=response.get_data(), format="turtle", publicID=self.base)
        except SyntaxError as error:  # rdflib's BadSyntax
            report.failures.append(Failure(path, f"not Turtle: {error}", path))
            return
        iris = {term for triple in graph for term in triple
                if isinstance(term, URIRef) and str(term).startswith(self.base)}
        for iri in sorted(iris):
            report.iris_checked += 1
            address, fragment = urldefrag("/" + str(iri)[len(self.base):])
            if fragment:  # the fragment is an anchor of the page a browser gets
                yield _Visit(address, BROWSER_ACCEPT, path, fragment)
            else:
                yield _Visit(address, "text/turtle", path)

    def _anchor_problem(self, visit: _Visit) -> str:
        ids = self._ids.get(visit.path)
        if ids is None:
            response = self.client.get(visit.path, headers={"Accept": BROWSER_ACCEPT})
            if response.status_code != 200:
                return str(response.status_code)
            page = _Links()
            page.feed(response.get_data(as_text=True))
            ids = self._ids[visit.path] = page.ids
        return "" if visit.fragment in ids else f'no id "{visit.fragment}" on the page'

    def _local(self, target: str, page: str) -> str | None:
        """``target`` as a path of the app (with query and fragment), or None for a link out."""
        if target.startswith(self.base):
            target = "/" + target[len(self.base):]
        absolute = urljoin(f"http://localhost{page}", target)
        parts = urlsplit(absolute)
        if parts.scheme != "http" or parts.netloc != "localhost":
            return None
        query = f"?{parts.query}" if parts.query else ""
        fragment = f"#{parts.fragment}" if parts.fragment else ""
        return f"{parts.path}{query}{fragment}"

    def _sampled(self, address: str) -> bool:
        """Whether to fetch ``address``: always for a distinct path; with a query string, when
        it was fetched already or it holds a parameter its path has been fetched with fewer than
        ``SAMPLES`` times (so every parameter is tried, and no combination of them is sought)."""
        path, _, query = address.partition("?")
        if not query:
            return True
        if address in self._taken:
            return True
        names = {name for name, _ in parse_qsl(query, keep_blank_values=True)}
        counts = self._samples.setdefault(path, {})
        if all(counts.get(name, 0) >= SAMPLES for name in names):
            return False
        self._taken.add(address)
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        return True

    def _routed(self, address: str) -> bool:
        try:
            self._adapter.match(urlsplit(address).path, method="GET")
        except NotFound:
            return False
        except MethodNotAllowed:
            return True
        return True


def _anchor(fragment: str) -> str:
    """The element id a fragment names; none for state a page's script reads (``query=...``,
    the editor's)."""
    return "" if "=" in fragment else fragment


def _link_header(response: TestResponse) -> list[tuple[str, str | None]]:
    """The targets of a ``Link`` header, each with its ``type`` when it is an alternate."""
    links = []
    for part in response.headers.get("Link", "").split(","):
        if "<" not in part or ">" not in part:
            continue
        target = part[part.index("<") + 1:part.index(">")]
        params = dict(_param(p) for p in part[part.index(">") + 1:].split(";") if "=" in p)
        accept = params.get("type") if "alternate" in params.get("rel", "").split() else None
        links.append((target, accept))
    return links


def _param(text: str) -> tuple[str, str]:
    name, _, value = text.strip().partition("=")
    return name.strip().lower(), value.strip().strip('"')


__all__ = ["CrawlReport", "Crawler", "Failure"]
