"""evalscope (ModelScope's harness): one entry per benchmark's ``benchmarks/_meta/NAME.json``.

evalscope ships one JSON file per registered benchmark, written out from the benchmark's
``BenchmarkMeta``: its ``meta`` (``pretty_name``, ``dataset_id``, ``paper_url``, ``tags``,
``metrics``, ``primary_metric``, ``subset_list``, ``category``, ``description``) and the
``statistics`` evalscope computed over the data (``subset_stats`` with each subset's
``sample_count``, and ``multimodal`` with ``has_images``/``has_audio``/``has_video``). The
file's name is the benchmark's name in evalscope, and the entry's id. Each fact is read from
it as written:

- ``name``: ``pretty_name``; ``tasks``: the benchmark's name (what ``evalscope eval
  --datasets`` takes) and its ``subset_list`` (what ``subset_list`` in its dataset arguments
  takes; ``default``, the one subset of a benchmark that has no others, names nothing to
  choose and is left out); ``tags``: ``tags``; ``categories``: ``category`` (``llm``,
  ``vlm``, ``agent``, ``aigc``).
- ``description``: the first paragraph under the description's ``## Overview`` heading (the
  first paragraph when it has none), cut by ``short_description``, Markdown kept as written.
  evalscope writes its own overviews; where one copies a paper's abstract, no more than that
  short cut of it is kept, and no other section (task, features, notes) is read out.
- ``papers``, in this order: ``paper_url``; then the description's links, in order, that go
  to arXiv or are labelled ``Paper``; then any other arXiv id its prose cites (``arXiv:ID``;
  not in code blocks, which hold prompts and citations). An arXiv link gives ``arxiv``, a
  doi.org link ``doi``, any other link ``url`` (evalscope's word is that the link is the
  paper: a repository given as ``paper_url`` stays a paper's link). A BibTeX entry in the
  description (``graph.ingest.harvest.bibtex``) completes the stated paper it names, and one that
  names none of them is a warning; where no paper is stated otherwise, each is a paper.
- ``homepage``: the first description link labelled ``Homepage``, ``Project page`` or
  ``Website``.
- ``metrics``: ``metrics`` (a name, or ``{name: settings}``); the one ``primary_metric``
  names is ``main`` (matched by name, else by name in any case, else added as it is named).
- ``sample_counts``: ``statistics.subset_stats``, by the subset name the statistics use.
  ``total_samples`` is their sum and is not kept (it is 0 where none were computed).
- ``modalities``: ``image``, ``audio``, ``video`` where ``statistics.multimodal`` says so.

``datasets``: ``dataset_id`` is "the dataset id on modelscope" (``BenchmarkMeta``'s own
word), so an ``owner/name`` there is a ModelScope dataset, kept with no ``hub`` while
``Dataset.hub`` has no value for ModelScope; a URL or a bare placeholder (``general_qa``, a
local dataset the user supplies) names no hub dataset and is left out. The meta files lack
one fact the adapters state: ``hf_dataset_id``, the dataset's Hugging Face id. It is read
from the adapter module ``evalscope/benchmarks/_index.json`` names for the benchmark, in its
``BenchmarkMeta(name='NAME', ...)`` call (a literal, or a module-level constant), as a syntax
tree and never run; that module is then among the entry's sources. Where both hubs use the
same id, the id is kept once, on Hugging Face.

A file that cannot be read, and a value of the wrong shape (a metric that is no name, a
subset's count that is no count), is one warning; the rest of the file, and every other
file, still loads.

No file states aliases or languages (``Chinese`` and ``MultiLingual`` are tags), and none
are made up.
"""

import ast
import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from markdown_it.token import Token

from graph.ingest.harvest import pyast
from graph.ingest.harvest.archive import Archive
from graph.ingest.harvest.bibtex import Citation, check, citations
from graph.ingest.harvest.hub import hub_dataset
from graph.ingest.harvest.reader import MemberReader, Reading, names_field, text_field
from graph.ingest.harvest.text import arxiv_id, arxiv_ids, short_description
from graph.ingest.records.harness_snapshot import (
    Dataset,
    Entry,
    Harness,
    Metric,
    Paper,
    SampleCount,
)
from graph.ingest.records.identifiers import doi
from graph.plain_text import MARKDOWN

BENCHMARKS = "evalscope/benchmarks/"
META = re.compile(r"evalscope/benchmarks/_meta/(?P<name>[^/]+)\.json")
INDEX = f"{BENCHMARKS}_index.json"
DEFAULT_SUBSET = "default"
"""The subset name of a benchmark evalscope does not divide."""
MODELSCOPE_HUB: Literal["modelscope"] = "modelscope"
"""The ``Dataset.hub`` of a ModelScope id (``BenchmarkMeta``'s "dataset id on modelscope")."""

_MODELSCOPE_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")
_MODULE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_PAPER_LABEL = "paper"
_HOMEPAGE_LABELS = frozenset({"homepage", "project page", "website"})
_MODALITIES = (("has_images", "image"), ("has_audio", "audio"), ("has_video", "video"))


class EvalScopeReader:
    harness: Harness = "evalscope"
    distribution = "evalscope"

    def read(self, archive: Archive) -> Reading:
        reading = Reading()
        reader = MemberReader(archive, reading.problems)
        metas = [(name, found.group("name")) for name in archive.names
                 if (found := META.fullmatch(name))]
        if not metas:
            return reading
        adapters = _Adapters(reader)
        for name, benchmark in metas:
            data = _json_object(reader, name)
            meta = data.get("meta") if data is not None else None
            if isinstance(meta, dict) and data is not None:
                reading.entries.append(
                    _entry(reader, name, benchmark, meta, data.get("statistics"), adapters))
            elif data is not None:
                reader.warn(name, "no meta object", field="meta", value=_shown(meta))
        return reading


def _json_object(reader: MemberReader, name: str) -> dict[str, Any] | None:
    """The member's JSON object, or ``None`` and a warning."""
    text = reader.text(name)
    if text is None:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        reader.warn(name, "not valid JSON",
                    value=f"line {error.lineno}, column {error.colno}: {error.msg}")
        return None
    if not isinstance(data, dict):
        reader.warn(name, "not a JSON object", value=type(data).__name__)
        return None
    return data


@dataclass(frozen=True)
class _AdapterFacts:
    """What a benchmark's ``BenchmarkMeta(...)`` call adds to its meta file."""

    hf_dataset_id: str
    source: str


class _Adapters:
    """The adapter modules ``_index.json`` names, each parsed once, for their
    ``BenchmarkMeta`` calls."""

    def __init__(self, reader: MemberReader) -> None:
        self.reader = reader
        self.modules: dict[str, str] = {}
        self.trees: dict[str, ast.Module | None] = {}
        index: dict[str, Any] = {}
        if INDEX in reader.archive:
            index = _json_object(reader, INDEX) or {}
        else:
            reader.warn(INDEX, "not in the package: no adapter module is read")
        for benchmark, module in sorted(index.items()):
            member = self._member(benchmark, module)
            if member is not None:
                self.modules[benchmark] = member

    def _member(self, benchmark: str, module: Any) -> str | None:
        if not isinstance(module, str) or not _MODULE.fullmatch(module):
            self.reader.warn(INDEX, "not a module name", field=benchmark, value=str(module))
            return None
        path = module.replace(".", "/")
        for member in (f"{path}.py", f"{path}/__init__.py"):
            if member in self.reader.archive:
                return member
        self.reader.warn(INDEX, "names a module that is not in the package", field=benchmark,
                         value=module)
        return None

    def facts(self, benchmark: str) -> _AdapterFacts | None:
        member = self.modules.get(benchmark)
        if member is None:
            return None
        if member not in self.trees:
            self.trees[member] = pyast.parse_module(self.reader, member)
        tree = self.trees[member]
        call = _benchmark_meta(tree, benchmark) if tree is not None else None
        value = pyast.keyword(call, "hf_dataset_id") if call is not None else None
        if isinstance(value, ast.Name) and tree is not None:
            hf_id = _module_strings(tree).get(value.id)
        else:
            hf_id = pyast.string(value)
        return _AdapterFacts(hf_id.strip(), member) if hf_id and hf_id.strip() else None


def _benchmark_meta(tree: ast.Module, benchmark: str) -> ast.Call | None:
    """The ``BenchmarkMeta(...)`` call whose literal ``name`` is ``benchmark``."""
    for call in pyast.calls(tree):
        if (pyast.call_name(call) == "BenchmarkMeta"
                and pyast.string(pyast.keyword(call, "name")) == benchmark):
            return call
    return None


def _module_strings(tree: ast.Module) -> dict[str, str]:
    """The module-level names assigned a string literal exactly once (``ID = 'org/x'``)."""
    assigned: dict[str, list[str | None]] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(pyast.string(statement.value))
    return {name: values[0] for name, values in assigned.items()
            if len(values) == 1 and values[0] is not None}


def _entry(reader: MemberReader, name: str, benchmark: str, meta: dict[str, Any],
           statistics: Any, adapters: _Adapters) -> Entry:
    pretty = text_field(meta, "pretty_name")
    if pretty is None:
        reader.warn(name, "no pretty_name: the benchmark's name stands for it",
                    field="meta.pretty_name")
    text = text_field(meta, "description")
    description = _Description.of(text) if text else _Description(None, ())
    adapter = adapters.facts(benchmark)
    stats = _statistics(reader, name, statistics)
    return Entry(
        id=benchmark,
        name=pretty or benchmark,
        description=short_description(description.overview),
        papers=_papers(reader, name, meta, description, text or ""),
        datasets=_datasets(meta, adapter),
        metrics=_metrics(reader, name, meta),
        tags=names_field(meta, "tags"),
        categories=names_field(meta, "category"),
        tasks=[benchmark, *(subset for subset in names_field(meta, "subset_list")
                            if subset != DEFAULT_SUBSET)],
        sample_counts=_sample_counts(reader, name, stats),
        homepage=description.homepage(),
        modalities=_modalities(stats),
        source=[name, *([adapter.source] if adapter else [])],
    )


@dataclass(frozen=True)
class _Description:
    """A description's Markdown as parsed: its overview paragraph, its links in order as
    (label, target), and its prose (the text of its paragraphs, lists, tables and headings;
    not its code blocks)."""

    overview: str | None
    links: tuple[tuple[str, str], ...]
    prose: str = ""

    @staticmethod
    def of(markdown: str) -> "_Description":
        tokens = MARKDOWN.parse(markdown)
        paragraphs: list[str] = []
        overview: str | None = None
        links: list[tuple[str, str]] = []
        for index, token in enumerate(tokens):
            if token.type != "inline":
                continue
            before = tokens[index - 1].type if index else ""
            if before == "paragraph_open":
                paragraphs.append(token.content)
            elif before == "heading_open" and token.content.strip().lower() == "overview":
                overview = overview or _next_paragraph(tokens, index)
            links += _inline_links(token.children or [])
        prose = "\n".join(token.content for token in tokens if token.type == "inline")
        return _Description(overview or (paragraphs[0] if paragraphs else None), tuple(links),
                            prose)

    def homepage(self) -> str | None:
        return next((target for label, target in self.links
                     if label.lower() in _HOMEPAGE_LABELS and _is_http(target)), None)


def _next_paragraph(tokens: list[Token], heading: int) -> str | None:
    """The first paragraph after the heading at ``heading``, before the next heading."""
    for index in range(heading + 1, len(tokens) - 1):
        if tokens[index].type == "heading_open":
            return None
        if tokens[index].type == "paragraph_open":
            return tokens[index + 1].content
    return None


def _inline_links(children: list[Token]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    label: list[str] | None = None
    target = ""
    for child in children:
        if child.type == "link_open":
            label, target = [], str(child.attrs.get("href") or "")
        elif child.type == "link_close" and label is not None:
            found.append((" ".join("".join(label).split()), target))
            label = None
        elif label is not None:
            label.append(child.content)
    return found


def _is_http(link: str) -> bool:
    return link.startswith(("http://", "https://"))


def _paper_at(link: str) -> Paper | None:
    """The paper a link names: by arXiv id, by DOI, else by the link itself."""
    link = link.strip()
    if found := arxiv_id(link):
        return Paper(arxiv=found)
    if found := doi(link):
        return Paper(doi=found)
    return Paper(url=link) if _is_http(link) else None


def _papers(reader: MemberReader, name: str, meta: dict[str, Any],
            description: _Description, text: str) -> list[Paper]:
    stated: list[Paper | None] = []
    link = text_field(meta, "paper_url")
    if link is not None:
        stated.append(_paper_at(link))
        if stated[-1] is None:
            reader.warn(name, "not a link to a paper", field="meta.paper_url", value=link)
    stated += [_paper_at(target) for label, target in description.links
               if label.lower() == _PAPER_LABEL or arxiv_id(target)]
    stated += [Paper(arxiv=found) for found in arxiv_ids(description.prose)]
    papers: dict[tuple[str, ...], Paper] = {}
    for paper in stated:
        if paper is not None:
            papers.setdefault((paper.arxiv or "", paper.doi or "", paper.url or ""), paper)
    return _cited(reader, name, list(papers.values()), text)


def _cited(reader: MemberReader, name: str, papers: list[Paper], text: str) -> list[Paper]:
    """The papers with what the description's BibTeX entries add to the ones they name; where
    no paper is stated otherwise, each entry is a paper of its own."""
    found, unread = citations(text)
    for entry in unread:
        reader.warn(name, "a BibTeX entry that cannot be read", field="meta.description",
                    value=f"{entry.text} {entry.reason}")
    alone = not papers
    for citation in found:
        if alone:
            paper = check(None, citation)
            papers += [paper] if paper else []
        elif not _complete(papers, citation):
            reader.warn(name, "a BibTeX entry that names none of the papers stated",
                        field="meta.description", value=citation.describe())
    return papers


def _complete(papers: list[Paper], citation: Citation) -> bool:
    """Completes the first paper ``citation`` names, trying those that state an id or a
    title before those known by a link only; whether it named one."""
    for index in sorted(range(len(papers)), key=lambda i: not _identified(papers[i])):
        completed = check(papers[index], citation)
        if completed is not None:
            papers[index] = completed
            return True
    return False


def _identified(paper: Paper) -> bool:
    return bool(paper.arxiv or paper.doi or paper.title)


def _datasets(meta: dict[str, Any], adapter: _AdapterFacts | None) -> list[Dataset]:
    """The adapter's Hugging Face id first (where it is the same id, that hub is stated), then
    the meta's ModelScope id."""
    found: list[Dataset] = []
    hugging_face = hub_dataset(adapter.hf_dataset_id) if adapter else None
    found += [hugging_face] if hugging_face else []
    modelscope = text_field(meta, "dataset_id")
    if modelscope and _MODELSCOPE_ID.fullmatch(modelscope):
        found.append(Dataset(id=modelscope, hub=MODELSCOPE_HUB))
    return found


def _metrics(reader: MemberReader, name: str, meta: dict[str, Any]) -> list[Metric]:
    listed = meta.get("metrics")
    if not isinstance(listed, list):
        if listed is not None:
            reader.warn(name, "metrics is not a list", field="meta.metrics",
                        value=type(listed).__name__)
        listed = []
    names: list[str] = []
    for index, item in enumerate(listed):
        metric = _metric_name(item)
        if metric is None:
            reader.warn(name, "a metric that is neither a name nor a {name: settings} object",
                        field=f"meta.metrics[{index}]", value=_shown(item))
        names += [metric] if metric else []
    primary = _primary(reader, name, meta.get("primary_metric"))
    main = _main(names, primary)
    if primary is not None and main is None:
        names.append(main := primary)
    return [Metric(name=metric, main=metric == main) for metric in names]


def _metric_name(item: Any) -> str | None:
    if isinstance(item, dict) and len(item) == 1:
        item = next(iter(item))
    return item.strip() or None if isinstance(item, str) else None


def _primary(reader: MemberReader, name: str, selector: Any) -> str | None:
    """The metric ``primary_metric`` names: a name, or ``{"name": ..., ...}``."""
    if selector is None:
        return None
    primary = text_field(selector, "name") if isinstance(selector, dict) else (
        selector.strip() or None if isinstance(selector, str) else None)
    if primary is None:
        reader.warn(name, "a primary metric with no name", field="meta.primary_metric",
                    value=_shown(selector))
    return primary


def _main(names: list[str], primary: str | None) -> str | None:
    """The listed metric ``primary`` names: the same name, else the one name that differs
    from it only in case."""
    if primary is None or primary in names:
        return primary
    folded = [metric for metric in names if metric.casefold() == primary.casefold()]
    return folded[0] if len(set(folded)) == 1 else None


def _statistics(reader: MemberReader, name: str, statistics: Any) -> dict[str, Any]:
    if statistics is not None and not isinstance(statistics, dict):
        reader.warn(name, "statistics is not an object", field="statistics",
                    value=type(statistics).__name__)
    return statistics if isinstance(statistics, dict) else {}


def _sample_counts(reader: MemberReader, name: str,
                   statistics: dict[str, Any]) -> list[SampleCount]:
    subsets = statistics.get("subset_stats")
    counts: list[SampleCount] = []
    for index, subset in enumerate(subsets if isinstance(subsets, list) else []):
        task = text_field(subset, "name") if isinstance(subset, dict) else None
        samples = subset.get("sample_count") if isinstance(subset, dict) else None
        if task is None or isinstance(samples, bool) or not isinstance(samples, int) \
                or samples < 0:
            reader.warn(name, "a subset's statistics without a name and a sample count",
                        field=f"statistics.subset_stats[{index}]", value=_shown(subset))
            continue
        counts.append(SampleCount(task=task, samples=samples))
    return counts


def _modalities(statistics: dict[str, Any]) -> list[str]:
    stated = statistics.get("multimodal")
    if not isinstance(stated, dict):
        return []
    return [modality for key, modality in _MODALITIES if stated.get(key) is True]


def _shown(value: Any) -> str:
    """A JSON value in a warning, the same text for the same value, cut short."""
    shown = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return shown if len(shown) <= 120 else shown[:119] + "…"
