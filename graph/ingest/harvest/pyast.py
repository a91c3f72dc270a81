"""Python source read as a syntax tree, never run: literal values and the calls that hold them.

HELM's run specs and scenarios and OpenCompass's dataset configs are Python. What they
state as literals (a run spec's groups, a scenario's tags, a config's ``abbr``) is read
from ``ast.parse``; anything computed (an f-string, a call) is not a stated fact and is
left out. Nothing is imported and nothing is evaluated.
"""

import ast
import warnings
from collections.abc import Iterator

from graph.ingest.harvest.reader import MemberReader


def parse_module(reader: MemberReader, name: str) -> ast.Module | None:
    """The syntax tree of member ``name``, or ``None`` (and a warning) when it cannot be read
    or is not valid Python."""
    text = reader.text(name)
    if text is None:
        return None
    try:
        with warnings.catch_warnings():  # invalid escapes in old sources: not our concern
            warnings.simplefilter("ignore", SyntaxWarning)
            return ast.parse(text, filename=name)
    except (SyntaxError, ValueError) as error:
        line = getattr(error, "lineno", None)
        detail = f"line {line}: {getattr(error, 'msg', error)}" if line else str(error)
        reader.warn(name, "not valid Python", value=detail)
        return None


def string(node: ast.AST | None) -> str | None:
    """The value of a string literal (implicit concatenation included); ``None`` otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def strings(node: ast.AST | None) -> list[str]:
    """The string literals of a list or tuple literal, in order (other elements left out)."""
    if not isinstance(node, ast.List | ast.Tuple):
        return []
    return [value for value in map(string, node.elts) if value is not None]


def name_of(node: ast.AST | None) -> str | None:
    """The name a name or an attribute ends in: ``f`` for ``f`` and ``m.f``."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def call_name(call: ast.Call) -> str | None:
    """The called function's own name: ``f`` for ``f(...)`` and ``m.f(...)``."""
    return name_of(call.func)


def dict_fields(node: ast.AST | None) -> dict[str, ast.expr] | None:
    """The keys of a ``dict(...)`` call or a ``{...}`` literal and their values; ``None``
    for any other node."""
    if isinstance(node, ast.Call) and call_name(node) == "dict":
        return {item.arg: item.value for item in node.keywords if item.arg}
    if isinstance(node, ast.Dict):
        return {key: value for key_node, value in zip(node.keys, node.values, strict=True)
                if (key := string(key_node)) is not None}
    return None


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    """The value of keyword argument ``name`` in ``call``, if given."""
    for item in call.keywords:
        if item.arg == name:
            return item.value
    return None


def calls(node: ast.AST) -> Iterator[ast.Call]:
    """Every call below ``node``, in source order."""
    for child in ast.walk(node):
        if isinstance(child, ast.Call):
            yield child


def local_strings(function: ast.FunctionDef) -> dict[str, str]:
    """The names that ``function`` assigns a string literal to exactly once (``name = "x"``):
    the only local values read as facts."""
    assigned: dict[str, list[str | None]] = {}
    for child in ast.walk(function):
        if isinstance(child, ast.Assign):
            for target in child.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(string(child.value))
        elif isinstance(child, ast.AnnAssign | ast.AugAssign) and isinstance(
            child.target, ast.Name
        ):
            value = child.value if isinstance(child, ast.AnnAssign) else None
            assigned.setdefault(child.target.id, []).append(string(value))
    return {
        name: values[0]
        for name, values in assigned.items()
        if len(values) == 1 and values[0] is not None
    }
