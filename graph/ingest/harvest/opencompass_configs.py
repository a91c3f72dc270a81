"""What an OpenCompass dataset config states, read from its syntax tree: the datasets' ``abbr``
(task names), their ``path`` (the data they load; for a reader of local files, ``path='csv'``,
its ``data_files``), and the evaluator classes that score them.

A config is Python that builds dicts (``dict(abbr='gsm8k', type=GSM8KDataset,
path='opencompass/gsm8k', reader_cfg=..., infer_cfg=..., eval_cfg=dict(evaluator=dict(
type=Gsm8kEvaluator)))`` or ``{'abbr': ...}``). Only literals are facts: a string, or a name
the module assigns a string (or a dict) exactly once (``CLBENCH_DATA_PATH = 'tencent/CL-bench'``).
Anything computed (an f-string, a lookup, a call) is not stated, and is left out.

An evaluator is the dict under a key named ``evaluator`` or ``*_evaluator`` (a cascade's
``rule_evaluator`` and ``llm_evaluator``); its ``type`` names the class as written, both
classes where a conditional picks one (``CircularEvaluator if ... else AccEvaluator``), every
value of a dict the module assigns once where a lookup in it picks one
(``_evaluator_map[_name]``: the loop around it runs each). The
``path`` of a dict inside an evaluator (a judge model's, a dataset the judge re-reads) is not
the benchmark's data and is not read.

``DATASETS_MAPPING`` in ``opencompass/utils/datasets_info.py`` maps OpenCompass's own dataset
keys (``opencompass/gsm8k``) to the dataset's ids on ModelScope (``ms_id``) and Hugging Face
(``hf_id``) and a local path (``local``). Each is read as a literal, entry by entry, so one
malformed entry is one warning and the others still resolve. Beside it, ``DATASETS_URL`` maps
parts of local paths (``/lawbench/``) to the archive OpenCompass downloads when a local path
holding that part is missing (``opencompass.utils.datasets.download_dataset``: of the parts a
path holds, the last in the mapping's order).
"""

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from graph.ingest.harvest import pyast
from graph.ingest.harvest.reader import MemberReader

DATASETS_INFO = "opencompass/utils/datasets_info.py"
MAPPING = "DATASETS_MAPPING"
DOWNLOADS = "DATASETS_URL"


@dataclass(frozen=True)
class Hosted:
    """Where ``DATASETS_MAPPING`` says a keyed dataset is hosted."""

    hf_id: str | None
    ms_id: str | None
    local: str | None = None
    """Where OpenCompass expects a copy of it on the user's disk (``./data/gsm8k``)."""


@dataclass
class ConfigFacts:
    """What one config module states, each list in source order."""

    abbrs: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    data_files: list[str] = field(default_factory=list)
    """The literal ``data_files`` of the datasets that have one (a reader's local files)."""
    evaluators: list[str] = field(default_factory=list)


def config_facts(module: ast.Module) -> ConfigFacts:
    """The literal abbreviations, data paths and evaluator classes of one config module."""
    names = _names(module)
    evaluators = [dict_ for node in ast.walk(module) for dict_ in _evaluators(node, names)]
    inside = {id(node) for evaluator in evaluators for node in ast.walk(evaluator)}
    datasets = [fields for node in ast.walk(module)
                if id(node) not in inside and (fields := pyast.dict_fields(node)) is not None]
    return ConfigFacts(
        abbrs=_abbrs(module),
        paths=_stripped(_string(fields.get("path"), names) for fields in datasets),
        data_files=_stripped(_string(fields.get("data_files"), names) for fields in datasets),
        evaluators=[name for evaluator in evaluators
                    for name in _classes((pyast.dict_fields(evaluator) or {}).get("type"), names)],
    )


def _stripped(values: Iterable[str | None]) -> list[str]:
    return [value.strip() for value in values if value and value.strip()]


def hosted(reader: MemberReader, name: str, module: ast.Module) -> dict[str, Hosted]:
    """``DATASETS_MAPPING``'s entries, by key; a warning for the module without the mapping,
    and for each entry whose ``hf_id`` or ``ms_id`` is not a string literal or ``None`` (that
    key then names no dataset)."""
    value = _names(module).once.get(MAPPING)
    if not isinstance(value, ast.Dict):
        reader.warn(name, f"no literal {MAPPING}: dataset keys are not resolved", field=MAPPING)
        return {}
    found: dict[str, Hosted] = {}
    for key_node, value_node in zip(value.keys, value.values, strict=True):
        key = pyast.string(key_node)
        hosting = _hosting(value_node)
        if key is None or hosting is None:
            label = key or (ast.unparse(key_node) if key_node is not None else "**")
            reader.warn(name, "an entry that does not map hf_id and ms_id to literal ids",
                        field=f"{MAPPING}[{label}]")
        if key:
            found.setdefault(key, hosting or Hosted(hf_id=None, ms_id=None))
    return found


def downloads(reader: MemberReader, name: str, module: ast.Module) -> dict[str, str]:
    """``DATASETS_URL``'s archives, by the part of a local path they are for, in the
    mapping's order; a warning for each entry whose ``url`` is not a string literal."""
    value = _names(module).once.get(DOWNLOADS)
    if not isinstance(value, ast.Dict):
        return {}
    found: dict[str, str] = {}
    for key_node, value_node in zip(value.keys, value.values, strict=True):
        key = pyast.string(key_node)
        url = pyast.string((pyast.dict_fields(value_node) or {}).get("url"))
        if key and url and url.strip():
            found[key] = url.strip()
        else:
            label = key or (ast.unparse(key_node) if key_node is not None else "**")
            reader.warn(name, "an entry with no literal url", field=f"{DOWNLOADS}[{label}]")
    return found


def download_for(path: str, archives: dict[str, str]) -> str | None:
    """The archive OpenCompass downloads when local ``path`` is missing: that of the last
    part in ``archives`` that ``path`` holds, as OpenCompass picks it; none for an absolute
    path, which OpenCompass reads as the user gives it."""
    if path.startswith("/"):
        return None
    return next((url for part, url in reversed(archives.items()) if part in path), None)


def _hosting(entry: ast.expr) -> Hosted | None:
    """A mapping entry's ids and local copy (a local copy that is no string literal is
    none); ``None`` when it is no dict or either id is not a string literal or ``None``."""
    fields = pyast.dict_fields(entry)
    if fields is None:
        return None
    ids = [fields.get(key) for key in ("hf_id", "ms_id")]
    if not all(node is None or pyast.string(node) is not None
               or (isinstance(node, ast.Constant) and node.value is None) for node in ids):
        return None
    hf_id, ms_id, local = (pyast.string(node) for node in (*ids, fields.get("local")))
    return Hosted(hf_id=hf_id.strip() or None if hf_id else None,
                  ms_id=ms_id.strip() or None if ms_id else None,
                  local=local.strip() or None if local else None)


@dataclass(frozen=True)
class _Names:
    """The names a module binds itself (by assignment, loop, parameter; not by import), and
    those it assigns exactly once, with the value: the only values a name stands for."""

    local: frozenset[str]
    once: dict[str, ast.expr]


def _names(module: ast.Module) -> _Names:
    bound: dict[str, list[ast.expr | None]] = {}
    imported: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import | ast.ImportFrom):
            imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        for target, value in _bindings(node):
            bound.setdefault(target, []).append(value)
    once = {name: values[0] for name, values in bound.items()
            if len(values) == 1 and values[0] is not None and name not in imported}
    return _Names(local=frozenset(bound), once=once)


def _bindings(node: ast.AST) -> Iterator[tuple[str, ast.expr | None]]:
    """The names ``node`` binds, each with the value when it is a plain ``name = value``."""
    if isinstance(node, ast.Assign):
        single = len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        for target in node.targets:
            yield from ((name, node.value if single else None) for name in _targets(target))
    elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For | ast.comprehension
                    | ast.NamedExpr):
        yield from ((name, None) for name in _targets(node.target))
    elif isinstance(node, ast.arg):
        yield node.arg, None


def _targets(target: ast.AST) -> Iterator[str]:
    return (name.id for name in ast.walk(target) if isinstance(name, ast.Name))


def _evaluators(node: ast.AST, names: _Names) -> Iterator[ast.expr]:
    """The evaluator dicts that ``node`` (a dict) holds under its ``*evaluator`` keys."""
    for key, value in (pyast.dict_fields(node) or {}).items():
        if key == "evaluator" or key.endswith("_evaluator"):
            if isinstance(value, ast.Name):
                value = names.once.get(value.id, value)
            if pyast.dict_fields(value) is not None:
                yield value


def _classes(node: ast.expr | None, names: _Names, depth: int = 0) -> list[str]:
    """The classes a ``type`` names, as written: a name the module does not bind itself (an
    imported class), an attribute's name, a string; both sides of a conditional; every value
    of a dict looked up. A name the module binds stands for the one value it assigns, if one."""
    if isinstance(node, ast.Name) and node.id in names.local:
        assigned = names.once.get(node.id)
        return _classes(assigned, names, depth + 1) if assigned is not None and depth < 3 \
            else []
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.IfExp):
        return [*_classes(node.body, names, depth), *_classes(node.orelse, names, depth)]
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
            and isinstance(table := names.once.get(node.value.id), ast.Dict):
        return [name for value in table.values for name in _classes(value, names, depth)]
    written = pyast.string(node)
    return [written.strip()] if written and written.strip() else []


def _string(node: ast.expr | None, names: _Names) -> str | None:
    if isinstance(node, ast.Name):
        node = names.once.get(node.id)
    return pyast.string(node)


def _abbrs(module: ast.Module) -> list[str]:
    """Every literal ``abbr`` in the module: ``dict(abbr='x')`` and ``{'abbr': 'x'}``."""
    found: list[str] = []
    for node in ast.walk(module):
        value: str | None = None
        if isinstance(node, ast.Call):
            value = pyast.string(pyast.keyword(node, "abbr"))
        elif isinstance(node, ast.Dict):
            value = next((pyast.string(v) for k, v in zip(node.keys, node.values, strict=True)
                          if pyast.string(k) == "abbr"), None)
        if value and value.strip():
            found.append(value.strip())
    return found
