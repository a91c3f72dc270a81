"""lm-eval (``lm-eval``): one entry per task folder below ``lm_eval/tasks``.

A top-level folder (``gsm8k``, ``mmlu``) is a benchmark, and so is a folder deeper down
that has a README of its own (``afrobench/adr``: one benchmark of a suite); every task file
belongs to the nearest of them above it. The entry's sub-tasks are the tasks its files
define; its groups are the ``group`` files (and groups written inline in them) with their
members; its datasets, metrics, output types and tags are all its tasks state, after their
``include:`` chains are resolved (``includes``). Its name and paper come from the README
(``lm_eval_readme``); the README's abstract is never harvested.

Files are read in sorted order, as lm-eval reads them: a task name defined twice is kept
from the first file, and the second is a warning. A file that defines neither a task nor
a group is a template for others to include, and is no entry of its own.
"""

from dataclasses import dataclass, field

from graph.harvest.archive import Archive
from graph.harvest.hub import hub_dataset
from graph.harvest.includes import Config, IncludeResolver
from graph.harvest.lm_eval_readme import readme_paper
from graph.harvest.reader import MemberReader, Reading, names_field, text_field
from graph.harvest.text import first_heading
from graph.records.harness_snapshot import Dataset, Entry, Group, Harness, Metric

TASKS = "lm_eval/tasks/"
_IGNORED_FOLDERS = frozenset({"__pycache__", ".ipynb_checkpoints"})


@dataclass
class _Folder:
    """What the task files of one entry folder state, gathered as they are read."""

    tasks: list[str] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    datasets: list[Dataset] = field(default_factory=list)
    metrics: list[Metric] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)

    def state(self, config: Config) -> None:
        """Adds what one task's config states: its dataset, output type, metrics, tags."""
        path = text_field(config, "dataset_path")
        dataset = hub_dataset(path) if path else None
        self.datasets += [dataset] if dataset else []
        self.formats += filter(None, [text_field(config, "output_type")])
        self.tags += names_field(config, "tag")
        metrics = config.get("metric_list")
        for item in metrics if isinstance(metrics, list) else []:
            name = text_field(item, "metric") if isinstance(item, dict) else None
            if name:  # a metric given as !function names code, not a metric
                higher = item.get("higher_is_better")
                lower = (not higher) if isinstance(higher, bool) else None
                self.metrics.append(Metric(name=name, lower_is_better=lower))


class LmEvalReader:
    harness: Harness = "lm_eval"
    distribution = "lm-eval"

    def read(self, archive: Archive) -> Reading:
        reading = Reading()
        reader = MemberReader(archive, reading.problems)
        members = [n for n in archive.below(TASKS)
                   if not _IGNORED_FOLDERS.intersection(n.split("/"))]
        readmes = {n[len(TASKS):].rsplit("/", 1)[0]: n for n in members
                   if n.rsplit("/", 1)[-1].lower() == "readme.md" and n.count("/") > 2}
        folders: dict[str, _Folder] = {}
        _Tasks(reader, IncludeResolver(reader), folders, set(readmes)).read(
            [n for n in members if n.endswith(".yaml") and n.count("/") > 2]
        )
        for folder, stated in sorted(folders.items()):
            if stated.tasks or stated.groups:
                reading.entries.append(_entry(reader, folder, stated, readmes.get(folder)))
        return reading


@dataclass
class _Tasks:
    """One pass over the task files, filing each task and group under its entry folder."""

    reader: MemberReader
    resolver: IncludeResolver
    folders: dict[str, _Folder]
    readme_folders: set[str]
    defined: set[str] = field(default_factory=set)
    defined_groups: set[str] = field(default_factory=set)
    inline: list[tuple[Config, str]] = field(default_factory=list)

    def read(self, files: list[str]) -> None:
        for name in files:
            config = self.resolver.resolve(name)
            if config is not None:
                self._file(config, name)
        for config, written_in in self.inline:
            resolved = self.resolver.resolve_inline(config, written_in)
            if resolved is not None:
                self._task(resolved, written_in, inline=True)

    def _file(self, config: Config, name: str) -> None:
        if "class" in config or ("task" in config and "group" not in config):
            self._task(config, name, inline=False)
        elif "group" in config:
            self._group(config, name, top_level=True)

    def _task(self, config: Config, name: str, inline: bool) -> None:
        task = config.get("task")
        if task is not None and not isinstance(task, str):
            self.reader.warn(name, "the task name is not a string", field="task",
                             value=type(task).__name__)
            return
        if task is not None and task in self.defined:
            if not inline:
                self.reader.warn(name, "a task name an earlier file defines: the first is kept",
                                 field="task", value=task)
            return
        folder = self._folder(name)
        if task is not None:
            self.defined.add(task)
            folder.tasks.append(task)
        folder.state(config)

    def _group(self, config: Config, name: str, top_level: bool) -> None:
        """A group file's group, and the groups written inline in its list. An inline group
        is named within its parent: two parents may each define a ``stem``, and the entry
        keeps the first (only group files share one name space, as in lm-eval)."""
        group = config.get("group")
        if not isinstance(group, str) or not group.strip():
            self.reader.warn(name, "the group name is not a string", field="group")
            return
        if top_level and group in self.defined_groups:
            self.reader.warn(name, "a group name an earlier file defines: the first is kept",
                             field="group", value=group)
            return
        self.defined_groups.add(group)
        members: list[str] = []
        listed = config.get("task")
        for item in [listed] if isinstance(listed, str) else listed or []:
            if isinstance(item, str):
                members.append(item)
            elif isinstance(item, dict) and "group" in item:
                self._group(item, name, top_level=False)
                members += [item["group"]] if isinstance(item["group"], str) else []
            elif isinstance(item, dict):
                members += [item["task"]] if isinstance(item.get("task"), str) else []
                if "include" in item or "dataset_path" in item:  # defines a task, not just
                    self.inline.append((item, name))             # adjusts one
        folder = self._folder(name)
        folder.groups.append(Group(name=group, alias=text_field(config, "group_alias"),
                                   members=list(dict.fromkeys(members))))
        folder.tags += names_field(config, "tag")

    def _folder(self, member: str) -> _Folder:
        """The entry folder a task file belongs to: the nearest above it with a README,
        else its top-level folder below ``lm_eval/tasks``."""
        parts = member[len(TASKS):].split("/")[:-1]
        owner = parts[0]
        for depth in range(len(parts), 1, -1):
            candidate = "/".join(parts[:depth])
            if candidate in self.readme_folders:
                owner = candidate
                break
        return self.folders.setdefault(owner, _Folder())


_TEMPLATE_HEADING = "task-name"
"""The heading of lm-eval's README template (``# Task-name``): a README that keeps it names no
benchmark (13 folders of lm-eval 0.4.13 do), so the folder's name stands for it instead."""


def _entry(reader: MemberReader, folder: str, stated: _Folder, readme: str | None) -> Entry:
    text = reader.text(readme) if readme else None
    paper = readme_paper(text) if text else None
    heading = first_heading(text) if text else None
    if heading is not None and heading.casefold() == _TEMPLATE_HEADING:
        heading = None
    return Entry(
        id=folder,
        name=heading or folder.rsplit("/", 1)[-1],
        papers=[paper] if paper else [],
        datasets=stated.datasets,
        metrics=stated.metrics,
        task_formats=stated.formats,
        tags=stated.tags,
        tasks=stated.tasks,
        groups=stated.groups,
        source=[f"{TASKS}{folder}/", *([readme] if readme else [])],
    )

