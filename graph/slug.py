"""Slugs: the one rule that turns a name into the last segment of an IRI.

Unicode NFKD, combining marks dropped, lower case, each run of other characters one
``_``, no ``_`` at either end: ``MIMIC-CXR (classification)`` -> ``mimic_cxr_classification``.
The same name always gives the same slug, so records naming one thing meet on one node.
"""

import hashlib
import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """The slug of ``text``; empty when ``text`` has no letter or digit at all."""
    if text.isascii():  # the common case: nothing to decompose
        return _NON_WORD.sub("_", text.lower()).strip("_")
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _NON_WORD.sub("_", stripped.lower()).strip("_")


def node_key(text: str) -> str:
    """The slug of ``text``, or for a name with no letter or digit (``***``, ``中文``) a stable
    hash of it, so that every name still gets an IRI of its own."""
    return slugify(text) or "h" + hashlib.sha256(text.encode()).hexdigest()[:16]
