"""One data view: every page answers as its HTML unless data is asked for, and says so.

A page (an entity, a benchmark, ``/search``, ``/benchmarks``, ``/results``, a named query, the
ontology, the shapes, the validation report, and the pages with no data: ``/``, ``/queries``,
``/vocabulary``, ``/dumps``) makes a ``DataView`` of what it offers besides HTML, and hands it
its renderers: the page's HTML, and its data in the ``Offer`` chosen. The view does the rest,
the same way for every page, as Datasette's ``DataView`` does:

- **The form.** A client that sends no ``Accept``, or ``*/*``, gets the page, as a person
  typing the address into any tool expects. Data is asked for by a suffix
  (``/benchmark/x.ttl``), a ``format`` parameter (``?format=ttl``), or an ``Accept`` that
  ranks one of the page's data types above HTML (a tie goes to the page;
  ``web.negotiation`` ranks). A registry format (``graph.export.formats``) is offered at each
  of its extensions and by its names, so ``/benchmark/x.json`` is JSON-LD as the README's
  formats table says. A suffix no offer has is a 404 naming the addresses that exist, a
  ``format`` no offer is called a 400 naming those that are, and an ``Accept`` that takes
  neither the page nor any of its data a 406 listing what the address gives: a page with no
  data refuses every ``Accept`` that takes no HTML. The suffix and the parameter are
  decided before anything is read from the store; the 406 comes where the answer would,
  so that an address that does not exist, or cannot be answered, says so whatever the
  ``Accept`` (a 404 tells a client more than a 406 would).
- **The headers.** Every answer, page or data, varies by ``Accept`` and names the page's
  other forms (``Alternate``) in a ``Link`` header; the page names the same ones in
  ``<link rel="alternate">`` (``base.html`` writes them from the template's
  ``alternates``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from flask import Response, abort, request
from werkzeug.exceptions import NotAcceptable

from graph.errors import BenchgraphError, ErrorKind
from web.negotiation import HTML, Offer, preferred

PAGE = Offer(("html",), (HTML,), served_as=f"{HTML}; charset=utf-8")
"""The page itself, first among the forms: a tie goes to it."""
Body = Response | str | bytes
"""What a renderer of data gives: a response, or a body served as its offer's type."""


@dataclass(frozen=True)
class Alternate:
    """Another form of a page: its ``<link rel="alternate">`` and its part of ``Link``."""

    name: str
    """What a link to it says (``ttl``, ``json``; ``html`` for an entity's page itself)."""
    media_type: str
    href: str
    title: str = ""


def alternates(offers: Iterable[Offer], href: Callable[[str], str]) -> tuple[Alternate, ...]:
    """Each of ``offers`` at ``href`` of its name (``/benchmarks.json`` for ``json``)."""
    return tuple(Alternate(offer.name, offer.media_type, href(offer.name)) for offer in offers)


class DataView:
    """The form a request asks of a page that also answers in ``offers``, chosen when the
    view is made (see the module's docstring); ``suffix`` is the address's own (``json`` of
    ``/search.json``)."""

    def __init__(self, offers: Sequence[Offer] = (), suffix: str | None = None) -> None:
        self.offers = tuple(offers)
        self.refused = False
        """Whether ``Accept`` takes none of the forms: the answer is a 406."""
        self.form: Offer | None = self._chosen(suffix)
        """The offer asked for; None for the page (or for none, when refused)."""

    def _chosen(self, suffix: str | None) -> Offer | None:
        if suffix is not None:
            found = next((offer for offer in self.offers if suffix in offer.suffixes), None)
            if found is None:
                stem = request.path.rsplit(".", 1)[0]
                abort(404, f"there is no {request.path}; the data is at "
                           + ", ".join(f"{stem}.{offer.name}" for offer in self.offers))
            return found
        named = request.args.get("format")
        if named is not None:
            wanted = named.strip().lower()
            found = next((offer for offer in self.offers
                          if wanted in (*offer.suffixes, *offer.aliases, *offer.media_types)),
                         None)
            if found is None:
                raise BenchgraphError(f"format={named[:40]!r} is not a form of this page (use "
                                      f"{', '.join(offer.name for offer in self.offers)})",
                                      ErrorKind.USAGE)
            return found
        accept = request.accept_mimetypes
        if not accept:  # no Accept at all: anything will do, and a page is what the address is
            return None
        best = preferred(accept, ((offer, offer.media_types, offer.content_type)
                                  for offer in (PAGE, *self.offers)))
        self.refused = best is None
        return None if best is PAGE else best

    def refuse(self, offers: Sequence[Offer] | None = None) -> NoReturn:
        """A 406 listing what the address gives: the page, and ``offers`` (the view's own by
        default)."""
        forms = [f"{HTML} (the page)",
                 *(f"{offer.media_type} ({', '.join(f'.{s}' for s in offer.suffixes)})"
                   for offer in (self.offers if offers is None else offers))]
        raise NotAcceptable("the Accept header asks for nothing this address gives; it gives "
                            + ", ".join(forms))

    def respond(self, page: Callable[[], str] | None = None,
                data: Callable[[Offer], Body] | None = None,
                alternates: Iterable[Alternate] = ()) -> Response:
        """The page (``page()``) or the data asked for (``data(offer)``), varying by
        ``Accept`` and naming ``alternates`` in ``Link``. A view whose form is known may
        leave out the renderer it does not need."""
        if self.refused:
            self.refuse()
        if self.form is None:
            assert page is not None, "a view that may answer with its page renders it"
            response = Response(page(), mimetype=HTML)
        else:
            assert data is not None, "a view with offers renders them"
            body = data(self.form)
            response = (body if isinstance(body, Response)
                        else Response(body, content_type=self.form.content_type))
        response.vary.add("Accept")
        links = ", ".join(f'<{alt.href}>; rel="alternate"; type="{alt.media_type}"'
                          for alt in alternates)
        if links:
            response.headers["Link"] = links
        return response


__all__ = ["Alternate", "Body", "DataView", "alternates"]
