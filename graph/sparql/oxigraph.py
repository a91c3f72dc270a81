"""Running a compiled query on pyoxigraph, with the same parameters and the same answer type.

pyoxigraph substitutes only variables a SELECT projects, so a query's parameters go in as a
``VALUES`` block opening its WHERE clause (join semantics; rdflib gets them as
``initBindings``, substitution). The named queries keep the binding rule of
``graph.sparql.checks``, under which the two give the same rows. Each term in the block is
its N-Triples form from the term table (``TermTable.form``, checked by pyoxigraph) of a
validated RDF term: never the user's text.
"""

import re

import pyoxigraph as ox
from rdflib import Graph

from graph.dataset.oxigraph import to_rdflib
from graph.dataset.table import TermTable
from graph.namespace import PREFIXES
from graph.sparql.engine import Bindings, CompiledQuery, QueryError, QueryResult


def run_query_oxigraph(compiled: CompiledQuery, store: ox.Store, bindings: Bindings) -> QueryResult:
    """Run on pyoxigraph, over the union of the store's named graphs."""
    answer = store.query(
        with_values(compiled, bindings),
        prefixes=PREFIXES,
        base_iri=compiled.base,
        use_default_graph_as_union=True,
    )
    form = compiled.form
    if isinstance(answer, ox.QueryBoolean):
        return QueryResult(form, boolean=bool(answer))
    if isinstance(answer, ox.QueryTriples):
        graph = Graph()
        for triple in answer:
            graph.add(
                (to_rdflib(triple.subject), to_rdflib(triple.predicate), to_rdflib(triple.object))
            )
        return QueryResult(form, graph=graph)
    variables = tuple(variable.value for variable in answer.variables)
    rows = tuple(
        tuple(None if solution[name] is None else to_rdflib(solution[name]) for name in variables)
        for solution in answer
    )
    return QueryResult(form, variables, rows)


def with_values(compiled: CompiledQuery, bindings: Bindings) -> str:
    """The query's text with ``VALUES (?a ?b) { (A B) }`` opening its WHERE clause."""
    if not bindings:
        return compiled.query.text
    text = compiled.query.text
    at = _where_clause_start(text, skip_template=compiled.form == "CONSTRUCT")
    if at is None:
        raise QueryError(f"{compiled.query.source}: parameters need a WHERE clause to bind in")
    names = " ".join(f"?{name}" for name in bindings)
    terms = " ".join(map(TermTable().form, bindings.values()))
    return f"{text[:at]} VALUES ({names}) {{ ({terms}) }} {text[at:]}"


_IRI_AT = re.compile(r"<[^<>\"{}|^`\\\x00-\x20]*>")
_LONG_SINGLE = r"'{3}(?:[^'\\]|\\.|'(?!''))*'{3}"
_LONG_DOUBLE = r'"{3}(?:[^"\\]|\\.|"(?!""))*"{3}'
_SHORT_SINGLE = r"'(?:[^'\\\n\r]|\\.)*'"
_SHORT_DOUBLE = r'"(?:[^"\\\n\r]|\\.)*"'
_STRING_AT = re.compile(f"{_LONG_SINGLE}|{_LONG_DOUBLE}|{_SHORT_SINGLE}|{_SHORT_DOUBLE}", re.DOTALL)


def _where_clause_start(text: str, skip_template: bool) -> int | None:
    """The index just after the ``{`` that opens the query's WHERE group: the first ``{`` outside
    comments, strings and IRIs, or the second top-level one when a CONSTRUCT template comes
    first (``CONSTRUCT WHERE { ... }`` has none)."""
    if skip_template:
        head = re.match(
            r"(?is)(?:\s|#[^\n]*\n|PREFIX\s+\S*\s*<[^>]*>|BASE\s*<[^>]*>)*"
            r"CONSTRUCT\s*(?:#[^\n]*\n\s*)*",
            text,
        )
        skip_template = head is not None and text[head.end() : head.end() + 1] == "{"
    index, depth, opened = 0, 0, 0
    while index < len(text):
        char = text[index]
        if char == "#":
            newline = text.find("\n", index)
            index = len(text) if newline < 0 else newline + 1
            continue
        match = _STRING_AT if char in "'\"" else _IRI_AT if char == "<" else None
        found = match.match(text, index) if match is not None else None
        if found is not None:
            index = found.end()
            continue
        if char == "{":
            if depth == 0:
                opened += 1
                if opened == (2 if skip_template else 1):
                    return index + 1
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        index += 1
    return None


__all__ = ["run_query_oxigraph", "with_values"]
