from helm.benchmark.adaptation.adapter_spec import (
    ADAPT_GENERATION,
    ADAPT_MULTIPLE_CHOICE_JOINT,
    AdapterSpec,
)


def get_multiple_choice_joint_adapter_spec(instructions: str) -> AdapterSpec:
    return AdapterSpec(method=ADAPT_MULTIPLE_CHOICE_JOINT, instructions=instructions)


def get_multiple_choice_adapter_spec(method: str, instructions: str) -> AdapterSpec:
    if method == ADAPT_MULTIPLE_CHOICE_JOINT:
        return get_multiple_choice_joint_adapter_spec(instructions)
    return AdapterSpec(method=method)


def get_generation_adapter_spec(max_tokens: int = 5) -> AdapterSpec:
    return AdapterSpec(method=ADAPT_GENERATION, max_tokens=max_tokens)
