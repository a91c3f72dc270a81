"""Which dataset ids the harnesses' loaders name are datasets, and which are file readers.

lm-eval's ``dataset_path`` and HELM's ``load_dataset(...)`` pass a name to Hugging Face
``datasets.load_dataset``. Most are dataset ids (``openai/gsm8k``, or an older short name
like ``xnli``), but a few are the library's readers of local files (``json``, ``csv``): those
name no dataset, and are not harvested as one.
"""

from graph.ingest.records.harness_snapshot import Dataset

FILE_READERS = frozenset({
    "arrow", "audiofolder", "csv", "imagefolder", "json", "pandas", "parquet", "sql",
    "text", "videofolder", "webdataset", "xml",
})
"""The packaged builders of Hugging Face ``datasets`` that read files rather than a dataset."""


def hub_dataset(name: str, gated: str | None = None) -> Dataset | None:
    """The dataset a loader call names, or ``None`` for a file reader or a local path."""
    name = name.strip()
    if not name or name.lower() in FILE_READERS or name.startswith((".", "/", "~")):
        return None
    return Dataset(id=name, hub="huggingface", gated=gated)
