from opencompass.models import BailingAPI

models = [dict(path="Toy-Lite-1116", type=BailingAPI, token="")]
