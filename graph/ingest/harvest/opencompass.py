"""OpenCompass (``opencompass``): one entry per dataset folder of its configs.

Each folder of ``opencompass/configs/datasets/`` is a benchmark. Its configs (Python, read as
syntax trees and never run; ``graph.ingest.harvest.opencompass_configs``) state the ``abbr`` of each
dataset they define, which name its tasks in OpenCompass's results; the ``path`` each loads;
and the evaluator classes that score it, which are the entry's metrics by class name. Its
Markdown (``graph.ingest.harvest.opencompass_readme``) gives its name (the README's heading, else
the folder's name), its description and the papers it cites.

A dataset is kept by the id the package states for it. A ``path`` that is a key of
``DATASETS_MAPPING`` (``opencompass/gsm8k``) is the dataset the mapping names: its Hugging
Face id (``hf_id``, hub ``huggingface``), else its ModelScope id (no hub: the snapshot names
no other hub); a key mapped to a local copy only names no dataset. Any other ``path`` that has
the shape of a hub id (``owner/name`` or an older short ``name``: ASCII letters, digits,
``._-``) is kept as written, with no hub, since the package does not say where it lives; a
local file or folder (``./data/...``, ``data/...``, an absolute path, a ``.jsonl`` file), a
reader of local files (``json``) and anything else is not a dataset id. In a package without
the mapping every ``path`` is read by that second rule.

The results tables of a folder's README are the entry's results
(``graph.ingest.harvest.opencompass_results``), and the package's model configs are the snapshot's
``models`` (``graph.ingest.harvest.opencompass_models``).
"""

import re

from graph.ingest.harvest import pyast
from graph.ingest.harvest.archive import Archive
from graph.ingest.harvest.citing import with_paper
from graph.ingest.harvest.hub import FILE_READERS
from graph.ingest.harvest.opencompass_configs import (
    DATASETS_INFO,
    ConfigFacts,
    Hosted,
    config_facts,
    download_for,
    downloads,
    hosted,
)
from graph.ingest.harvest.opencompass_models import model_configs, stated_models
from graph.ingest.harvest.opencompass_readme import cited_papers, lead_paragraph, own_citations
from graph.ingest.harvest.opencompass_results import Context, readme_results
from graph.ingest.harvest.opencompass_results_rules import bundled_rules
from graph.ingest.harvest.reader import MemberReader, Reading
from graph.ingest.harvest.text import first_heading
from graph.ingest.records.harness_snapshot import (
    Dataset,
    Entry,
    Harness,
    LocalData,
    Metric,
    Paper,
)

DATASETS = "opencompass/configs/datasets/"
_METADATA = re.compile(r"[^/]+\.dist-info/METADATA")
_HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*(?:/[A-Za-z0-9][\w.-]*)?", re.ASCII)
_LOCAL = (".", "/", "~", "data/")
_FILE_SUFFIX = re.compile(r"\.(json|jsonl|csv|tsv|txt|arrow|parquet|pkl|zip|tar|gz)$",
                          re.IGNORECASE)


class OpenCompassReader:
    harness: Harness = "opencompass"
    distribution = "opencompass"

    def read(self, archive: Archive) -> Reading:
        reading = Reading()
        reader = MemberReader(archive, reading.problems)
        folders: dict[str, list[str]] = {}
        for name in archive.below(DATASETS):
            parts = name[len(DATASETS):].split("/")
            if len(parts) > 1:
                folders.setdefault(parts[0], []).append(name)
        package = _Package(reader)
        for folder, members in sorted(folders.items()):
            reading.entries.append(package.entry(folder, members))
        reading.models = package.models
        return reading


class _Package:
    """What every folder's entry reads beside its own files: the dataset mapping, and the
    harness's own citation."""

    def __init__(self, reader: MemberReader) -> None:
        self.reader = reader
        module = pyast.parse_module(reader, DATASETS_INFO) if DATASETS_INFO in reader.archive \
            else None
        self.hosted: dict[str, Hosted] = hosted(reader, DATASETS_INFO, module) if module else {}
        self.archives = downloads(reader, DATASETS_INFO, module) if module else {}
        metadata = next((n for n in reader.archive.names if _METADATA.fullmatch(n)), None)
        self.own = own_citations(reader, metadata) if metadata else []
        rules = bundled_rules()
        configs = model_configs(reader)
        self.models = stated_models(reader, configs, rules.loads())
        self.results = Context(rules, rules.kinds(configs))

    def entry(self, folder: str, members: list[str]) -> Entry:
        facts, local = self._configs(members)
        markdown = _markdown(folder, members)
        readme = _readme(folder, markdown)
        texts = {name: text for name in markdown if (text := self.reader.text(name)) is not None}
        text = texts.get(readme) if readme else None
        papers, citing = self._papers(texts, readme)
        datasets = sorted((d for path in facts.paths if (d := self._dataset(path)) is not None),
                          key=lambda d: d.hub is None)  # a hub's id first, where both name it
        mapped = any(path in self.hosted and self._dataset(path) for path in facts.paths) \
            or any(data.source == DATASETS_INFO or data.download for data in local)
        return Entry(
            id=folder,
            name=(first_heading(text) if text else None) or folder,
            description=lead_paragraph(text) if text else None,
            papers=papers,
            datasets=datasets,
            metrics=[Metric(name=name) for name in facts.evaluators],
            tasks=facts.abbrs,
            needs_local_data=local,
            results=readme_results(self.reader, readme, folder, text, self.results)
            if readme and text is not None else [],
            source=[f"{DATASETS}{folder}/", *([readme] if readme and text is not None else []),
                    *citing, *([DATASETS_INFO] if mapped else [])],
        )

    def _configs(self, members: list[str]) -> tuple[ConfigFacts, list[LocalData]]:
        """What the folder's Python configs state, file by file in name order, and the local
        data each config reads."""
        facts = ConfigFacts()
        local: list[LocalData] = []
        for name in members:
            module = pyast.parse_module(self.reader, name) if name.endswith(".py") else None
            found = config_facts(module) if module is not None else ConfigFacts()
            facts.abbrs += found.abbrs
            facts.paths += found.paths
            facts.evaluators += found.evaluators
            local += self._local_data(name, found)
        return facts, local

    def _local_data(self, config: str, facts: ConfigFacts) -> list[LocalData]:
        """Where one config reads data from the user's disk, as the package states it: a
        ``path`` that is a local file or folder, a ``path`` that ``DATASETS_MAPPING`` maps to
        a local copy only, and the ``data_files`` of a reader of local files (``path='csv'``);
        each with the archive OpenCompass downloads it from when missing, if it names one.
        The config runs by its file's name."""
        run = config.rsplit("/", 1)[-1].removesuffix(".py")
        found: list[tuple[str, str, str]] = []
        for path in facts.paths:
            ids = self.hosted.get(path)
            if ids is not None and ids.local and not (ids.hf_id or ids.ms_id):
                found.append(("path", ids.local, DATASETS_INFO))
            elif ids is None and _is_local(path):
                found.append(("path", path, config))
            elif path.lower() in FILE_READERS:
                found += [("data_files", files, config) for files in facts.data_files
                          if _is_local(files)]
        return [LocalData(run_spec=run, argument=argument, path=path, source=source,
                          download=download_for(path, self.archives))
                for argument, path, source in found]

    def _papers(self, texts: dict[str, str], readme: str | None) -> tuple[list[Paper], list[str]]:
        """The papers the folder's Markdown cites, the README's first, and the files citing
        them."""
        papers: list[Paper] = []
        citing: list[str] = []
        for name in sorted(texts, key=lambda n: (n != readme, n)):
            found = cited_papers(self.reader, name, texts[name], self.own)
            citing += [name] if found else []
            for paper in found:
                papers = with_paper(papers, paper)
        return papers, citing

    def _dataset(self, path: str) -> Dataset | None:
        """The dataset a config's ``path`` names (the module's docstring), or ``None``."""
        if path in self.hosted:
            ids = self.hosted[path]
            if ids.hf_id:
                return Dataset(id=ids.hf_id, hub="huggingface")
            return Dataset(id=ids.ms_id) if ids.ms_id else None
        if _is_local(path) or path.lower() in FILE_READERS or not _HUB_ID.fullmatch(path):
            return None
        return Dataset(id=path)


def _is_local(path: str) -> bool:
    """``path`` is a file or folder on the user's disk (``./data/x``, ``data/x``, an absolute
    path, a ``.jsonl`` file)."""
    return path.startswith(_LOCAL) or _FILE_SUFFIX.search(path) is not None


def _markdown(folder: str, members: list[str]) -> list[str]:
    """The Markdown files directly in the folder."""
    top = f"{DATASETS}{folder}/"
    return [m for m in members if m.lower().endswith(".md") and "/" not in m[len(top):]]


def _readme(folder: str, markdown: list[str]) -> str | None:
    """The folder's ``README.md`` (any case), else its only Markdown file."""
    readme = f"{DATASETS}{folder}/readme.md"
    named = [m for m in markdown if m.lower() == readme.lower()]
    return named[0] if named else (markdown[0] if len(markdown) == 1 else None)

