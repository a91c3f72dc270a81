from opencompass.models import OpenAISDKStreaming
from opencompass.utils.text_postprocessors import extract_non_reasoning_content

models = [
    dict(
        abbr="toy-gpt-0613-streaming",
        type=OpenAISDKStreaming,
        path="toy-gpt-0613",
        pred_postprocessor=dict(type=extract_non_reasoning_content),
    ),
]
