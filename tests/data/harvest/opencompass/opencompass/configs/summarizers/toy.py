summarizer = dict(dataset_abbrs=["toybench"])
