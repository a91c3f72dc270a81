"""The dumps of a store generation kept as pages, so that a rebuild rewrites only a few.

A dump is written from the canonical order (``graph.dataset.canonical``): sorted by graph
first in the formats that keep graphs (N-Quads, TriG, JSON-LD), by subject first in those that
hold their merge (N-Triples, Turtle). Each of those writers lays out a *group* (a graph, a
subject) from that group's statements alone, so a document is its head, then the bodies of its
groups in order, then its tail; and the groups cut into runs (pages), each written on its own,
join into the very bytes the writer makes of the whole (``Layout``; ``tests/test_incremental.py``
holds every format to it).

Each of the two orders is a ``Partition``: its pages in order, each with its first group's
N-Triples form (the key a new group is placed by) and its groups (term ids of the build's kept
table, ``graph.store.state``). A page is one file per format in ``pages/FORMAT/``, never
changed once written. A rebuild writes again only the pages holding a group whose statements
changed, and hard-links every other page file from the generation before. A full build joins
the pages into the dumps (``dump.nq``...: ``graph.store.files.join_dumps``); an incremental
one does not, and its dumps are served as their pages read as one file
(``graph.store.files.stored_dump``, ``graph.store.concat``).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

import numpy as np
import numpy.typing as npt

from graph.dataset.canonical import Canonical, sorted_unique_rows
from graph.dataset.table import GRAPH, OBJECT, PREDICATE, SUBJECT, QuadTable, TermTable
from graph.errors import BenchgraphError, ErrorKind
from graph.export import prefixes_for
from graph.export.formats import JSONLD, NQUADS, NTRIPLES, TRIG, TURTLE, Format
from graph.store.space import save_array

PAGES = "pages"
ROWS_PER_PAGE = 4096
"""About how many statements a page holds (a group is never split): a page a rebuild
writes again is cut again, so no page grows without end."""
FAMILIES: dict[bool, tuple[Format, ...]] = {True: (NQUADS, TRIG, JSONLD),
                                            False: (NTRIPLES, TURTLE)}
"""The dump formats by whether they keep graphs: each family shares one partition."""
_PARTITION_NAMES = {True: "graphs", False: "subjects"}
_RUN = 1 << 20
"""Rows ``_group_order`` counts at a time: its temporary arrays, 8 MB."""
_SORT_RUN = 1 << 16
"""Rows ``_group_order`` places at a time: its temporary arrays, about 3 MB."""
Ids = npt.NDArray[np.int64]
_Body = TypeVar("_Body")


class PagesError(BenchgraphError):
    """A generation whose pages cannot make its dump (damaged, or of another version)."""

    kind = ErrorKind.STORE


@dataclass(frozen=True)
class Layout:
    """How a format's document is made of its pages' bodies: head, bodies joined by the
    separator, tail; with no page at all, ``empty``."""

    head: bytes
    separator: bytes
    tail: bytes
    empty: bytes

    def write_body(self, out: BinaryIO, document: Iterable[bytes]) -> None:
        """Write to ``out`` the body of a page: the document the writer makes of it alone, in
        the writer's pieces (runs of ``assemble.CHUNK`` statements), less the head and the
        tail, each piece written as it comes. Joined whole, then cut, a document was held
        three times over, and the build graph's page (one group, 135,000 statements at
        100,000 records) was the peak of a store build."""
        head, tail = self.head, self.tail
        pieces = iter(document)
        start = b""
        for piece in pieces:  # as many as hold the head
            start += piece
            if len(start) >= len(head):
                break
        if not start.startswith(head):
            raise AssertionError("a page's document does not have its format's layout")
        held = start[len(head):]  # written once a piece follows that could hold the tail
        for piece in pieces:
            if len(piece) >= len(tail):
                out.write(held)
                held = piece
            else:
                held += piece
        if not held.endswith(tail):
            raise AssertionError("a page's document does not have its format's layout")
        out.write(memoryview(held)[:len(held) - len(tail)])

    def joined(self, bodies: Iterable[_Body]) -> Iterator[bytes | _Body]:
        """The document, in pieces: the layout's bytes, and each body as given (its bytes,
        or the file holding them)."""
        first = True
        for body in bodies:
            yield self.head if first else self.separator
            yield body
            first = False
        yield self.empty if first else self.tail

    def to_json(self) -> dict[str, str]:
        return {name: getattr(self, name).decode() for name in ("head", "separator", "tail",
                                                                "empty")}

    @classmethod
    def from_json(cls, data: dict[str, str]) -> Layout:
        return cls(*(data[name].encode() for name in ("head", "separator", "tail", "empty")))


def layout(fmt: Format, base: str) -> Layout:
    """The layout of ``fmt``'s documents, as its writer makes them with the data's ``base``."""
    prefixes = prefixes_for(base)
    empty = b"".join(_pieces(fmt, _EMPTY, prefixes))
    header = "".join(f"@prefix {name}: <{iri}> .\n" for name, iri in prefixes.items()).encode()
    if fmt is TURTLE:  # the header, a blank line, subjects apart by blank lines
        return Layout(header + b"\n", b"\n", b"", empty)
    if fmt is TRIG:  # the header, then each graph's block, which starts on a new line
        return Layout(header, b"", b"", empty)
    if fmt is JSONLD:  # one JSON array of graph objects
        return Layout(b"[", b",", b"]", empty)
    return Layout(b"", b"", b"", empty)  # one statement a line


_EMPTY = Canonical({SUBJECT: np.empty(0, dtype=np.int64)}, [])


def _pieces(fmt: Format, statements: Canonical, prefixes: dict[str, str]) -> Iterable[bytes]:
    """The document ``fmt``'s writer makes of the statements, in its pieces."""
    assert fmt.rdf_writer is not None
    return fmt.rdf_writer(statements, prefixes)


@dataclass
class Page:
    """One run of groups, written as one file per format of its family."""

    name: str
    """Its files' name in ``pages/FORMAT/``, without the extension: unique in the folder."""
    key: str
    """The N-Triples form of its first group."""
    statements: int
    """Distinct statements in it (quads or triples)."""
    members: Ids
    """Its groups: term ids, in canonical order."""


@dataclass
class Partition:
    """A family's groups cut into pages, in canonical order."""

    keep_graphs: bool
    pages: list[Page]
    layouts: dict[str, Layout]
    """By format name."""

    @property
    def name(self) -> str:
        return _PARTITION_NAMES[self.keep_graphs]

    @property
    def formats(self) -> tuple[Format, ...]:
        return FAMILIES[self.keep_graphs]

    @property
    def statements(self) -> int:
        return sum(page.statements for page in self.pages)

    def save(self, folder: Path) -> None:
        """Its index beside the pages (``pages/graphs.json`` and its members)."""
        pages = folder / PAGES
        members = [page.members for page in self.pages]
        bounds = np.cumsum([0, *map(len, members)], dtype=np.int64)
        save_array(pages / f"{self.name}.members.npy",
                   np.concatenate(members) if members else np.empty(0, dtype=np.int64))
        save_array(pages / f"{self.name}.bounds.npy", bounds)
        index = {"keep_graphs": self.keep_graphs,
                 "layouts": {name: found.to_json() for name, found in self.layouts.items()},
                 "pages": [{"name": p.name, "key": p.key, "statements": p.statements}
                           for p in self.pages]}
        (pages / f"{self.name}.json").write_text(json.dumps(index, ensure_ascii=False),
                                                 encoding="utf-8")

    @classmethod
    def load(cls, folder: Path, keep_graphs: bool, *, with_members: bool = True) -> Partition:
        pages = folder / PAGES
        name = _PARTITION_NAMES[keep_graphs]
        try:
            index = json.loads((pages / f"{name}.json").read_text(encoding="utf-8"))
            if with_members:
                members = np.load(pages / f"{name}.members.npy")
                bounds = np.load(pages / f"{name}.bounds.npy").tolist()
        except (OSError, ValueError) as error:
            raise PagesError(f"the dump pages in {folder} cannot be read ({error}): build "
                             "the store again with --full") from None
        empty = np.empty(0, dtype=np.int64)
        found = [Page(p["name"], p["key"], p["statements"],
                      members[bounds[i]:bounds[i + 1]] if with_members else empty)
                 for i, p in enumerate(index["pages"])]
        layouts = {key: Layout.from_json(value) for key, value in index["layouts"].items()}
        return cls(keep_graphs, found, layouts)


def canonical_rows(terms: TermTable, rows: Ids, *, keep_graphs: bool) -> Canonical:
    """The canonical order of some quads of a table (rows of term ids, as
    ``QuadTable.rows`` gives them), ranking only the terms they use: what
    ``graph.dataset.canonical.canonical`` makes of a table holding them alone."""
    positions = [GRAPH, SUBJECT, PREDICATE, OBJECT] if keep_graphs else [SUBJECT, PREDICATE,
                                                                         OBJECT]
    columns = [rows[:, position] for position in positions]
    used = np.unique(np.concatenate(columns)) if len(rows) else np.empty(0, dtype=np.int64)
    forms = terms.ntriples
    order = sorted(range(len(used)), key=lambda index: forms[used[index]])
    words = terms.encoded(used[np.asarray(order, dtype=np.int64)].tolist())
    rank = np.empty(len(used), dtype=np.int64)
    rank[np.asarray(order, dtype=np.int64)] = np.arange(len(used), dtype=np.int64)
    ranked = [rank[np.searchsorted(used, column)] for column in columns]
    return Canonical(dict(zip(positions, sorted_unique_rows(ranked, len(used)), strict=True)),
                     words)


def write_partition(folder: Path, table: QuadTable, base: str, *, keep_graphs: bool
                    ) -> Partition:
    """Cut the table's groups into pages and write each in every format of the family.
    The rows are read where the table holds them (``QuadTable.held_rows``) in the order of
    their groups, a page's rows gathered at a time: sorting a copy of every row held 1 GB
    at 100,000 records, the order of the rows (an index a row) holds a fifth of that."""
    rows = table.held_rows()
    position = _group_position(keep_graphs)
    partition = Partition(keep_graphs, [], {fmt.name: layout(fmt, base)
                                            for fmt in FAMILIES[keep_graphs]})
    _prepare(folder, partition)
    groups, order, ends = _group_order(table.terms, rows[:, position])
    prefixes = prefixes_for(base)
    for members, run in _runs(groups, ends):
        page_rows = rows[order[run]].astype(np.int64)
        _write_page(folder, partition, table.terms, members, page_rows, prefixes, len(
            partition.pages))
    return partition


def update_partition(folder: Path, before: Path, old: Partition, terms: TermTable,
                     rows: npt.NDArray[np.integer[Any]], changed: Ids, base: str
                     ) -> tuple[Partition, int]:
    """The partition of a table (its ``terms`` and ``rows``) in ``folder``, from ``old``
    (the generation ``before``'s): the pages holding a group in ``changed`` (term ids, old
    or new) are written again, the others linked. Returns it and how many pages were
    written."""
    position = _group_position(old.keep_graphs)
    partition = Partition(old.keep_graphs, [], old.layouts)
    _prepare(folder, partition)
    keys = [page.key for page in old.pages]
    forms = terms.ntriples
    held = np.full(len(terms), -1, dtype=np.int64)
    for index, page in enumerate(old.pages):
        held[page.members] = index
    placed: dict[int, set[int]] = {}
    for group in changed.tolist():
        index = int(held[group])
        if index < 0:
            index = max(bisect_right(keys, forms[group]) - 1, 0)
        placed.setdefault(index, set()).add(group)
    column = rows[:, position]
    present = np.zeros(len(terms), dtype=np.bool_)
    present[column] = True
    mark = np.full(len(terms), -1, dtype=np.int64)
    for index, new_groups in placed.items():
        candidates = np.union1d(old.pages[index].members if index < len(old.pages) else
                                np.empty(0, dtype=np.int64), np.fromiter(new_groups, np.int64))
        mark[candidates[present[candidates]]] = index
    chosen = mark[column] >= 0
    page_rows = rows[chosen].astype(np.int64)  # ``rows`` may be the table's own 32-bit ids
    by_page = mark[page_rows[:, position]]
    prefixes = prefixes_for(base)
    written = 0
    for index, page in enumerate(old.pages):
        if index not in placed:
            _link_page(folder, before, partition, page)
            continue
        mine = page_rows[by_page == index]
        groups, sorted_rows, ends = _grouped(terms, mine, position)
        for members, cut_rows in _cut(groups, sorted_rows, ends):
            _write_page(folder, partition, terms, members, cut_rows, prefixes, written)
            written += 1
    if not old.pages and placed:  # an empty build before: every group is new
        groups, sorted_rows, ends = _grouped(terms, page_rows, position)
        for members, cut_rows in _cut(groups, sorted_rows, ends):
            _write_page(folder, partition, terms, members, cut_rows, prefixes, written)
            written += 1
    return partition, written


def _group_position(keep_graphs: bool) -> int:
    return GRAPH if keep_graphs else SUBJECT


def _grouped(terms: TermTable, rows: Ids, position: int) -> tuple[Ids, Ids, Ids]:
    """The distinct groups of ``rows`` in canonical order, the rows sorted by group, and
    where each group's rows end among them."""
    groups, order, ends = _group_order(terms, rows[:, position])
    return groups, rows[order], ends


def _group_order(terms: TermTable, column: npt.NDArray[np.integer[Any]]
                 ) -> tuple[Ids, npt.NDArray[np.int32], Ids]:
    """The distinct groups of ``column`` (the group of each row) in canonical order, the
    order of the rows by group (stable: the rows of a group keep their order), as 32-bit
    row numbers, and where each group's rows end in that order.

    A counting sort: each group's rows are counted, so where its rows go in the order is
    known, and the rows are placed a run at a time (a stable sort of the run's ranks says
    where among its group each row falls). Nothing the size of the column is made but the
    order itself. A sort of one 64-bit key a row (its group's rank above its row number)
    held twice the order's size, and a stable ``argsort`` of the ranks four times; at
    100,000 records (13.4 million rows) that moment was the peak of a whole store build
    (perf/README.md, "The fifth pass" and "The targets run"): this peaks at 88 MB where the
    keys held 147 MB at that size."""
    groups = _canonical_groups(terms, column)
    rank = np.zeros(max(len(terms), 1), dtype=np.int32)
    rank[groups] = np.arange(len(groups), dtype=np.int32)
    count = len(column)
    sizes = np.zeros(len(groups), dtype=np.int64)
    for start in range(0, count, _RUN):
        sizes += np.bincount(rank[column[start:start + _RUN]], minlength=len(groups))
    ends: Ids = np.cumsum(sizes)
    free = ends - sizes  # where each group's next row goes
    del sizes
    order = np.empty(count, dtype=np.int32)
    for start in range(0, count, _SORT_RUN):
        ranks = rank[column[start:start + _SORT_RUN]]
        within = np.argsort(ranks, kind="stable")
        ranks = ranks[within]
        firsts = np.flatnonzero(np.diff(ranks, prepend=-1))  # where each rank's rows begin
        lengths = np.diff(firsts, append=len(ranks))
        among = np.arange(len(ranks)) - np.repeat(firsts, lengths)  # place within its rank
        order[free[ranks] + among] = within + start
        free[ranks[firsts]] += lengths
    return groups, order, ends


def _canonical_groups(terms: TermTable, column: npt.NDArray[np.integer[Any]]) -> Ids:
    """The distinct values of ``column`` sorted by their terms' N-Triples forms. The forms
    are sorted as a NumPy array of references: no Python int is made for a group (1.2
    million of them at 100,000 records)."""
    present = np.zeros(max(len(terms), 1), dtype=np.bool_)
    for start in range(0, len(column), _RUN):
        present[column[start:start + _RUN]] = True
    groups = np.flatnonzero(present)
    del present
    forms = terms.ntriples
    keyed = np.fromiter(map(forms.__getitem__, groups), dtype=object, count=len(groups))
    return groups[keyed.argsort(kind="stable")]


def _cut(groups: Ids, rows: Ids, ends: Ids) -> Iterator[tuple[Ids, Ids]]:
    """Runs of whole groups of about ``ROWS_PER_PAGE`` rows (``rows`` sorted by group, each
    group's ending at ``ends``): (the groups, their rows)."""
    for members, run in _runs(groups, ends):
        yield members, rows[run]


def _runs(groups: Ids, ends: Ids) -> Iterator[tuple[Ids, slice]]:
    """Runs of whole groups of about ``ROWS_PER_PAGE`` rows, ``ends`` being where each
    group's rows end once sorted by group: (the groups, the slice of their rows)."""
    if not len(groups):
        return
    start_group, start_row = 0, 0
    while start_group < len(groups):
        target = start_row + ROWS_PER_PAGE
        end_group = int(np.searchsorted(ends, target, side="left")) + 1
        end_group = min(max(end_group, start_group + 1), len(groups))
        end_row = int(ends[end_group - 1])
        yield groups[start_group:end_group], slice(start_row, end_row)
        start_group, start_row = end_group, end_row


def _prepare(folder: Path, partition: Partition) -> None:
    for fmt in partition.formats:
        (folder / PAGES / fmt.name).mkdir(parents=True, exist_ok=True)


def _write_page(folder: Path, partition: Partition, terms: TermTable, members: Ids,
                rows: Ids, prefixes: dict[str, str], number: int) -> None:
    statements = canonical_rows(terms, rows, keep_graphs=partition.keep_graphs)
    name = f"{secrets.token_hex(4)}-{number:06d}"
    for fmt in partition.formats:
        with (folder / PAGES / fmt.name / f"{name}{fmt.extension}").open("wb") as out:
            partition.layouts[fmt.name].write_body(out, _pieces(fmt, statements, prefixes))
    partition.pages.append(Page(name, terms.ntriples[int(members[0])], len(statements),
                                members))


def _link_page(folder: Path, before: Path, partition: Partition, page: Page) -> None:
    for fmt in partition.formats:
        file = f"{fmt.name}/{page.name}{fmt.extension}"
        link_or_copy(before / PAGES / file, folder / PAGES / file)
    partition.pages.append(page)


def link_or_copy(source: Path, target: Path) -> None:
    """``target`` the same file as ``source`` (a file of the generation before, never changed
    once written): a hard link, or a copy where the system refuses the link. It does for a
    store served read-only: Linux links another user's file only if it may write it
    (``fs.protected_hardlinks``), and no system links across file systems."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def page_files(folder: Path, partition: Partition, fmt: Format) -> list[Path]:
    """The page files of ``fmt``, in order."""
    return [folder / PAGES / fmt.name / f"{page.name}{fmt.extension}"
            for page in partition.pages]


__all__ = ["FAMILIES", "PAGES", "Layout", "Page", "PagesError", "Partition", "canonical_rows",
           "layout", "page_files", "update_partition", "write_partition"]
