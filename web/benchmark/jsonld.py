"""The benchmark as a schema.org ``Dataset``, for the JSON-LD in the page's ``<head>``.

Search engines and dataset crawlers read it: name, description, licence, creators (authors
in order, then the publishing organisations), the paper as citation, whether the data is free
to obtain (from the access level: only a public benchmark is), and the benchmark's IRI as
``@id`` and ``url``. The template writes it with Jinja's ``tojson``, which escapes ``<``,
``>``, ``&`` and ``'``, so no value can close the ``<script>`` element it sits in.
"""

from __future__ import annotations

from typing import Any

from web.benchmark.data import Node, bench, dcterms, rdfs, schema, skos
from web.benchmark.sections import Credit, parts_of
from web.benchmark.view import Shown, View

_FREE = {"public": True, "gated": False, "private": False}
"""``isAccessibleForFree`` by the access level's notation: gated data needs credentials or an
agreement first, so it is not what schema.org calls accessible for free."""


def dataset(view: View, name: str, authors: list[Credit],
            publishers: list[Credit]) -> dict[str, Any]:
    """The ``Dataset`` object (``@context`` included), without the keys it has no value for."""
    benchmark = view.hood.benchmark
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "Dataset",
        "@id": benchmark.iri,
        "url": benchmark.iri,
        "name": name,
        "identifier": _texts(view, benchmark, dcterms.identifier)[:1] or None,
        "alternateName": _texts(view, benchmark, skos.altLabel) or None,
        "description": _first(view, benchmark, dcterms.abstract)
        or _first(view, benchmark, bench.measures),
        "keywords": [shown.text for shown in view.shown(benchmark.get(bench.tag))] or None,
        "license": _license(view),
        "creator": [_agent(credit.agent, "Person") for credit in authors]
        + [_agent(credit.agent, "Organization") for credit in publishers] or None,
        "citation": _citations(view) or None,
        "isAccessibleForFree": _free(view, benchmark),
    }
    return {key: value for key, value in data.items() if value is not None}


def _texts(view: View, node: Node, predicate: str) -> list[str]:
    return [shown.text for shown in view.shown(node.get(predicate))]


def _first(view: View, node: Node, predicate: str) -> str | None:
    texts = _texts(view, node, predicate)
    return texts[0] if texts else None


def _agent(agent: Shown, kind: str) -> dict[str, str]:
    return {"@type": kind, "@id": agent.term.value, "name": agent.text}


def _license(view: View) -> str | dict[str, str] | None:
    for node in parts_of(view, bench.dataset):
        for shown in view.shown(node.get(bench.licenseText)):
            if shown.text.startswith(("http://", "https://")) and " " not in shown.text:
                return shown.text
            return {"@type": "CreativeWork", "name": shown.text}
    return None


def _citations(view: View) -> list[dict[str, str]]:
    out = []
    for paper in parts_of(view, bench.paper):
        citation = {"@type": "ScholarlyArticle", "@id": paper.iri}
        for key, predicate in (("name", dcterms.title), ("name", rdfs.label),
                               ("url", schema.url), ("datePublished", dcterms.issued)):
            text = _first(view, paper, predicate)
            if text and key not in citation:
                citation[key] = text
        arxiv = _first(view, paper, bench.arxiv)
        if arxiv:
            citation["identifier"] = f"arXiv:{arxiv}"
        out.append(citation)
    return out


def _free(view: View, benchmark: Node) -> bool | None:
    """From the access level; None (left out) when it is unknown or the records disagree."""
    answers = {_FREE.get(view.hood.notations.get(term.value, ""))
               for term in benchmark.objects(bench.accessLevel)}
    return answers.pop() if len(answers) == 1 else None


__all__ = ["dataset"]
