from opencompass.utils import evaluator_for

quoted_datasets = [dict(abbr="quoted", path="toyorg/quoted", reader_cfg=dict(),
                        eval_cfg=dict(evaluator=dict(type=evaluator_for("quoted"))))]
