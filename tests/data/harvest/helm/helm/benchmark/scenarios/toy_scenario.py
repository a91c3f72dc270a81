from datasets import load_dataset
from helm.benchmark.scenarios.scenario import Scenario


class ToyQAScenario(Scenario):
    """
    ToyQA. This docstring stands for a paper's abstract and is never harvested.
    """

    name = "toy_qa"
    description = "Toy questions."
    tags = ["question_answering", "toy"]

    def get_instances(self, output_path):
        dataset = load_dataset("toyorg/toy_qa", revision="main")
        local = load_dataset("json", data_files=output_path)
        return [dataset, local]


class ToyNotesScenario(Scenario):
    name = "toy_notes"
    description = "Toy notes from a local folder."
    tags = ["generation", "clinical"]

    def __init__(self, data_path: str):
        self.data_path = data_path
