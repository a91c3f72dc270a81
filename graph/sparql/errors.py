"""What can be wrong with a query a user gives: each a ``BenchgraphError`` of its kind."""

from graph.errors import BenchgraphError, ErrorKind


class QueryError(BenchgraphError):
    """A query that cannot run as given: its message is one line for the user."""

    kind = ErrorKind.QUERY


class QuerySyntaxError(QueryError):
    """The text is not a SPARQL query: where (1-based line and column) and why."""

    def __init__(self, source: str, line: int, column: int, reason: str) -> None:
        super().__init__(f"{source}: syntax error at line {line}, column {column}: {reason}")
        self.line = line
        self.column = column


class ReadOnlyError(QueryError):
    """The text asks for what a read-only, closed graph never does: SPARQL Update, SERVICE."""


class ParameterError(QueryError):
    """A parameter that is unknown, missing, or whose value is not of its type."""

    kind = ErrorKind.USAGE


__all__ = ["ParameterError", "QueryError", "QuerySyntaxError", "ReadOnlyError"]
