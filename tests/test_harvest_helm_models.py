"""HELM's models: ``helm/config/model_metadata.yaml`` and what ``model_deployments.yaml`` adds
(aliases, the Hugging Face id a deployment loads), read from the helm fixture package's
``helm/config/`` (``tests/data/harvest/helm``)."""

import shutil
from pathlib import Path

import pytest

from graph.ingest.harvest import Harvest, harvest
from graph.ingest.harvest.helm_models import DEPLOYMENTS, METADATA
from graph.ingest.records.stated_model import StatedModel
from tests.test_harvest_archive import FIXTURES, build_wheel


@pytest.fixture(scope="module")
def harvested(tmp_path_factory: pytest.TempPathFactory) -> Harvest:
    return harvest([build_wheel("helm", tmp_path_factory.mktemp("wheels"))])


def models(harvested: Harvest) -> dict[str, StatedModel]:
    return {m.id: m for m in harvested.snapshots[0].models}


def warned(harvested: Harvest, member: str) -> set[tuple[str | None, str, str | None]]:
    """The warnings about one member of the package: (field, reason, value)."""
    return {(p.field, p.reason, p.value) for p in harvested.problems
            if str(p.path).endswith(f"/{member}")}


def with_members(tmp_path: Path, members: dict[str, bytes | None]) -> Harvest:
    """The helm fixture package with ``members`` replaced (``None``: removed), unpacked."""
    folder = tmp_path / "helm"
    shutil.copytree(FIXTURES / "helm", folder)
    for name, content in members.items():
        if content is None:
            (folder / name).unlink()
        else:
            (folder / name).write_bytes(content)
    return harvest([folder])


def test_every_field_a_model_states(harvested: Harvest) -> None:
    chat = models(harvested)["toyorg/toy-chat-7b"]
    assert chat == StatedModel(
        id="toyorg/toy-chat-7b",
        display_name="Toy Chat (7B)",
        hub_id="ToyOrg/Toy-Chat-7B",  # its deployment's pretrained_model_name_or_path
        aliases=[],  # the deployment is named as the model is
        maker="Toy Org",
        access="open",
        release_date="2024-01-15",
        parameters=7000000000,
        # the first paragraph, as HELM wrote it, its Markdown link and all
        description="Toy Chat (7B) is an invented chat model "
                    "([paper](https://arxiv.org/abs/2401.00001)).",
        source=[DEPLOYMENTS, METADATA],
    )


def test_each_named_item_is_one_model_in_id_order(harvested: Harvest) -> None:
    assert [m.id for m in harvested.snapshots[0].models] == [
        "simple/model1", "toyorg/toy-api-large", "toyorg/toy-base-1b", "toyorg/toy-chat-7b",
        "toyorg/toy-contested", "toyorg/toy-forked-3b", "toyorg/toy-instruct-1b",
        "toyorg/toy-odd", "toyorg/toy-odder", "toyorg/toy-timestamp", "toyorg/toy-twice",
        "toyorg/toy-vlm-7b",
    ]
    # HELM's test model is kept as HELM states it; no deployment adds to it
    simple = models(harvested)["simple/model1"]
    assert (simple.maker, simple.description, simple.source) == (
        "Helm", "A test model, kept as stated.", [METADATA])


def test_a_model_stated_twice_the_same_way_is_one_model_and_no_warning(
    harvested: Harvest,
) -> None:
    assert models(harvested)["toyorg/toy-twice"].release_date == "2024-06-01"
    assert not [w for w in warned(harvested, METADATA) if w[2] == "toyorg/toy-twice"]


def test_a_model_stated_twice_differently_keeps_the_first(harvested: Harvest) -> None:
    contested = models(harvested)["toyorg/toy-contested"]
    assert (contested.display_name, contested.access) == ("Toy Contested (first)", "open")
    assert ("models[13]", "a model stated twice, differently: the first is kept",
            "toyorg/toy-contested") in warned(harvested, METADATA)


def test_items_with_no_name_are_warnings(harvested: Harvest) -> None:
    assert {("models[14]", "a model with no name", None),
            ("models[15]", "a model with no name", None)} <= warned(harvested, METADATA)


def test_deployment_names_are_aliases_deprecated_ones_too(harvested: Harvest) -> None:
    api = models(harvested)["toyorg/toy-api-large"]
    assert api.aliases == ["toyapi/toy-api-large", "toycloud/toy-api-large"]
    assert api.hub_id is None  # served by API clients: no Hugging Face id
    assert api.source == [DEPLOYMENTS, METADATA]


def test_a_transformers_deployment_without_a_repository_loads_the_model_name(
    harvested: Harvest,
) -> None:
    base = models(harvested)["toyorg/toy-base-1b"]
    assert (base.hub_id, base.aliases) == ("toyorg/toy-base-1b", ["huggingface/toy-base-1b"])


def test_two_deployments_loading_one_repository_give_it_once(harvested: Harvest) -> None:
    instruct = models(harvested)["toyorg/toy-instruct-1b"]
    assert instruct.hub_id == "ToyOrg/Toy-Instruct-1B"  # a pipeline client's too
    assert instruct.aliases == ["huggingface/toy-instruct-1b",
                                "huggingface/toy-instruct-1b-pipeline"]


def test_deployments_loading_different_repositories_give_none(harvested: Harvest) -> None:
    forked = models(harvested)["toyorg/toy-forked-3b"]
    assert forked.hub_id is None
    assert forked.aliases == ["huggingface/toy-forked-3b", "huggingface/toy-forked-3b-mirror"]
    assert ("model_deployments[model_name=toyorg/toy-forked-3b]",
            "deployments of one model that load different Hugging Face ids: none is kept",
            "ToyOrg/Toy-Forked-3B, ToyMirror/Toy-Forked-3B") in warned(harvested, DEPLOYMENTS)


def test_a_client_choosing_its_checkpoint_in_code_states_no_hub_id(harvested: Harvest) -> None:
    vlm = models(harvested)["toyorg/toy-vlm-7b"]
    # huggingface/… is a deployment name, not a repository
    assert (vlm.hub_id, vlm.aliases) == (None, ["huggingface/toy-vlm-7b-hf"])
    assert vlm.release_date == "2024-04-01"  # written under "release"


def test_a_local_checkpoint_is_no_hub_id_and_args_beside_the_client_are_not_read(
    harvested: Harvest,
) -> None:
    odd = models(harvested)["toyorg/toy-odd"]
    assert (odd.hub_id, odd.aliases) == (None, ["local/toy-odd"])


@pytest.mark.parametrize(("model", "key", "value", "reason"), [
    ("toyorg/toy-odd", "release", "2024-18-4", "not a date (YYYY-MM-DD): left out"),
    ("toyorg/toy-odder", "release_date", "2024-02-30", "not a date (YYYY-MM-DD): left out"),
    ("toyorg/toy-timestamp", "release_date", "2024-05-01 10:00:00",
     "not a date (YYYY-MM-DD): left out"),
    ("toyorg/toy-odd", "num_parameters", "7B", "not a positive whole number: left out"),
    ("toyorg/toy-odder", "num_parameters", "0", "not a positive whole number: left out"),
    ("toyorg/toy-timestamp", "num_parameters", "True", "not a positive whole number: left out"),
])
def test_a_malformed_value_is_a_warning_and_left_out(
    harvested: Harvest, model: str, key: str, value: str, reason: str
) -> None:
    assert (f"models[{model}].{key}", reason, value) in warned(harvested, METADATA)
    stated = models(harvested)[model]
    assert (stated.release_date, stated.parameters) == (None, None)


def test_blank_text_is_not_stated(harvested: Harvest) -> None:
    odd = models(harvested)["toyorg/toy-odd"]
    assert (odd.description, odd.maker, odd.access) == (None, None, "closed")


def test_a_deployment_name_two_models_share_is_an_alias_of_neither(harvested: Harvest) -> None:
    assert models(harvested)["toyorg/toy-twice"].aliases == []
    assert models(harvested)["toyorg/toy-contested"].aliases == []
    assert ("model_deployments[toyshared/toy-model]",
            "a deployment name given to several models: an alias of none",
            "toyorg/toy-contested, toyorg/toy-twice") in warned(harvested, DEPLOYMENTS)


def test_deployments_of_no_stated_model_are_warnings(harvested: Harvest) -> None:
    assert {
        ("model_deployments[huggingface/toy-unlisted].model_name",
         f"a deployment of a model {METADATA} does not state: left out", "toyorg/toy-unlisted"),
        ("model_deployments[14]", "a deployment with no name or no model_name", None),
        ("model_deployments[15]", "a deployment with no name or no model_name", None),
    } <= warned(harvested, DEPLOYMENTS)
    assert "toyorg/toy-unlisted" not in models(harvested)


def test_every_warning_is_one_listed_here(harvested: Harvest) -> None:
    assert len(warned(harvested, METADATA)) == 9
    assert len(warned(harvested, DEPLOYMENTS)) == 5


def test_a_date_in_no_calendar_unquoted_is_one_warning_not_a_traceback(tmp_path: Path) -> None:
    # YAML reads 2024-02-30 as a date, and fails to build it
    text = b"models:\n  - name: toyorg/x\n    release_date: 2024-02-30\n"
    result = with_members(tmp_path, {METADATA: text})
    assert result.snapshots[0].models == []
    ((field, reason, value),) = warned(result, METADATA)
    assert (field, reason) == (None, "not valid YAML")
    assert value is not None and "day is out of range" in value
    assert result.snapshots[0].entries  # the schemas still load


@pytest.mark.parametrize("text", [b"models: {}\n", b"models: toyorg/x\n", b"other: []\n"])
def test_a_file_with_no_list_of_models_is_one_warning(tmp_path: Path, text: bytes) -> None:
    result = with_members(tmp_path, {METADATA: text})
    assert result.snapshots[0].models == []
    assert warned(result, METADATA) == {("models", "not a list", None)}


def test_a_deployments_file_that_cannot_be_read_leaves_the_models(tmp_path: Path) -> None:
    result = with_members(tmp_path, {DEPLOYMENTS: b"model_deployments: [\xff\n"})
    assert [(field, reason) for field, reason, _ in warned(result, DEPLOYMENTS)] == [
        (None, "not UTF-8")]
    base = {m.id: m for m in result.snapshots[0].models}["toyorg/toy-base-1b"]
    assert (base.hub_id, base.aliases, base.source) == (None, [], [METADATA])


def test_no_deployments_file_no_aliases(tmp_path: Path) -> None:
    result = with_members(tmp_path, {DEPLOYMENTS: None})
    assert not warned(result, DEPLOYMENTS)
    assert all(not m.aliases and m.hub_id is None for m in result.snapshots[0].models)
    assert len(result.snapshots[0].models) == 12


def test_a_package_without_model_metadata_states_no_models(tmp_path: Path) -> None:
    result = with_members(tmp_path, {METADATA: None})
    assert result.snapshots[0].models == []
    assert not warned(result, METADATA) and not warned(result, DEPLOYMENTS)


def test_warnings_name_the_file(harvested: Harvest) -> None:
    paths = {str(p.path) for p in harvested.problems if "config" in str(p.path)}
    assert {path.rsplit(".whl/", 1)[1] for path in paths} == {METADATA, DEPLOYMENTS}


def test_reading_twice_gives_the_same_models(tmp_path: Path) -> None:
    first = harvest([build_wheel("helm", tmp_path / "a")])
    second = harvest([build_wheel("helm", tmp_path / "b", reverse=True)])
    assert first.snapshots[0].models == second.snapshots[0].models
    assert [str(p) for p in first.problems] == [
        str(p).replace("/b/", "/a/") for p in second.problems]
