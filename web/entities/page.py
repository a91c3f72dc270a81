"""A node's page, whatever its kind: what every entity page knows, and how it is rendered.

``NodePage`` is what the entities blueprint hands to a kind's renderer (the benchmark page's
``web.benchmark.page.render_benchmark`` among them): the node, its description as read for a
page, its statements grouped, and the links to its other formats. ``render_node`` renders a
template under ``entities/`` (or any that extends ``entities/node.html``) with one label
query for every IRI the page shows, and gives the template ``cell(term)`` to show any term
as a label that links.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pyoxigraph as ox
from flask import render_template, request, url_for

from graph.namespace import RDF, curie
from graph.store.base import Description, Store
from web.data_view import Alternate
from web.entities.view import Group, terms_of
from web.labels import Labels, fetch_labels
from web.links import Cell, cell, iri_href

_TYPE = str(RDF.type)


@dataclass(frozen=True)
class NodePage:
    """One node, as its page reads it from the store."""

    store: Store
    node: ox.NamedNode
    description: Description
    """Capped at ``web.entities.view.DESCRIBE_CAP`` statements each way."""
    outgoing: list[Group]
    incoming: list[Group]
    alternates: tuple[Alternate, ...]
    """The node's page and its data forms, each at its address."""
    types: frozenset[str] = field(default_factory=frozenset)
    """The node's ``rdf:type`` IRIs."""

    @property
    def iri(self) -> str:
        return self.node.value

    @property
    def base(self) -> str:
        return self.store.base


def types_of(description: Description) -> frozenset[str]:
    """The ``rdf:type`` IRIs a description states."""
    return frozenset(s.object.value for s in description.outgoing
                     if s.predicate.value == _TYPE and isinstance(s.object, ox.NamedNode))


def render_node(template: str, page: NodePage, extra_iris: Iterable[str] = (),
                title: str | None = None, **context: Any) -> str:
    """``template`` for ``page``, after one query for the labels of the node, its types, every
    property and value in its groups and ``extra_iris`` (what the kind adds); the page's
    title is the node's label unless ``title`` is given."""
    wanted = [page.iri, *page.types, *terms_of(page.outgoing), *terms_of(page.incoming),
              *extra_iris]
    labels = fetch_labels(page.store, wanted)
    return render_template(
        template, page=page, title=title or labels.text(page.iri), labels=labels,
        alternates=page.alternates,
        cell=cell_maker(labels, page.base), graph_cell=lambda g: graph_cell(g, page.base),
        type_cells=[cell(ox.NamedNode(t), page.base, labels.get(t)) for t in sorted(page.types)],
        more_href=_more_href, list_page_href=list_page_href,
        property_page_href=lambda number: _here(page=number if number > 1 else None),
        **context)


def graph_cell(graph: ox.NamedNode, base: str) -> Cell:
    """The graph that states a value, as a small link: a record by its key (its file's path,
    slugged), the build graph as ``build``."""
    iri = graph.value
    text = iri[len(base):] if iri.startswith(base) else curie(iri, base)
    return Cell(text.removeprefix("record/"), iri_href(iri, base), "graph", title=iri)


def cell_maker(labels: Labels, base: str) -> Callable[[object], Cell]:
    """``cell`` with the labels of a page: what its templates call to show a term."""

    def show(term: object) -> Cell:
        label = labels.get(term.value) if isinstance(term, ox.NamedNode) else None
        return cell(term, base, label)

    return show


def _more_href(group: Group) -> str:
    """The paged list of every value of ``group``'s property."""
    return _here(property=group.predicate.value, direction=group.direction, page=None)


def list_page_href(key: str, page: int) -> str:
    """This page, showing page ``page`` of its list ``key``."""
    return _here(**{f"{key}_page": page if page > 1 else None}) + f"#{key}"


def _here(**changes: object) -> str:
    """The current page's URL with ``changes`` to its parameters (None drops one)."""
    args: dict[str, Any] = dict(request.args)
    args.update(changes)
    args = {key: value for key, value in args.items() if value is not None}
    assert request.endpoint is not None
    return url_for(request.endpoint, **(request.view_args or {}), **args)


__all__ = ["NodePage", "cell_maker", "graph_cell", "list_page_href", "render_node",
           "types_of"]
