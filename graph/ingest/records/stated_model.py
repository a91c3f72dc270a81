"""A model as a package states it: HELM's model metadata, an OpenCompass model config,
an AlpacaEval model config. Each is kept as the package wrote it; which model node it is, and
which other packages name the same model, the mapping decides (``graph.mapping.model_names``).

A system built on a model is a model of its own: AlpacaEval's best-of-n configs
(``pairrm-zephyr-7b-beta``: 16 completions of ``HuggingFaceH4/zephyr-7b-beta``, one picked)
load the base model, and its ids are none of the system's names (``hub_id``, ``api_id``,
``aliases``), or its results would be keyed as the base model's. No field states the model
it is built on.
"""

from typing import Annotated

from pydantic import Field

from graph.ingest.records.base import SnapshotModel, SortedNames


class StatedModel(SnapshotModel):
    """One model a package describes, with what it states of it."""

    id: Annotated[str, Field(min_length=1)]
    """The package's own id of it: HELM's ``name`` (``openai/gpt-4o-2024-05-13``), else the
    Hugging Face id the configs load (``meta-llama/Llama-2-70b-hf``), else the config's
    name for it (OpenCompass's ``abbr``, AlpacaEval's folder)."""
    display_name: str | None = None
    hub_id: str | None = None
    """The Hugging Face id the package loads or names for it, as written."""
    api_id: str | None = None
    """The id the package calls a provider's API with for it, as written (AlpacaEval's
    ``completions_kwargs.model_name`` under an API's decoder: ``gpt-4-1106-preview``): the
    provider's name of the model, which other sources may write."""
    aliases: SortedNames = []
    """The other names the package gives it: OpenCompass's ``abbr`` of each config that loads
    it (``llama-2-70b-hf``, ``llama-2-70b-turbomind``), names its result tables use."""
    maker: str | None = None
    """The organisation the package says made it, as written (``OpenAI``)."""
    access: str | None = None
    """Its access as the package states it (HELM: ``open``, ``limited``, ``closed``)."""
    release_date: Annotated[str, Field(pattern=r"^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$")] | None \
        = None
    parameters: Annotated[int, Field(ge=1)] | None = None
    description: str | None = None
    """The package's own short description of it, where it has one."""
    source: Annotated[SortedNames, Field(min_length=1)]
    """The files in the package these facts were read from."""


__all__ = ["StatedModel"]
