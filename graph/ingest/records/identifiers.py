"""Paper identifiers: arXiv ids and DOIs, in the forms records write them.

One form of each is kept: the arXiv id as arXiv writes it (``2409.01545``, ``2409.01545v2``,
``hep-th/9901001``) and the DOI as ``10.REGISTRANT/SUFFIX``. The other forms that can only
mean that one identifier are normalised to it:

- arXiv: ``arXiv:ID`` (any case, space after the colon allowed); an arxiv.org URL
  ``[http[s]://][www.|export.]arxiv.org/abs|pdf|html/ID`` with an optional ``.pdf``, ``/``,
  query or fragment after the id (old-style ids included: ``arxiv.org/abs/hep-th/9901001``);
  and arXiv's own DOI, ``10.48550/arXiv.ID`` (bare, ``doi:`` or on doi.org).
- DOI: ``doi:10...`` (any case), and ``[http[s]://][dx.]doi.org/10...``.

Anything else is not read as an identifier (a bare ``2409.01545.pdf``, an ``arxiv.org/a/``
author page). The well-formed value is checked first with one ``fullmatch``; the other
forms are tried only when it fails, so a clean catalog pays for one regex per identifier.
"""

import re

_ARXIV = r"(?:\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
ARXIV_ID = re.compile(_ARXIV)
"""New-style (``0704.0001``, ``2211.08584v2``) and old-style (``hep-th/9901001``,
``math.GT/0309136``) arXiv ids, with an optional version."""
_ARXIV_FORMS = re.compile(
    rf"(?i:arxiv):\s*(?P<prefixed>{_ARXIV})"
    rf"|(?i:(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/)(?P<url>{_ARXIV})"
    r"(?i:\.pdf)?/?(?:[?#]\S*)?"
    rf"|(?i:(?:doi:\s*|(?:https?://)?(?:dx\.)?doi\.org/)?10\.48550/arxiv\.)(?P<doi>{_ARXIV})"
)

_DOI = r"10\.\d{4,9}(?:\.\d+)*/\S+"
DOI = re.compile(_DOI)
"""A DOI: ``10.``, the registrant code (digits, maybe dotted), ``/``, a suffix."""
_DOI_FORMS = re.compile(rf"(?i:doi:\s*|(?:https?://)?(?:dx\.)?doi\.org/)(?P<doi>{_DOI})")


def arxiv_id(text: str) -> str | None:
    """The arXiv id ``text`` writes, in arXiv's own form; None when it writes none."""
    if ARXIV_ID.fullmatch(text):
        return text
    found = _ARXIV_FORMS.fullmatch(text.strip())
    if found is None:
        return None
    return found.group("prefixed") or found.group("url") or found.group("doi")


def doi(text: str) -> str | None:
    """The DOI ``text`` writes, as ``10.REGISTRANT/SUFFIX``; None when it writes none."""
    if DOI.fullmatch(text):
        return text
    found = _DOI_FORMS.fullmatch(text.strip())
    return None if found is None else found.group("doi")


def arxiv_in(text: str) -> str | None:
    """The arXiv id of an arxiv.org address or of arXiv's DOI; None for any other."""
    return arxiv_id(text) if "arxiv" in text.lower() else None


def doi_in_url(url: str) -> str | None:
    """The DOI of a doi.org address; None for any other address."""
    return doi(url) if "doi.org/" in url else None


def split_version(arxiv: str) -> tuple[str, int | None]:
    """``2409.01545v2`` -> (``2409.01545``, 2); an id without a version -> (id, None)."""
    head, v, number = arxiv.rpartition("v")
    if v and number.isdigit() and head[-1:].isdigit():
        return head, int(number)
    return arxiv, None
