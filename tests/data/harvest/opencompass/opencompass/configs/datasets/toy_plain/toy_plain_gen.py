toy_plain_datasets = [dict(abbr="toy_plain")]
