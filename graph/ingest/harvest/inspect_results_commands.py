"""The ``inspect eval`` commands an inspect_evals README gives, and the settings they state.

An Evaluation Report often shows the command that made its figures (``inspect eval
inspect_evals/NAME --model M -T k=v --epochs 5``). Read with ``shlex`` from the report's code
blocks, each command sets, for the models it names, the ``-T`` arguments (``settings.other``),
the epochs and a grader model (by a ``-T`` argument or ``--model-role`` that the rules name as
the judge's). The reader (``graph.ingest.harvest.inspect_results``) gives a table's rows what the
nearest commands naming their model agree on, and what ``-T k=v`` the text around the table
writes.
"""

import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from graph.ingest.harvest.inspect_results_report import Context
from graph.ingest.harvest.inspect_results_rules import Rules, matching
from graph.ingest.harvest.yaml_loader import YamlError, load_mapping


@dataclass(frozen=True)
class Command:
    """What one ``inspect eval`` command sets: for which models, its ``-T`` arguments, its
    epochs and grader model."""

    models: tuple[str, ...]
    arguments: frozenset[tuple[str, str]]
    epochs: str | None
    judge: str | None


def commands(rules: Rules, code: str) -> list[Command]:
    """The ``inspect eval`` commands of a code block (continued lines joined)."""
    found: list[Command] = []
    for line in code.replace("\\\n", " ").splitlines():
        if "inspect eval" not in line or line.lstrip().startswith("#"):
            continue
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        found.append(_command(rules, words))
    return found


def _command(rules: Rules, words: list[str]) -> Command:
    options: list[tuple[str, str]] = []
    for index, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in ("--model", "-T", "--epochs", "--model-role") and (
                equals or index + 1 < len(words)):
            options.append((name, value if equals else words[index + 1]))
    models = tuple(m for name, value in options if name == "--model" for m in value.split(","))
    arguments = [tuple(v.split("=", 1)) for n, v in options if n == "-T" and "=" in v]
    judges = [v for k, v in arguments if matching(rules.judge_argument, k)]
    judges += [j for n, v in options if n == "--model-role" for j in _graders(rules, v)]
    epochs = [v for n, v in options if n == "--epochs" and v.isdigit()]
    return Command(
        models=tuple("*" if re.fullmatch(r"<.*>", m) else m for m in models),
        arguments=frozenset((k, v) for k, v in arguments
                            if not matching(rules.judge_argument, k)),
        epochs=epochs[0] if epochs else None,
        judge=judges[0] if judges else None,
    )


def _graders(rules: Rules, value: str) -> list[str]:
    """The grader model a ``--model-role`` value names: ``grader=M``, ``grader={"model": M}``
    or ``{grader: M}``."""
    role, equals, model = value.partition("=")
    if equals and not role.lstrip().startswith("{"):
        roles: dict[str, Any] = {role: _role_model(model)}
    else:
        try:
            roles = load_mapping(value)
        except YamlError:
            return []
    named = [_role_model(model) for role, model in roles.items()
             if matching(rules.judge_argument, str(role))]
    return [model for model in named if isinstance(model, str)]


def _role_model(value: Any) -> Any:
    if isinstance(value, str) and value.startswith("{"):
        try:
            value = load_mapping(value)
        except YamlError:
            return None
    return value.get("model") if isinstance(value, dict) else value


def _names(model: str, named: str) -> bool:
    """Whether a command's model names a table's (the same id, or the same last part:
    ``openai/gpt-4o`` for ``gpt-4o``)."""
    return named == "*" or named == model or named.rsplit("/", 1)[-1] == model.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class RunSettings:
    other: dict[str, str]
    epochs: str | None
    judge: str | None


def command_settings(found: list[list[Command]], model: str, mode: str) -> RunSettings:
    """What the nearest commands that name ``model`` agree on."""
    for level in found:
        named = [c for c in level if mode == "all" or any(_names(model, m) for m in c.models)]
        if named:
            shared = frozenset.intersection(*(c.arguments for c in named))
            return RunSettings(dict(sorted(shared)), _agreed(c.epochs for c in named),
                               _agreed(c.judge for c in named))
    return RunSettings({}, None, None)


def _agreed(values: Iterable[str | None]) -> str | None:
    found = set(values)
    return found.pop() if len(found) == 1 else None


_ARGUMENT = re.compile(r"-T\s+(?P<key>\w+)=(?P<value>[^\s,;)]+)")


def inline_arguments(where: Context) -> dict[str, str]:
    """``-T k=v`` written in a table's heading or introduction, or a heading above it."""
    for level in where.levels:
        found = dict(sorted((m["key"], m["value"]) for text, intro in level if intro
                            for m in _ARGUMENT.finditer(text)))
        if found:
            return found
    return {}
