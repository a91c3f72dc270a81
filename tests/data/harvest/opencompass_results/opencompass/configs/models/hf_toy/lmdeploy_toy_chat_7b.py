from opencompass.models import TurboMindModelwithChatTemplate

models = [
    dict(
        type=TurboMindModelwithChatTemplate,
        abbr=f"toy-7b-chat-lmdeploy",  # noqa: F541 -- an f-string with nothing in it, as written
        path="toyorg/Toy-7B-Chat",
        engine_config=dict(tp=1),
    )
]
