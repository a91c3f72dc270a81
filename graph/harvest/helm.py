"""HELM (``crfm-helm``): one entry per benchmark-level run group of its suite schemas.

Each ``helm/benchmark/static/schema_SUITE.yaml`` is one suite (``classic``, ``lite``,
``medhelm``...). A run group with ``subgroups`` is an aggregate (a suite's category, such
as "Clinical Decision Support"); one without is a benchmark. A benchmark listed by several
schemas is one entry in all their suites: its name, description and taxonomy are those of
the first schema in file order, the names the others give are its aliases, and its main
metrics, papers and categories are all that any of them state.

The run specs that report to a run group (``helm_code``) give the entry its tasks (the run
spec names), task formats (adapter methods), the tags and datasets of their scenarios, and
``needs_local_data`` for a run spec that takes a ``data_path``: HELM states no access level,
and none is made up here.
"""

import re
from dataclasses import dataclass
from typing import Any

from graph.harvest.archive import Archive
from graph.harvest.helm_code import HelmCode, RunSpec
from graph.harvest.reader import MemberReader, Reading, text_field
from graph.harvest.text import arxiv_ids, short_description
from graph.records.harness_snapshot import Entry, Harness, LocalData, Metric, Paper, Taxonomy

SCHEMA = re.compile(r"helm/benchmark/static/schema_(?P<suite>[^/]+)\.yaml")
_UNKNOWN = frozenset({"?", "n/a"})
"""Taxonomy values by which a schema says it does not know."""


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
    papers = list(dict.fromkeys(i for text in descriptions for i in arxiv_ids(text)))
    scenarios = [scenario for spec in specs for class_name in spec.scenario_classes
                 if (scenario := code.scenario(class_name)) is not None]
    categories = [c for s in said for c in s.categories]
    categories += [c for s in said if (c := text_field(s.group, "category"))]
    return Entry(
        id=name,
        name=display,
        aliases=aliases,
        description=short_description(descriptions[0] if descriptions else None),
        papers=[Paper(arxiv=arxiv) for arxiv in papers],
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
