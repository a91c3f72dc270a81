"""Finding a term of a restored table by its N-Triples form, with no dictionary of them all.

An incremental build restores the table of the build before it (``TermTable.restored``)
and then looks up only the few hundred terms the records it maps again state. A dictionary
of every form, made for those lookups, was a large share of a rebuild's mapping, most of it
inserting, not hashing (perf/decisions/kept-terms-form-index.md). A ``FormIndex`` is the
forms' CRC-32 checksums sorted, each with its id: the store keeps one beside each terms
chunk it writes (``graph.store.state``), so a rebuild reads it instead of making it, and a
lookup is a binary search and a comparison of the form or two that share the checksum."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt


def checksum(form: str) -> int:
    """The CRC-32 of a form's UTF-8 bytes (a lone surrogate as Python keeps it: a table may
    hold one; the dumps refuse it, not the index)."""
    return zlib.crc32(form.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True)
class FormIndex:
    """Term ids by the checksum of their form: one sorted 64-bit key a term, its form's
    checksum above its id (8 bytes a term, made and sorted in place, as the store build
    writes it)."""

    keys: npt.NDArray[np.uint64]

    @classmethod
    def of(cls, forms: Sequence[str], start: int = 0) -> FormIndex:
        """The index of ``forms``, the first being the form of id ``start``."""
        keys = np.fromiter((checksum(form) << 32 | term_id
                            for term_id, form in enumerate(forms, start)),
                           dtype=np.uint64, count=len(forms))
        keys.sort()
        return cls(keys)

    @classmethod
    def joined(cls, parts: Iterable[FormIndex]) -> FormIndex:
        """One index of the terms of ``parts`` (of disjoint ids). Each part is sorted, so
        the whole is sorted as runs are merged (``kind="stable"``: Timsort, which finds
        them), far faster than the default sort of the same keys."""
        keys = np.concatenate([part.keys for part in parts] or [_NONE])
        keys.sort(kind="stable")
        return cls(keys)

    def find(self, form: str, forms: Sequence[str]) -> int | None:
        """The id of ``form``, ``forms`` being the table's forms by id; None if no term of
        the index has it."""
        wanted = checksum(form)
        keys = self.keys
        at = int(np.searchsorted(keys, np.uint64(wanted << 32)))
        while at < len(keys) and int(keys[at]) >> 32 == wanted:
            term_id = int(keys[at]) & _LOW
            if forms[term_id] == form:
                return term_id
            at += 1
        return None

    @classmethod
    def load(cls, path: Path) -> FormIndex:
        """The index ``save`` wrote to ``path``."""
        return cls(np.load(path))


_LOW = 0xFFFF_FFFF
_NONE = np.zeros(0, dtype=np.uint64)

__all__ = ["FormIndex", "checksum"]
