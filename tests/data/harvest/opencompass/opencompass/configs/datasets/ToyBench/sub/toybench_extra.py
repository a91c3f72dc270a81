toybench_extra_datasets = [dict(abbr="toybench-extra")]
