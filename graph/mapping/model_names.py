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
4. a respelling that sources state (``[[respelling]]``: Meta's Hub repositories
   ``Meta-Llama-3-70B`` are the Llama 3 that OpenCompass's configs name ``llama-3-70b-hf`` and
   HELM ``meta/llama-3-70b``);
5. a known miss of the rule mapped to the key it should have (``[[same]]``, with reasons).

A package's description of a model (``StatedModel``) is keyed by one of the names it states
(``ModelRules.record_name``): its Hugging Face id; else, where the package's own id is the id
it calls a provider's API with written with other separators (AlpacaEval's folder
``gpt4_1106_preview`` calling OpenAI's ``gpt-4-1106-preview``: ``[api_respelling]``), that
API id, the provider's own spelling, which other sources write; else its own id. Only a
respelling: a folder that adds to the API id (``gpt4_1106_preview_concise``, the same model
asked for short answers) is another entry of its leaderboard, and keeps its own key.

A dated snapshot (``gpt-4o-2024-05-13``, ``claude-3-5-sonnet-20240620``, ``gpt-4-0613``:
``[[snapshot]]`` patterns) keeps its own key, and ``family`` names the model it is a snapshot
of (the key without the date). The rule is data in ``models.toml``; the tests pin each item.
"""

import re
from functools import cache

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from graph.resources import bundled_toml, read_toml
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


class Respelling(_Rule):
    pattern: str
    """A regular expression searched for in a key after steps 1–3 (``^`` anchors it)."""
    replacement: str
    """What the match becomes (``re.sub``'s replacement)."""

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, pattern: str) -> str:
        re.compile(pattern)
        return pattern


class Same(_Rule):
    name: str
    """A key the rule gives (after steps 1–4)."""
    model: str
    """The key it should have."""

    @model_validator(mode="after")
    def _another_key(self) -> "Same":
        if self.name == self.model:
            raise ValueError(f"a [[same]] item that maps {self.name!r} to itself")
        return self


class ModelRules(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    backend: tuple[Backend, ...] = ()
    snapshot: tuple[SnapshotPattern, ...] = ()
    respelling: tuple[Respelling, ...] = ()
    same: tuple[Same, ...] = ()
    api_respelling: _Rule | None = None
    """Present: a package's model whose id respells its API id is keyed by the API id."""

    @property
    def _suffixes(self) -> tuple[str, ...]:
        return tuple(f"_{item.suffix}" for item in self.backend)

    def spelled(self, name: str) -> str:
        """The key of ``name`` by steps 1–4, before any ``[[same]]`` item."""
        key = node_key(_last_part(name))
        for suffix in self._suffixes:
            if key.endswith(suffix) and len(key) > len(suffix):
                key = key[: -len(suffix)]
                break
        for item in self.respelling:
            key = re.sub(item.pattern, item.replacement, key, count=1)
        return key

    def key(self, name: str) -> str:
        """The key of the model ``name`` (a Hugging Face id or a source's own name) names."""
        key = self.spelled(name)
        return {item.name: item.model for item in self.same}.get(key, key)

    def record_name(self, model_id: str, hub_id: str | None = None,
                    api_id: str | None = None) -> str:
        """Which name a package's description of a model is keyed by: its Hugging Face id,
        else its API id where ``model_id`` is that id written with other separators (and
        ``[api_respelling]`` holds), else ``model_id``."""
        if hub_id:
            return hub_id
        if api_id and self.api_respelling is not None \
                and _letters(api_id) == _letters(model_id):
            return api_id
        return model_id

    def family(self, key: str) -> str | None:
        """The key of the model that ``key`` is a dated snapshot of; None if it is none."""
        for item in self.snapshot:
            found = re.search(item.pattern, key)
            if found is not None and found.start() > 0:
                return key[: found.start()]
        return None


def _last_part(name: str) -> str:
    """The last part of an id shaped ``owner/name``; any other name whole."""
    return name.rsplit("/", 1)[-1] if _ID_PATH.fullmatch(name) else name


def _letters(name: str) -> str:
    """The letters and digits of a name's last part, in order, in lower case: what two
    spellings of one id with other separators share."""
    return node_key(_last_part(name)).replace("_", "")


def read_model_rules(text: str) -> ModelRules:
    """The rules of a TOML text (``graph.resources.read_toml``)."""
    return read_toml(ModelRules, text)


@cache
def bundled_model_rules() -> ModelRules:
    """The rules shipped with benchgraph, read once per process."""
    return bundled_toml(ModelRules, "graph.mapping", FILE_NAME)


def model_key(name: str) -> str:
    """The key of the model ``name`` names, by the bundled rules."""
    return bundled_model_rules().key(name)


__all__ = ["ModelRules", "bundled_model_rules", "model_key", "read_model_rules"]
