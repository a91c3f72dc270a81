from helm.benchmark.adaptation.adapter_spec import ADAPT_MULTIPLE_CHOICE_JOINT
from helm.benchmark.adaptation.common_adapter_specs import (
    get_generation_adapter_spec,
    get_multiple_choice_adapter_spec,
)
from helm.benchmark.run_spec import RunSpec, run_spec_function
from helm.benchmark.scenarios.scenario import ScenarioSpec


@run_spec_function("toy_qa")
def get_toy_qa_spec(subject: str = "all") -> RunSpec:
    scenario_spec = ScenarioSpec(class_name="helm.benchmark.scenarios.toy_scenario.ToyQAScenario")
    adapter_spec = get_multiple_choice_adapter_spec(
        method=ADAPT_MULTIPLE_CHOICE_JOINT, instructions=""
    )
    return RunSpec(name=f"toy_qa:subject={subject}", scenario_spec=scenario_spec,
                   adapter_spec=adapter_spec, metric_specs=[], groups=["toy_qa"])


@run_spec_function("toy_notes")
def get_toy_notes_spec(data_path: str, jury_config_path: str = "") -> RunSpec:
    run_spec_name = "toy_notes"
    scenario_spec = ScenarioSpec(
        class_name="helm.benchmark.scenarios.toy_scenario.ToyNotesScenario",
        args={"data_path": data_path},
    )
    return RunSpec(name=run_spec_name, scenario_spec=scenario_spec,
                   adapter_spec=get_generation_adapter_spec(), metric_specs=[],
                   groups=[run_spec_name, f"toy_notes_{jury_config_path}"])


@run_spec_function("toy_unlinked")
def get_toy_unlinked_spec(variant: str) -> RunSpec:
    return RunSpec(name="toy_unlinked", scenario_spec=None, adapter_spec=None,
                   metric_specs=[], groups=[f"toy_{variant}"])


@run_spec_function("medhelm_toy_cited")
def get_toy_cited_spec() -> RunSpec:
    return RunSpec(
        name="medhelm_toy_cited",
        scenario_spec=ScenarioSpec(
            class_name="helm.benchmark.scenarios.toy_cited_scenario.ToyCitedScenario"
        ),
        adapter_spec=get_generation_adapter_spec(),
        metric_specs=[],
        groups=["toy_cited"],
    )
