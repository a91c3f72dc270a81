from opencompass.datasets import ToyQADataset
from opencompass.openicl.icl_evaluator import AccEvaluator

toy_qa_datasets = [
    dict(abbr="toy_qa", type=ToyQADataset, path="toyorg/toy_qa",
         eval_cfg=dict(evaluator=dict(type=AccEvaluator))),
]
