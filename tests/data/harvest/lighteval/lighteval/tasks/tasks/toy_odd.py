"""
dataset:
toyorg/toy_odd, not a dataset id, json

abstract:
ABSTRACT-SENTINEL

tags:

paper:
See the paper by Toy et al.
https://arxiv.org/abs/2401.00004
"""

from lighteval.metrics.metrics import Metrics
from lighteval.tasks.lighteval_task import LightevalTaskConfig

BASE = "toyorg/toy_odd"
REPO = BASE
subset = "shadowed"  # also a loop variable below: not a stated value of either
LOOP_B = None
LOOP_A = LOOP_B  # names that stand for each other: followed only so far
LOOP_B = LOOP_A


def repo_for(part):
    return f"toyorg/{part}"


TASKS_TABLE = [
    LightevalTaskConfig(name=LOOP_A, hf_repo=REPO, metrics=[Metrics.exact_match], version=1),
    LightevalTaskConfig(name="toy_odd:" + subset, hf_repo=repo_for(subset), version="2"),
]
for subset in ["a", "b"]:
    TASKS_TABLE.append(LightevalTaskConfig(name=subset, hf_repo=subset, version=True))
