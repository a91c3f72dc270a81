"""The query section keeps going past one query failing on one endpoint: at 100,000 records
``oxigraph serve`` answered one query 500 ("Resource temporarily unavailable") after the
others had taken 40 minutes to measure, and the whole section was lost with it."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from graph.settings import Settings
from graph.store.process.stops import LongQueriesBusy, PoolLimits, QueryOverMemory, QueryTimeout
from perf.query_perf import _measure, _report, _timed


class _Endpoint:
    """What ``_measure`` asks of an endpoint's client: a status and a body."""

    def __init__(self, status: int) -> None:
        self.status = status

    def sparql(self, path: str, query: str, accept: str) -> tuple[int, bytes]:
        return self.status, b"Resource temporarily unavailable (os error 11)"


def test_a_query_failing_on_one_endpoint_is_named_and_the_rest_is_measured() -> None:
    engines = ["disk floor", "disk", "engine", "remote"]
    measured = _measure(["publishers", "gated-medhelm"], {}, {"disk floor": ox.Store()},
                        {"disk": _Endpoint(200), "engine": _Endpoint(500),
                         "remote": _Endpoint(200)}, engines, 2, 10.0, Settings())
    for name in ("publishers", "gated-medhelm"):
        figures = measured[name]
        assert figures["failed"] == {"engine": "the endpoint answered 500: "
                                     "Resource temporarily unavailable (os error 11)"}
        assert len(figures["disk"]) == len(figures["disk floor"]) == 2
        assert figures["engine"] == []

    report = _report({"stores": ["oxigraph", "sparql"], "queries": measured, "records": 0,
                      "quads": 0, "triples": 0, "load_seconds": {}, "parameters": {}}, 1.0)
    row = next(line for line in report.text.splitlines() if line.startswith("publishers"))
    assert row.split()[4] == "failed" and row.split()[-3:] == ["-", "-", "failed"]
    assert "failed: publishers on engine: the endpoint answered 500" in report.text
    assert "remote endpoint within max(2x, +10 ms) of engine: 0 of 0 queries" in report.text
    assert set(report.data["ratios"]["disk/disk floor"]) == {"publishers", "gated-medhelm"}
    assert report.data["ratios"]["remote/engine"] == {}


@pytest.mark.parametrize("stop", [QueryOverMemory.of(64), LongQueriesBusy.of(PoolLimits(), 1),
                                  QueryTimeout("the query ran past its limit")],
                         ids=["memory", "long queries", "time"])
def test_a_query_any_limit_stops_is_reported_stopped_not_a_crash(stop: Exception) -> None:
    """The query section times each query; a store limit that stops one (time, memory, the
    share of long queries) makes that round "stopped", and the section goes on."""

    def stopped() -> None:
        raise stop

    assert _timed(stopped) is None
