from datasets import load_dataset
from helm.benchmark.scenarios.scenario import Scenario


class ToyQAScenario(Scenario):
    r"""
    ToyQA. This docstring stands for a paper's abstract and is never harvested.

    @article{doe2024toyqa,
      title={{ToyQA}: A Benchmark of Toy Questions},
      author={Doe, Jane and M{\"u}ller, J{\"o}rg and others},
      journal={arXiv preprint arXiv:2401.00001},
      year={2024}
    }

    It also cites a paper the schema does not state for it:

    @inproceedings{roe2024other,
      title={Another Toy Paper},
      author={Roe, Richard},
      booktitle={Proceedings of the Toy Conference},
      eprint={2409.99999},
      year={2024}
    }
    """

    name = "toy_qa"
    description = "Toy questions."
    tags = ["question_answering", "toy"]

    def get_instances(self, output_path):
        dataset = load_dataset("toyorg/toy_qa", revision="main")
        local = load_dataset("json", data_files=output_path)
        return [dataset, local]


class ToyNotesScenario(Scenario):
    """
    Toy notes, cited first without the link the schema gives (so no paper it can be told to
    be), then in a malformed entry (authors separated by commas, not "and"), then by that link.

    @article{notes2023unlinked,
      title={Toy Notes Without a Link},
      author={Poe, Paula},
      year={2023}
    }

    @article{broken2023,
      title={A Malformed Entry},
      author={Richard Roe, Paula Poe, Quinn Quay, Jane Doe},
      year={2023}
    }

    @inproceedings{roe2023notes,
      title = "Toy Notes: Clinical Notes for Toys",
      author = "Roe, Richard  and
        Poe, Paula",
      booktitle = "Proceedings of the Toy Workshop",
      year = "2023",
      url = "https://aclanthology.org/2023.toy-1.1",
      pages = "1--9",
    }
    """

    name = "toy_notes"
    description = "Toy notes from a local folder."
    tags = ["generation", "clinical"]

    def __init__(self, data_path: str):
        self.data_path = data_path
