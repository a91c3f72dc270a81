"""
name:
Toy QA

dataset:
toyorg/toy_qa, toyorg/toy_qa_extra

abstract:
ABSTRACT-SENTINEL: a paper's abstract, copied into the docstring; never harvested.

languages:
english

tags:
qa, multiple-choice

paper:
https://arxiv.org/abs/2401.00001v2.
https://doi.org/10.1234/toy.5678
https://dl.acm.org/doi/10.5555/toy.1234
https://toyorg.example/toy-qa/
https://arxiv.org/pdf/2401.00001

starred:
true
"""

from lighteval.metrics.metrics import Metrics
from lighteval.tasks.lighteval_task import LightevalTaskConfig

toy_qa = LightevalTaskConfig(
    name="toy_qa",
    prompt_function=None,
    hf_repo="toyorg/toy_qa",
    hf_subset="default",
    evaluation_splits=["test"],
    metrics=[Metrics.exact_match, Metrics.loglikelihood_acc(sample_params={"k": 1})],
    version=1,
)

toy_qa_hard = LightevalTaskConfig(
    name="toy_qa:hard",
    prompt_function=None,
    hf_repo="toyorg/toy_qa_hard",
    metrics=(Metrics.f1_score,),
    version=1,
)

TASKS_TABLE = [toy_qa, toy_qa_hard]
