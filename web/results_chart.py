"""Charts of results, drawn on the server: ``/benchmark/ID/results.svg`` (one table of the
benchmark's results: models against score, in rank order) and ``/model/KEY/results.svg`` (a
model's results: benchmarks against score), each with its data at ``.csv`` and ``.json``.

A chart is a Vega-Lite spec rendered to SVG by ``vl-convert-python`` (Vega in an embedded
JavaScript engine, given no data but the spec's own values: ``allowed_base_urls=[]`` forbids
it any fetch). Pages embed the SVG with ``<img alt>``: an image runs no script, so the
Content-Security-Policy holds and the page needs no JavaScript; Vega writes every text it
draws (a model's name) escaped. The page's table is the chart's text alternative.

- A benchmark's chart is one table (``?table=KEY``, ``web.benchmark.results.ResultTable.key``;
  by default the largest ranked one): a point per result at its score as published, an error
  bar of one standard error either side where the source states one, coloured by the source
  (the package at its version, or the record), the rank before each model ("1=" a tie). A
  table mixing units is drawn on the normalised 0–1 scale, leaving out what has none.
- A model's chart has a panel for every score normalised to 0–1, and one for each other
  metric and unit as published (OpenCompass's tables state no unit, and count failures beside
  scores): values of two scales never share an axis. A filled point is a whole benchmark's
  result, a cross a subset's.

The chart's data (``.csv``, ``.json``) are the rows it draws, each with what the table says of
it. Every chart and its data are kept per build of the store (``web.benchmark.cache``): the
JavaScript engine starts once a process, and each rendering costs more than the page that
embeds it.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pyoxigraph as ox
import vl_convert
from flask import Blueprint, Response, abort, jsonify, request, url_for

from graph.errors import BenchgraphError, ErrorKind
from graph.store.base import Store
from web.benchmark.cache import generation_cache
from web.benchmark.results import (
    BenchmarkResults,
    ResultTable,
    benchmark_results,
    number,
    term_text,
)
from web.entities.page import graph_cell
from web.labels import fetch_labels
from web.stores import get_store

bp = Blueprint("results_chart", __name__)

FORMATS = ("svg", "csv", "json")
ROW_STEP = 18
"""Pixels a row of a chart takes (a model, a benchmark)."""
WIDTH = 420
"""The plotting area's width in pixels; the labels take what they need beside it."""

MODEL_QUERY = """SELECT ?b ?metric ?subset ?settings ?score ?unit ?normalised ?g ?origin
WHERE {
  ?r bench:model ?node .
  ?b bench:result ?r .
  GRAPH ?g { ?r bench:score ?score }
  ?g a bench:Record .
  OPTIONAL { ?r bench:metricName ?metric }
  OPTIONAL { ?r bench:subset ?subset }
  OPTIONAL { ?r bench:settingsKey ?settings }
  OPTIONAL { ?r bench:unit ?unit }
  OPTIONAL { ?r bench:normalisedScore ?normalised }
  OPTIONAL { ?g prov:wasDerivedFrom ?origin }
}"""
"""Every result of the model ``?node``: its benchmark, what makes it comparable, its score as
published and normalised, and the record (and package) it was read from."""

Value = str | float | int | None
NORMALISED = "normalised, 0–1"
"""The panel of a model's chart where every normalised score is drawn."""


@dataclass(frozen=True)
class ChartData:
    """What a chart draws: its titles and its rows, the same in the SVG, the CSV and the
    JSON."""

    title: str
    subtitle: str
    axis: str
    """The score axis's title (the table's unit)."""
    about: dict[str, Value]
    """What the rows are of: the benchmark or model, and the table's metric, subset and
    settings."""
    rows: tuple[dict[str, Value], ...]
    left_out: int = 0
    """Results of the table the chart cannot place on its axis (no normalised score)."""


@dataclass(frozen=True)
class ChartLinks:
    """A chart as a page embeds it: the image, its data, and words for who cannot see it."""

    svg: str
    csv: str
    json: str
    alt: str


def benchmark_chart(benchmark_id: str, table: ResultTable) -> ChartLinks:
    """The links of the chart of ``table``, one table of the benchmark ``benchmark_id``."""
    svg, csv_href, json_href = (url_for("results_chart.benchmark", benchmark_id=benchmark_id,
                                        fmt=fmt, table=table.key) for fmt in FORMATS)
    what = "ranked results" if table.ranked else "results (settings not stated: not ranked)"
    alt = (f"Chart of the {len(table.rows)} {what} of {table.title}: each model's score"
           f"{' with its standard error' if any(r.stderr for r in table.rows) else ''}, "
           "coloured by source. The table below gives every value.")
    return ChartLinks(svg, csv_href, json_href, alt)


def model_chart(model_key: str) -> ChartLinks:
    """The links of the chart of the model ``model_key``'s results."""
    svg, csv_href, json_href = (url_for("results_chart.model", model_key=model_key, fmt=fmt)
                                for fmt in FORMATS)
    return ChartLinks(svg, csv_href, json_href,
                      "Chart of this model's scores by benchmark: one panel for the scores "
                      "normalised to 0–1, one for each other metric and unit as published; "
                      "coloured by source. The table of results gives every value.")


@bp.route("/benchmark/<benchmark_id>/results.<fmt>")
def benchmark(benchmark_id: str, fmt: str) -> Response:
    """One table of a benchmark's results, as a chart or as the chart's data."""
    _check(fmt)
    store = get_store()
    iri = _node(f"{store.base}benchmark/{benchmark_id}").value
    results = benchmark_results(store, iri)
    if results.stopped is not None:
        raise BenchgraphError(results.stopped, ErrorKind.LIMIT)
    if not results.tables:
        abort(404, f"no record gives a result for <{iri}>")
    key = request.args.get("table")
    table = results.table(key)
    if table is None:
        abort(404, f"<{iri}> has no table of results {key!r}; its tables are "
                   + ", ".join(t.key for t in results.tables))
    data = generation_cache().get(store, ("benchmark-chart", iri, table.key),
                                  lambda: _benchmark_data(store, iri, results, table))
    return _answer(store, data, fmt, ("benchmark-svg", iri, table.key))


@bp.route("/model/<model_key>/results.<fmt>")
def model(model_key: str, fmt: str) -> Response:
    """A model's results across benchmarks, as a chart or as the chart's data."""
    _check(fmt)
    store = get_store()
    iri = _node(f"{store.base}model/{model_key}").value
    data = generation_cache().get(store, ("model-chart", iri), lambda: _model_data(store, iri))
    if not data.rows:
        abort(404, f"no record gives a result of <{iri}>")
    return _answer(store, data, fmt, ("model-svg", iri))


def _node(iri: str) -> ox.NamedNode:
    """The node ``iri`` names; a 404 when it is no IRI at all (a space, a quote)."""
    try:
        return ox.NamedNode(iri)
    except ValueError:
        abort(404, "nothing in this graph has that IRI")


def _check(fmt: str) -> None:
    if fmt not in FORMATS:
        abort(404, f"a chart is at results.svg, its data at results.csv and results.json; "
                   f"there is no results.{fmt}")


def _answer(store: Store, data: ChartData, fmt: str, key: tuple[str, ...]) -> Response:
    if fmt == "svg":
        svg = generation_cache().get(store, key, lambda: render_svg(data))
        return Response(svg, content_type="image/svg+xml; charset=utf-8")
    if fmt == "csv":
        return Response(_csv(data), content_type="text/csv; charset=utf-8")
    return jsonify({**data.about, "title": data.title, "subtitle": data.subtitle,
                    "axis": data.axis, "left_out": data.left_out, "rows": list(data.rows)})


def _csv(data: ChartData) -> str:
    out = io.StringIO()
    columns = [*data.about, *dict.fromkeys(name for row in data.rows for name in row)]
    writer = csv.DictWriter(out, columns, lineterminator="\r\n")
    writer.writeheader()
    for row in data.rows:
        writer.writerow({**data.about, **row})
    return out.getvalue()


# --- a benchmark's table --------------------------------------------------------------------


def _benchmark_data(store: Store, iri: str, results: BenchmarkResults,
                    table: ResultTable) -> ChartData:
    """The rows of ``table``, at their published scores when the table has one unit, else at
    their normalised ones."""
    units = table.units
    published = len(units) == 1
    rows: list[dict[str, Value]] = []
    for order, row in enumerate(table.rows):
        score, error = _number(row.score), _number(row.stderr)
        if not published:
            factor = (row.normalised / Decimal(row.score)
                      if row.normalised is not None and _number(row.score) else None)
            score = None if row.normalised is None else float(row.normalised)
            error = None if error is None or factor is None else error * float(factor)
        if score is None:
            continue
        rows.append({
            "order": order, "rank": row.rank_text, "model": row.model.text,
            "model_iri": row.model.title, "score": row.score, "unit": row.unit,
            "stderr": row.stderr, "value": score,
            "low": None if error is None else score - error,
            "high": None if error is None else score + error,
            "ran_by": row.ran_by.text if row.ran_by else None, "date": row.date,
            "source": row.source_label,
            "file": row.sources[0].file if row.sources else None,
            "record": row.sources[0].record.title if row.sources else None,
        })
    labels = fetch_labels(store, [iri])
    axis = (f"score ({units[0]})" if published and units[0] else
            "score as published (unit not stated)" if published else "score, normalised to 0–1")
    return ChartData(labels.text(iri), table.title, axis,
                     {"benchmark": iri, "metric": table.metric, "subset": table.subset,
                      "settings": table.settings or "not stated"},
                     tuple(rows), len(table.rows) - len(rows))


def benchmark_spec(data: ChartData) -> dict[str, Any]:
    """Models against score, in the table's order, with their error bars."""
    labels = _unique(f"{row['rank']}  {row['model']}" if row["rank"] else str(row["model"])
                     for row in data.rows)
    values = [{**row, "label": label} for row, label in zip(data.rows, labels, strict=True)]
    y = {"field": "label", "type": "nominal", "sort": None, "title": None,
         "axis": {"labelLimit": 260}}
    x = {"field": "value", "type": "quantitative", "title": data.axis}
    return {
        **_frame(data), "data": {"values": values},
        "width": WIDTH, "height": {"step": ROW_STEP},
        "layer": [
            {"transform": [{"filter": "isValid(datum.low)"}], "mark": "rule",
             "encoding": {"y": y, "x": {**x, "field": "low"}, "x2": {"field": "high"},
                          "color": _colour()}},
            {"mark": {"type": "point", "filled": True, "size": 60},
             "encoding": {"y": y, "x": x, "color": _colour()}},
        ],
    }


# --- a model's results ----------------------------------------------------------------------


def _model_data(store: Store, iri: str) -> ChartData:
    answer = store.query(MODEL_QUERY, {"node": ox.NamedNode(iri)})
    found = [dict(zip(answer.variables, row, strict=True)) for row in answer.rows]
    labels = fetch_labels(store, [iri, *(t.value for row in found for name in ("b", "origin")
                                         if isinstance(t := row.get(name), ox.NamedNode))])
    rows: dict[tuple[str, ...], dict[str, Value]] = {}
    for row in found:
        benchmark, graph = row["b"], row["g"]
        assert isinstance(benchmark, ox.NamedNode) and isinstance(graph, ox.NamedNode)
        origin = row.get("origin")
        record = graph_cell(graph, store.base)
        normalised = _number(term_text(row.get("normalised")))
        unit = term_text(row.get("unit"))
        score = term_text(row["score"]) or ""
        key = (benchmark.value, graph.value, score, *(term_text(row.get(name)) or "" for name in
                                                       ("metric", "subset", "settings")))
        metric = term_text(row.get("metric"))
        rows.setdefault(key, {
            "benchmark": labels.text(benchmark.value), "benchmark_iri": benchmark.value,
            "metric": metric, "subset": term_text(row.get("subset")),
            "settings": term_text(row.get("settings")) or "not stated",
            "score": score, "unit": unit, "normalised": term_text(row.get("normalised")),
            "panel": _panel(normalised is not None, metric, unit),
            "label": labels.text(benchmark.value) + (f" · {metric}" if metric and normalised
                                                     is not None else ""),
            "value": normalised if normalised is not None else _number(score),
            "part": "a subset" if row.get("subset") is not None else "the whole benchmark",
            "source": labels.text(origin.value) if isinstance(origin, ox.NamedNode)
            else record.text,
            "record": graph.value,
        })
    sizes = Counter(str(row["panel"]) for row in rows.values())
    ordered = sorted(rows.values(), key=lambda r: (r["panel"] != NORMALISED,
                                                   -sizes[str(r["panel"])], str(r["panel"]),
                                                   str(r["label"]).casefold(),
                                                   str(r["subset"] or "")))
    kept = tuple(row for row in ordered if row["value"] is not None)
    return ChartData(labels.text(iri), "results by benchmark", "score", {"model": iri}, kept,
                     len(ordered) - len(kept))


def _panel(normalised: bool, metric: str | None, unit: str | None) -> str:
    """The panel of a result: every normalised score shares one; any other has one per metric
    and unit, so that a count (OpenCompass's "failed") never shares an axis with a score."""
    if normalised:
        return NORMALISED
    scale = f"as published, in {unit}" if unit else "as published, unit not stated"
    return f"{metric or 'metric not stated'} · {scale}"


def model_spec(data: ChartData) -> dict[str, Any]:
    """Benchmarks against score, a panel per scale, each with its own axes."""
    return {
        **_frame(data), "data": {"values": list(data.rows)},
        "facet": {"row": {"field": "panel", "type": "nominal", "title": None,
                          "sort": _panels(data.rows),
                          "header": {"labelAngle": 0, "labelOrient": "top",
                                     "labelAnchor": "start", "labelFontWeight": "bold"}}},
        "spec": {
            "width": WIDTH, "height": {"step": ROW_STEP},
            "mark": {"type": "point", "size": 60, "filled": True},
            "encoding": {
                "y": {"field": "label", "type": "nominal", "title": None,
                      "axis": {"labelLimit": 260}},
                "x": {"field": "value", "type": "quantitative", "title": data.axis},
                "color": _colour(),
                "shape": {"field": "part", "type": "nominal", "title": "result of",
                          "scale": {"domain": ["the whole benchmark", "a subset"],
                                    "range": ["circle", "cross"]}},
            },
        },
        "resolve": {"scale": {"x": "independent", "y": "independent"}},
    }


# --- rendering ------------------------------------------------------------------------------


def render_svg(data: ChartData) -> str:
    """``data``'s chart as SVG text."""
    spec = model_spec(data) if "model" in data.about else benchmark_spec(data)
    svg: str = vl_convert.vegalite_to_svg(spec, allowed_base_urls=[])
    return svg


def _frame(data: ChartData) -> dict[str, Any]:
    """What every chart shares: its titles, its font sizes, a white background."""
    return {
        "title": {"text": data.title, "subtitle": data.subtitle, "anchor": "start"},
        "background": "white",
        "config": {"font": "sans-serif", "axis": {"labelFontSize": 11, "titleFontSize": 12},
                   "legend": {"orient": "bottom", "direction": "vertical", "labelLimit": 400,
                              "labelFontSize": 11, "titleFontSize": 12}},
    }


def _colour() -> dict[str, Any]:
    return {"field": "source", "type": "nominal", "title": "source",
            "scale": {"scheme": "tableau10"}}


def _panels(rows: Sequence[dict[str, Value]]) -> list[str]:
    """The panels in the rows' order (normalised first)."""
    return list(dict.fromkeys(str(row["panel"]) for row in rows))


def _unique(labels: Any) -> list[str]:
    """``labels`` with a number after a repeated one, so each row keeps its own line."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out


def _number(text: str | None) -> float | None:
    found = number(text)
    return None if found is None else float(found)


__all__ = ["FORMATS", "MODEL_QUERY", "ChartData", "ChartLinks", "benchmark_chart",
           "benchmark_spec", "bp", "model_chart", "model_spec", "render_svg"]
