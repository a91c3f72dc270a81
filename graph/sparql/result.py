"""``QueryResult``: what a store answers, in a form that crosses a process boundary cheaply.

A query runs in a child process (``graph.store.process.executor``) that holds the engine; its answer
comes back as the W3C text formats a SPARQL engine already speaks: SELECT solutions as
SPARQL 1.1 TSV (each term in its N-Triples form, so nothing is lost), CONSTRUCT and
DESCRIBE triples as N-Triples, an ASK answer as a boolean. pyoxigraph reads both back, in
Rust, when a caller asks for terms (``rows``, ``triples``) or for another W3C format
(``graph.sparql.results``). Writing the N-Triples forms and reading them back costs a
fraction of pickling pyoxigraph's terms.

The query process has pyoxigraph write the TSV and N-Triples itself
(``QueryResult.of_solutions``, ``of_triples``), into a writer that stops it once the row
limit is passed, so a runaway answer is never held whole. Making a Python term of every value
and writing it in Python cost a large answer a visible share of its time through the store
(perf/decisions/answers-as-w3c-text.md).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property

import pyoxigraph as ox

from graph.sparql.query_text import QueryForm

Row = tuple["ox.NamedNode | ox.BlankNode | ox.Literal | None", ...]


@dataclass(frozen=True)
class QueryResult:
    """One query's answer: SELECT ``variables`` and ``rows``; ASK ``boolean``; CONSTRUCT and
    DESCRIBE ``triples``."""

    form: QueryForm
    variables: tuple[str, ...] = ()
    boolean: bool | None = None
    payload: bytes = b""
    """SELECT: SPARQL 1.1 TSV, header included; CONSTRUCT and DESCRIBE: N-Triples."""
    count: int = 0
    """Rows (SELECT) or triples (CONSTRUCT, DESCRIBE) in the payload."""
    truncated: bool = False
    """True when the row limit stopped the answer: the query had more."""

    @classmethod
    def select(cls, variables: tuple[str, ...], rows: Iterable[Row],
               truncated: bool = False) -> QueryResult:
        """A SELECT answer of these rows (each a term or None per variable)."""
        lines = ["\t".join(f"?{name}" for name in variables)]
        lines += ["\t".join("" if term is None else str(term) for term in row) for row in rows]
        return cls("SELECT", variables, payload=("\n".join(lines) + "\n").encode(),
                   count=len(lines) - 1, truncated=truncated)

    def in_order(self, first: tuple[str, ...]) -> QueryResult:
        """This SELECT answer with its columns in the order of ``first`` (any variable it does
        not name after them, as they were): ``Admitted.star``, a ``SELECT *``'s order."""
        order = tuple(sorted(self.variables, key=lambda name: (
            first.index(name) if name in first else len(first))))
        if not first or order == self.variables:
            return self
        at = [self.variables.index(name) for name in order]
        lines = self.payload.decode().split("\n")  # TSV: a tab inside a term is escaped
        moved = ["\t".join(cells[column] for column in at)
                 for cells in (line.split("\t") for line in lines if line)]
        return replace(self, variables=order, payload=("\n".join(moved) + "\n").encode())

    @classmethod
    def of_solutions(cls, answer: ox.QuerySolutions, limit: int | None = None) -> QueryResult:
        """A SELECT answer of the solutions, written as TSV by pyoxigraph: the first ``limit``
        rows, ``truncated`` when there were more."""
        variables = tuple(variable.value for variable in answer.variables)
        wanted = None if limit is None else limit + 1  # the header is a line
        payload, lines, truncated = _serialized(answer, ox.QueryResultsFormat.TSV, wanted)
        return cls("SELECT", variables, payload=payload, count=lines - 1, truncated=truncated)

    @classmethod
    def of_triples(cls, form: QueryForm, answer: ox.QueryTriples, limit: int | None = None
                   ) -> QueryResult:
        """A CONSTRUCT or DESCRIBE answer of the triples, written as N-Triples by pyoxigraph:
        the first ``limit``, ``truncated`` when there were more."""
        payload, lines, truncated = _serialized(answer, ox.RdfFormat.N_TRIPLES, limit)
        return cls(form, payload=payload, count=lines, truncated=truncated)

    @classmethod
    def graph(cls, form: QueryForm, triples: Iterable[ox.Triple],
              truncated: bool = False) -> QueryResult:
        """A CONSTRUCT or DESCRIBE answer of these triples."""
        lines = [f"{triple} .\n" for triple in triples]
        return cls(form, payload="".join(lines).encode(), count=len(lines), truncated=truncated)

    @classmethod
    def ask(cls, answer: bool) -> QueryResult:
        return cls("ASK", boolean=answer)

    @property
    def is_graph(self) -> bool:
        """Whether the answer is triples (CONSTRUCT, DESCRIBE) rather than solutions."""
        return self.form in ("CONSTRUCT", "DESCRIBE")

    def solutions(self) -> ox.QuerySolutions | ox.QueryBoolean:
        """The answer as pyoxigraph reads it back (for its result writers); ValueError for a
        graph answer."""
        if self.boolean is not None:
            text = b'{"head":{},"boolean":' + (b"true" if self.boolean else b"false") + b"}"
            return ox.parse_query_results(text, format=ox.QueryResultsFormat.JSON)
        if self.is_graph:
            raise ValueError(f"a {self.form} answer is triples, not solutions")
        return ox.parse_query_results(self.payload, format=ox.QueryResultsFormat.TSV)

    @cached_property
    def rows(self) -> tuple[Row, ...]:
        """The SELECT solutions, one term or None per variable."""
        if self.form != "SELECT":
            return ()
        solutions = self.solutions()
        assert isinstance(solutions, ox.QuerySolutions)
        return tuple(tuple(solution) for solution in solutions)

    @cached_property
    def triples(self) -> tuple[ox.Triple, ...]:
        """The CONSTRUCT or DESCRIBE triples."""
        if not self.is_graph or not self.payload:
            return ()
        return tuple(quad.triple for quad in ox.parse(self.payload, format=ox.RdfFormat.N_TRIPLES))


def _serialized(answer: ox.QuerySolutions | ox.QueryTriples,
                format: ox.QueryResultsFormat | ox.RdfFormat, wanted: int | None
                ) -> tuple[bytes, int, bool]:
    """The first ``wanted`` lines pyoxigraph writes of ``answer`` (all when None), how many
    they are, and whether it had more."""
    writer = _LinesWriter(wanted)
    try:
        answer.serialize(writer, format=format)  # type: ignore[arg-type]
    except _Enough:
        pass
    payload, lines = writer.written()
    return payload, lines, writer.stopped


class _Enough(Exception):
    """Raised through pyoxigraph's writer once the lines wanted are written."""


class _LinesWriter(io.BytesIO):
    """A binary file keeping the first ``wanted`` lines written to it (every line when
    None), that stops the writing, by raising ``_Enough``, once it has more."""

    def __init__(self, wanted: int | None) -> None:
        super().__init__()
        self.wanted = wanted
        self.stopped = False
        self._lines = 0

    def write(self, data: bytes) -> int:  # type: ignore[override]
        written = super().write(data)
        self._lines += bytes(data).count(b"\n")
        if self.wanted is not None and self._lines > self.wanted:
            self.stopped = True
            raise _Enough
        return written

    def written(self) -> tuple[bytes, int]:
        """The bytes of the lines kept, and how many lines they are."""
        payload = self.getvalue()
        if not self.stopped:
            return payload, self._lines
        assert self.wanted is not None
        end = -1
        for _ in range(self.wanted):
            end = payload.index(b"\n", end + 1)
        return payload[:end + 1], self.wanted


__all__ = ["QueryResult", "Row"]
