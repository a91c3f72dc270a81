from opencompass.datasets import ToyDataset

toy_reader_cfg = dict(input_columns=["question"], output_column="answer")

toybench_datasets = [
    dict(abbr="toybench", type=ToyDataset, path="opencompass/toybench", reader_cfg=toy_reader_cfg),
    {"abbr": "toybench-hard", "type": ToyDataset},
]

for subset in ["a", "b"]:
    toybench_datasets.append(dict(abbr=f"toybench-{subset}", type=ToyDataset))
