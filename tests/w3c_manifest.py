"""The W3C SPARQL 1.1 Protocol test manifest, read with rdflib into plain requests.

The manifest (``tests/data/w3c-sparql11/protocol/manifest.ttl``) lists its cases in
``mf:entries``; each case's ``mf:action`` is an ``ht:Connection`` whose ``ht:requests`` are
sent in order: method (``ht:methodName``), path (``ht:absolutePath``, under ``/sparql/``),
headers (``ht:headers``), body (``cnt:chars`` in ``cnt:characterEncoding``), and in
``ht:resp`` what must come back: the status classes (``mf:expectedStatus``), the format
(``mf:expectedFormat``: ``boolean``, ``tabular`` or ``RDF``) and an ASK's answer
(``mf:expectedBoolean``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rdflib import RDF, Graph, Literal, Namespace, URIRef
from rdflib.collection import Collection
from rdflib.term import Node

MF = Namespace("http://www.w3.org/2001/sw/DataAccess/tests/test-manifest#")
HT = Namespace("http://www.w3.org/2011/http#")
CNT = Namespace("http://www.w3.org/2011/content#")
HTS = Namespace("http://www.w3.org/2011/http-statusCodes#")
UT = Namespace("http://www.w3.org/2009/sparql/tests/test-update#")

PATH_PREFIX = "/sparql/"
"""Every ht:absolutePath starts with it; a runner puts the endpoint's own path there."""
UPDATE_TYPES = ("application/sparql-update",)


@dataclass(frozen=True)
class Expected:
    """What a response must be."""

    status_classes: frozenset[int]
    """The first digits allowed: {2, 3} for hts:StatusCode2xx and hts:StatusCode3xx."""
    format: str | None
    boolean: bool | None


@dataclass(frozen=True)
class HttpRequest:
    method: str
    path: str
    headers: tuple[tuple[str, str], ...]
    body: bytes | None
    expected: Expected

    def header(self, name: str) -> str | None:
        return next((value for key, value in self.headers if key.lower() == name), None)

    @property
    def is_update(self) -> bool:
        """Whether it sends a SPARQL Update (directly, or as a form's ``update``)."""
        content_type = (self.header("content-type") or "").split(";")[0].strip()
        form_update = content_type == "application/x-www-form-urlencoded" and any(
            pair.startswith("update=") for pair in (self.body or b"").decode("ascii").split("&"))
        return content_type in UPDATE_TYPES or form_update

    def endpoint_path(self, endpoint: str) -> str:
        """The path on an endpoint at ``endpoint`` (``/sparql``): the manifest's prefix
        replaced by it, the query string kept."""
        assert self.path.startswith(PATH_PREFIX), self.path
        return endpoint + self.path[len(PATH_PREFIX):]


@dataclass(frozen=True)
class ProtocolCase:
    name: str
    """The entry's local name, ``query_post_form``."""
    title: str
    requests: tuple[HttpRequest, ...]
    loads_data: bool
    """It names test data (ut:graphData) the endpoint must hold first."""

    @property
    def needs_update(self) -> bool:
        """A read-only endpoint cannot pass it: it needs data loaded, or an update to
        succeed."""
        return self.loads_data or any(
            r.is_update and 2 in r.expected.status_classes for r in self.requests)


def read_protocol_manifest(path: Path) -> list[ProtocolCase]:
    """The manifest's cases, in the order of its mf:entries."""
    graph = Graph().parse(path, format="turtle", publicID=path.resolve().as_uri())
    manifest = graph.value(predicate=RDF.type, object=MF.Manifest, any=False)
    entries = graph.value(manifest, MF.entries)
    assert manifest is not None and entries is not None, f"{path}: no mf:Manifest with entries"
    return [_case(graph, entry) for entry in Collection(graph, entries)]


def _case(graph: Graph, entry: Node) -> ProtocolCase:
    assert isinstance(entry, URIRef)
    action = graph.value(entry, MF.action)
    requests = graph.value(action, HT.requests)
    assert requests is not None, f"{entry}: no ht:requests"
    return ProtocolCase(
        name=entry.fragment,
        title=str(graph.value(entry, MF.name)),
        requests=tuple(_request(graph, node) for node in Collection(graph, requests)),
        loads_data=(entry, UT.graphData, None) in graph,
    )


def _request(graph: Graph, node: Node) -> HttpRequest:
    headers: tuple[tuple[str, str], ...] = ()
    header_list = graph.value(node, HT.headers)
    if header_list is not None:
        headers = tuple((_text(graph, h, HT.fieldName), _text(graph, h, HT.fieldValue))
                        for h in Collection(graph, header_list))
    body = None
    body_node = graph.value(node, HT.body)
    if body_node is not None:
        encoding = _text(graph, body_node, CNT.characterEncoding)
        body = _text(graph, body_node, CNT.chars).encode(encoding)
    response = graph.value(node, HT.resp)
    boolean = graph.value(response, MF.expectedBoolean)
    expected_format = graph.value(response, MF.expectedFormat)
    return HttpRequest(
        method=_text(graph, node, HT.methodName),
        path=_text(graph, node, HT.absolutePath),
        headers=headers,
        body=body,
        expected=Expected(
            status_classes=frozenset(_status_class(s)
                                     for s in graph.objects(response, MF.expectedStatus)),
            format=None if expected_format is None else str(expected_format),
            boolean=None if boolean is None else bool(boolean.toPython()),  # type: ignore[union-attr]
        ),
    )


def _status_class(node: Node) -> int:
    """hts:StatusCode4xx -> 4."""
    name = str(node).removeprefix(str(HTS))
    assert name.startswith("StatusCode") and name.endswith("xx"), node
    return int(name[len("StatusCode")])


def _text(graph: Graph, node: Node, predicate: URIRef) -> str:
    value = graph.value(node, predicate)
    assert isinstance(value, Literal), f"{node}: no literal {predicate}"
    return str(value)


__all__ = ["Expected", "HttpRequest", "ProtocolCase", "read_protocol_manifest"]
