"""How a query uses its variables, and whether its parameters keep the binding rule.

The rule (also in ``graph.sparql.named``): a parameter ``NAME`` binds ``?NAME`` before the query
runs, as a ``VALUES`` block opening the WHERE clause (join semantics, ``graph.sparql.query_text``;
the block also opens each sub-SELECT of the outermost query that projects ``?NAME``, which
gives the same rows under this rule and spares the engine the rows of other values). That
gives the rows that putting the value in place of the variable would (what a parameter
means) only when

- ``?NAME`` occurs in the outermost scope, not only inside a sub-SELECT that hides it;
- the query never assigns ``?NAME`` itself (``BIND``, ``VALUES``, ``(... AS ?NAME)``);
- an expression reads ``?NAME`` only at the top level of the WHERE clause (its FILTERs and
  BINDs, an OPTIONAL's FILTER, the SELECT and HAVING expressions), never inside a nested
  group, a UNION branch or a sub-SELECT, where a joined value is not yet visible.

And the converse: a variable some expression reads that nothing in the query binds (no
triple pattern, VALUES, BIND or aggregate) can only be an input, so it must be declared.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from rdflib import Variable
from rdflib.plugins.sparql.algebra import translateQuery
from rdflib.plugins.sparql.parser import parseQuery
from rdflib.plugins.sparql.parserutils import CompValue

from graph.namespace import PREFIXES
from graph.sparql.named import NamedQuery

_MODIFIERS = {"SelectQuery", "AskQuery", "ConstructQuery", "DescribeQuery", "Slice", "Distinct",
              "Reduced", "ToMultiSet"}
_EXISTS = {"Builtin_EXISTS", "Builtin_NOTEXISTS"}


@dataclass
class VariableUse:
    """The names of the variables of one query, by how they are used."""

    matched: set[str] = field(default_factory=set)
    """Bound from the data: triple patterns and paths, GRAPH names, a sub-SELECT's projection."""
    assigned: set[str] = field(default_factory=set)
    """Given a value by the query itself: BIND, VALUES, ``AS``, aggregates."""
    read: set[str] = field(default_factory=set)
    """Read in an expression: FILTER, BIND, GROUP BY, HAVING, ORDER BY, aggregates."""
    nested_reads: set[str] = field(default_factory=set)
    """Read in an expression below the top level of the WHERE clause."""
    outer: set[str] = field(default_factory=set)
    """Occurring in the outermost scope (a sub-SELECT contributes only what it projects)."""


def query_algebra(text: str) -> CompValue:
    """The SPARQL algebra of a query, by rdflib's parser: what the checks below walk. (Slow:
    tens of milliseconds a query; for checking the named queries, not for running them.)"""
    return translateQuery(parseQuery(text), None, PREFIXES).algebra


def variable_use(algebra: CompValue) -> VariableUse:
    """How the query whose rdflib algebra this is uses its variables."""
    use = VariableUse()
    _Walker(use).pattern(algebra, top=True, hidden=False)
    return use


def binding_problems(query: NamedQuery, algebra: CompValue) -> list[str]:
    """Every way the query breaks the binding rule, one sentence each (none when it keeps it)."""
    use = variable_use(algebra)
    declared = {parameter.name for parameter in query.parameters}
    problems = []
    for name in sorted(declared):
        if name not in use.outer:
            problems.append(f"parameter {name!r} is declared but ?{name} is not used in the "
                            "query's outer scope")
        if name in use.assigned:
            problems.append(f"parameter {name!r}: the query assigns ?{name} itself")
        if name in use.nested_reads:
            problems.append(f"parameter {name!r}: ?{name} is read in an expression inside a "
                            "nested group, UNION branch or sub-SELECT, where a bound value is "
                            "not visible; read it at the top level of the WHERE clause")
    for name in sorted(use.read - use.matched - use.assigned - declared):
        problems.append(f"?{name} is read but nothing binds it: declare it with '#+ param: "
                        f"{name} TYPE — ...' or bind it in the query")
    return problems


class _Walker:
    def __init__(self, use: VariableUse) -> None:
        self.use = use
        self.seen_project = False

    def pattern(self, node: object, top: bool, hidden: bool) -> None:
        """A graph pattern: ``top`` while on the spine of the outermost group, ``hidden`` inside
        a sub-SELECT."""
        if isinstance(node, (list, tuple)):
            for item in node:
                self.pattern(item, top, hidden)
            return
        if not isinstance(node, CompValue):
            return
        name = node.name
        if name == "Project":
            self._project(node, top, hidden)
        elif name == "BGP":
            for triple in dict.get(node, "triples") or ():
                self._found(self.use.matched, _variables(triple), hidden)
        elif name == "Extend":
            self._found(self.use.assigned, [node["var"]], hidden)
            self.expression(node["expr"], top, hidden)
            self.pattern(node["p"], top, hidden)
        elif name in ("Filter", "Group", "OrderBy"):
            self.expression(dict.get(node, "expr"), top, hidden)
            self.pattern(node["p"], top, hidden)
        elif name == "AggregateJoin":
            for aggregate in node["A"]:
                self._found(self.use.assigned, [aggregate["res"]], hidden)
                self.expression(dict.get(aggregate, "vars"), top, hidden)
            self.pattern(node["p"], top, hidden)
        elif name in ("Join", "LeftJoin"):
            self.pattern(node["p1"], top, hidden)
            self.pattern(node["p2"], False, hidden)
            self.expression(dict.get(node, "expr"), top, hidden)
        elif name == "values":
            for row in dict.get(node, "res") or ():
                self._found(self.use.assigned, list(row), hidden)
        elif name == "Graph":
            self._found(self.use.matched, _variables([node["term"]]), hidden)
            self.pattern(node["p"], False, hidden)
        elif name in _MODIFIERS:
            self.pattern(dict.get(node, "p"), top, hidden)
        else:  # Union, Minus and anything else: nested groups
            for key, value in node.items():
                if not key.startswith("_") and key != "template":
                    self.pattern(value, False, hidden)

    def _project(self, node: CompValue, top: bool, hidden: bool) -> None:
        if not self.seen_project and top:
            self.seen_project = True
            self.pattern(node["p"], top, hidden)
            return
        # A sub-SELECT: its projection is what the enclosing scope sees of it.
        self._found(self.use.matched, dict.get(node, "PV") or (), hidden)
        self.pattern(node["p"], False, True)

    def expression(self, node: object, top: bool, hidden: bool) -> None:
        if isinstance(node, Variable):
            self._found(self.use.read, [node], hidden)
            if not top:
                self.use.nested_reads.add(str(node))
        elif isinstance(node, (list, tuple)):
            for item in node:
                self.expression(item, top, hidden)
        elif isinstance(node, CompValue):
            if node.name in _EXISTS:
                self.pattern(dict.get(node, "graph"), False, hidden)
                return
            for key, value in node.items():
                if not key.startswith("_"):
                    self.expression(value, top, hidden)

    def _found(self, into: set[str], variables: Iterable[object], hidden: bool) -> None:
        for variable in variables:
            if isinstance(variable, Variable):
                into.add(str(variable))
                if not hidden:
                    self.use.outer.add(str(variable))


def _variables(terms: Iterable[object]) -> list[Variable]:
    return [term for term in terms if isinstance(term, Variable)]


__all__ = ["VariableUse", "binding_problems", "query_algebra", "variable_use"]
