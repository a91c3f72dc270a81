"""One node per model, however many sources name it: the rule that turns a name into a key.

Sources name one model many ways: HELM ``meta/llama-2-70b``, OpenCompass's configs
``llama-2-70b-turbomind`` and ``llama-2-70b-hf`` loading ``meta-llama/Llama-2-70b-hf``,
inspect's README ``gpt-4o-2024-05-13`` beside HELM's ``openai/gpt-4o-2024-05-13``. The key
of a model is made from the Hugging Face id where a source states one, else from the name it
gives, by one rule that needs no other record (so a record maps alone, and an incremental
build stays exact):

1. the last part of an id shaped ``owner/name`` (``meta-llama/Llama-2-70b-hf`` ->
   ``Llama-2-70b-hf``; ``openrouter/openai/gpt-oss-120b`` -> ``gpt-oss-120b``): sources that
   name a model without its owner (inspect's tables, AlpacaEval's folders) must meet the
   ones that name it with it. A name with other characters (spaces, brackets) is no id, and
   is kept whole;
2. slugged (``graph.slug``);
3. one serving-backend suffix removed (``models.toml``, ``[[backend]]``: the same weights
   served another way are the same model);
4. a known miss of the rule mapped to the key it should have (``[[same]]``, with reasons).

A dated snapshot (``gpt-4o-2024-05-13``, ``claude-3-5-sonnet-20240620``, ``gpt-4-0613``:
``[[snapshot]]`` patterns) keeps its own key, and ``family`` names the model it is a snapshot
of (the key without the date). The rule is data in ``models.toml``; the tests pin each item.
"""

import re
import tomllib
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, field_validator

from graph.slug import node_key

FILE_NAME = "models.toml"
_ID_PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)+")
"""A Hugging Face id or a harness's model path: parts of word characters, dots and dashes."""


class _Rule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    reason: str


class Backend(_Rule):
    suffix: str


class SnapshotPattern(_Rule):
    pattern: str

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, pattern: str) -> str:
        if "date" not in re.compile(pattern).groupindex:
            raise ValueError("a snapshot pattern needs a group named 'date'")
        return pattern


class Same(_Rule):
    name: str
    """A key the rule gives (after steps 1–3)."""
    model: str
    """The key it should have."""


class ModelRules(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    backend: tuple[Backend, ...] = ()
    snapshot: tuple[SnapshotPattern, ...] = ()
    same: tuple[Same, ...] = ()

    @property
    def _suffixes(self) -> tuple[str, ...]:
        return tuple(f"_{item.suffix}" for item in self.backend)

    def key(self, name: str) -> str:
        """The key of the model ``name`` (a Hugging Face id or a source's own name) names."""
        key = node_key(name.rsplit("/", 1)[-1] if _ID_PATH.fullmatch(name) else name)
        for suffix in self._suffixes:
            if key.endswith(suffix) and len(key) > len(suffix):
                key = key[: -len(suffix)]
                break
        return {item.name: item.model for item in self.same}.get(key, key)

    def family(self, key: str) -> str | None:
        """The key of the model that ``key`` is a dated snapshot of; None if it is none."""
        for item in self.snapshot:
            found = re.search(item.pattern, key)
            if found is not None and found.start() > 0:
                return key[: found.start()]
        return None


def read_model_rules(text: str) -> ModelRules:
    """The rules of a TOML text; raises ``tomllib.TOMLDecodeError`` or pydantic's
    ``ValidationError`` for a file that breaks the format (a bug in the shipped data)."""
    return ModelRules.model_validate(tomllib.loads(text))


@cache
def bundled_model_rules() -> ModelRules:
    """The rules shipped with benchgraph, read once per process."""
    return read_model_rules(
        resources.files("graph.mapping").joinpath(FILE_NAME).read_text("utf-8"))


def model_key(name: str) -> str:
    """The key of the model ``name`` names, by the bundled rules."""
    return bundled_model_rules().key(name)


__all__ = ["ModelRules", "bundled_model_rules", "model_key", "read_model_rules"]
