from opencompass.openicl import ToyCountEvaluator, ToyIndexEvaluator

_by_kind = {"count": ToyCountEvaluator, "index": ToyIndexEvaluator}

toy_kinds_datasets = []
for kind in ["count", "index"]:
    toy_kinds_datasets.append(
        dict(path="./data/toy_plain/" + kind,  # computed: no path stated
             eval_cfg=dict(evaluator=dict(type=_by_kind[kind]))))
