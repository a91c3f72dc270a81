"""OpenCompass's model configs (``opencompass/configs/models/**/*.py``) as the models the package
describes, read from their syntax trees and never run.

A config builds the dicts of a ``models`` list: ``dict(type=HuggingFaceBaseModel,
abbr='llama-2-70b-hf', path='meta-llama/Llama-2-70b-hf', ...)``. A model dict is a ``dict(...)``
call or ``{...}`` literal with a ``type`` and an ``abbr`` or a ``path``, not inside another one.
Its facts are literals: a string, an f-string with nothing interpolated
(``f'internlm2-chat-7b-lmdeploy'``), or, in a ``for abbr, path, n in settings:`` loop over a
module-level list of tuple literals (the ``*_series.py`` configs), each tuple's element; anything
computed is left out. Its class is the ``type`` as written (the imported class's name).

One ``StatedModel`` for each model the configs load, by the rule of its class
(``[[model_class]]`` in ``opencompass_results.toml``, each with its reason):

- a class that loads weights from the Hugging Face Hub (``loads = "hub"``) with a ``path`` of a
  hub id's shape (``owner/name``) loads the model of that id: ``id`` and ``hub_id`` are the
  path as written, ``aliases`` every ``abbr`` of every config loading it (``llama-2-70b-hf``,
  ``llama-2-70b-turbomind``, ``llama-2-70b-vllm``);
- a class that calls a service (``loads = "api"``) with a literal ``path`` asks for the model
  the service calls by that name: ``id`` is the path (``gpt-4-0613``), ``aliases`` its configs'
  ``abbr`` (``GPT-4-0613``); no hub id, even where the name has a hub id's shape;
- any other config (a local folder, a ModelScope id, a class the file does not list) is the
  model of its ``abbr``; one with no ``abbr`` either names no model, and is a warning.

Nothing else is stated: the configs name no maker (the owner in a hub id is not one), no
release date and no size, so those stay ``None``. The class is read to tell these apart and to
tell base from chat models (``graph.ingest.harvest.opencompass_results``); ``StatedModel`` has no
field
that keeps it.
"""

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from graph.ingest.harvest import pyast
from graph.ingest.harvest.reader import MemberReader
from graph.ingest.records.stated_model import StatedModel

MODELS = "opencompass/configs/models/"
_HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*", re.ASCII)

Loads = Literal["hub", "api"]
"""Where a model class takes its model from: the Hugging Face Hub, or a service's API."""


@dataclass(frozen=True)
class ModelConfig:
    """One model dict of one config file, as written."""

    member: str
    model_class: str | None
    abbr: str | None
    path: str | None

    @property
    def stem(self) -> str:
        """The config's file name without ``.py``: what ``run.py --models`` names it by."""
        return self.member.rsplit("/", 1)[-1].removesuffix(".py")


def model_configs(reader: MemberReader) -> list[ModelConfig]:
    """Every model dict of every config under ``MODELS``, file by file in name order."""
    found: list[ModelConfig] = []
    for name in reader.archive.below(MODELS):
        module = pyast.parse_module(reader, name) if name.endswith(".py") else None
        if module is not None:
            found += _configs(name, module)
    return found


def stated_models(reader: MemberReader, configs: list[ModelConfig],
                  loads: Mapping[str, Loads]) -> list[StatedModel]:
    """One model per hub id, service name or ``abbr`` the configs load (the module's
    docstring), with every ``abbr`` of every config that loads it."""
    grouped: dict[str, tuple[str | None, list[ModelConfig]]] = {}
    for config in configs:
        key = _model_id(config, loads)
        if key is None:
            reader.warn(config.member, "a model config with no abbr and no model it loads: "
                        "names no model", field="abbr")
            continue
        grouped.setdefault(key[0], (key[1], []))[1].append(config)
    return [StatedModel(id=model_id, hub_id=hub_id,
                        aliases=[c.abbr for c in found if c.abbr and c.abbr != model_id],
                        source=[c.member for c in found])
            for model_id, (hub_id, found) in sorted(grouped.items())]


def _model_id(config: ModelConfig, loads: Mapping[str, Loads]
              ) -> tuple[str, str | None] | None:
    """The model's id and its hub id, by where the config's class takes its model from."""
    source = loads.get(config.model_class or "")
    if source == "hub" and config.path and _HUB_ID.fullmatch(config.path):
        return config.path, config.path
    if source == "api" and config.path:
        return config.path, None
    return (config.abbr, None) if config.abbr else None


def _configs(member: str, module: ast.Module) -> list[ModelConfig]:
    """The model dicts of one module, each once for every row of the loop that builds it."""
    rows = _loop_rows(module)
    found: list[ModelConfig] = []
    for node, fields in _model_dicts(module):
        for row in rows.get(id(node), [{}]):
            found.append(ModelConfig(
                member=member,
                model_class=_class_name(fields.get("type")),
                abbr=_literal(fields.get("abbr"), row),
                path=_literal(fields.get("path"), row),
            ))
    return found


def _model_dicts(module: ast.Module) -> Iterator[tuple[ast.AST, dict[str, ast.expr]]]:
    """The dicts with a ``type`` and an ``abbr`` or ``path``, outermost only, in source
    order."""
    inside: set[int] = set()
    for node in ast.walk(module):
        if id(node) in inside:
            continue
        fields = pyast.dict_fields(node)
        if fields and "type" in fields and ("abbr" in fields or "path" in fields):
            inside.update(id(child) for child in ast.walk(node))
            yield node, fields


def _loop_rows(module: ast.Module) -> dict[int, list[dict[str, str | None]]]:
    """For each node inside a ``for a, b in NAME:`` loop over a module-level list of tuple
    literals, the loop's rows: each tuple's string elements by the loop's names (the
    innermost such loop)."""
    once = _assigned_once(module)
    rows: dict[int, list[dict[str, str | None]]] = {}
    for loop in (n for n in ast.walk(module) if isinstance(n, ast.For)):
        names = [t.id if isinstance(t, ast.Name) else None for t in _elements(loop.target)]
        values = once.get(loop.iter.id) if isinstance(loop.iter, ast.Name) else None
        if not isinstance(values, ast.List | ast.Tuple) or not any(names):
            continue
        table = [dict(zip(names, map(pyast.string, _elements(item)), strict=False))
                 for item in values.elts]
        found = [{k: v for k, v in row.items() if k} for row in table]
        for statement in loop.body:
            rows.update((id(node), found) for node in ast.walk(statement))
    return rows


def _elements(node: ast.expr) -> list[ast.expr]:
    return list(node.elts) if isinstance(node, ast.Tuple | ast.List) else [node]


def _assigned_once(module: ast.Module) -> dict[str, ast.expr]:
    """The module-level names bound once, by a plain ``name = value``, with the value."""
    bound: dict[str, list[ast.expr]] = {}
    for statement in module.body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                for name in (n for n in ast.walk(target) if isinstance(n, ast.Name)):
                    bound.setdefault(name.id, []).append(statement.value)
    return {name: values[0] for name, values in bound.items() if len(values) == 1}


def _literal(node: ast.expr | None, row: dict[str, str | None]) -> str | None:
    """A string literal, an f-string that interpolates nothing, or a loop name's value in
    ``row``; stripped, ``None`` when blank or anything else."""
    value = pyast.string(node)
    if isinstance(node, ast.JoinedStr) and all(pyast.string(v) is not None
                                               for v in node.values):
        value = "".join(pyast.string(v) or "" for v in node.values)
    elif isinstance(node, ast.Name):
        value = row.get(node.id)
    return value.strip() or None if value else None


def _class_name(node: ast.expr | None) -> str | None:
    """The class a ``type`` names, as written (``m.C`` is ``C``)."""
    written = pyast.string(node)
    return pyast.name_of(node) or (written.strip() or None if written else None)
