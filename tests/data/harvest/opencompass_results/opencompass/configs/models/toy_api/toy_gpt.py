from opencompass.models import OpenAI

api_meta_template = dict(round=[dict(role="HUMAN", api_role="HUMAN")])

models = [
    dict(abbr="Toy-GPT-0613", type=OpenAI, path="toy-gpt-0613", key="ENV",
         meta_template=api_meta_template),
]
