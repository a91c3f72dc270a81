"""
name:
Toy Loop

dataset:
toyorg/toy_loop

abstract:
ABSTRACT-SENTINEL

languages:
english, french

tags:
reasoning

paper:
"""

from lighteval.metrics.metrics import Metrics
from lighteval.metrics.utils.metric_utils import SampleLevelMetricGrouping
from lighteval.tasks.lighteval_task import LightevalTaskConfig

REPO = "toyorg/toy_loop"
SUBSETS = ["easy", "hard"]
toy_names = ["toy_loop_acc", "toy_loop_f1"]

toy_metric = SampleLevelMetricGrouping(metric_name=toy_names, higher_is_better={})

# A comprehension: the f-string names are computed, so not stated; the rest is.
TASKS_TABLE = [
    LightevalTaskConfig(
        name=f"toy_loop:{subset}",
        hf_repo=REPO,
        hf_subset=subset,
        metrics=[toy_metric],
        version=0,
    )
    for subset in SUBSETS
]

# A loop: a name bound once here, and a conditional of two literals.
for subset in SUBSETS:
    name = "toy_loop:all" if subset == "easy" else f"toy_loop:all_{subset}"
    TASKS_TABLE.append(
        LightevalTaskConfig(
            name=name,
            hf_repo="toyorg/toy_loop_fr" if subset == "hard" else REPO,
            metrics=[Metrics.exact_match],
            version=0,
        )
    )
