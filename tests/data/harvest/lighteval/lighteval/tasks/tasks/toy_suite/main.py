"""
Toy Suite gathers the toy tasks in one place. These words are the harness's own.

A second paragraph, which a short description leaves out.

name:
Toy Suite

dataset:
toyorg/toy_suite

abstract:
ABSTRACT-SENTINEL

languages:
english

tags:
suite

paper:
https://arxiv.org/abs/2401.00003
Contact:
- Toy Person <toy@example.org>
"""

from lighteval.metrics.metrics import Metrics
from lighteval.tasks.lighteval_task import LightevalTaskConfig


def make_config(task_name, hf_repo, metrics, version=3):
    return LightevalTaskConfig(name=task_name, hf_repo=hf_repo, metrics=metrics, version=version)


class ToySuiteTask(LightevalTaskConfig):
    def __init__(self, name, subset):
        super().__init__(
            name=name,
            hf_repo="toyorg/toy_suite_sub",
            hf_subset=subset,
            metrics=[Metrics.bleu],
            version=3,
        )


first = make_config("toy_suite:first", "toyorg/toy_suite", [Metrics.rouge1])
second = make_config(
    task_name="toy_suite:second", hf_repo="toyorg/toy_suite", metrics=[Metrics.rouge2]
)
TASKS_TABLE = [
    first,
    second,
    ToySuiteTask("toy_suite:sub", "a"),
    *[ToySuiteTask(name=f"toy_suite:{s}", subset=s) for s in "bc"],
]
