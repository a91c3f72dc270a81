"""
name:
Toy QA Multilingual

dataset:
toyorg/toy_qa_m

abstract:
ABSTRACT-SENTINEL

languages:
english, french, chinese (simplified),
swahili

tags:
multilingual, qa

paper:
https://aclanthology.org/2099.toy-1.1/
"""

from lighteval.tasks.lighteval_task import LightevalTaskConfig
from lighteval.tasks.multilingual.utils.task_utils import get_metrics_for_formulation
from lighteval.utils.language import Language

TASKS_TABLE = [
    LightevalTaskConfig(
        name=f"toy_qa_{language.value}_{formulation}",
        hf_repo="toyorg/toy_qa_m",
        hf_subset=language.value,
        metrics=get_metrics_for_formulation(formulation, []),
    )
    for language in [Language.ENGLISH, Language.FRENCH]
    for formulation in ["mcf", "cf"]
]
