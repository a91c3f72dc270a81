from opencompass.models import OpenAISDK

models = [dict(abbr="toy-served", type=OpenAISDK, path="toyorg/Toy-Served", key="ENV")]
