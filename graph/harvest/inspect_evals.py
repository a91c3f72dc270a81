"""inspect_evals (``inspect-evals``): one entry per eval listing, ``inspect_evals/NAME/eval.yaml``.

A listing states the eval's ``title``, ``description``, ``arxiv`` link, ``group`` (a
category), ``tags``, ``contributors``, its ``tasks`` with ``dataset_samples`` and any
``human_baseline``, and its ``external_assets``: the Hugging Face datasets among them are
the entry's datasets, with the listing's ``gated`` word kept verbatim (``auto``), not turned
into an access level. The ``eval.yaml`` files deeper down (one per Cybench challenge) are
the challenges' own settings, not listings of an eval, and are not read.
"""

import re
from typing import Any

from graph.harvest.archive import Archive
from graph.harvest.hub import hub_dataset
from graph.harvest.reader import MemberReader, Reading, names_field, text_field
from graph.harvest.text import arxiv_id, arxiv_ids, short_description
from graph.records.harness_snapshot import (
    Dataset,
    Entry,
    Harness,
    HumanBaseline,
    Paper,
    SampleCount,
)

LISTING = re.compile(r"inspect_evals/(?P<eval>[^/]+)/eval\.yaml")


class InspectEvalsReader:
    harness: Harness = "inspect_evals"
    distribution = "inspect-evals"

    def read(self, archive: Archive) -> Reading:
        reading = Reading()
        reader = MemberReader(archive, reading.problems)
        for name in archive.names:
            found = LISTING.fullmatch(name)
            listing = reader.mapping(name) if found else None
            if found and listing is not None:
                reading.entries.append(_entry(reader, name, found.group("eval"), listing))
        return reading


def _entry(reader: MemberReader, name: str, eval_id: str, listing: dict[str, Any]) -> Entry:
    title = text_field(listing, "title")
    if title is None:
        reader.warn(name, "no title: the folder's name stands for it", field="title")
    tasks = _tasks(reader, name, listing.get("tasks"))
    return Entry(
        id=eval_id,
        name=title or eval_id,
        description=short_description(text_field(listing, "description")),
        papers=_papers(reader, name, listing),
        datasets=_datasets(listing.get("external_assets")),
        tags=names_field(listing, "tags"),
        categories=names_field(listing, "group"),
        contributors=names_field(listing, "contributors"),
        tasks=[task["name"] for task in tasks],
        sample_counts=[
            SampleCount(task=task["name"], samples=task["dataset_samples"]) for task in tasks
            if isinstance(task.get("dataset_samples"), int)
            and not isinstance(task["dataset_samples"], bool) and task["dataset_samples"] >= 0
        ],
        human_baselines=[b for task in tasks if (b := _baseline(reader, name, task)) is not None],
        source=[name],
    )


def _tasks(reader: MemberReader, name: str, tasks: Any) -> list[dict[str, Any]]:
    """The listing's tasks that have a name; a warning for each that has none."""
    if tasks is None:
        return []
    if not isinstance(tasks, list):
        reader.warn(name, "tasks is not a list", field="tasks", value=type(tasks).__name__)
        return []
    named: list[dict[str, Any]] = []
    for index, task in enumerate(tasks):
        if isinstance(task, dict) and text_field(task, "name"):
            named.append({**task, "name": text_field(task, "name")})
        else:
            reader.warn(name, "a task with no name", field=f"tasks[{index}]")
    return named


def _papers(reader: MemberReader, name: str, listing: dict[str, Any]) -> list[Paper]:
    link = text_field(listing, "arxiv")
    if link is None:
        return []
    bare = arxiv_id(link)
    found = [bare] if bare else arxiv_ids(link)  # some listings give several, with commas
    if not found:
        reader.warn(name, "not an arXiv link or id", field="arxiv", value=link)
    return [Paper(arxiv=arxiv) for arxiv in found]


def _datasets(assets: Any) -> list[Dataset]:
    found: list[Dataset] = []
    for asset in assets if isinstance(assets, list) else []:
        if isinstance(asset, dict) and asset.get("type") == "huggingface":
            source = text_field(asset, "source")
            gated = asset.get("gated")
            dataset = hub_dataset(source, None if gated is None else str(gated)) if source \
                else None
            found += [dataset] if dataset else []
    return found


def _baseline(reader: MemberReader, name: str, task: dict[str, Any]) -> HumanBaseline | None:
    baseline = task.get("human_baseline")
    if baseline is None:
        return None
    metric = text_field(baseline, "metric") if isinstance(baseline, dict) else None
    score = baseline.get("score") if isinstance(baseline, dict) else None
    if metric is None or isinstance(score, bool) or not isinstance(score, int | float):
        reader.warn(name, "a human baseline without a metric name and a numeric score",
                    field="human_baseline", value=task["name"])
        return None
    return HumanBaseline(task=task["name"], metric=metric, score=float(score),
                         source=text_field(baseline, "source"))
