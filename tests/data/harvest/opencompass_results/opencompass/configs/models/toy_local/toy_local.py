from opencompass.models import InternLM, Mixtral, ModelScopeCausalLM

models = [
    dict(type=InternLM, path="./toyData/", tokenizer_path="./toyData/V7.model"),
    dict(type=Mixtral, abbr="toy-moe-32k", path="./models/toy-moe"),
    dict(type=ModelScopeCausalLM, abbr="toy-7b-ms", path="toyorg/Toy-7B-MS"),
]
