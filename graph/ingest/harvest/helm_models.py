"""HELM's models: ``helm/config/model_metadata.yaml``, with what ``model_deployments.yaml`` adds.

Each item of the metadata's ``models`` list is one ``StatedModel``, kept as HELM states it,
its test model (``simple/model1``) and the models it tags ``DEPRECATED_MODEL_TAG`` too: ``id``
is its ``name``; ``display_name``; ``maker`` its ``creator_organization_name``; ``access``
as written (``open``, ``limited``, ``closed``); ``parameters`` its ``num_parameters`` where
that is a whole number (another value is a warning); ``description`` the first paragraph of
HELM's own description (``short_description``, its Markdown links as written). Its ``tags``
are not kept. ``release_date`` is the date HELM writes, ``YYYY-MM-DD``, under
``release_date``, or under ``release`` for the few items that use that key instead (HELM's
own loader skips it; the date is the file's statement all the same); a value that is no
such date is a warning and left out. A model named twice is one model, the first statement;
a second that says otherwise is a warning.

A deployment (an item of ``model_deployments``) serves the model its ``model_name`` names.
Its ``name`` is one of the model's ``aliases`` (HELM's run directories and older run specs
name models by deployment), unless it is the model's own name, or a name two models'
deployments share (a warning, and an alias of neither). The model's ``hub_id`` is the
Hugging Face id its deployments load, where the file says which: a deployment whose
``client_spec.class_name`` is one of ``HUB_CLIENTS`` loads its ``client_spec.args``
``pretrained_model_name_or_path``, and without one, its ``model_name`` (both clients pass
that argument to Transformers, and the model's name when it is absent). Every other client,
the vision, audio and diffusion ones whose deployments are named ``huggingface/…`` too,
picks its checkpoint in its own code, not in the file, and states no hub id here; the
deployment's name after ``huggingface/`` is not a hub id (it has no owner). A local path is
not a hub id. Deployments of one model that load different ids are a warning, and the model
has none. A deployment of a model the metadata does not state is a warning and left out.
"""

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from graph.ingest.harvest.reader import MemberReader, text_field
from graph.ingest.harvest.text import short_description
from graph.ingest.records.stated_model import StatedModel

METADATA = "helm/config/model_metadata.yaml"
DEPLOYMENTS = "helm/config/model_deployments.yaml"
HUB_CLIENTS = frozenset({
    "helm.clients.huggingface_client.HuggingFaceClient",
    "helm.clients.huggingface_pipeline_client.HuggingFacePipelineClient",
})
"""HELM's clients that load ``pretrained_model_name_or_path`` from the Hugging Face Hub with
Transformers, or the deployment's ``model_name`` when it is absent."""
_RELEASE_KEYS = ("release_date", "release")
"""The keys a model's release date is written under, in the order they are read."""
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_LOCAL = (".", "/", "~")
"""How a local path begins."""


@dataclass
class _Deployed:
    """What a model's deployments state of it, in file order."""

    aliases: list[str] = field(default_factory=list)
    hub_ids: list[str] = field(default_factory=list)


def read_models(reader: MemberReader) -> list[StatedModel]:
    """The models HELM's metadata states, with their deployments' names and hub ids, by id;
    none for a package without the metadata file."""
    if METADATA not in reader.archive:
        return []
    stated = _metadata(reader)
    deployed = _deployments(reader, frozenset(stated)) if DEPLOYMENTS in reader.archive else {}
    return [_model(reader, name, data, deployed.get(name, _Deployed()))
            for name, data in sorted(stated.items())]


def _listed(reader: MemberReader, member: str, key: str) -> list[Any]:
    """The list under ``key`` in the member's YAML, or none and a warning."""
    data = reader.mapping(member, frozenset({key}))
    if data is None:
        return []
    items = data.get(key)
    if not isinstance(items, list):
        reader.warn(member, "not a list", field=key)
        return []
    return items


def _metadata(reader: MemberReader) -> dict[str, dict[str, Any]]:
    """Each named model's item by its name, the first where a name comes twice."""
    stated: dict[str, dict[str, Any]] = {}
    for index, item in enumerate(_listed(reader, METADATA, "models")):
        name = text_field(item, "name") if isinstance(item, dict) else None
        if name is None:
            reader.warn(METADATA, "a model with no name", field=f"models[{index}]")
        elif name not in stated:
            stated[name] = item
        elif stated[name] != item:
            reader.warn(METADATA, "a model stated twice, differently: the first is kept",
                        field=f"models[{index}]", value=name)
    return stated


def _deployments(reader: MemberReader, models: frozenset[str]) -> dict[str, _Deployed]:
    """What the deployments state of each model the metadata names."""
    deployed: dict[str, _Deployed] = {}
    serving: dict[str, set[str]] = {}
    for index, item in enumerate(_listed(reader, DEPLOYMENTS, "model_deployments")):
        name = text_field(item, "name") if isinstance(item, dict) else None
        model = text_field(item, "model_name") if isinstance(item, dict) else None
        if name is None or model is None:
            reader.warn(DEPLOYMENTS, "a deployment with no name or no model_name",
                        field=f"model_deployments[{index}]")
        elif model not in models:
            reader.warn(DEPLOYMENTS, f"a deployment of a model {METADATA} does not state: "
                        "left out", field=f"model_deployments[{name}].model_name", value=model)
        else:
            said = deployed.setdefault(model, _Deployed())
            serving.setdefault(name, set()).add(model)
            if name != model:
                said.aliases.append(name)
            if (hub_id := _hub_id(item, model)) and hub_id not in said.hub_ids:
                said.hub_ids.append(hub_id)
    for name, served in sorted(serving.items()):
        if len(served) > 1:
            reader.warn(DEPLOYMENTS, "a deployment name given to several models: an alias "
                        "of none", field=f"model_deployments[{name}]",
                        value=", ".join(sorted(served)))
            for model in served:
                deployed[model].aliases = [a for a in deployed[model].aliases if a != name]
    return deployed


def _hub_id(deployment: dict[str, Any], model: str) -> str | None:
    """The Hugging Face id the deployment loads, where its client is one of ``HUB_CLIENTS``."""
    spec = deployment.get("client_spec")
    if not isinstance(spec, dict) or text_field(spec, "class_name") not in HUB_CLIENTS:
        return None
    args = spec.get("args")
    loaded = (text_field(args, "pretrained_model_name_or_path") if isinstance(args, dict)
              else None) or model
    return None if loaded.startswith(_LOCAL) else loaded


def _model(reader: MemberReader, name: str, data: dict[str, Any],
           deployed: _Deployed) -> StatedModel:
    hub_id = deployed.hub_ids[0] if len(deployed.hub_ids) == 1 else None
    if len(deployed.hub_ids) > 1:
        reader.warn(DEPLOYMENTS, "deployments of one model that load different Hugging Face "
                    "ids: none is kept", field=f"model_deployments[model_name={name}]",
                    value=", ".join(deployed.hub_ids))
    return StatedModel(
        id=name,
        display_name=text_field(data, "display_name"),
        hub_id=hub_id,
        aliases=deployed.aliases,
        maker=text_field(data, "creator_organization_name"),
        access=text_field(data, "access"),
        release_date=_release_date(reader, name, data),
        parameters=_parameters(reader, name, data),
        description=short_description(text_field(data, "description")),
        source=[METADATA] + ([DEPLOYMENTS] if deployed.aliases or hub_id else []),
    )


def _release_date(reader: MemberReader, name: str, data: dict[str, Any]) -> str | None:
    """The model's release date as written (``YYYY-MM-DD``; YAML reads it as a date), or
    ``None``, with a warning for a value that is no such date."""
    key = next((key for key in _RELEASE_KEYS if data.get(key) is not None), None)
    if key is None:
        return None
    value = data[key]
    text = value.isoformat() if isinstance(value, date) else value
    if isinstance(text, str) and _is_date(text.strip()):
        return text.strip()
    reader.warn(METADATA, "not a date (YYYY-MM-DD): left out", field=f"models[{name}].{key}",
                value=str(value))
    return None


def _is_date(text: str) -> bool:
    """Whether ``text`` is a calendar date written ``YYYY-MM-DD``."""
    if not _DATE.fullmatch(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _parameters(reader: MemberReader, name: str, data: dict[str, Any]) -> int | None:
    """``num_parameters`` when it is a positive whole number; a warning for another value."""
    value = data.get("num_parameters")
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    reader.warn(METADATA, "not a positive whole number: left out",
                field=f"models[{name}].num_parameters", value=str(value))
    return None


__all__ = ["DEPLOYMENTS", "HUB_CLIENTS", "METADATA", "read_models"]
