from opencompass.datasets import ToyDataset
from opencompass.evaluator import CascadeEvaluator, GenericLLMEvaluator, ToyRuleEvaluator
from opencompass.models import OpenAISDK
from opencompass.openicl.icl_evaluator import AccEvaluator, CircularEvaluator

toy_reader_cfg = dict(input_columns=["question"], output_column="answer")
with_circular = True

toy_eval_cfg = dict(evaluator=dict(type=CircularEvaluator if with_circular else AccEvaluator))

toy_cascade = dict(
    type=CascadeEvaluator,
    rule_evaluator=dict(type=ToyRuleEvaluator),
    llm_evaluator=dict(
        type=GenericLLMEvaluator,
        judge_cfg=dict(type=OpenAISDK, path="toyorg/judge-model", key="ENV"),
        dataset_cfg=dict(type=ToyDataset, path="toyorg/judged-copy", reader_cfg=toy_reader_cfg),
    ),
)

toybench_datasets = [
    dict(abbr="toybench", type=ToyDataset, path="opencompass/toybench",
         reader_cfg=toy_reader_cfg, eval_cfg=toy_eval_cfg),
    {"abbr": "toybench-hard", "type": ToyDataset, "path": "opencompass/toy_ms",
     "eval_cfg": {"evaluator": toy_cascade}},
]

for subset, scorer in [("a", AccEvaluator), ("b", CircularEvaluator)]:
    toybench_datasets.append(dict(abbr=f"toybench-{subset}", type=ToyDataset,
                                  path=f"opencompass/toybench-{subset}",
                                  eval_cfg=dict(evaluator=dict(type=scorer))))
