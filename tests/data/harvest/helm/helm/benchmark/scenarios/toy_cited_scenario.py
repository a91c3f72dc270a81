"""Toy scenarios that cite their papers, where the schema states none.

@misc{quay2022module,
  title={A Paper Cited by the Module},
  author={Quay, Quinn},
  year={2022},
  doi={10.9999/toy.module}
}
"""

from helm.benchmark.scenarios.scenario import Scenario


class ToyCitedScenario(Scenario):
    """
    A toy scenario whose paper only this docstring names.

    @inproceedings{poe2025cited,
      title={Cited Toys},
      author={Poe, Paula and Roe, Richard},
      booktitle={Findings of the Toy Conference},
      year={2025},
      url={https://openreview.net/forum?id=toy}
    }
    """

    name = "toy_cited"
    description = "Toy scenario with citations."
    tags = ["toy"]
