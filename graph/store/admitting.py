"""A query admitted within its time limit, as every kind of store runs one: the limit runs
from the call, and the parse that admits a long query (``graph.sparql.admission``) takes
seconds of it.

Its own module, not ``graph.store.base``: importing the SPARQL parser it loads builds the
whole grammar, which the processes that only read ``base``'s types (the writing process)
need not pay for.
"""

from __future__ import annotations

import time

from graph.sparql.admission import Admitted, admit_bound
from graph.store.base import Bindings, Limits
from graph.store.process.stops import QueryTimeout


def admitted(text: str, bindings: Bindings, source: str, limits: Limits) -> tuple[Admitted, float]:
    """The query as it runs (``graph.sparql.admission.admit_bound``), and when it was asked
    (a ``time.monotonic()``), which its time limit counts from. QueryTimeout when the limit
    is spent before it runs."""
    asked = time.monotonic()
    try:
        judged = admit_bound(text, bindings, source, limits.query_bytes, limits.timeout)
    except TimeoutError:
        judged = None
    if judged is None or time.monotonic() - asked >= limits.timeout:
        raise QueryTimeout(f"the query ran longer than its time limit of {limits.timeout:g} s "
                           "and was stopped (reading its text took that long)")
    return judged, asked


__all__ = ["admitted"]
