from opencompass.models import HuggingFaceBaseModel

path = "toyorg/Toy-3B"

models = [
    dict(type=HuggingFaceBaseModel, abbr=path.split("/")[-1] + "-hf", path="toyorg/Toy-3B"),
]
