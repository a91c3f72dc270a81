"""lmms-eval (``lmms-eval``): one entry per top-level task folder below ``lmms_eval/tasks``.

lmms-eval keeps lm-eval's layout: YAML task files with ``include:`` chains (resolved by
``includes``, ``!function`` tags kept as data by ``yaml_loader``), and sometimes a README.
Of two files one ``include:`` lists, the first's keys win, as lmms-eval merges them. A file
is what lmms-eval's own task index takes it for, on its config after includes: with
``class`` a task run by the package's own code, with ``task`` a list a group of those
members (a group written inline in the list is a group too), with ``task`` a string a task
(its ``tag`` and ``group`` are the tags lmms-eval registers it under), with neither a
template for other files to include. Files are read in sorted order: a task or group name
defined twice is kept from the first file, and the second is a warning. A tag is a tag only
by lm-eval's rule (``lm_eval.kept_tags``): one that tasks under two or more top-level folders
carry, beginning with none of their names (``math_word_problems``); any other tag is one
benchmark's handle for a set of its tasks (the older ``group:`` of a task is one), and is a
group of the tasks that carry it.

Each entry's facts are what its tasks state: their names, output types, metrics, tags, and
the datasets lmms-eval loads from the Hugging Face Hub: a ``dataset_path`` that is a dataset
id, or, where ``dataset_path`` is a file reader (``parquet``), each of ``data_files`` that is
a Hub address (``hf://datasets/ORG/NAME/…``, ``https://huggingface.co/datasets/ORG/NAME/…``).
A task with ``class`` loads its data with its own code, and a ``dataset_path`` saved with
``load_from_disk`` is a local folder: neither names a dataset here.

Modality is read from two statements only, never from a name: a task's ``dataset_kwargs``
with ``video: true`` (or ``From_YouTube: true``), on which lmms-eval fetches the dataset's
video files, is ``video``; a README line labelled ``Modality:`` or ``Modalities:``
(``Image + Text``) gives the modalities it lists.

The README gives the entry's name (its first level-1 heading), its paper, its home page and
any modalities it lists. lm-eval's reading of a README (``lm_eval_readme``) finds the paper of
a ``Paper`` section, completed by the BibTeX citation (pybtex, ``bibtex``) that names it, or
the first citation where there is no such section, and the ``Homepage:`` line. lmms-eval's
READMEs mostly state their paper on a labelled line under the title instead (``**Paper**:
[Title](https://arxiv.org/abs/…)``, ``Paper: https://…``, ``arXiv: …``); such lines are read
here as Markdown (markdown-it), by their label, from the link or address on them, as are
``Paper title:``, ``Project page:`` (``Project:``, ``Website:``: the home page where there is
no ``Homepage:``) and ``Modalities:``. The ``Paper:`` line's paper (titled by ``Paper
title:`` where its link gives no title) goes to lm-eval's reading, which checks it as it
checks a Paper section's: the first citation that names it completes it; where every
citation, or the README's Paper section, names another paper, the README contradicts
itself: a warning, and neither is harvested. Neither the README's prose nor an abstract is
harvested.

A folder that defines groups only, each running tasks or groups of one other folder (0.7.3's
``benchmark_aliases``: ``anet_qa`` runs ``activitynetqa``), is no benchmark: its groups are
that folder's entry's aliases.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from markdown_it.token import Token

from graph.ingest.harvest.archive import Archive
from graph.ingest.harvest.hub import FILE_READERS, hub_dataset
from graph.ingest.harvest.includes import KEYS, Config, IncludeResolver
from graph.ingest.harvest.lm_eval import (
    TaskFacts,
    group_name,
    kept_tags,
    task_files,
    task_members,
    task_metrics,
)
from graph.ingest.harvest.lm_eval_readme import read_readme
from graph.ingest.harvest.reader import MemberReader, Reading, names_field, text_field
from graph.ingest.harvest.text import arxiv_id
from graph.ingest.records.harness_snapshot import Dataset, Entry, Group, Harness, Paper
from graph.ingest.records.identifiers import doi_in_url
from graph.plain_text import MARKDOWN

TASKS = "lmms_eval/tasks/"
_KEYS = KEYS | {"dataset_kwargs"}
"""The keys of a task file read: lm-eval's, and ``dataset_kwargs`` (through includes too)."""
_HUB_FILE = re.compile(r"(?:hf://datasets/|https?://huggingface\.co/datasets/)"
                       r"(?P<id>[\w.-]+/[\w.-]+?)(?:@[^/]*)?/.*")
_LABELS = {
    "paper": "paper", "arxiv": "paper", "arxiv paper": "paper", "paper title": "title",
    "project page": "homepage", "project": "homepage", "website": "homepage",
    "modality": "modalities", "modalities": "modalities",
}
"""The labels a README line is read by, and what each states."""
_MODALITIES = frozenset({"image", "video", "audio", "text"})
_MODALITY_SEPARATOR = re.compile(r"\s*(?:[+,/&]|\band\b)\s*", re.IGNORECASE)
_TITLE_EDGE = re.compile(r"^[^\w\"'“‘(\[]+")
_EMPHASIS = frozenset({"strong_open", "strong_close", "em_open", "em_close"})


class LmmsEvalReader:
    harness: Harness = "lmms_eval"
    distribution = "lmms-eval"

    def read(self, archive: Archive) -> Reading:
        reading = Reading()
        reader = MemberReader(archive, reading.problems)
        members = task_members(archive, TASKS)
        readmes = {n[len(TASKS):].split("/", 1)[0]: n for n in members
                   if n.count("/") == 3 and n.rsplit("/", 1)[-1].lower() == "readme.md"}
        tasks = _Tasks(reader, IncludeResolver(reader, _KEYS, first_include_wins=True))
        tasks.read(task_files(members))
        aliases = tasks.aliases()
        entries = {folder: stated for folder, stated in sorted(tasks.folders.items())
                   if folder not in aliases.alias_folders and (stated.tasks or stated.groups)}
        kept = kept_tags({folder: stated.tags for folder, stated in entries.items()})
        for folder, stated in entries.items():
            reading.entries.append(_entry(reader, folder, stated, readmes.get(folder),
                                          aliases, kept))
        return reading


@dataclass
class _Folder(TaskFacts):
    """What the task files of one entry folder state, lm-eval's facts and the modalities."""

    modalities: list[str] = field(default_factory=list)

    def state(self, config: Config, task: str, own_code: bool) -> None:
        """Adds what one task's config states; a task run by its own code (``class``)
        states no dataset and no tags lmms-eval registers."""
        kwargs = config.get("dataset_kwargs")
        kwargs = kwargs if isinstance(kwargs, dict) else {}
        if not own_code:
            self.datasets += _datasets(text_field(config, "dataset_path"), kwargs)
            self.tags += [(tag, task) for key in ("tag", "group")
                          for tag in names_field(config, key)]
        if kwargs.get("video") is True or kwargs.get("From_YouTube") is True:
            self.modalities.append("video")
        self.formats += filter(None, [text_field(config, "output_type")])
        self.metrics += task_metrics(config)


def _datasets(path: str | None, kwargs: dict[str, Any]) -> list[Dataset]:
    """The Hub datasets a task loads: its ``dataset_path``, or the Hub's files it reads."""
    if path is None or kwargs.get("load_from_disk") is True:
        return []
    dataset = hub_dataset(path)
    if dataset is not None:
        return [dataset]
    if path.lower() not in FILE_READERS:
        return []
    found = (_HUB_FILE.fullmatch(f) for f in _strings(kwargs.get("data_files")))
    return [Dataset(id=m.group("id"), hub="huggingface") for m in found if m]


def _strings(value: Any) -> Iterator[str]:
    """The strings of ``data_files``: one, a list, or a mapping of splits to either."""
    if isinstance(value, str):
        yield value.strip()
    elif isinstance(value, list | dict):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _strings(item)


@dataclass
class _Aliases:
    """The folders that hold aliases only, and the aliases they give other folders."""

    alias_folders: set[str]
    names: dict[str, list[tuple[str, str]]]
    """Each folder's aliases, with the folder that names each."""

    def of(self, folder: str) -> list[str]:
        return [alias for alias, _ in self.names.get(folder, [])]

    def sources(self, folder: str) -> list[str]:
        return [f"{TASKS}{named_in}/" for _, named_in in self.names.get(folder, [])]


@dataclass
class _Tasks:
    """One pass over the task files, filing each task and group under its top-level folder."""

    reader: MemberReader
    resolver: IncludeResolver
    folders: dict[str, _Folder] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)
    """The folder that defines each task and top-level group, by name."""
    defined_groups: set[str] = field(default_factory=set)

    def read(self, files: list[str]) -> None:
        for name in files:
            config = self.resolver.resolve(name)
            if config is not None:
                self._file(config, name)

    def _file(self, config: Config, name: str) -> None:
        listed = config.get("task")
        if "class" in config or isinstance(listed, str):
            self._task(config, name, own_code="class" in config)
        elif isinstance(listed, list):
            self._group(config, name, top_level=True)
        elif listed is not None:
            self.reader.warn(name, "the task is neither a name nor a list", field="task",
                             value=type(listed).__name__)

    def _task(self, config: Config, name: str, own_code: bool) -> None:
        task = config.get("task")
        if not isinstance(task, str) or not task.strip():
            self.reader.warn(name, "the task name is not a string", field="task",
                             value=type(task).__name__)
            return
        if task in self.owners:
            self.reader.warn(name, "a task name an earlier file defines: the first is kept",
                             field="task", value=task)
            return
        folder = self._folder(name)
        self.owners[task] = _top(name)
        folder.tasks.append(task)
        folder.state(config, task, own_code)

    def _group(self, config: Config, name: str, top_level: bool) -> None:
        """A group and the groups written inline in its list (named within their parent,
        as lmms-eval names them: two parents may each hold a ``stem``)."""
        group = group_name(self.reader, name, config,
                           self.defined_groups if top_level else None)
        if group is None:
            return
        if top_level:
            self.defined_groups.add(group)
            self.owners.setdefault(group, _top(name))
        listed = config.get("task")
        members: list[str] = []
        for item in [listed] if isinstance(listed, str) else listed or []:
            if isinstance(item, dict) and "group" in item:
                self._group(item, name, top_level=False)
            member = item.get("group", item.get("task")) if isinstance(item, dict) else item
            members += [member] if isinstance(member, str) else []
        self._folder(name).groups.append(Group(
            name=group, alias=text_field(config, "group_alias"),
            members=list(dict.fromkeys(members)),
        ))

    def _folder(self, member: str) -> _Folder:
        return self.folders.setdefault(_top(member), _Folder())

    def aliases(self) -> _Aliases:
        """The folders of groups only, each running what one other folder defines, and the
        names they give that folder."""
        alias_folders: set[str] = set()
        names: dict[str, list[tuple[str, str]]] = {}
        for folder, stated in sorted(self.folders.items()):
            targets = [t for g in stated.groups if (t := self._target(folder, g)) is not None]
            if stated.tasks or not stated.groups or len(targets) < len(stated.groups):
                continue
            alias_folders.add(folder)
            for group, target in zip(stated.groups, targets, strict=True):
                names.setdefault(target, []).append((group.name, folder))
        return _Aliases(alias_folders, names)

    def _target(self, folder: str, group: Group) -> str | None:
        """The one other folder whose tasks or groups ``group`` runs, if there is one."""
        owners = {self.owners.get(member) for member in group.members}
        owner = owners.pop() if len(owners) == 1 else None
        return owner if owner != folder else None


def _top(member: str) -> str:
    """The top-level task folder of a member below ``lmms_eval/tasks``."""
    return member[len(TASKS):].split("/", 1)[0]


@dataclass
class _Labelled:
    """What a README's labelled lines state, beside what lm-eval's template reading finds."""

    name: str | None = None
    paper: Paper | None = None
    """The first paper a ``Paper:`` (``arXiv:``) line links."""
    title: str | None = None
    """The title a ``Paper title:`` line gives that paper."""
    homepage: str | None = None
    """The first project page (``Project page:``, ``Website:``) that is an http(s) URL."""
    modalities: list[str] = field(default_factory=list)


@dataclass
class _ReadmeFacts:
    name: str | None = None
    paper: Paper | None = None
    homepage: str | None = None
    modalities: list[str] = field(default_factory=list)


def _entry(reader: MemberReader, folder: str, stated: _Folder, readme: str | None,
           aliases: _Aliases, kept: set[str]) -> Entry:
    text = reader.text(readme) if readme else None
    facts = _readme(reader, readme, text) if readme and text else _ReadmeFacts()
    return stated.entry(
        kept,
        id=folder,
        name=facts.name or folder,
        aliases=aliases.of(folder),
        papers=[facts.paper] if facts.paper else [],
        homepage=facts.homepage,
        modalities=stated.modalities + facts.modalities,
        source=[f"{TASKS}{folder}/", *([readme] if readme else []), *aliases.sources(folder)],
    )


def _readme(reader: MemberReader, name: str, text: str) -> _ReadmeFacts:
    """The README's facts: lm-eval's reading of it (its Paper section, checked with the
    ``Paper:`` line against its citations, and its ``Homepage:``), with what the lines
    lm-eval's template has no place for state."""
    labelled = _labelled_lines(reader, name, text)
    line = labelled.paper
    if line is not None and line.title is None and labelled.title:
        line = line.model_copy(update={"title": labelled.title})
    template, _ = read_readme(reader, name, text, paper_line=line)
    return _ReadmeFacts(
        name=labelled.name,
        paper=template.paper,
        homepage=template.homepage or labelled.homepage,
        modalities=labelled.modalities,
    )


def _labelled_lines(reader: MemberReader, name: str, text: str) -> _Labelled:
    """The README's first level-1 heading and its labelled lines (see ``_LABELS``)."""
    facts = _Labelled()
    tokens = MARKDOWN.parse(text)
    for index, token in enumerate(tokens):
        if token.type != "inline":
            continue
        opener = tokens[index - 1] if index else None
        if opener is not None and opener.type == "heading_open":
            if opener.tag == "h1" and facts.name is None:
                facts.name = _plain(token.children or []) or None
            continue
        for line in _lines(token.children or []):
            labelled = _labelled(line)
            if labelled is not None:
                _state(reader, name, facts, *labelled)
    return facts


def _state(reader: MemberReader, name: str, facts: _Labelled, label: str, href: str | None,
           value: str) -> None:
    """Adds what one labelled line states to ``facts``."""
    url = href or (value.split()[0] if value.startswith(("http://", "https://")) else None)
    if label == "paper" and facts.paper is None:
        facts.paper = _linked_paper(url, value if href else None)
        if facts.paper is None:
            reader.warn(name, "a paper line without a link", field="paper", value=value)
    elif label == "title":
        facts.title = facts.title or value or None
    elif label == "homepage" and facts.homepage is None:
        if url is not None and url.startswith(("http://", "https://")):
            facts.homepage = url
        else:
            reader.warn(name, "a project page line without an http(s) link",
                        field="homepage", value=value)
    elif label == "modalities":
        for part in filter(None, _MODALITY_SEPARATOR.split(value)):
            word = part.strip(" .;").lower().removesuffix("s")
            if word in _MODALITIES:
                facts.modalities.append(word)
            else:
                reader.warn(name, "not a modality (image, video, audio, text)",
                            field="modalities", value=part)


def _linked_paper(url: str | None, link_text: str | None) -> Paper | None:
    """The paper a labelled line links, titled by its link's text unless that is an address."""
    if url is None:
        return None
    arxiv, doi = arxiv_id(url), doi_in_url(url)
    title = _TITLE_EDGE.sub("", link_text or "").strip()
    if title.startswith(("http://", "https://")) or arxiv_id(title):
        title = ""
    return Paper(arxiv=arxiv, doi=doi, url=None if arxiv or doi else url, title=title or None)


def _lines(children: list[Token]) -> Iterator[list[Token]]:
    """An inline's tokens cut at its line breaks (not those inside a link's text)."""
    line: list[Token] = []
    depth = 0
    for token in children:
        depth += {"link_open": 1, "link_close": -1}.get(token.type, 0)
        if token.type in ("softbreak", "hardbreak") and depth == 0:
            yield line
            line = []
        else:
            line.append(token)
    yield line


def _labelled(line: list[Token]) -> tuple[str, str | None, str] | None:
    """A line that opens with a known label and a colon (``**Paper**: [Title](link)``): what
    the label states, the first link's target (or ``None``) and its text (or the line's
    text after the colon)."""
    prefix = ""
    for index, token in enumerate(line):
        if token.type in _EMPHASIS:
            continue
        if token.type != "text":
            return None
        head, colon, tail = token.content.partition(":")
        prefix += head
        if colon:
            label = _LABELS.get(" ".join(prefix.split()).strip(" -*").lower())
            return None if label is None else (label, *_value(tail, line[index + 1:]))
    return None


def _value(tail: str, rest: list[Token]) -> tuple[str | None, str]:
    """A labelled line's value: its first link's target and text, else (no target) its text
    after the colon, code spans as written (``Homepage: `https://…` ``)."""
    link = next((i for i, t in enumerate(rest) if t.type == "link_open"), None)
    if link is None:
        return None, " ".join((tail + _plain(rest)).split())
    end = next((i for i, t in enumerate(rest) if t.type == "link_close" and i > link),
               len(rest))
    href = rest[link].attrGet("href")
    return (href if isinstance(href, str) else None), _plain(rest[link + 1:end])


def _plain(tokens: list[Token]) -> str:
    """The text of inline tokens: text and code as written, line breaks as spaces."""
    words = (t.content if t.type in ("text", "code_inline") else
             " " if t.type in ("softbreak", "hardbreak") else "" for t in tokens)
    return " ".join("".join(words).split())
