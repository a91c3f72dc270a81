"""A stand-in for alpaca_eval's constants: read as a syntax tree, never imported."""
import datasets
from huggingface_hub import hf_hub_download

raise RuntimeError("this module must never be imported by the harvest")

ANNOTATOR_CONFIG_AE1 = "alpaca_eval_gpt4"
ANNOTATOR_CONFIG_AE2 = "weighted_alpaca_eval_gpt4_turbo"
DATASET_NAME = "toy-lab".upper()


def get_toy_data(dataset="toy_baseline"):
    return datasets.load_dataset("toy-lab/toy_eval", dataset)["eval"]


def toy_difficulty():
    return hf_hub_download(repo_id="toy-lab/toy_eval_extra", filename="d.csv", repo_type="dataset")


def toy_model_file():
    return hf_hub_download(repo_id="toy-lab/toy_model", filename="w.bin")


def local_files():
    return datasets.load_dataset("json", data_files="x.json")


def computed():
    return datasets.load_dataset(DATASET_NAME)
