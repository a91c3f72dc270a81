TOY_PLAIN_PATH = "toyorg/toy-plain"
TWICE = "toyorg/first"
TWICE = "toyorg/second"

toy_plain_datasets = [
    dict(abbr="toy_plain", path=TOY_PLAIN_PATH, reader_cfg=dict(),
         eval_cfg=dict(evaluator=dict(type="ToyStringEvaluator"))),
    dict(path="./data/toy_plain/test.jsonl"),
    dict(path="data/toy_plain/dev"),
    dict(path="/abs/toy_plain"),
    dict(path="json", data_files="./data/toy_plain/x.json"),
    dict(path="opencompass/toy_local"),
    dict(path="opencompass/toy_bad_ids"),
    dict(path="glue", name="cola"),
    dict(path="toyorg/table.csv"),
    dict(path="通用/子集"),
    dict(path=TWICE),
    dict(path=" "),
]
