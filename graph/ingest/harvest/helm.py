"""HELM (``crfm-helm``): one entry per benchmark-level run group of its suite schemas.

Each ``helm/benchmark/static/schema_SUITE.yaml`` is one suite (``classic``, ``lite``,
``medhelm``...). A run group with ``subgroups`` is an aggregate (a suite's category, such
as "Clinical Decision Support"); one without is a benchmark. A benchmark listed by several
schemas is one entry in all their suites: its name, description and taxonomy are those of
the first schema in file order, the names the others give are its aliases, and its main
metrics, papers and categories are all that any of them state.

The run specs that report to a run group (``helm_code``) give the entry its tasks (the run
spec names), task formats (adapter methods), the tags and datasets of their scenarios, and
``needs_local_data`` for a run spec that takes a ``data_path``. The wheel states no access
level and none is made up here: MedHELM's are in HELM's repository
(``graph.ingest.harvest.helm_repository``).

Papers, in the order the descriptions cite them: each arXiv id a description mentions or
links, and each link whose text is a short citation (``[(Doe et al., 2024)](url)``, also
``Doe et al. (2024)``) or ``paper``: a short citation gives the paper its ``citation`` and
``year``, the publication year the schema states. Descriptions are read as Markdown
(markdown-it), so a link is its text and its target, and one link, or one paper linked twice,
is one paper. Then the BibTeX in the docstrings of the entry's scenario classes: a citation
that names a paper the schema states adds to it what it says (authors, title, venue, year;
``graph.ingest.harvest.bibtex.check``), one that names another is a warning naming both and is left
out, and where the schema states no paper, the citations are the entry's papers. A citation
with no arXiv id or DOI of its own is the paper a docstring links on its ``Paper:`` line when
the scenario states exactly one of each (``_paired``): one citation beside one paper link
leaves no other reading. Only an arXiv link is taken so: a paper the schema states by any
other link is keyed by that link until it has a title (``graph.mapping.iris.paper_key``), and
a title read this way would move its node away from the other records that state the link.

The models HELM describes (``helm/config/model_metadata.yaml``, with the Hugging Face ids its
deployments load) are the snapshot's ``models`` (``graph.ingest.harvest.helm_models``).
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from markdown_it.token import Token

from graph.ingest.harvest.archive import Archive
from graph.ingest.harvest.bibtex import Citation, check, describe
from graph.ingest.harvest.helm_code import HelmCode, RunSpec, Scenario
from graph.ingest.harvest.helm_models import read_models
from graph.ingest.harvest.reader import MemberReader, Reading, text_field
from graph.ingest.harvest.text import arxiv_id, arxiv_ids, short_description
from graph.ingest.records.harness_snapshot import Entry, Harness, LocalData, Metric, Paper, Taxonomy
from graph.ingest.records.identifiers import doi_in_url
from graph.plain_text import MARKDOWN

SCHEMA = re.compile(r"helm/benchmark/static/schema_(?P<suite>[^/]+)\.yaml")
_UNKNOWN = frozenset({"?", "n/a"})
"""Taxonomy values by which a schema says it does not know."""
_SHORT_CITATION = re.compile(
    r"(?P<who>[^\W\d_][^\d()]*?)[\s,.]*(?:(?P<year>\d{4})|\((?P<parenthesised>\d{4})\))[a-z]?"
)
"""A link's text that cites a paper by who wrote it and its year: ``Doe et al., 2024``,
``Doe et al. 2024``, ``Doe & Roe, 2024``, ``Doe et al. (2024)`` (within parentheses or not)."""
_PAPER_LINK = "paper"
"""A link's text by which a description says the link is the paper."""


@dataclass(frozen=True)
class _Statement:
    """What one schema says about one benchmark-level run group."""

    schema: str
    suite: str
    group: dict[str, Any]
    metrics: dict[str, dict[str, Any]]
    categories: tuple[str, ...]


class HelmReader:
    harness: Harness = "helm"
    distribution = "crfm-helm"

    def read(self, archive: Archive) -> Reading:
        reading = Reading()
        reader = MemberReader(archive, reading.problems)
        statements: dict[str, list[_Statement]] = {}
        for name in archive.names:
            found = SCHEMA.fullmatch(name)
            if found:
                for statement in _read_schema(reader, name, found.group("suite")):
                    statements.setdefault(statement.group["name"], []).append(statement)
        code = HelmCode(reader)
        by_group: dict[str, list[RunSpec]] = {}
        for spec in code.run_specs():
            for group in spec.groups:
                by_group.setdefault(group, []).append(spec)
        for group_name, said in sorted(statements.items()):
            reading.entries.append(_entry(group_name, said, by_group.get(group_name, []), code))
        reading.models = read_models(reader)
        return reading


def _read_schema(reader: MemberReader, name: str, suite: str) -> list[_Statement]:
    schema = reader.mapping(name)
    if schema is None:
        return []
    groups = schema.get("run_groups")
    if not isinstance(groups, list):
        reader.warn(name, "no list of run groups", field="run_groups")
        return []
    metrics = {m["name"]: m for m in _mappings(schema.get("metrics"))
               if isinstance(m.get("name"), str)}
    named: list[dict[str, Any]] = []
    for index, group in enumerate(groups):
        if isinstance(group, dict) and text_field(group, "name"):
            named.append(group)
        else:
            reader.warn(name, "a run group with no name", field=f"run_groups[{index}]")
    parents: dict[str, list[str]] = {}
    for group in named:
        for member in _subgroups(group):
            parents.setdefault(member, []).append(text_field(group, "display_name")
                                                  or group["name"])
    return [
        _Statement(name, suite, group, metrics, tuple(parents.get(group["name"], ())))
        for group in named
        if not _subgroups(group)
    ]


def _entry(name: str, said: list[_Statement], specs: list[RunSpec], code: HelmCode) -> Entry:
    first = said[0].group
    display = text_field(first, "display_name") or name
    aliases = [alias for s in said for key in ("display_name", "short_display_name")
               if (alias := text_field(s.group, key)) and alias != display]
    descriptions = [text for s in said if (text := text_field(s.group, "description"))]
    scenarios = list(dict.fromkeys(
        scenario for spec in specs for class_name in spec.scenario_classes
        if (scenario := code.scenario(class_name)) is not None
    ))
    papers = _cited_papers(name, _schema_papers(descriptions), scenarios, code.reader)
    categories = [c for s in said for c in s.categories]
    categories += [c for s in said if (c := text_field(s.group, "category"))]
    return Entry(
        id=name,
        name=display,
        aliases=aliases,
        description=short_description(descriptions[0] if descriptions else None),
        papers=papers,
        datasets=[dataset for scenario in scenarios for dataset in scenario.datasets],
        metrics=[metric for s in said if (metric := _main_metric(s)) is not None],
        task_formats=[method for spec in specs for method in spec.methods],
        tags=[tag for scenario in scenarios for tag in scenario.tags],
        categories=categories,
        suites=[s.suite for s in said],
        taxonomy=_taxonomy(first.get("taxonomy")),
        tasks=[spec.name for spec in specs],
        needs_local_data=[
            LocalData(run_spec=spec.name, argument="data_path", source=spec.source)
            for spec in specs if spec.local_data
        ],
        todo=all(s.group.get("todo") is True for s in said),
        source=[s.schema for s in said] + [spec.source for spec in specs]
        + [scenario.source for scenario in scenarios],
    )


def _schema_papers(descriptions: list[str]) -> list[Paper]:
    """The papers the descriptions cite, in order, one paper each however often cited."""
    papers: list[Paper] = []
    for text in descriptions:
        for paper in _described(text):
            _add(papers, paper)
    return papers


def _described(markdown: str) -> Iterator[Paper]:
    """Each paper one description cites: its arXiv ids in text and code, and its links that
    cite a paper (``_linked``), in order."""
    href: str | None = None
    words: list[str] = []
    for token in _inline(markdown):
        if token.type == "link_open":
            href, words = str(token.attrGet("href") or ""), []
        elif token.type == "link_close" and href is not None:
            if (linked := _linked(href, "".join(words))) is not None:
                yield linked
            href = None
        elif token.type in ("text", "code_inline"):
            words.append(token.content)
            yield from (Paper(arxiv=arxiv) for arxiv in arxiv_ids(token.content))


def _inline(markdown: str) -> Iterator[Token]:
    for block in MARKDOWN.parse(markdown):
        yield from block.children or ()


def _linked(href: str, text: str) -> Paper | None:
    """The paper a link cites: one whose target is an arXiv paper, or whose text is a short
    citation or ``paper``; ``None`` for any other link."""
    arxiv = arxiv_id(href)
    cited = _SHORT_CITATION.fullmatch(_unbracketed(text))
    if not (arxiv or cited or text.strip().lower() == _PAPER_LINK):
        return None
    doi = None if arxiv else doi_in_url(href)
    url = href if not (arxiv or doi) and href.startswith(("http://", "https://")) else None
    if not (arxiv or doi or url):
        return None
    year = (cited.group("year") or cited.group("parenthesised")) if cited else None
    return Paper(arxiv=arxiv, doi=doi, url=url, year=int(year) if year else None,
                 citation=" ".join(cited.group(0).split()) if cited else None)


def _unbracketed(text: str) -> str:
    """A link's text without the parentheses written around all of it."""
    text = text.strip()
    return text[1:-1].strip() if text.startswith("(") and text.endswith(")") else text


def _cited_papers(name: str, stated: list[Paper], scenarios: list[Scenario],
                  reader: MemberReader) -> list[Paper]:
    """The schema's papers with what the scenarios' BibTeX citations add to them; where the
    schema states none, the papers those citations name."""
    papers = list(stated)
    for scenario in scenarios:
        for citation in scenario.citations if not stated else _paired(scenario):
            if not stated:
                if (cited := check(None, citation)) is not None:
                    _add(papers, cited)
            elif not _merge_citation(papers, len(stated), citation):
                _unmatched(reader, name, stated, scenario, citation)
    return papers


def _paired(scenario: Scenario) -> tuple[Citation, ...]:
    """The scenario's citations, its one citation given the arXiv id of its one ``Paper:``
    link where it states none and no DOI either; a citation with an id of its own names its
    paper by that id, which may be another version than the link's (a journal's)."""
    if len(scenario.citations) != 1 or len(scenario.paper_links) != 1:
        return scenario.citations
    citation, arxiv = scenario.citations[0], arxiv_id(scenario.paper_links[0])
    if citation.arxiv or citation.doi or arxiv is None:
        return scenario.citations
    return (replace(citation, arxiv=arxiv),)


def _merge_citation(papers: list[Paper], stated: int, citation: Citation) -> bool:
    """Adds the citation to the first of the ``stated`` first papers it names; whether one."""
    for index, paper in enumerate(papers[:stated]):
        merged = check(paper, citation) if _comparable(paper, citation) else None
        if merged is not None:
            papers[index] = merged
            return True
    return False


def _comparable(paper: Paper, citation: Citation) -> bool:
    """Whether ``check`` can tell if the citation names the paper: a paper the schema states
    by a link alone (``[paper](https://aclanthology.org/…)``) is named only by a citation of
    the same link, where ``check`` would take any citation for it."""
    if paper.arxiv or paper.doi or paper.title:
        return True
    return bool(paper.url and citation.url) and _link(paper.url or "") == _link(citation.url or "")


def _link(url: str) -> str:
    """A link as compared: ``http`` as ``https``, no trailing ``/`` or ``.pdf``, any case."""
    return url.strip().lower().replace("http://", "https://", 1).rstrip("/").removesuffix(".pdf")


def _unmatched(reader: MemberReader, name: str, stated: list[Paper], scenario: Scenario,
               citation: Citation) -> None:
    """The warning for a citation of none of the papers the schema states."""
    other = any((paper.arxiv and citation.arxiv) or (paper.doi and citation.doi)
                for paper in stated)
    reason = ("names another paper than the schema states for the run group" if other else
              "shares no arXiv id, DOI or link with the paper the schema states for the run "
              "group")
    reader.warn(scenario.source, f"a BibTeX citation that {reason}: left out",
                field=f"{scenario.name} docstring", value="; ".join([citation.describe(), *(
                    describe(paper, f"run group {name}" + (f" ({paper.url})" if paper.url else ""))
                    for paper in stated)]))


def _add(papers: list[Paper], paper: Paper) -> None:
    """Adds the paper, or what it adds to the one of the list it is (the same arXiv id, DOI,
    link or title): the first statement of a fact stands."""
    for index, known in enumerate(papers):
        if _identity(known) == _identity(paper):
            papers[index] = Paper(**{field: getattr(known, field) or getattr(paper, field)
                                     for field in Paper.model_fields})
            return
    papers.append(paper)


def _identity(paper: Paper) -> tuple[str, str]:
    for field in ("arxiv", "doi", "url", "title"):
        if value := getattr(paper, field):
            return field, value
    return "", ""


def _main_metric(statement: _Statement) -> Metric | None:
    environment = statement.group.get("environment")
    main = text_field(environment, "main_name") if isinstance(environment, dict) else None
    if main is None or main == "none":
        return None
    known = statement.metrics.get(main, {})
    lower = known.get("lower_is_better")
    return Metric(name=main, display_name=text_field(known, "display_name"),
                  lower_is_better=lower if isinstance(lower, bool) else None, main=True)


def _taxonomy(data: Any) -> Taxonomy | None:
    if not isinstance(data, dict):
        return None
    stated = {key: value for key in Taxonomy.model_fields
              if (value := text_field(data, key)) and value.lower() not in _UNKNOWN}
    return Taxonomy(**stated) if stated else None


def _subgroups(group: dict[str, Any]) -> list[str]:
    members = group.get("subgroups")
    return [m for m in members if isinstance(m, str)] if isinstance(members, list) else []


def _mappings(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []
