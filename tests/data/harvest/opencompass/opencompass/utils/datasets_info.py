# A fixture shaped like OpenCompass's dataset mapping: keys to hub ids and local copies.
TOY_LOCAL = "./data/toy_local/"

DATASETS_MAPPING = {
    "opencompass/toybench": {
        "ms_id": "opencompass/toybench",
        "hf_id": "toyorg/toybench",
        "local": "./data/toybench/",
    },
    "opencompass/toy_local": {
        "ms_id": None,
        "hf_id": None,
        "local": TOY_LOCAL,
    },
    "opencompass/toy_ms": {
        "ms_id": "toyms/ToyMS",
        "hf_id": None,
        "local": "./data/toy_ms/",
    },
    "opencompass/toy_bad_ids": {
        "ms_id": None,
        "hf_id": 7,
        "local": "./data/toy_bad/",
    },
    "opencompass/toy_computed": dict(hf_id=TOY_LOCAL),
}

DATASETS_URL = {
    "/toybench/": {"url": "https://example.org/toybench.zip", "md5": "0" * 32},
    "/toy_plain/": {"url": "https://example.org/toy_plain_old.zip", "md5": "0" * 32},
    "/toy_plain/dev": {"url": "https://example.org/toy_plain_dev.zip", "md5": "0" * 32},
    "/toy_computed/": {"url": TOY_LOCAL + "x.zip", "md5": "0" * 32},
}
