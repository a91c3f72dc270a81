"""Results -> statements: each a claim of one record, with what makes it comparable and where
it came from (DESIGN.md, "Results and models").

A result is ``bench:Result`` and ``dqv:QualityMeasurement``: ``bench:model``, ``bench:score``
(the value as published, its ``bench:unit`` saying the scale) and, where the unit makes it
plain, ``bench:normalisedScore`` on 0–1; ``dqv:isMeasurementOf`` the benchmark's metric node
of that name (``…/metric/{slug}``, shared with what the harness entry states of the metric).
It lives in the named graph of its record, at ``…/result/{model}/{record}`` (``/2``, ``/3``
for a record's further results for that model), so two sources that disagree both stay.

Comparability rests on ``bench:settingsKey``: one canonical line of the settings the source
states (harness and version, shots, chain of thought, prompt or configuration, judge, epochs,
any further setting), the same text for the same settings whatever source states them.
Results are ranked together only within one benchmark, metric, subset and settings key (the
queries join on the three); a result with no stated setting has no key, and pages and queries
show it apart, unranked.

Who ran it is ``bench:ranBy`` (a vocabulary member; none where the source does not say: a
page shows "not stated"); when, ``dcterms:date`` as precisely as stated, with the words it was
read from; where, the file (``bench:statedIn``) and the table's heading.
"""

from decimal import Decimal

from rdflib import URIRef

from graph.ingest.records.stated_result import Settings, StatedResult
from graph.mapping.context import MappingContext
from graph.mapping.emitter import Statements
from graph.mapping.model_names import model_key
from graph.namespace import BENCH, DCTERMS, DQV, RDFS
from graph.slug import node_key

_PER_UNIT = {"percent": Decimal(100), "fraction": Decimal(1)}
"""What a score in each unit is divided by to lie on 0–1; other units are not normalised."""


def add_result(out: Statements, ctx: MappingContext, benchmark: URIRef, model_name: str,
               score: Decimal, unit: str | None, source: str | None = None,
               model_id: str | None = None) -> URIRef:
    """A model's score on a benchmark, as this record states it, on its own node; the model
    is the one ``model_id`` names where given (the package's own id of the model the name
    is), else ``model_name`` (``graph.mapping.model_names``), labelled as written. It cites
    ``source``, by default the record's file."""
    key = model_key(model_id or model_name)
    model = ctx.named_node(out, ctx.iris.model(key), BENCH.Model, model_name)
    path = ["result", key, ctx.iris.record_key(out.graph)]
    again = out.occurrence((benchmark, key))
    if again > 1:
        path.append(str(again))
    node = ctx.iris.part(benchmark, *path)
    out.add(benchmark, BENCH.result, node)
    out.add_type(node, BENCH.Result)
    out.add_type(node, DQV.QualityMeasurement)
    out.add(node, BENCH.model, model)
    out.add_decimal(node, BENCH.score, score)
    out.add_text(node, BENCH.unit, unit)
    out.add_text(node, BENCH.statedIn, source or out.source_file)
    per = _PER_UNIT.get(unit or "")
    if per is not None:
        out.add_decimal(node, BENCH.normalisedScore, score / per)
    return node


def add_stated_result(out: Statements, ctx: MappingContext, benchmark: URIRef,
                      result: StatedResult) -> URIRef:
    """A harvested result with its settings, its provenance and who ran it."""
    node = add_result(out, ctx, benchmark, result.model, Decimal(result.value), result.scale,
                      result.source, result.model_id)
    if result.metric is not None:  # else the source does not say what the value measures
        out.add_text(node, BENCH.metricName, result.metric)
        metric = ctx.iris.part(benchmark, "metric", node_key(result.metric))
        out.add_type(metric, BENCH.Metric)
        out.add_text(metric, RDFS.label, result.metric)
        out.add(node, DQV.isMeasurementOf, metric)
    out.add_text(node, BENCH.subset, result.subset)
    out.add_text(node, BENCH.modelProvider, result.model_provider)
    if result.uncertainty is not None:
        stated = result.uncertainty
        out.add_decimal(node, BENCH.standardError, _decimal(stated.stderr))
        out.add_decimal(node, BENCH.ciLow, _decimal(stated.ci_low))
        out.add_decimal(node, BENCH.ciHigh, _decimal(stated.ci_high))
        out.add_decimal(node, BENCH.ciLevel, _decimal(stated.ci_level))
    out.add_integer(node, BENCH.samplesScored, result.samples)
    _settings(out, ctx, node, result)
    out.add_text(node, BENCH.reportedAs, result.reported_as)
    out.add(node, BENCH.ranBy, ctx.vocabulary.find(BENCH.RunnerRole, result.ran_by))
    out.add_text(node, BENCH.sourceType, result.source_type)
    out.add_partial_date(node, DCTERMS.date, result.date)
    out.add_text(node, BENCH.dateStatedAs, result.date_stated_as)
    out.add_text(node, BENCH.sourceTable, result.table)
    return node


def _settings(out: Statements, ctx: MappingContext, node: URIRef, result: StatedResult) -> None:
    settings = result.settings
    out.add(node, BENCH.evaluatedWith, ctx.term(BENCH.Harness, result.harness))
    out.add_text(node, BENCH.harnessVersion, result.harness_version)
    out.add_integer(node, BENCH.shots, settings.shots)
    out.add_boolean(node, BENCH.chainOfThought, settings.chain_of_thought)
    out.add_text(node, BENCH.promptConfig, settings.prompt)
    out.add_text(node, BENCH.judgeModel, settings.judge)
    out.add_integer(node, BENCH.epochs, settings.epochs)
    out.add_texts(node, BENCH.setting, (f"{name}={value}" for name, value
                                        in sorted(settings.other.items())))
    out.add_text(node, BENCH.settingsKey,
                 settings_key(result.harness, result.harness_version, settings))


def settings_key(harness: str | None, version: str | None, settings: Settings) -> str | None:
    """The canonical line of the stated settings; None when none is stated."""
    parts = [
        None if harness is None else f"{harness} {version}" if version else harness,
        None if settings.shots is None else f"{settings.shots}-shot",
        None if settings.chain_of_thought is None
        else "chain of thought" if settings.chain_of_thought else "no chain of thought",
        None if settings.prompt is None else f"prompt {settings.prompt}",
        None if settings.judge is None else f"judge {settings.judge}",
        None if settings.epochs is None else f"{settings.epochs} epoch"
        + ("s" if settings.epochs > 1 else ""),
        *(f"{name}={value}" for name, value in sorted(settings.other.items())),
    ]
    stated = [part for part in parts if part is not None]
    return " · ".join(stated) if stated else None


def _decimal(value: str | float | None) -> Decimal | None:
    return None if value is None else Decimal(str(value))


__all__ = ["add_result", "add_stated_result", "settings_key"]
