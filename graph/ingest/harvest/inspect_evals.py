"""inspect_evals (``inspect-evals``): one entry per eval listing, ``inspect_evals/NAME/eval.yaml``.

A listing states the eval's ``title``, ``description``, paper link (its ``arxiv`` key),
``group`` (a category), ``tags``, ``contributors``, ``version``, its ``tasks`` with
``dataset_samples`` and any ``human_baseline``, what it needs to run (``metadata.sandbox``:
the parts of the eval that run in a sandbox, ``solver`` or ``scorer``;
``metadata.requires.internet``) and its ``external_assets``. The ``eval.yaml`` files deeper
down (one per Cybench challenge) are the challenges' own settings, not listings of an eval,
and are not read.

The paper link is kept as the kind of link it is: an arXiv link (or several, with commas) as
arXiv ids, a DOI link as the DOI, any other http(s) link as the paper's ``url`` (an OpenReview
page, a lab's report, and for a few evals a Hugging Face dataset card: what the listing gives
as its reference). The citation in the eval's ``README.md`` (BibTeX) adds its title,
authors, year and venue to that paper when it names it (the same arXiv id, DOI or title); a
citation that names another paper is a warning naming both, and left out. A paper still
untitled takes the title the README states as the text of its link to it
(``graph.ingest.harvest.link_titles``: ``- Paper: [Title](arxiv link)``).

The external assets are the datasets the eval loads, each by the id or address the listing
writes: a Hugging Face asset by its hub id, with the listing's ``gated`` word kept verbatim
(``auto``), not turned into an access level. An asset of another type is a dataset when the
listing says the eval's own code fetches it as files: a ``direct_url`` asset fetched by
``download_and_verify``, ``gdown_and_verify``, ``gdown``, ``requests``, ``urllib``,
``wget_py`` or ``other``, from an http(s) address that is not a container or package
registry; it is kept by that address as written, placeholders (``{SHA}``) and all, with no
hub. Not data: repositories the eval clones or installs (``git_clone``, ``git_dependency``,
``pip_install_git``), and what a sandbox's Dockerfile downloads with ``curl`` or ``wget``
(runtimes, tools, model weights).
"""

import re
from typing import Any
from urllib.parse import urlsplit

from graph.ingest.harvest.archive import Archive
from graph.ingest.harvest.bibtex import check, describe
from graph.ingest.harvest.citing import merged, read_citations
from graph.ingest.harvest.hub import hub_dataset
from graph.ingest.harvest.inspect_results import read_results
from graph.ingest.harvest.link_titles import link_titles
from graph.ingest.harvest.reader import MemberReader, Reading, names_field, text_field
from graph.ingest.harvest.text import arxiv_id, arxiv_ids, short_description
from graph.ingest.records.harness_snapshot import (
    Dataset,
    Entry,
    Harness,
    HumanBaseline,
    Paper,
    Requirements,
    SampleCount,
)
from graph.ingest.records.identifiers import doi as bare_doi

LISTING = re.compile(r"inspect_evals/(?P<eval>[^/]+)/eval\.yaml")
DATA_FETCHES = frozenset({
    "download_and_verify", "gdown_and_verify", "gdown", "requests", "urllib", "wget_py", "other",
})
"""The fetch methods of inspect_evals' ``FetchMethod`` by which an eval's code loads files."""
REGISTRIES = frozenset({"hub.docker.com", "ghcr.io", "registry.npmjs.org", "pypi.org"})
"""Hosts that serve container images and packages, never a benchmark's data."""


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
    readme = name.removesuffix("eval.yaml") + "README.md"
    stated = _papers(reader, name, listing)
    papers = _cited(reader, readme, stated) if readme in reader.archive else stated
    results = read_results(reader, readme) if readme in reader.archive else []
    return Entry(
        id=eval_id,
        name=title or eval_id,
        description=short_description(text_field(listing, "description")),
        papers=papers,
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
        requirements=_requirements(reader, name, listing.get("metadata")),
        version=_version(reader, name, listing),
        results=results,
        source=[name, *([readme] if papers != stated or results else [])],
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
    """The paper the listing links: by arXiv id (some listings give several, with commas),
    by DOI, or by its address."""
    link = text_field(listing, "arxiv")
    if link is None:
        return []
    bare = arxiv_id(link)
    found = [bare] if bare else arxiv_ids(link)
    if found:
        return [Paper(arxiv=arxiv) for arxiv in found]
    if doi := bare_doi(link):
        return [Paper(doi=doi)]
    if _is_address(link):
        return [Paper(url=link)]
    reader.warn(name, "not a link to a paper", field="arxiv", value=link)
    return []


def _cited(reader: MemberReader, readme: str, stated: list[Paper]) -> list[Paper]:
    """The listing's papers with what the README's citations add; a citation of another
    paper is a warning. Where the listing links no paper, the citations are its papers. Then
    the titles the README states as its links' text."""
    text = reader.text(readme)
    papers = stated
    for citation in read_citations(reader, readme, text) if text else []:
        if (completed := merged(papers, citation)) is not None:
            papers = completed
        elif stated:
            listed = "; ".join(describe(paper, "eval.yaml") for paper in stated)
            reader.warn(readme, "a BibTeX citation of another paper than the listing links: "
                        "left out", field="citation", value=f"{citation.describe()}; {listed}")
        elif (own := check(None, citation)) is not None:
            papers = [*papers, own]
    return _titled(papers, text) if text else papers


def _titled(papers: list[Paper], readme: str) -> list[Paper]:
    """``papers``, each untitled one with the title the README states as its link's text
    (the first, where it links the paper twice)."""
    titles: dict[str, str] = {}
    for found in link_titles(readme):
        titles.setdefault(found.arxiv, found.title)
    return [paper.model_copy(update={"title": titles[paper.arxiv]})
            if paper.title is None and paper.arxiv in titles else paper for paper in papers]


def _datasets(assets: Any) -> list[Dataset]:
    found: list[Dataset] = []
    for asset in assets if isinstance(assets, list) else []:
        source = text_field(asset, "source") if isinstance(asset, dict) else None
        if source is None:
            continue
        if asset.get("type") == "huggingface":
            gated = asset.get("gated")
            dataset = hub_dataset(source, None if gated is None else str(gated))
            found += [dataset] if dataset else []
        elif _is_data(asset, source):
            found.append(Dataset(id=source))
    return found


def _is_data(asset: dict[str, Any], source: str) -> bool:
    """Whether a non-hub asset is files the eval's code fetches (the module's docstring)."""
    return (asset.get("type") == "direct_url" and asset.get("fetch_method") in DATA_FETCHES
            and _is_address(source) and urlsplit(source).hostname not in REGISTRIES)


def _is_address(text: str) -> bool:
    return text.startswith(("http://", "https://")) and " " not in text


def _requirements(reader: MemberReader, name: str, metadata: Any) -> Requirements | None:
    """``metadata.sandbox`` and ``metadata.requires.internet``; ``None`` when neither is
    stated."""
    if metadata is None:
        return None
    if not isinstance(metadata, dict):
        reader.warn(name, "metadata is not a mapping", field="metadata",
                    value=type(metadata).__name__)
        return None
    requires = metadata.get("requires")
    internet = requires.get("internet") if isinstance(requires, dict) else None
    if internet is not None and not isinstance(internet, bool):
        reader.warn(name, "internet is not true or false", field="metadata.requires.internet",
                    value=str(internet))
        internet = None
    sandbox = names_field(metadata, "sandbox")
    return Requirements(sandbox=sandbox, internet=internet) if sandbox or internet is not None \
        else None


def _version(reader: MemberReader, name: str, listing: dict[str, Any]) -> str | None:
    version = listing.get("version")
    if version is not None and not isinstance(version, str):
        reader.warn(name, "version is not a string", field="version", value=str(version))
        return None
    return text_field(listing, "version")


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
