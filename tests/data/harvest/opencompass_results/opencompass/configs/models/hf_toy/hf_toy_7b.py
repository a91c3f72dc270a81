from opencompass.models import HuggingFaceBaseModel

models = [
    dict(
        type=HuggingFaceBaseModel,
        abbr="toy-7b-hf",
        path="toyorg/Toy-7B",
        max_out_len=1024,
        run_cfg=dict(num_gpus=1),
    )
]
