"""lm-eval (``lm-eval``): one entry per task folder below ``lm_eval/tasks``.

A top-level folder (``gsm8k``, ``mmlu``) is a benchmark, and so is a folder deeper down
that has a README of its own (``afrobench/adr``: one benchmark of a suite); every task file
belongs to the nearest of them above it. The entry's sub-tasks are the tasks its files
define; its groups are the ``group`` files (and groups written inline in them) with their
members; its datasets, metrics, output types and tags are all its tasks state, after their
``include:`` chains are resolved (``includes``). Its name, paper and home page come from the
README (``lm_eval_readme``, with ``paper_overrides.toml`` for READMEs known to state a wrong
paper); the README's abstract is never harvested. A README that gives a paper (by arXiv id,
DOI or link) another title than an earlier README gives it is a warning: one of the two
pastes another paper's title or link.

A task's ``tag:`` is a name lm-eval runs a set of tasks by (its READMEs list them as "Task
Tags"). Most are the harness's handles for groups of its own tasks (``mmlu_flan_cot_fewshot_
humanities``, ``afrobench_MT_tasks``, ``acp_bench``): such a tag becomes a ``Group`` of the
entry, its members the tasks (and groups) that carry it, and is no tag. A tag stays a tag
only when tasks under two or more top-level folders carry it and it begins with none of
their folder names (``social_bias``, ``math_word_problems``): then it says what kind of task
they are, across benchmarks, rather than naming one benchmark's set.

Files are read in sorted order, as lm-eval reads them: a task name defined twice is kept
from the first file, and the second is a warning. A file that defines neither a task nor
a group is a template for others to include, and is no entry of its own.

lmms-eval keeps this layout, and its reader (``lmms_eval``) reads it with this module's
public parts: the task files (``task_members``, ``task_files``), a task's metrics
(``task_metrics``), a group's name (``group_name``), the rule for tags (``kept_tags``) and
the facts an entry folder's task files gather (``TaskFacts``).
"""

from dataclasses import dataclass, field
from typing import Any

from graph.ingest.harvest.archive import Archive
from graph.ingest.harvest.hub import hub_dataset
from graph.ingest.harvest.includes import Config, IncludeResolver
from graph.ingest.harvest.lm_eval_readme import Readme, read_readme
from graph.ingest.harvest.paper_overrides import PaperOverrides, ReadmeOverride, bundled_overrides
from graph.ingest.harvest.reader import MemberReader, Reading, names_field, text_field
from graph.ingest.records.harness_snapshot import Dataset, Entry, Group, Harness, Metric
from graph.titles import same_title

TASKS = "lm_eval/tasks/"
_IGNORED_FOLDERS = frozenset({"__pycache__", ".ipynb_checkpoints"})


Tagged = list[tuple[str, str | None]]
"""Each tag with the task or group that carries it (``None`` for a task with no name)."""


@dataclass
class TaskFacts:
    """What the task files of one entry folder state, gathered as they are read (lm-eval's,
    and lmms-eval's, which keeps lm-eval's layout)."""

    tasks: list[str] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    datasets: list[Dataset] = field(default_factory=list)
    metrics: list[Metric] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)
    tags: Tagged = field(default_factory=list)

    def entry(self, kept: set[str], **facts: Any) -> Entry:
        """The entry of these facts and of ``facts`` (its id, name, the README's facts, its
        sources), its tags read by ``kept`` (``kept_tags``): each tag not kept is a group
        of the tasks and groups that carry it."""
        handles: dict[str, list[str]] = {}
        for tag, carrier in self.tags:
            if tag not in kept:
                handles.setdefault(tag, []).extend([carrier] if carrier else [])
        return Entry(
            datasets=self.datasets,
            metrics=self.metrics,
            task_formats=self.formats,
            tags=[tag for tag, _ in self.tags if tag in kept],
            tasks=self.tasks,
            groups=[*self.groups, *(Group(name=tag, members=list(dict.fromkeys(members)))
                                    for tag, members in handles.items())],
            **facts,
        )


@dataclass
class _Folder(TaskFacts):
    """An lm-eval entry folder's facts, as its task files are read."""

    def state(self, config: Config) -> None:
        """Adds what one task's config states: its dataset, output type, metrics, tags."""
        path = text_field(config, "dataset_path")
        dataset = hub_dataset(path) if path else None
        self.datasets += [dataset] if dataset else []
        self.formats += filter(None, [text_field(config, "output_type")])
        self.tag(config, text_field(config, "task"))
        self.metrics += task_metrics(config)

    def tag(self, config: Config, carrier: str | None) -> None:
        self.tags += [(tag, carrier) for tag in names_field(config, "tag")]


def task_metrics(config: Config) -> list[Metric]:
    """The metrics of a task's ``metric_list``, each with its ``higher_is_better``; a metric
    given as ``!function`` names code, not a metric, and is left out."""
    metrics = config.get("metric_list")
    found: list[Metric] = []
    for item in metrics if isinstance(metrics, list) else []:
        name = text_field(item, "metric") if isinstance(item, dict) else None
        if name:
            higher = item.get("higher_is_better")
            lower = (not higher) if isinstance(higher, bool) else None
            found.append(Metric(name=name, lower_is_better=lower))
    return found


def task_members(archive: Archive, tasks: str) -> list[str]:
    """The members below the task folder ``tasks``, without Python's and Jupyter's caches."""
    return [n for n in archive.below(tasks) if not _IGNORED_FOLDERS.intersection(n.split("/"))]


def task_files(members: list[str]) -> list[str]:
    """The YAML task files among ``members``: those in a folder of the task folder."""
    return [n for n in members if n.endswith(".yaml") and n.count("/") > 2]


class LmEvalReader:
    harness: Harness = "lm_eval"
    distribution = "lm-eval"

    def __init__(self, overrides: PaperOverrides | None = None) -> None:
        self._overrides = overrides
        """The README paper overrides; ``None``: the bundled ``paper_overrides.toml``."""

    def read(self, archive: Archive) -> Reading:
        reading = Reading()
        reader = MemberReader(archive, reading.problems)
        members = task_members(archive, TASKS)
        readmes = {n[len(TASKS):].rsplit("/", 1)[0]: n for n in members
                   if n.rsplit("/", 1)[-1].lower() == "readme.md" and n.count("/") > 2}
        folders: dict[str, _Folder] = {}
        _Tasks(reader, IncludeResolver(reader), folders, set(readmes)).read(task_files(members))
        overrides = (bundled_overrides() if self._overrides is None
                     else self._overrides).for_harness(self.harness)
        kept = kept_tags({folder: stated.tags for folder, stated in folders.items()})
        for folder, stated in sorted(folders.items()):
            if stated.tasks or stated.groups:
                readme = _readme(reader, readmes.get(folder), overrides.get(folder))
                reading.entries.append(_entry(folder, stated, readme, readmes.get(folder), kept))
        _title_conflicts(reader, reading.entries, readmes)
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
        group = group_name(self.reader, name, config,
                           self.defined_groups if top_level else None)
        if group is None:
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
        folder.tag(config, group)

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


def _readme(reader: MemberReader, name: str | None, override: ReadmeOverride | None,
            ) -> Readme:
    """The README's facts. An override of an entry the package holds that changes nothing is
    a warning (the README was mended: the override is stale); one of an entry it does not
    hold does nothing, as the package may be another version."""
    text = reader.text(name) if name else None
    if name is None or text is None:
        if override is not None:
            reader.warn(name or f"{TASKS}{override.entry}/README.md", "an override in "
                        "paper_overrides.toml for an entry with no README that can be read",
                        field="trust", value=override.trust)
        return Readme()
    readme, needed = read_readme(reader, name, text, override)
    if override is not None and not needed:
        reader.warn(name, "an override in paper_overrides.toml that no longer applies: the "
                    "README states that paper without it", field="trust",
                    value=override.trust)
    return readme


def _title_conflicts(reader: MemberReader, entries: list[Entry],
                     readmes: dict[str, str]) -> None:
    """A warning on each README that gives a paper (by arXiv id, DOI or link) another title
    than an earlier README gives it: one of them pastes another paper's link or title."""
    first: dict[tuple[str, str], tuple[str, str]] = {}
    for entry in entries:
        for paper in entry.papers:
            readme, title = readmes.get(entry.id), paper.title
            if readme is None or title is None:
                continue
            for kind, value in (("arXiv", paper.arxiv), ("DOI", paper.doi), ("link", paper.url)):
                if value is None:
                    continue
                earlier, known = first.setdefault((kind, value), (readme, title))
                if not same_title(known, title):
                    reader.warn(readme, "another README gives this paper another title",
                                field="paper",
                                value=f"{kind} {value}: '{title}'; {earlier}: '{known}'")


def group_name(reader: MemberReader, name: str, config: Config,
               defined: set[str] | None) -> str | None:
    """The name of the group ``config`` (of file ``name``) defines; ``None`` and a warning
    where it is no name, or where ``defined`` (the group names earlier files define, given
    for a group file's own group) holds it: the first file's group is kept."""
    group = config.get("group")
    if not isinstance(group, str) or not group.strip():
        reader.warn(name, "the group name is not a string", field="group")
        return None
    if defined is not None and group in defined:
        reader.warn(name, "a group name an earlier file defines: the first is kept",
                    field="group", value=group)
        return None
    return group


def kept_tags(tagged: dict[str, Tagged]) -> set[str]:
    """The tags that stay tags (see the module's docstring), of the tags each entry folder's
    tasks carry: carried under two or more top-level folders, and beginning with none of
    their names."""
    where: dict[str, set[str]] = {}
    for folder, tags in tagged.items():
        for tag, _ in tags:
            where.setdefault(tag, set()).add(_handle_form(folder.split("/", 1)[0]))
    return {tag for tag, tops in where.items()
            if len(tops) > 1 and not any(_handle_form(tag).startswith(t) for t in tops)}


def _handle_form(name: str) -> str:
    return name.casefold().replace("-", "_")


def _entry(folder: str, stated: _Folder, readme: Readme, readme_name: str | None,
           kept: set[str]) -> Entry:
    return stated.entry(
        kept,
        id=folder,
        name=readme.name or folder.rsplit("/", 1)[-1],
        papers=[readme.paper] if readme.paper else [],
        homepage=readme.homepage,
        source=[f"{TASKS}{folder}/", *([readme_name] if readme_name else [])],
    )
