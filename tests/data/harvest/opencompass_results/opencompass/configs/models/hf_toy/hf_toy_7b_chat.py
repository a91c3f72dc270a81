from opencompass.models import HuggingFacewithChatTemplate

models = [
    {
        "type": HuggingFacewithChatTemplate,
        "abbr": "toy-7b-chat-hf",
        "path": "toyorg/Toy-7B-Chat",
        "run_cfg": {"num_gpus": 1},
    }
]
