from opencompass.models import TurboMindModel

settings = [
    ("toy-7b-turbomind", "toyorg/Toy-7B", 1),
    ("toy-70b-turbomind", "toyorg/Toy-70B", 4),
    (None, "toyorg/Toy-1B", 1),
]

models = []
for abbr, path, num_gpus in settings:
    models.append(
        dict(
            type=TurboMindModel,
            abbr=abbr,
            path=path,
            run_cfg=dict(num_gpus=num_gpus),
        )
    )
